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
						idx := make([]int64, n)
						for i := range idx {
							idx[i] = int64(r.IntN(size))
							if i%5 == 0 && i > 0 {
								idx[i] = idx[i-1] // duplicates, applied in order
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
						dst, was := data, data.Clone()
						if !inPlace {
							dst = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{size}))
						}
						err := ScatterND(dst, data, indices, updates, opt)
						if d := reftest.Disagreement(dst, err, want, wantErr, sameClass); d != "" {
							t.Fatalf("%s: %s", name, d)
						}
						if inPlace {
							if d := reftest.Untouched(dst, err, was); d != "" {
								t.Fatalf("%s: %s", name, d)
							}
						}
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

// randFloats returns n float32 values in [0, 1).
func randFloats(r *rand.Rand, n int) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = r.Float32()
	}
	return v
}
