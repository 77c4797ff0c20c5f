package bench

import (
	"math/rand/v2"
	"slices"

	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/tensor"
)

// The segment and index family of WORKLOADS.md: W10 to W12 reduce 1048576
// rows of 16 float32 into 65536 segments, S7 reduces 256 rows of 64 into
// 32, and S8 puts 64 values into a vector in place.
const (
	familyRows     = 1 << 20
	familySegments = 1 << 16
	familyWidth    = 16
)

// unsortedSegment adapts a tf.math.unsorted_segment_* operator to a spec:
// into is its Into form, alloc its allocating form, which is given the
// output's number of rows as num_segments.
func unsortedSegment(into func(dst, data, ids tensor.Tensor) error,
	alloc func(data, ids tensor.Tensor, numSegments int) (tensor.Tensor, error), numSegments int) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return into(dst, in.data, in.indices)
	}, func(in inputs) (tensor.Tensor, error) {
		return alloc(in.data, in.indices, numSegments)
	}}
}

// sortedSegment adapts a tf.math.segment_* operator, whose output has as
// many rows as the last segment id plus one, to a spec.
func sortedSegment(into func(dst, data, ids tensor.Tensor) error,
	alloc func(data, ids tensor.Tensor) (tensor.Tensor, error)) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return into(dst, in.data, in.indices)
	}, func(in inputs) (tensor.Tensor, error) {
		return alloc(in.data, in.indices)
	}}
}

// genSegments draws data, then segment ids uniform in [0, below), sorted
// when sorted is set.
func genSegments(below int, sorted bool) func(*rand.Rand, *spec) inputs {
	return func(rng *rand.Rand, s *spec) inputs {
		var in inputs
		in.data = randF32(rng, s.data)
		in.indices = randI64(rng, s.indices, below)
		if sorted {
			slices.Sort(in.indices.Data().([]int64))
		}
		return in
	}
}

// familyBulk builds W10 to W12. Their BoundMS is 0: the bundled peers'
// report (run_peers.sh) has no memory bound for them.
func familyBulk() []Workload {
	rows := tensor.Shape{familyRows, familyWidth}
	ids := tensor.Shape{familyRows}
	out := tensor.Shape{familySegments, familyWidth}
	table := []row{
		{"W10", "unsorted_segment_sum", "tf.math.unsorted_segment_sum", 0, &spec{
			seed: 10, data: rows, indices: ids, out: out, segment: true,
			gen: genSegments(familySegments, false),
			op:  unsortedSegment(tf.UnsortedSegmentSumInto, tf.UnsortedSegmentSum, familySegments),
		}},
		// The ids sorted. With 16 rows a segment on average, a segment
		// is empty with a chance of e^-16: the "some segments empty" of
		// WORKLOADS.md expects 0.007 of them, so most likely none is, and
		// the last id is 65535, so that the output has 65536 rows (the
		// Into form refuses any other; the test of W11 checks it).
		{"W11", "sorted_segment_mean", "tf.math.segment_mean", 0, &spec{
			seed: 11, data: rows, indices: ids, out: out, segment: true,
			gen: genSegments(familySegments, true),
			op:  sortedSegment(tf.SegmentMeanInto, tf.SegmentMean),
		}},
		{"W12", "unsorted_segment_max", "tf.math.unsorted_segment_max", 0, &spec{
			seed: 12, data: rows, indices: ids, out: out, segment: true,
			gen: genSegments(familySegments, false),
			op:  unsortedSegment(tf.UnsortedSegmentMaxInto, tf.UnsortedSegmentMax, familySegments),
		}},
	}
	return build(table, false)
}

// familySmall builds S7 and S8, each from its own seed (7 and 8), as
// WORKLOADS.md fixes them, rather than the seed of S1 to S6.
func familySmall() []Workload {
	table := []row{
		// segment_sum of 256 rows by sorted ids in [0,32) into a reused
		// [32,64] output (the last id is 31 but with a chance of 3e-4;
		// the test of S7 checks it for this seed).
		{"S7", "segment_sum_small", "tf.math.segment_sum", 0, &spec{
			seed: 7, data: tensor.Shape{256, 64}, indices: tensor.Shape{256}, out: tensor.Shape{32, 64}, segment: true,
			gen: genSegments(32, true),
			op:  sortedSegment(tf.SegmentSumInto, tf.SegmentSum),
		}},
		// numpy.put of 64 values at 64 distinct positions of a [4096]
		// vector, in place (raise mode, numpy's default). It has no
		// allocating form.
		{"S8", "put_small", "numpy.put", 0, &spec{
			seed: 8, data: tensor.Shape{4096}, indices: tensor.Shape{64}, updates: tensor.Shape{64},
			out: tensor.Shape{4096}, inPlace: true,
			gen: genScatter(func(rng *rand.Rand, s *spec) tensor.Tensor {
				return tensor.Must(tensor.From(s.indices, uniqueI64(rng, s.indices[0], s.data[0])))
			}),
			op: op{into: func(dst tensor.Tensor, in inputs) error {
				return numpy.Put(dst, in.indices, in.updates, numpy.ModeRaise)
			}},
		}},
	}
	return build(table, true)
}
