package tf

import (
	"sync"

	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/tensor"
)

// trueDivMean is tf.math.unsorted_segment_mean of integer data, as
// TensorFlow's Python composite computes it: the segments' sums by
// unsorted_segment_sum in data's type (wrapping as the kernel's adds
// do), the count N of each segment's slices in data's type too (a sum of
// ones: 128 slices make -128 in int8), then sum / maximum(N, 1) by
// Python's true division, which casts both to dst's type (trueDivTypes)
// and divides there. dst has that type and the output's shape.
func trueDivMean(sh *opcall.Shapes, dst, data, segmentIDs tensor.Tensor) error {
	sums, err := getMeanSums(data.DType(), sh.Ptr(sh.Of(dst)))
	if err != nil {
		return err
	}
	defer meanSums.Put(sums)
	if err := runUnsorted(sh, opSegmentSum, sums.t, data, segmentIDs); err != nil {
		return err
	}
	// The sum's call has checked the ids: each is negative (dropped) or
	// a segment.
	segments := dst.Dim(0)
	counts := sums.counts[:0]
	for range segments {
		counts = append(counts, 0)
	}
	sums.counts = counts
	if data.Len() > 0 {
		for i := range segmentIDs.Len() {
			if id, _ := segmentIDs.IntAt(i); id >= 0 {
				counts[id]++
			}
		}
	}
	inner := 0
	if segments > 0 {
		inner = dst.Len() / segments
	}
	d, wide := data.DType(), dst.DType() == tensor.Float64
	for s, c := range counts {
		n := max(float64(inType(c, d)), 1)
		for j := s * inner; j < (s+1)*inner; j++ {
			v := intAsFloat(sums.t, j)
			if wide {
				dst.SetFloatAt(j, v/n)
			} else {
				// float32 operands, exact for 8- and 16-bit sums and
				// counts, and a float32 quotient.
				dst.SetFloatAt(j, float64(float32(v)/float32(n)))
			}
		}
	}
	return nil
}

// inType returns c as an integer of type d holds it: its low bits, signed
// or not as d is.
func inType(c int64, d tensor.DType) int64 {
	bits := 8 * d.Size()
	if bits >= 64 {
		return c
	}
	v := c & (1<<bits - 1)
	if d.IsSigned() && v >= 1<<(bits-1) {
		v -= 1 << bits
	}
	return v
}

// intAsFloat returns element i of the integer tensor t as a float64,
// rounded to nearest once (uint64's values above MaxInt64 too).
func intAsFloat(t tensor.Tensor, i int) float64 {
	v, _ := t.IntAt(i)
	if t.DType() == tensor.Uint64 {
		return float64(uint64(v))
	}
	return float64(v)
}

// meanScratch is trueDivMean's working memory: the sums (flat, and t,
// the view of them in the output's shape), and a count per segment.
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
		meanSums.Put(m)
		return nil, err
	}
	return m, nil
}
