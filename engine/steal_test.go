package engine

import (
	"errors"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/tensor"
)

// countJob counts, per position, how many times a chunk covered it, and
// checks the worker numbers it is given.
type countJob struct {
	seen   []atomic.Int32
	p      int
	badW   atomic.Bool
	chunks atomic.Int32
}

func (j *countJob) work(w, lo, hi int) {
	if w < 0 || w >= j.p {
		j.badW.Store(true)
	}
	j.chunks.Add(1)
	for i := lo; i < hi; i++ {
		j.seen[i].Add(1)
	}
}

func TestStealCoversEachPositionOnce(t *testing.T) {
	for _, tc := range []struct{ n, p, chunks int }{
		{0, 4, 0},
		{1, 4, 1},
		{5, 2, 5},
		{16, 2, 16},
		{100, 3, 3 * stealChunks},
		{1000, 8, 8 * stealChunks},
		{1000, 1, 1},
	} {
		j := &countJob{seen: make([]atomic.Int32, tc.n), p: tc.p}
		steal(tc.n, tc.p, j, new(scratch), false)
		for i := range j.seen {
			if got := j.seen[i].Load(); got != 1 {
				t.Fatalf("n %d p %d: position %d covered %d times, want once", tc.n, tc.p, i, got)
			}
		}
		if j.badW.Load() {
			t.Errorf("n %d p %d: a chunk ran as a worker outside [0, %d)", tc.n, tc.p, tc.p)
		}
		if got := int(j.chunks.Load()); tc.n > 0 && got != tc.chunks {
			t.Errorf("n %d p %d: %d chunks, want %d", tc.n, tc.p, got, tc.chunks)
		}
	}
}

// stallJob holds up the goroutine that runs the first chunk until every
// other chunk is done, as a vCPU preempted by the host would: with
// chunks taken in turn the others finish the rest, where fixed ranges
// would leave the held-up goroutine's range to it alone.
type stallJob struct {
	n, k int
	left atomic.Int32 // chunks other than the first still to run
	ok   atomic.Bool
}

func (j *stallJob) work(_, lo, hi int) {
	if lo != 0 {
		j.left.Add(-1)
		return
	}
	deadline := time.Now().Add(5 * time.Second)
	for j.left.Load() > 0 {
		if time.Now().After(deadline) {
			return
		}
		time.Sleep(time.Millisecond)
	}
	j.ok.Store(true)
}

func TestStealGoesOnPastAHeldUpWorker(t *testing.T) {
	for _, p := range []int{2, 4} {
		n := 1000
		k := min(n, p*stealChunks)
		j := &stallJob{n: n, k: k}
		j.left.Store(int32(k - 1))
		steal(n, p, j, new(scratch), false)
		if !j.ok.Load() {
			t.Errorf("p %d: the other workers left %d chunks to the held-up one", p, j.left.Load())
		}
	}
}

// badAtJob records in found the first position of its chunk in bad, as
// the gathers' jobs record their first bad index.
type badAtJob struct {
	bad   map[int]bool
	found []int
	late  atomic.Int32 // chunks run by a goroutine after its slot was set
}

func (j *badAtJob) work(w, lo, hi int) {
	if j.found[w] >= 0 {
		j.late.Add(1)
	}
	for i := lo; i < hi; i++ {
		if j.bad[i] {
			j.found[w] = i
			return
		}
	}
}

func TestStealFindsTheFirstBad(t *testing.T) {
	for _, tc := range []struct {
		n, p int
		bad  []int
		want int
	}{
		{100, 2, nil, -1},
		{100, 2, []int{99}, 99},
		{100, 2, []int{3, 97}, 3},
		{1000, 4, []int{999, 500, 501, 7}, 7},
		{1000, 8, []int{640, 641, 900}, 640},
		{10, 8, []int{9, 0}, 0},
	} {
		for range 20 { // the chunks go to the goroutines differently each time
			j := &badAtJob{bad: map[int]bool{}, found: make([]int, tc.p)}
			for _, b := range tc.bad {
				j.bad[b] = true
			}
			for w := range j.found {
				j.found[w] = -1
			}
			s := new(scratch)
			s.found = j.found
			steal(tc.n, tc.p, j, s, true)
			if got := leastOf(j.found); got != tc.want {
				t.Fatalf("n %d p %d bad %v: first bad %d, want %d", tc.n, tc.p, tc.bad, got, tc.want)
			}
			if l := j.late.Load(); l > 0 {
				t.Fatalf("n %d p %d bad %v: %d chunks taken after a bad index", tc.n, tc.p, tc.bad, l)
			}
		}
	}
}

func TestLeastOfIsTheSmallest(t *testing.T) {
	for _, tc := range []struct {
		found []int
		want  int
	}{
		{nil, -1},
		{[]int{-1, -1}, -1},
		{[]int{-1, 40, 12}, 12},
		{[]int{5, -1, 3}, 3},
		{[]int{0, 9}, 0},
	} {
		if got := leastOf(tc.found); got != tc.want {
			t.Errorf("leastOf(%v) = %d, want %d", tc.found, got, tc.want)
		}
	}
}

// TestGathersNameTheFirstBadIndexWhenSplit runs the gathers split among
// goroutines that take chunks in turn, with bad indices in several
// chunks: the error names the first, whatever goroutine met it.
func TestGathersNameTheFirstBadIndexWhenSplit(t *testing.T) {
	defer func(w int) { minWork = w }(minWork)
	minWork = 16
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	const rows, cols = 64, 32
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, cols}))
	idx := make([]int64, rows*cols)
	for i := range idx {
		idx[i] = int64(i % rows % cols)
	}
	first := 37*cols + 5
	for _, b := range []int{first + 700, first, first + 1, rows*cols - 1} {
		idx[b] = 1000 + int64(b)
	}
	want := int64(1000 + first)
	calls := []struct {
		name string
		f    func(k kernels) error
	}{
		{"GatherElements", func(k kernels) error {
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, cols}))
			return k.GatherElements(dst, data, tensor.Must(tensor.From(tensor.Shape{rows, cols}, idx)), 1, IndexRules{})
		}},
		{"Gather", func(k kernels) error {
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows * cols, cols}))
			return k.Gather(dst, data, tensor.Must(tensor.From(tensor.Shape{rows * cols}, idx)), 0, 0, IndexRules{})
		}},
		{"GatherND", func(k kernels) error {
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows * cols, cols}))
			return k.GatherND(dst, data, tensor.Must(tensor.From(tensor.Shape{rows * cols, 1}, idx)), 0, IndexRules{})
		}},
	}
	for _, k := range bothKernels {
		for _, c := range calls {
			for _, procs := range []int{2, 4} {
				runtime.GOMAXPROCS(procs)
				for range 10 {
					err := c.f(k)
					var ie *IndexError
					if !errors.As(err, &ie) || ie.Value != want {
						t.Fatalf("%s %s procs %d: error %v, want one naming the value %d", k.name, c.name, procs, err, want)
					}
				}
			}
		}
	}
}
