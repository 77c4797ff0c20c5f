package compare

import (
	"math"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestFactsExtremeBatchDims reads index facts for gather_nd with
// batch_dims at the extremes of int: no dimension of data is taken as
// addressed (batch_dims + the tuple length must not overflow into range),
// so that explaining a difference reads no dimension out of range.
func TestFactsExtremeBatchDims(t *testing.T) {
	for _, batch := range []int{math.MinInt, math.MaxInt - 1, math.MaxInt, 2} {
		q := &resolved{
			inputs:    map[Role]tensor.Tensor{Indices: lit(t, "int64:[[0],[1]]")},
			shape:     tensor.Shape{2, 2},
			batchDims: batch,
		}
		f := newFacts(q, "gather_nd")
		if len(f.dims) != 0 {
			t.Errorf("batch_dims %d: dimensions %v addressed in data [2,2]", batch, f.dims)
		}
		if _, ok := f.firstUse(func(indexUse) bool { return true }); ok {
			t.Errorf("batch_dims %d: an index use was found", batch)
		}
	}
}
