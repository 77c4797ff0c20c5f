package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// testStrategies are the strategies the streaming tests force, whatever
// the processor's: the plain copy, each of prefetch and non-temporal
// stores alone and together at several distances, and rows of a single
// cache line. Each counts 1 MiB as past the cache, so that the tests
// stream without tensors larger than the cache.
var testStrategies = []Strategy{
	{},
	{StreamBytes: 1 << 20, StreamBlock: 256, PrefetchAhead: 8},
	{StreamBytes: 1 << 20, StreamBlock: 256, NonTemporal: true},
	{StreamBytes: 1 << 20, StreamBlock: 256, PrefetchAhead: 4, NonTemporal: true},
	{StreamBytes: 1 << 20, StreamBlock: 256, PrefetchAhead: 16, ElementsAhead: 32, NonTemporal: true, Gather: true},
	{StreamBytes: 1 << 20, ElementsAhead: 3},
	{StreamBytes: 1 << 20, StreamBlock: 64, PrefetchAhead: 1, NonTemporal: true},
}

// forceStrategy makes the engine run with s until the test ends.
func forceStrategy(t testing.TB, s Strategy) {
	old, oldGather := strategy, canGather
	strategy, canGather = s, s.Gather && hasGather
	t.Cleanup(func() { strategy, canGather = old, oldGather })
}

// TestStreamingMoves runs, under each of testStrategies, gathers and a
// scatter of rows large enough for the movers to prefetch and stream (see
// stream.go), of rows whose size is a multiple of 64 bytes and of rows
// whose size is not, and checks every element against a plain loop: every
// strategy gives the same bits.
func TestStreamingMoves(t *testing.T) {
	for _, s := range testStrategies {
		t.Run(s.String(), func(t *testing.T) {
			forceStrategy(t, s)
			streamingMoves(t, s)
		})
	}
}

func streamingMoves(t *testing.T, s Strategy) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, width := range []int{256, 100} { // 1 KiB rows stream; 400-byte rows do not
		rows := (1<<20/4)/width + 7
		vals := make([]float32, rows*width)
		for i := range vals {
			vals[i] = rng.Float32()
		}
		data := tensor.Must(tensor.From(tensor.Shape{rows, width}, vals))
		ids := make([]int64, rows)
		for i := range ids {
			ids[i] = int64(rng.IntN(rows))
		}
		dv := view{size: 4, n: rows * width}
		wantAhead, wantStream := 0, false
		if canStream && width*4%64 == 0 && width*4 >= s.StreamBlock && s.StreamBytes > 0 {
			wantAhead, wantStream = s.PrefetchAhead, s.NonTemporal
		}
		if ahead, stream := streaming[word32](dv, dv, width); ahead != wantAhead || stream != wantStream {
			t.Fatalf("width %d: streaming says ahead %d, stream %v; want %d, %v", width, ahead, stream, wantAhead, wantStream)
		}
		want := make([]float32, rows*width)
		for r, id := range ids {
			copy(want[r*width:(r+1)*width], vals[int(id)*width:(int(id)+1)*width])
		}
		check := func(name string, got tensor.Tensor) {
			t.Helper()
			for i, v := range got.Data().([]float32) {
				if v != want[i] {
					t.Fatalf("width %d, %s: element %d is %v, want %v", width, name, i, v, want[i])
				}
			}
		}
		gi := tensor.Must(tensor.From(tensor.Shape{rows}, ids))
		out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, width}))
		if err := Gather(out, data, gi, 0, 0, IndexRules{}); err != nil {
			t.Fatal(err)
		}
		check("Gather", out)
		ni := tensor.Must(tensor.From(tensor.Shape{rows, 1}, ids))
		out = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, width}))
		if err := GatherND(out, data, ni, 0, IndexRules{}); err != nil {
			t.Fatal(err)
		}
		check("GatherND", out)
		// ScatterND of the table's rows, in order, onto zeros at a
		// permutation: the inverse of the gather above.
		perm := rng.Perm(rows)
		pi := make([]int64, rows)
		upd := make([]float32, rows*width)
		for r, p := range perm {
			pi[r] = int64(p)
			copy(upd[r*width:(r+1)*width], want[p*width:(p+1)*width])
		}
		out = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, width}))
		err := ScatterND(out, tensor.Tensor{}, tensor.Must(tensor.From(tensor.Shape{rows, 1}, pi)),
			tensor.Must(tensor.From(tensor.Shape{rows, width}, upd)), ScatterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check("ScatterND", out)
	}
	// A general scatter's windows start anywhere: a block that streams
	// may start unaligned, and is then copied (MOVNTDQ would fault), into
	// the block alone.
	const rows, width = 1<<20/4/1024 + 1, 1024
	operand := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, width}))
	update := make([]float32, 16*64)
	for i := range update {
		update[i] = float32(i + 1)
	}
	for _, col := range []int64{1, 2, 3, 4} {
		clear(operand.Data().([]float32))
		up := tensor.Must(tensor.From(tensor.Shape{16, 64}, update))
		if err := DynamicUpdateSlice(operand, operand, up, []int64{5, col}, IndexRules{}); err != nil {
			t.Fatal(err)
		}
		// The whole operand: the block holds the update, and everything
		// around it (a copy running past the block's rows) stays zero.
		for i, v := range operand.Data().([]float32) {
			r, c := i/width-5, i%width-int(col)
			want := float32(0)
			if r >= 0 && r < 16 && c >= 0 && c < 64 {
				want = update[r*64+c]
			}
			if v != want {
				t.Fatalf("DynamicUpdateSlice at column %d: [%d,%d] is %v, want %v", col, i/width, i%width, v, want)
			}
		}
	}
}

// TestStreamingColumns runs, under each of testStrategies,
// ScatterElements along axis 0 into a dst large enough for the column
// blocks to ask ahead and stream (see columnBlocks), with a last block
// narrower than a cache line and rows that start unaligned (1025
// columns), in place and not, with negative indices, and checks every
// element against a plain loop.
func TestStreamingColumns(t *testing.T) {
	for _, s := range testStrategies {
		t.Run(s.String(), func(t *testing.T) {
			forceStrategy(t, s)
			streamingColumns(t, s)
		})
	}
}

func streamingColumns(t *testing.T, s Strategy) {
	rng := rand.New(rand.NewPCG(5, 6))
	const rows, urows = 512, 512
	for _, cols := range []int{1032, 1025} {
		if past := pastCache[float32](urows * cols); past != (canStream && s.StreamBytes > 0) {
			t.Fatalf("%d columns: past the cache is %v", cols, past)
		}
		vals := make([]float32, rows*cols)
		for i := range vals {
			vals[i] = rng.Float32()
		}
		ids := make([]int64, urows*cols)
		upd := make([]float32, urows*cols)
		for i := range ids {
			ids[i] = int64(rng.IntN(2*rows) - rows) // negative half the time
			upd[i] = rng.Float32()
		}
		it := tensor.Must(tensor.From(tensor.Shape{urows, cols}, ids))
		ut := tensor.Must(tensor.From(tensor.Shape{urows, cols}, upd))
		for _, red := range []Reduction{None, Add, Max} {
			want := append([]float32(nil), vals...)
			for i, id := range ids {
				r := id
				if r < 0 {
					r += rows
				}
				e := &want[int(r)*cols+i%cols]
				switch red {
				case None:
					*e = upd[i]
				case Add:
					*e += upd[i]
				case Max:
					*e = max(*e, upd[i])
				}
			}
			opt := ScatterOptions{Reduction: red, Rules: IndexRules{Negative: NegativeFromEnd}}
			data := tensor.Must(tensor.From(tensor.Shape{rows, cols}, append([]float32(nil), vals...)))
			out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, cols}))
			for _, c := range []struct {
				name string
				dst  tensor.Tensor
			}{{"into another", out}, {"in place", data}} {
				if err := ScatterElements(c.dst, data, it, ut, 0, opt); err != nil {
					t.Fatal(err)
				}
				for i, v := range c.dst.Data().([]float32) {
					if v != want[i] {
						t.Fatalf("%d columns, %v, %s: [%d,%d] is %v, want %v", cols, red, c.name, i/cols, i%cols, v, want[i])
					}
				}
			}
		}
	}
}

// TestElementsAhead checks that single 4- and 8-byte elements read from a
// table past the cache are asked for ElementsAhead pairs ahead where the
// build can ask (the assembly's), and others not, and that GatherND of such elements (float32 and int64, a table of
// 2 MiB, some indices negative from the end) gives a plain loop's bits
// under each of testStrategies.
func TestElementsAhead(t *testing.T) {
	forceStrategy(t, Strategy{StreamBytes: 1 << 20, ElementsAhead: 5})
	big, small := view{size: 4, n: 1 << 18}, view{size: 4, n: 1 << 10}
	for _, c := range []struct {
		name      string
		dst, src  view
		block     int
		wantAhead int
	}{
		{"elements from a table past the cache", small, big, 1, aheadIf(canStream, 5)},
		{"elements from a table in the cache", big, small, 1, 0},
		{"pairs of elements", small, big, 2, 0},
	} {
		if ahead, stream := streaming[word32](c.dst, c.src, c.block); ahead != c.wantAhead || stream {
			t.Errorf("%s: streaming says ahead %d, stream %v; want %d, false", c.name, ahead, stream, c.wantAhead)
		}
	}
	if ahead, _ := streaming[word64](view{size: 8, n: 10}, view{size: 8, n: 1 << 17}, 1); ahead != aheadIf(canStream, 5) {
		t.Errorf("8-byte elements from a 1 MiB table: ahead %d, want %d", ahead, aheadIf(canStream, 5))
	}
	const rows, cols, n = 512, 1024, 5000 // 2 MiB of float32
	rng := rand.New(rand.NewPCG(5, 6))
	vals := make([]float32, rows*cols)
	wide := make([]int64, rows*cols)
	for i := range vals {
		vals[i], wide[i] = rng.Float32(), rng.Int64()
	}
	ind := make([]int64, 2*n)
	want32, want64 := make([]float32, n), make([]int64, n)
	for t := range n {
		r, c := rng.IntN(rows), rng.IntN(cols)
		ind[2*t], ind[2*t+1] = int64(r), int64(c)
		if t%7 == 0 {
			ind[2*t] -= rows
		}
		want32[t], want64[t] = vals[r*cols+c], wide[r*cols+c]
	}
	it := tensor.Must(tensor.From(tensor.Shape{n, 2}, ind))
	rules := IndexRules{Negative: NegativeFromEnd}
	for _, s := range testStrategies {
		forceStrategy(t, s)
		out32 := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{n}))
		out64 := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{n}))
		if err := GatherND(out32, tensor.Must(tensor.From(tensor.Shape{rows, cols}, vals)), it, 0, rules); err != nil {
			t.Fatal(err)
		}
		if err := GatherND(out64, tensor.Must(tensor.From(tensor.Shape{rows, cols}, wide)), it, 0, rules); err != nil {
			t.Fatal(err)
		}
		for i := range n {
			if g := out32.Data().([]float32)[i]; g != want32[i] {
				t.Fatalf("%v: float32 element %d is %v, want %v", s, i, g, want32[i])
			}
			if g := out64.Data().([]int64)[i]; g != want64[i] {
				t.Fatalf("%v: int64 element %d is %v, want %v", s, i, g, want64[i])
			}
		}
	}
}

// aheadIf returns ahead where the build can ask for elements ahead (can),
// else 0.
func aheadIf(can bool, ahead int) int {
	if can {
		return ahead
	}
	return 0
}
