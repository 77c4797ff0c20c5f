package tf_test

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/tensor"
)

// segmentWorkload returns the inputs of W10 and W12 (shared/bench
// WORKLOADS.md): [1048576,16] float32 data, 1048576 int64 ids uniform in
// [0,65536), a [65536,16] output; the same shapes and distribution as the
// peers' script, from its seed.
func segmentWorkload(seed uint64) (data, ids, dst tensor.Tensor) {
	const rows, segments, width = 1 << 20, 1 << 16, 16
	rng := rand.New(rand.NewPCG(seed, seed))
	d := make([]float32, rows*width)
	for i := range d {
		d[i] = rng.Float32()
	}
	s := make([]int64, rows)
	for i := range s {
		s[i] = int64(rng.IntN(segments))
	}
	return tensor.Must(tensor.From(tensor.Shape{rows, width}, d)), tensor.Must(tensor.From(tensor.Shape{rows}, s)),
		tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segments, width}))
}

// BenchmarkW10UnsortedSegmentSum is W10 through tf.math.unsorted_segment_sum,
// into a reused output.
func BenchmarkW10UnsortedSegmentSum(b *testing.B) {
	data, ids, dst := segmentWorkload(10)
	b.SetBytes(int64(4*data.Len() + 8*ids.Len()))
	for b.Loop() {
		if err := tf.UnsortedSegmentSumInto(dst, data, ids); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkW12UnsortedSegmentMax is W12 through tf.math.unsorted_segment_max,
// into a reused output.
func BenchmarkW12UnsortedSegmentMax(b *testing.B) {
	data, ids, dst := segmentWorkload(12)
	b.SetBytes(int64(4*data.Len() + 8*ids.Len()))
	for b.Loop() {
		if err := tf.UnsortedSegmentMaxInto(dst, data, ids); err != nil {
			b.Fatal(err)
		}
	}
}
