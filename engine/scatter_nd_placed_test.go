package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// TestScatterNDPlacedSums holds the small float32 sums of single indices
// in place that take their indices through scratch.placed (a checked
// copy, then additions without a check) to testkit/reftest, and those
// into another dst, which do not: with int64 and int32 indices (the latter widened into the
// very buffer the copy goes to), dimensions of a power-of-two size and
// not (where the OR of the check overshoots with no value out of range),
// duplicates, a negative value (checked, then wrapped by the other loop),
// and a value out of range at the start, in the middle and at the end,
// which must fail with an *IndexError naming it and leave data as it was.
func TestScatterNDPlacedSums(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	opt := ScatterOptions{Reduction: Add, Rules: IndexRules{Negative: NegativeFromEnd}}
	for _, size := range []int{1, 16, 1000, 1024} {
		for _, n := range []int{0, 1, 15, 16, 17, 40} {
			for _, bad := range []string{"none", "negative", "first", "middle", "last"} {
				for _, itype := range []tensor.DType{tensor.Int64, tensor.Int32} {
					for _, inPlace := range []bool{true, false} {
						name := fmt.Sprintf("size %d, %d updates, bad %s, %v indices, in place %v", size, n, bad, itype, inPlace)
						if n == 0 && bad != "none" {
							continue
						}
						idx := placedIndices(r, n, size, bad)
						indices := tensor.Must(tensor.From(tensor.Shape{n, 1}, idx))
						if itype == tensor.Int32 {
							v := make([]int32, n)
							for i, x := range idx {
								v[i] = int32(x)
							}
							indices = tensor.Must(tensor.From(tensor.Shape{n, 1}, v))
						}
						data := tensor.Must(tensor.FromFloat32s(tensor.Float32, tensor.Shape{size}, randFloats(r, size)))
						updates := tensor.Must(tensor.FromFloat32s(tensor.Float32, tensor.Shape{n}, randFloats(r, n)))
						want, wantErr := reftest.ScatterND(data, indices, updates, opt)
						err := checkPlaced(t, name, data, inPlace, want, wantErr, func(dst tensor.Tensor) error {
							return ScatterND(dst, data, indices, updates, opt)
						})
						if bad != "none" && bad != "negative" {
							first := slices.IndexFunc(idx, func(v int64) bool { return v < -int64(size) || v >= int64(size) })
							var ie *IndexError
							if !errors.As(err, &ie) || !slices.Equal(ie.Pos, []int{first, 0}) {
								t.Fatalf("%s: error %v, want an *IndexError at [%d, 0]", name, err, first)
							}
						}
					}
				}
			}
		}
	}
}

// placedIndices returns n indices in [0, size), every fifth the one
// before it (duplicates, applied in order), with the value bad names: a
// negative one in the middle (checked, then wrapped), or one out of range
// first, in the middle or last.
func placedIndices(r *rand.Rand, n, size int, bad string) []int64 {
	idx := make([]int64, n)
	for i := range idx {
		idx[i] = int64(r.IntN(size))
		if i%5 == 0 && i > 0 {
			idx[i] = idx[i-1]
		}
	}
	switch bad {
	case "negative":
		idx[n/2] = -int64(size)
	case "first":
		idx[0] = int64(size)
	case "middle":
		idx[n/2] = -int64(size) - 1
	case "last":
		idx[n-1] = int64(size) + 100
	}
	return idx
}

// checkPlaced runs a scatter into data itself (inPlace) or into a new
// tensor of its shape, holds it to want and wantErr, and in place checks
// that an error left data as it was; it returns the scatter's error.
func checkPlaced(t *testing.T, name string, data tensor.Tensor, inPlace bool, want tensor.Tensor, wantErr error,
	scatter func(dst tensor.Tensor) error) error {
	t.Helper()
	dst, was := data, data.Clone()
	if !inPlace {
		dst = tensor.Must(tensor.New(data.DType(), data.Shape()))
	}
	err := scatter(dst)
	if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
		t.Fatalf("%s: %s", name, d)
	}
	if inPlace {
		if d := reftest.Untouched(dst, err, was); d != "" {
			t.Fatalf("%s: %s", name, d)
		}
	}
	return err
}

// randFloats returns n float32 values in [0, 1).
func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return v
}

// TestScatterElementsPlacedSums holds the small float32 sums along the
// last axis in place that take their indices through scratch.placed (S4:
// a checked copy, then each row added into its row of dst without a
// check) to testkit/reftest, and the same calls into another dst, which
// do not: rows fewer and shorter than dst's, rank 1 and 3, an inner
// dimension of indices shorter than dst's (whose rows do not follow one
// another in dst, and which the other loops take), duplicates, a negative
// value (checked, then wrapped by the other loops), and a value out of
// range first, in the middle and last, which must fail with an
// *IndexError naming it and leave data as it was.
func TestScatterElementsPlacedSums(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	opt := ScatterOptions{Reduction: Add, Rules: IndexRules{Negative: NegativeFromEnd}}
	for _, c := range []struct{ data, idx tensor.Shape }{
		{tensor.Shape{64, 64}, tensor.Shape{64, 8}}, // S4
		{tensor.Shape{5, 7}, tensor.Shape{3, 4}},
		{tensor.Shape{9}, tensor.Shape{5}},
		{tensor.Shape{2, 3, 6}, tensor.Shape{2, 3, 4}},
		{tensor.Shape{2, 3, 6}, tensor.Shape{2, 2, 4}}, // rows not one after another in dst
		{tensor.Shape{4, 16}, tensor.Shape{4, 16}},
	} {
		axis := len(c.data) - 1
		size := c.data[axis]
		n, _ := c.idx.NumElements()
		elems, _ := c.data.NumElements()
		for _, bad := range []string{"none", "negative", "first", "middle", "last"} {
			for _, inPlace := range []bool{true, false} {
				name := fmt.Sprintf("data %v, indices %v, bad %s, in place %v", c.data, c.idx, bad, inPlace)
				idx := placedIndices(r, n, size, bad)
				indices := tensor.Must(tensor.From(c.idx, idx))
				data := tensor.Must(tensor.FromFloat32s(tensor.Float32, c.data, randFloats(r, elems)))
				updates := tensor.Must(tensor.FromFloat32s(tensor.Float32, c.idx, randFloats(r, n)))
				want, wantErr := reftest.ScatterElements(data, indices, updates, axis, opt)
				err := checkPlaced(t, name, data, inPlace, want, wantErr, func(dst tensor.Tensor) error {
					return ScatterElements(dst, data, indices, updates, axis, opt)
				})
				if bad != "none" && bad != "negative" {
					first := slices.IndexFunc(idx, func(v int64) bool { return v < -int64(size) || v >= int64(size) })
					var ie *IndexError
					if !errors.As(err, &ie) || ie.Pos[len(ie.Pos)-1] != first%c.idx[axis] {
						t.Fatalf("%s: error %v, want an *IndexError at the value %d", name, err, first)
					}
				}
			}
		}
	}
}
