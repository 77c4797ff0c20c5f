package engine_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
)

// TestRowBlocksMatchReference checks the loops over blocks of rows
// (reduceBlocks, reduceOffsetBlocks, the prefetching reset and func
// reducer loops) against the reference's loop, bit for bit: many rows with
// duplicate ids, more of them than a batch of pairs or offsets holds, some
// ids outside dst skipped, values with NaNs, ±0 and infinities, each
// reduction and max and min rule, with and without ExcludeSelf, on one
// goroutine (one worker owning dst: offsets in batches) and split at
// GOMAXPROCS 2 and 8 (workers owning ranges of dst: pairs, where
// oneRows does not keep the call on one loop); every thread count gives
// the reference's bits.
func TestRowBlocksMatchReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 7))
	// Enough rows that the call is not small (on one goroutine, one
	// worker takes offsets).
	const rows, segments = 5000, 40
	// NaNs of three payloads, so that which one a rule keeps shows.
	special := []float64{math.NaN(), math.Float64frombits(0x7ffc000000000000), math.Float64frombits(0xfff8000000000000),
		math.Copysign(0, -1), 0, math.Inf(1), math.Inf(-1)}
	value := func() float64 {
		if rng.IntN(16) == 0 {
			return special[rng.IntN(len(special))]
		}
		return rng.Float64()*4 - 2
	}
	ids := make([]int64, rows)
	for i := range ids {
		ids[i] = int64(rng.IntN(segments + 2)) // 40 and 41 are skipped
	}
	indices := tensor.Must(tensor.From(tensor.Shape{rows, 1}, ids))
	rules := IndexRules{OutOfRange: OutOfRangeSkip}
	type reduction struct {
		red Reduction
		mm  MinMax
	}
	var reds []reduction
	for _, r := range []Reduction{None, Add, Sub, Mul, Mean} {
		reds = append(reds, reduction{r, MinMaxNaN})
	}
	for _, r := range []Reduction{Max, Min} {
		for _, mm := range []MinMax{MinMaxNaN, MinMaxStd, MinMaxLastNaN, MinMaxIEEE, MinMaxStdUpdate} {
			reds = append(reds, reduction{r, mm})
		}
	}
	for _, dt := range []tensor.DType{tensor.Float32, tensor.Float64} {
		for _, width := range []int{16, 5} {
			data := RandomFloats(dt, tensor.Shape{segments, width}, value)
			updates := RandomFloats(dt, tensor.Shape{rows, width}, value)
			for _, rd := range reds {
				for _, ex := range []bool{false, true} {
					opt := ScatterOptions{Reduction: rd.red, ExcludeSelf: ex, Rules: rules, Arith: Arith{MinMax: rd.mm}}
					if ex && (rd.red == None || rd.red == Sub || rd.mm == MinMaxStd && (rd.red == Max || rd.red == Min)) {
						continue // refused: nothing excludes the existing value of these
					}
					name := fmt.Sprintf("%v/%d/%v/minmax%d/exclude-self=%v", dt, width, rd.red, rd.mm, ex)
					want, err := reftest.ScatterND(data, indices, updates, opt)
					if err != nil {
						t.Fatalf("%s: reference: %v", name, err)
					}
					var first tensor.Tensor
					// One loop over the rows where oneRows takes dst,
					// and dst split among workers where it does not.
					// One loop in one chunk of offsets and in chunks
					// of 700 (the pipeline).
					for _, c := range []struct{ oneMax, chunk int }{{OneRowsBytes(), PipeChunk()}, {OneRowsBytes(), 700}, {0, PipeChunk()}} {
						oneMax, chunk := c.oneMax, c.chunk
						for _, procs := range []int{1, 2, 8} {
							got := rowsAt(t, procs, 64, func(dst tensor.Tensor) error {
								defer SetOneRowsBytes(oneMax)()
								defer SetPipeChunk(chunk)()
								return ScatterND(dst, data, indices, updates, opt)
							}, dt, data.Shape())
							if d := reftest.Diff(got, want); d != "" {
								t.Errorf("%s at GOMAXPROCS %d, oneRowsBytes %d, chunks of %d: %s", name, procs, oneMax, chunk, d)
							}
							// The reference takes any NaN for any other:
							// the thread counts must agree on every bit.
							if first.Len() == 0 {
								first = got
							} else if i := tensor.FirstDiff(got, first); i >= 0 {
								t.Errorf("%s: element %d is %v at GOMAXPROCS %d, oneRowsBytes %d, chunks of %d, %v at 1", name, i, got.At(i), procs, oneMax, chunk, first.At(i))
							}
						}
					}
				}
			}
		}
	}
}

// TestRowBlocksKeepNaNs checks which NaN the max and min rules keep in
// the loops over blocks of rows, which the reference does not tell apart:
// MinMaxNaN the first that reached the position, MinMaxLastNaN the last
// (PyTorch's amax and amin), MinMaxStdUpdate any NaN update and nothing
// in place of a NaN (TensorFlow's std::max(update, value)), on one worker
// and on two.
func TestRowBlocksKeepNaNs(t *testing.T) {
	nanA, nanB := float32(math.Float32frombits(0x7fc00001)), float32(math.Float32frombits(0xffc00002))
	const width = 16
	// Segment 0 gets nanA, 1, nanB; segment 1 nanA, 2; segment 2 3, nanB, 1.
	ids := []int64{0, 1, 0, 2, 1, 0, 2, 2}
	vals := []float32{nanA, nanA, 1, 3, 2, nanB, nanB, 1}
	upd := make([]float32, 0, len(vals)*width)
	for _, v := range vals {
		for range width {
			upd = append(upd, v)
		}
	}
	indices := tensor.Must(tensor.From(tensor.Shape{len(ids), 1}, ids))
	updates := tensor.Must(tensor.From(tensor.Shape{len(ids), width}, upd))
	for _, c := range []struct {
		mm   MinMax
		red  Reduction
		want [3]float32
	}{
		{MinMaxNaN, Max, [3]float32{nanA, nanA, nanB}},
		{MinMaxLastNaN, Max, [3]float32{nanB, nanA, nanB}},
		{MinMaxLastNaN, Min, [3]float32{nanB, nanA, nanB}},
		{MinMaxStdUpdate, Max, [3]float32{nanB, 2, 1}},
		{MinMaxStdUpdate, Min, [3]float32{nanB, 2, 1}},
	} {
		opt := ScatterOptions{Reduction: c.red, ExcludeSelf: true, Arith: Arith{MinMax: c.mm}}
		for _, procs := range []int{1, 2} {
			got := rowsAt(t, procs, 1, func(dst tensor.Tensor) error {
				return ScatterND(dst, tensor.Tensor{}, indices, updates, opt)
			}, tensor.Float32, tensor.Shape{3, width})
			g := got.Data().([]float32)
			for seg, w := range c.want {
				for j := range width {
					if b := math.Float32bits(g[seg*width+j]); b != math.Float32bits(w) {
						t.Fatalf("%v minmax%d at GOMAXPROCS %d: segment %d element %d is %#x, want %#x", c.red, c.mm, procs, seg, j, b, math.Float32bits(w))
					}
				}
			}
		}
	}
}

// rowsAt runs scatter into a new dst of the given type and shape at
// GOMAXPROCS procs, with minWork lowered to work.
func rowsAt(t *testing.T, procs, work int, scatter func(dst tensor.Tensor) error, dt tensor.DType, shape tensor.Shape) tensor.Tensor {
	t.Helper()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
	defer SetMinWork(work)()
	dst := tensor.Must(tensor.New(dt, shape))
	if err := scatter(dst); err != nil {
		t.Fatalf("at GOMAXPROCS %d: %v", procs, err)
	}
	return dst
}

// TestPipelineFirstBadIndex checks the pipeline's refusal: of two bad
// indices in later chunks, the first in index order is the one named, at
// one worker and at two, whoever made its chunk; and under NegativeSkip a
// negative id before them is dropped, not refused.
func TestPipelineFirstBadIndex(t *testing.T) {
	defer SetPipeChunk(300)()
	const rows, segments, width = 5000, 40, 4
	ids := make([]int64, rows)
	for i := range ids {
		ids[i] = int64(i % segments)
	}
	ids[1000], ids[3100], ids[4500] = -3, segments, segments+7
	indices := tensor.Must(tensor.From(tensor.Shape{rows, 1}, ids))
	updates := RandomFloats(tensor.Float32, tensor.Shape{rows, width}, func() float64 { return 1 })
	for _, rules := range []IndexRules{{}, {Negative: NegativeSkip}} {
		want := 1000
		if rules.Negative == NegativeSkip {
			want = 3100
		}
		for _, procs := range []int{1, 2} {
			func() {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				defer SetMinWork(64)()
				dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segments, width}))
				err := ScatterND(dst, tensor.Tensor{}, indices, updates, ScatterOptions{Reduction: Add, Rules: rules})
				var ie *IndexError
				if !errors.As(err, &ie) || !errors.Is(err, ErrIndex) {
					t.Fatalf("rules %+v at GOMAXPROCS %d: error %v, want an *IndexError", rules, procs, err)
				}
				if ie.Pos[0] != want || ie.Value != ids[want] {
					t.Errorf("rules %+v at GOMAXPROCS %d: index %v = %d named, want [%d 0] = %d", rules, procs, ie.Pos, ie.Value, want, ids[want])
				}
			}()
		}
	}
}
