package tf_test

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/tensor"
)

// sortedSegmentWorkload returns the inputs of a sorted segment reduction of
// WORKLOADS.md: rows x cols float32 data, rows int64 ids drawn uniformly
// from [0, segments) and sorted, from the workload's seed, and an output
// of last id + 1 rows for them.
func sortedSegmentWorkload(seed uint64, rows, cols, segments int) (data, ids, out tensor.Tensor) {
	rng := rand.New(rand.NewPCG(seed, seed))
	d := make([]float32, rows*cols)
	for i := range d {
		d[i] = rng.Float32()*2 - 1
	}
	v := make([]int64, rows)
	for i := range v {
		v[i] = int64(rng.IntN(segments))
	}
	slices.Sort(v)
	return tensor.Must(tensor.From(tensor.Shape{rows, cols}, d)), tensor.Must(tensor.From(tensor.Shape{rows}, v)),
		tensor.Must(tensor.New(tensor.Float32, tensor.Shape{int(v[rows-1]) + 1, cols}))
}

// BenchmarkW11 is WORKLOADS.md's W11, sorted_segment_mean: segment_mean
// of [1048576,16] float32 by sorted ids in [0,65536) into a reused
// output. Its bytes are data and ids read and the output written once.
func BenchmarkW11(b *testing.B) {
	data, ids, out := sortedSegmentWorkload(11, 1<<20, 16, 1<<16)
	b.SetBytes(int64(data.Len()*4 + ids.Len()*8 + out.Len()*4))
	for b.Loop() {
		if err := tf.SegmentMeanInto(out, data, ids); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkS7 is WORKLOADS.md's S7, segment_sum_small: segment_sum of
// [256,64] float32 by 256 sorted ids in [0,32) into a reused [32,64]
// output, which allocates nothing.
func BenchmarkS7(b *testing.B) {
	data, ids, out := sortedSegmentWorkload(7, 256, 64, 32)
	b.ReportAllocs()
	for b.Loop() {
		if err := tf.SegmentSumInto(out, data, ids); err != nil {
			b.Fatal(err)
		}
	}
}
