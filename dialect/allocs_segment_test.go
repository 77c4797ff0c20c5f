package dialect_test

import (
	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/tensor"
)

// segmentAllocCases adds to allocCases' list the Into forms of the
// segment reductions: data [n,m] by n segment ids in [-1, k) (int64 and
// int32; -1 dropped) into [k,m].
func segmentAllocCases(in *inputs, add func(op, name string, call func() error)) {
	n, k := in.data.Dim(0), in.gatherOut.Dim(0)
	ids := make([]int64, n)
	ids32 := make([]int32, n)
	for i := range ids {
		ids[i] = int64(i%(k+1)) - 1
		ids32[i] = int32(ids[i])
	}
	segIDs := tensor.Must(tensor.From(tensor.Shape{n}, ids))
	segIDs32 := tensor.Must(tensor.From(tensor.Shape{n}, ids32))
	halfOut := tensor.Must(tensor.New(tensor.Float16, in.gatherOut.Shape()))
	for op, f := range map[string]func(dst, data, ids tensor.Tensor) error{
		"tf.math.unsorted_segment_sum": tf.UnsortedSegmentSumInto, "tf.math.unsorted_segment_prod": tf.UnsortedSegmentProdInto,
		"tf.math.unsorted_segment_max": tf.UnsortedSegmentMaxInto, "tf.math.unsorted_segment_min": tf.UnsortedSegmentMinInto,
		"tf.math.unsorted_segment_mean": tf.UnsortedSegmentMeanInto, "tf.math.unsorted_segment_sqrt_n": tf.UnsortedSegmentSqrtNInto,
	} {
		add(op, "int64", func() error { return f(in.gatherOut, in.data, segIDs) })
		add(op, "int32", func() error { return f(in.gatherOut, in.data, segIDs32) })
		add(op, "float16", func() error { return f(halfOut, in.half, segIDs) })
	}
	// An integer mean: int32 data into float64 (TensorFlow's true
	// division), its sums and counts kept between calls.
	intData := tensor.Must(tensor.New(tensor.Int32, in.data.Shape()))
	meanOut := tensor.Must(tensor.New(tensor.Float64, in.gatherOut.Shape()))
	add("tf.math.unsorted_segment_mean", "int32 data", func() error { return tf.UnsortedSegmentMeanInto(meanOut, intData, segIDs) })
	for op, f := range map[string]func(dst, data, ids tensor.Tensor, opt jax.SegmentOptions) error{
		"jax.ops.segment_sum": jax.SegmentSumInto, "jax.ops.segment_prod": jax.SegmentProdInto,
		"jax.ops.segment_max": jax.SegmentMaxInto, "jax.ops.segment_min": jax.SegmentMinInto,
	} {
		for _, mode := range []jax.Mode{jax.Default, jax.Clip} {
			opt := jax.SegmentOptions{Mode: mode}
			add(op, string(mode)+" int64", func() error { return f(in.gatherOut, in.data, segIDs, opt) })
			add(op, string(mode)+" int32", func() error { return f(in.gatherOut, in.data, segIDs32, opt) })
			add(op, string(mode)+" float16", func() error { return f(halfOut, in.half, segIDs, opt) })
		}
	}
}
