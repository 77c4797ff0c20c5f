package reftest

import (
	"fmt"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// SegmentReduce returns the reduction of the slices of data by segment,
// as the segment reductions of TensorFlow (unsorted_segment_*) and JAX
// (jax.ops.segment_*) define it: ids has a prefix of data's shape, and
// the slice of data at each position p of ids (data[p...]) goes into
// segment ids[p] of an output of shape [segments] + data.shape[ids.rank:],
// whose every element starts as fill, a value of data's element type (as
// Tensor.At gives it). Slices go in row-major order of ids and fold under
// opt as a scatter's updates do; a segment that receives none keeps fill.
//
// An id outside [0, segments) follows opt.Rules (NegativeSkip drops a
// negative one, whatever OutOfRange says of those past the end), unless
// clip, which moves it to the nearest segment (JAX's mode "clip").
func SegmentReduce(data, ids tensor.Tensor, segments int, fill any, clip bool, opt engine.ScatterOptions) (tensor.Tensor, error) {
	ds, is := data.Shape(), ids.Shape()
	if err := checkIndexType(ids); err != nil {
		return tensor.Tensor{}, err
	}
	if err := checkReduction(data.DType(), opt); err != nil {
		return tensor.Tensor{}, err
	}
	if len(is) > len(ds) || !ds[:len(is)].Equal(is) {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: ids %v are not a prefix of data %v", engine.ErrShape, is, ds)
	}
	if segments < 0 {
		return tensor.Tensor{}, fmt.Errorf("reftest: %w: %d segments", engine.ErrArgument, segments)
	}
	inner := ds[len(is):]
	out := append(tensor.Shape{segments}, inner...)
	start := make([]any, tensortest.Count(out))
	for i := range start {
		start[i] = fill
	}
	hits := make([][]any, len(start))
	var refused []int
	each(is, func(p []int) {
		at := is.Offset(p)
		v := indexValue(ids, at)
		var seg int
		var verdict verdict
		if clip {
			seg, verdict = int(min(max(v, 0), int64(segments-1))), use
			if segments == 0 {
				verdict = skip
			}
		} else {
			seg, verdict = resolve(opt.Rules, v, segments)
		}
		switch verdict {
		case bad:
			refused = append(refused, at)
		case use:
			each(inner, func(c []int) {
				dst := out.Offset(append([]int{seg}, c...))
				hits[dst] = append(hits[dst], data.At(ds.Offset(append(append([]int{}, p...), c...))))
			})
		}
	})
	if refused != nil {
		return tensor.Tensor{}, &IndexError{Bad: refused}
	}
	return fold(build(data.DType(), out, start), hits, opt)
}
