package tf

import (
	"fmt"
	"slices"
	"sync"

	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// trueDivMean is tf.math.unsorted_segment_mean of integer data, as
// TensorFlow's Python composite computes it: the segments' sums by
// unsorted_segment_sum in data's type (wrapping as the kernel's adds
// do), the count N of each segment's slices in data's type too (a sum of
// ones: 128 slices make -128 in int8), then sum / maximum(N, 1) by
// Python's true division, which casts both to dst's type and divides
// there (t, data's type's in trueDivs). dst has that type and the
// output's shape.
func trueDivMean(sh *opcall.Shapes, t trueDiv, dst, data, segmentIDs tensor.Tensor) error {
	sums, err := getMeanSums(data.DType(), sh.Ptr(sh.Of(dst)))
	if err != nil {
		return err
	}
	defer putMeanSums(sums)
	if err := runUnsorted(sh, opSegmentSum, sums.t, data, segmentIDs); err != nil {
		return err
	}
	// The sum's call has checked the ids: each is negative (dropped) or
	// a segment. With no data it read none, and no segment has a slice.
	segments := dst.Dim(0)
	sums.counts = slices.Grow(sums.counts[:0], segments)[:segments]
	clear(sums.counts)
	if data.Len() > 0 {
		if err := countIDs(sums.counts, segmentIDs); err != nil {
			return err
		}
	}
	return t.divide(dst, sums.t.Data(), sums.counts)
}

// trueDiv is Python's true division of two integer tensors of one type in
// TensorFlow: the type it makes (out), and divide, divideInto for sums
// held in a slice of the integer type.
type trueDiv struct {
	out    tensor.DType
	divide func(dst tensor.Tensor, sums any, counts []int64) error
}

// trueDivs are the integer types' true divisions, whose types are
// math_ops.truediv's table: float32 for 8- and 16-bit integers, float64
// for wider ones.
var trueDivs = map[tensor.DType]trueDiv{
	tensor.Int8: {tensor.Float32, divideAs[int8]}, tensor.Uint8: {tensor.Float32, divideAs[uint8]},
	tensor.Int16: {tensor.Float32, divideAs[int16]}, tensor.Uint16: {tensor.Float32, divideAs[uint16]},
	tensor.Int32: {tensor.Float64, divideAs[int32]}, tensor.Uint32: {tensor.Float64, divideAs[uint32]},
	tensor.Int64: {tensor.Float64, divideAs[int64]}, tensor.Uint64: {tensor.Float64, divideAs[uint64]},
}

// divideAs is divideInto for sums held in a []T.
func divideAs[T integer](dst tensor.Tensor, sums any, counts []int64) error {
	return divideInto(dst, sums.([]T), counts)
}

// integer is the set of the integer element types.
type integer interface {
	int8 | uint8 | int16 | uint16 | int32 | uint32 | int64 | uint64
}

// countIDs adds one to counts[id] for each id of segmentIDs (int32 or
// int64) that is not negative.
func countIDs(counts []int64, segmentIDs tensor.Tensor) error {
	switch ids := segmentIDs.Data().(type) {
	case []int32:
		countEach(counts, ids)
	case []int64:
		countEach(counts, ids)
	default:
		return fmt.Errorf("%w: segment_ids of type %v", engine.ErrType, segmentIDs.DType())
	}
	return nil
}

func countEach[I int32 | int64](counts []int64, ids []I) {
	for _, id := range ids {
		if id >= 0 {
			counts[id]++
		}
	}
}

// divideInto sets dst, float32 or float64, to sums / maximum(N, 1)
// segment by segment, N each segment's count held in the sums' type T
// (wrapped as a sum of ones of T wraps), both cast to dst's type first,
// as Python's true division casts them.
func divideInto[T integer](dst tensor.Tensor, sums []T, counts []int64) error {
	inner := 0
	if len(counts) > 0 {
		inner = len(sums) / len(counts)
	}
	switch out := dst.Data().(type) {
	case []float32:
		for s, c := range counts {
			n := max(float32(T(c)), 1)
			for j := s * inner; j < (s+1)*inner; j++ {
				out[j] = float32(sums[j]) / n
			}
		}
	case []float64:
		for s, c := range counts {
			n := max(float64(T(c)), 1)
			for j := s * inner; j < (s+1)*inner; j++ {
				out[j] = float64(sums[j]) / n
			}
		}
	default:
		return fmt.Errorf("%w: the mean's output of type %v", engine.ErrType, dst.DType())
	}
	return nil
}

// meanScratch is trueDivMean's working memory: the sums (t, a view of flat
// in the output's shape, kept for calls of the same size) and a count per
// segment.
type meanScratch struct {
	flat, t tensor.Tensor
	counts  []int64
}

// meanSums keeps trueDivMean's scratch between calls, so that a steady
// state of calls allocates nothing.
var meanSums sync.Pool

// getMeanSums returns a scratch whose sums t have type d and the shape at
// shape, which must outlive the scratch's use. The sums take no more
// bytes than the output of their count, but are held to the size limit
// all the same.
func getMeanSums(d tensor.DType, shape *tensor.Shape) (*meanScratch, error) {
	m, _ := meanSums.Get().(*meanScratch)
	if m == nil {
		m = new(meanScratch)
	}
	n, err := shape.NumElements()
	if err == nil && (m.flat.DType() != d || m.flat.Len() != n) {
		m.flat, err = tensor.New(d, tensor.Shape{n})
	}
	if err == nil {
		m.t, err = m.flat.View(shape)
	}
	if err != nil {
		putMeanSums(m)
		return nil, err
	}
	return m, nil
}

// putMeanSums gives m back, without the view whose shape its call owned.
func putMeanSums(m *meanScratch) {
	m.t = tensor.Tensor{}
	meanSums.Put(m)
}
