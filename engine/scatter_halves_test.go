package engine

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/tensor"
)

// TestScatterNDHalves runs ScatterND of many single updates in halves
// (see scatter_halves.go), with sizes lowered so that there are many chunks, or
// one of an odd length, shorter than halvesChunk, and holds it to a loop that applies every update in index order: adds of
// values far apart in magnitude, whose sums depend on their order; Max;
// float64; a negative index counted from the end and an index out of
// range, which the one loop takes over from their chunk on (skipped, or
// reported by position); and the one loop itself, for the same result.
func TestScatterNDHalves(t *testing.T) {
	defer func(c, b, m, w int, ht bool) {
		halvesChunk, halvesBytes, halvesMin, minWork, halvesTimed = c, b, m, w, ht
	}(halvesChunk, halvesBytes, halvesMin, minWork, halvesTimed)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	halvesChunk, halvesBytes, halvesMin, minWork, halvesTimed = 64, 256, 100, 64, false
	for _, chunk := range []int{64, 4096} { // many chunks; one, odd, smaller than a chunk
		halvesChunk = chunk
		halvesCases(t)
	}
}

func halvesCases(t *testing.T) {
	const size, n = 1000, 3001
	rng := rand.New(rand.NewPCG(13, 14))
	cases := []struct {
		name  string
		red   Reduction
		rules IndexRules
		bad   int64 // an index value to put at position at, or 0
		at    int
		err   bool
	}{
		{"add", Add, IndexRules{}, 0, 0, false},
		{"max", Max, IndexRules{}, 0, 0, false},
		{"negative from the end", Add, IndexRules{Negative: NegativeFromEnd}, -3, 1500, false},
		{"out of range skipped", Add, IndexRules{OutOfRange: OutOfRangeSkip}, size, 700, false},
		{"out of range reported", Add, IndexRules{}, size + 5, 2100, true},
		{"in the last chunk", Add, IndexRules{OutOfRange: OutOfRangeSkip}, -1, n - 1, false},
	}
	for _, c := range cases {
		for _, d := range []tensor.DType{tensor.Float32, tensor.Float64} {
			idx := make([]int64, n)
			vals := make([]float64, n)
			for i := range idx {
				idx[i] = int64(rng.IntN(size))
				vals[i] = float64(rng.IntN(1000)) * []float64{1e-6, 1, 1e6}[rng.IntN(3)]
			}
			if c.bad != 0 {
				idx[c.at] = c.bad
			}
			start := make([]float64, size)
			for i := range start {
				start[i] = float64(i) * 0.25
			}
			want := tensor.Must(tensor.New(d, tensor.Shape{size}))
			for i, v := range start {
				want.SetFloatAt(i, v)
			}
			wantBad := -1
			for i, v := range idx {
				if v < 0 && c.rules.Negative == NegativeFromEnd {
					v += size
				}
				if v < 0 || v >= size {
					if c.rules.OutOfRange == OutOfRangeSkip {
						continue
					}
					wantBad = i
					break
				}
				x, _ := want.FloatAt(int(v))
				u := tensor.Must(tensor.New(d, tensor.Shape{1}))
				u.SetFloatAt(0, vals[i])
				y, _ := u.FloatAt(0)
				if c.red == Add {
					want.SetFloatAt(int(v), x+y) // rounded to d once, as the engine's add
				} else {
					want.SetFloatAt(int(v), max(x, y))
				}
			}
			data := tensor.Must(tensor.New(d, tensor.Shape{size}))
			upd := tensor.Must(tensor.New(d, tensor.Shape{n}))
			for i, v := range start {
				data.SetFloatAt(i, v)
			}
			for i, v := range vals {
				upd.SetFloatAt(i, v)
			}
			it := tensor.Must(tensor.From(tensor.Shape{n, 1}, idx))
			dst := tensor.Must(tensor.New(d, tensor.Shape{size}))
			err := ScatterND(dst, data, it, upd, ScatterOptions{Reduction: c.red, Rules: c.rules})
			if c.err {
				var ie *IndexError
				if !errors.As(err, &ie) || ie.Pos[0] != wantBad {
					t.Errorf("%s %v: error %v, want an IndexError at %d", c.name, d, err, wantBad)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s %v: %v", c.name, d, err)
			}
			for i := range size {
				got, _ := dst.FloatAt(i)
				w, _ := want.FloatAt(i)
				if got != w {
					t.Fatalf("%s %v: element %d is %v, want %v", c.name, d, i, got, w)
				}
			}
		}
	}
}

// TestHalvesOneWorker runs every task of the halves on one worker, as when
// the other's vCPU is taken away for the whole call: it must finish them
// all alone, in an order that gives each element of dst its updates in
// index order, and stop before the first chunk with a bad index, having
// applied every chunk before it and none after.
func TestHalvesOneWorker(t *testing.T) {
	defer func(c int) { halvesChunk = c }(halvesChunk)
	halvesChunk = 64
	const size, n = 1000, 3001 // 47 chunks, far more than halvesSlots
	idx, upd := spreadUpdates(rand.New(rand.NewPCG(15, 16)), size, n)
	for _, bad := range []int{-1, 700} { // none; in chunk 10
		for w := range 2 {
			ind := slices.Clone(idx)
			applies := n
			if bad >= 0 {
				ind[bad] = size
				applies = bad / halvesChunk * halvesChunk
			}
			want := make([]float32, size)
			for i, v := range ind[:applies] {
				want[v] += upd[i]
			}
			dst := make([]float32, size)
			r := newNumReducer(dst, tensor.Must(tensor.From(tensor.Shape{n}, upd)), 1, Add, floatOps[float32](Add)).(*numReducer[float32])
			var j halvesJob[float32]
			j.start(r, ind)
			workAlone(t, &j, w)
			if got := j.applied(); got != applies {
				t.Fatalf("bad %d, worker %d alone: applied %d updates, want %d", bad, w, got, applies)
			}
			for c := range int(j.stop.Load()) {
				for k := range chunkTasks {
					if s := j.tasks[c*chunkTasks+k].state.Load(); s != taskDone {
						t.Fatalf("bad %d, worker %d alone: task %d of chunk %d left in state %d", bad, w, k, c, s)
					}
				}
			}
			for i := range dst {
				if dst[i] != want[i] {
					t.Fatalf("bad %d, worker %d alone: element %d is %v, want %v", bad, w, i, dst[i], want[i])
				}
			}
		}
	}
}

// TestSortFloatHalvesTwin checks that sortFloatHalves (assembly on amd64)
// sorts float32 updates into the same buckets, counts and largest index as
// its twin sortHalves: indices on both sides of split, negative ones and
// ones past any size among them, NaN payloads and -0 kept bit for bit.
func TestSortFloatHalvesTwin(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for _, n := range []int{0, 1, 2, 7, 100, 1000} {
		for _, split := range []int{0, 1, 500, 1 << 20} {
			ind, upd := halvesInput(rng, n)
			a0, a1 := make([]entry[float32], n+1), make([]entry[float32], n+1)
			g0, g1 := make([]entry[float32], n+1), make([]entry[float32], n+1)
			an0, an1, amost := sortFloatHalves(a0, a1, ind, upd, split)
			gn0, gn1, gmost := sortHalves(g0, g1, ind, upd, split)
			if an0 != gn0 || an1 != gn1 || amost != gmost {
				t.Fatalf("%d updates, split %d: counts %d, %d and largest %d; the twin's %d, %d and %d", n, split, an0, an1, amost, gn0, gn1, gmost)
			}
			same := func(a, g []entry[float32]) bool {
				for i := range a {
					if a[i].off != g[i].off || math.Float32bits(a[i].v) != math.Float32bits(g[i].v) {
						return false
					}
				}
				return true
			}
			if !same(a0[:an0], g0[:gn0]) || !same(a1[:an1], g1[:gn1]) {
				t.Fatalf("%d updates, split %d: the buckets differ from the twin's", n, split)
			}
		}
	}
}

// halvesInput returns n indices and float32 updates for the halves'
// sort: indices in [0, 1000), a tenth negative and a tenth past any size,
// and updates of any bits (NaN payloads, -0).
func halvesInput(rng *rand.Rand, n int) ([]int64, []float32) {
	ind := make([]int64, n)
	upd := make([]float32, n)
	for i := range ind {
		ind[i] = int64(rng.IntN(1000))
		switch rng.IntN(10) {
		case 0:
			ind[i] = -1 - int64(rng.IntN(5))
		case 1:
			ind[i] = 1<<40 + int64(rng.IntN(5))
		}
		upd[i] = math.Float32frombits(rng.Uint32())
	}
	return ind, upd
}

// workAlone runs worker w of j alone, as when the other's vCPU is taken
// away for the whole call, and fails the test unless it finishes within
// 20 s: a job whose workers wait on each other never does.
func workAlone(t *testing.T, j job, w int) {
	t.Helper()
	finished := make(chan struct{})
	go func() {
		j.work(w, 0, 0)
		close(finished)
	}()
	select {
	case <-finished:
	case <-time.After(20 * time.Second):
		t.Fatalf("worker %d alone has not finished in 20 s", w)
	}
}

// The times of the ways' calls of 1000 updates in TestWayTimes and
// TestWayTimesFirstSwitch: the faster way, the slower, and
// the faster way slowed by the machine's noise.
const wayFast, waySlow, waySpike = 6 * time.Microsecond, 10 * time.Microsecond, 30 * time.Microsecond

// wayStep is a step of a walk through the timed choice: calls calls that
// must each choose want and take elapsed, 1000 updates each.
type wayStep struct {
	calls   int
	want    way
	elapsed time.Duration
}

// walkWays walks w through steps, a call a millisecond, and returns the
// time of the call after the last, in milliseconds.
func walkWays(t *testing.T, w *wayTimes, steps []wayStep) int64 {
	t.Helper()
	const ms = int64(time.Millisecond)
	at := int64(0)
	for i, s := range steps {
		for range s.calls {
			if got := w.choose(at * ms); got != s.want {
				t.Fatalf("step %d (at %d ms): chose way %d, want %d", i, at, got, s.want)
			}
			w.record(s.want, at*ms, s.elapsed, 1000)
			at++
		}
	}
	return at
}

// TestWayTimes follows the timed choice between the halves and the one
// loop through a run of calls a millisecond apart, 1000 updates each:
// the halves' first call is not timed, the loop's is; the faster way
// wins; the slower is retried 4 calls after it is timed and twice as
// long after each retry that finds it still slower; one slow call of the
// faster way costs 4 calls of the other before it is retried and wins
// again; a way that stays slow loses; and a timing older than timesStale
// is retried whatever the schedule says.
func TestWayTimes(t *testing.T) {
	steps := []wayStep{
		{1, halvesWay, 50 * time.Millisecond}, // the halves' first: not timed
		{1, halvesWay, wayFast},               // timed: 6 ns an update
		{1, loopWay, waySlow},                 // the loop's first, timed: 10 ns, slower
		{4, halvesWay, wayFast},               // 4 calls on
		{1, loopWay, waySlow},                 // the retry: still slower
		{8, halvesWay, wayFast},               // twice as long
		{1, loopWay, waySlow},
		{16, halvesWay, wayFast},
		{1, loopWay, waySlow},
		{5, halvesWay, wayFast},
		{1, halvesWay, waySpike}, // noise: 6 -> 18 ns, past the loop's 10
		{4, loopWay, waySlow},    // the loop, 4 calls
		{1, halvesWay, wayFast},  // retried: 6 ns at once, faster again
		{4, halvesWay, wayFast},
		{1, loopWay, waySlow},    // the schedule starts again at 4
		{3, halvesWay, wayFast},  // the wait is now 8
		{1, halvesWay, waySpike}, // 6 -> 18 ns again: the loop
		{4, loopWay, waySlow},
		{1, halvesWay, waySpike}, // retried: 24 ns, still slower: the machine has changed
		{16, loopWay, waySlow},   // the wait doubles from 8
		{1, halvesWay, waySpike}, // 27 ns
		{10, loopWay, waySlow},   // 22 calls still to wait
	}
	const ms = int64(time.Millisecond)
	var w wayTimes
	at := walkWays(t, &w, steps)
	if got, want := w.ps[halvesWay].Load(), int64(27000); got != want {
		t.Errorf("the halves' timing %d ps, want %d", got, want)
	}
	// Past timesStale, the halves are retried however long the wait.
	at += timesStale/ms + 1
	if got := w.choose(at * ms); got != halvesWay {
		t.Errorf("at %d ms, the halves' timing stale: chose way %d", at, got)
	}
	w.record(halvesWay, at*ms, wayFast, 1000) // a stale timing is replaced, not averaged
	if got, want := w.ps[halvesWay].Load(), int64(6000); got != want {
		t.Errorf("the halves' stale timing replaced by %d ps, want %d", got, want)
	}
}

// TestWayTimesFirstSwitch follows the timed choice where the halves'
// only timed call was slowed: the loop's first call finds it faster,
// and the next call tries the halves again, which win at once; the loop
// is then retried 4 calls on.
func TestWayTimesFirstSwitch(t *testing.T) {
	steps := []wayStep{
		{1, halvesWay, 50 * time.Millisecond}, // the halves' first: not timed
		{1, halvesWay, waySpike},              // timed, slowed: 30 ns an update
		{1, loopWay, waySlow},                 // the loop's first: 10 ns, faster
		{1, halvesWay, wayFast},               // the halves again at once: 6 ns
		{4, halvesWay, wayFast},
		{1, loopWay, waySlow}, // the loop's retry, 4 calls on
		{8, halvesWay, wayFast},
	}
	var w wayTimes
	walkWays(t, &w, steps)
}

// TestTimedWays checks that ScatterND takes the way its timings say is
// faster, and that both ways give the bits of a loop that applies every
// update in index order.
func TestTimedWays(t *testing.T) {
	defer func(b, m, w int) { halvesBytes, halvesMin, minWork = b, m, w }(halvesBytes, halvesMin, minWork)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("one thread (js/wasm): ScatterND never takes the halves, nor times them")
	}
	halvesBytes, halvesMin, minWork = 256, 100, 64
	const size, n = 1000, 3001
	idx, upd := spreadUpdates(rand.New(rand.NewPCG(17, 18)), size, n)
	want := make([]float32, size)
	for i, v := range idx {
		want[v] += upd[i]
	}
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{size}))
	ind := tensor.Must(tensor.From(tensor.Shape{n, 1}, idx))
	updates := tensor.Must(tensor.From(tensor.Shape{n}, upd))
	w := timesOf(4 * size)
	defer func(h, l, left int64) {
		w.ps[halvesWay].Store(h)
		w.ps[loopWay].Store(l)
		w.left.Store(left)
	}(w.ps[halvesWay].Load(), w.ps[loopWay].Load(), w.left.Load())
	for _, fast := range []way{loopWay, halvesWay, loopWay} {
		// Both ways timed just now, the other twice as slow, and not
		// due for a retry.
		w.left.Store(retryMost)
		w.ps[fast].Store(1000)
		w.ps[1-fast].Store(2000)
		w.when[0].Store(now())
		w.when[1].Store(now())
		before := [2]int64{w.calls[0].Load(), w.calls[1].Load()}
		dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{size}))
		if err := ScatterND(dst, data, ind, updates, ScatterOptions{Reduction: Add}); err != nil {
			t.Fatal(err)
		}
		if w.calls[fast].Load() != before[fast]+1 || w.calls[1-fast].Load() != before[1-fast] {
			t.Errorf("way %d timed faster: calls by way went from %v to [%d %d]", fast, before, w.calls[0].Load(), w.calls[1].Load())
		}
		if got := dst.Data().([]float32); !slices.Equal(got, want) {
			t.Errorf("way %d: the sums differ from a loop in index order", fast)
		}
	}
}

// spreadUpdates returns n indices in [0, size) and n float32 updates far
// apart in magnitude, whose sums depend on their order.
func spreadUpdates(rng *rand.Rand, size, n int) ([]int64, []float32) {
	idx := make([]int64, n)
	upd := make([]float32, n)
	for i := range idx {
		idx[i] = int64(rng.IntN(size))
		upd[i] = float32(rng.IntN(1000)) * []float32{1e-6, 1, 1e6}[rng.IntN(3)]
	}
	return idx, upd
}
