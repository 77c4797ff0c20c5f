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

// TestScatterNDPlacedRows holds the small writes in place of rows of
// whole 16-byte words, which check their tuples into offsets and place
// the rows with placeRows (no mover), to testkit/reftest: tuples of one to
// four components, rows of float16, float32, int8, uint64 and complex128
// elements of 16 to 256 bytes (single complex128 elements too),
// duplicates (the last wins), every index rule (negative values from the
// end, refused, skipped; values out of range skipped or refused, the
// first or the last named), and a bad value at the start, the middle or
// the end, which must fail with an *IndexError naming the value the rules
// name and leave data as it was.
func TestScatterNDPlacedRows(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	types := []tensor.DType{tensor.Float16, tensor.Float32, tensor.Int8, tensor.Uint64, tensor.Complex128}
	rules := []IndexRules{
		{Negative: NegativeFromEnd}, {}, {Negative: NegativeRefused},
		{Negative: NegativeSkip, OutOfRange: OutOfRangeSkip}, {Negative: NegativeFromEnd, OutOfRange: OutOfRangeSkip},
		{Negative: NegativeFromEnd, Report: ReportLast},
	}
	for _, dt := range types {
		esize := dt.Size()
		for _, k := range []int{1, 2, 3, 4} {
			for _, rowBytes := range []int{16, 48, 128, 256} {
				row := rowBytes / esize
				if row == 0 {
					continue
				}
				ds := tensor.Shape{3, 2, 5, 2}[:k]
				ds = append(slices.Clone(ds), row)
				if rowBytes == 16 && dt == tensor.Complex128 {
					ds = ds[:k] // single elements of 16 bytes
					row = 1
				}
				for _, rule := range rules {
					for _, bad := range []string{"none", "first", "middle", "last"} {
						name := fmt.Sprintf("%v rows of %d, k %d, %+v, bad %s", dt, row, k, rule, bad)
						const n = 9
						idx := make([]int64, n*k)
						for i := range idx {
							d := int64(ds[i%k])
							idx[i] = r.Int64N(d)
							if rule.Negative != NegativeError && rule.Negative != NegativeRefused && r.IntN(4) == 0 {
								idx[i] -= d // from the end, or skipped
							}
						}
						copy(idx[3*k:4*k], idx[:k]) // a duplicate tuple
						at := map[string]int{"first": 0, "middle": n / 2 * k, "last": n*k - 1}
						if p, ok := at[bad]; ok {
							idx[p] = int64(ds[p%k]) + 2
						}
						indices := tensor.Must(tensor.From(tensor.Shape{n, k}, idx))
						data := placedTensor(r, dt, ds)
						updates := placedTensor(r, dt, append(tensor.Shape{n}, ds[k:]...))
						opt := ScatterOptions{Rules: rule}
						want, wantErr := reftest.ScatterND(data, indices, updates, opt)
						was := data.Clone()
						err := ScatterND(data, data, indices, updates, opt)
						if d := reftest.Disagreement(data, err, want, wantErr, sameClass); d != "" {
							t.Fatalf("%s: %s", name, d)
						}
						if d := reftest.Untouched(data, err, was); d != "" {
							t.Fatalf("%s: %s", name, d)
						}
						if p, ok := at[bad]; ok && rule.OutOfRange == OutOfRangeError {
							var ie *IndexError
							if !errors.As(err, &ie) || !slices.Equal(ie.Pos, []int{p / k, p % k}) {
								t.Fatalf("%s: error %v, want an *IndexError at [%d, %d]", name, err, p/k, p%k)
							}
						}
					}
				}
			}
		}
	}
}

// placedTensor returns a tensor of type dt and the given shape with
// small random values.
func placedTensor(r *rand.Rand, dt tensor.DType, shape tensor.Shape) tensor.Tensor {
	t := tensor.Must(tensor.New(dt, shape))
	for i := range t.Len() {
		if !t.SetFloatAt(i, float64(r.IntN(100))) && !t.SetIntAt(i, int64(r.IntN(100))) {
			switch v := t.Data().(type) {
			case []complex128:
				v[i] = complex(float64(r.IntN(100)), float64(r.IntN(100)))
			default:
				panic(fmt.Sprintf("placedTensor: %v", dt))
			}
		}
	}
	return t
}
