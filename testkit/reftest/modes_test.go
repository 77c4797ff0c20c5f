package reftest

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TestWrapAndClampElem: OutOfRangeWrap takes a value modulo the size as
// Python's % does and OutOfRangeClamp clamps it into [0, size-1],
// whatever Negative says; a dimension of size 0 refuses every value.
func TestWrapAndClampElem(t *testing.T) {
	data := ints(tensor.Int32, shape{3}, 10, 11, 12)
	ind := ints(tensor.Int64, shape{5}, -1, 3, 7, -5, -4)
	for _, c := range []struct {
		rules engine.IndexRules
		want  tensor.Tensor
	}{
		{engine.IndexRules{OutOfRange: engine.OutOfRangeWrap}, ints(tensor.Int32, shape{5}, 12, 10, 11, 11, 12)},
		{engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeWrap}, ints(tensor.Int32, shape{5}, 12, 10, 11, 11, 12)},
		{engine.IndexRules{OutOfRange: engine.OutOfRangeClamp}, ints(tensor.Int32, shape{5}, 10, 12, 12, 10, 10)},
		{engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeClamp}, ints(tensor.Int32, shape{5}, 10, 12, 12, 10, 10)},
	} {
		got, err := Gather(data, ind, 0, 0, c.rules)
		if err != nil || !tensor.Equal(got, c.want) {
			t.Errorf("%+v: %v, %v; want %v", c.rules, got, err, c.want)
		}
		_, err = Gather(ints(tensor.Int32, shape{0}), ints(tensor.Int64, shape{1}, 0), 0, 0, c.rules)
		if !errors.Is(err, engine.ErrIndex) {
			t.Errorf("%+v on an empty dimension: err = %v, want ErrIndex", c.rules, err)
		}
	}
}
