package engine

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// lowerBlocked lowers the sizes from which ScatterND sorts single updates
// by block of dst, until the test ends, so that small tensors take that
// path: blocks of 64 bytes, from 64 updates, past the cache from 1 KiB,
// work split from 128 elements and indices.
func lowerBlocked(t *testing.T) {
	b, m, w := blockedBytes, blockedMin, minWork
	blockedBytes, blockedMin, minWork = 64, 64, 64
	forceStrategy(t, Strategy{StreamBytes: 1 << 10})
	t.Cleanup(func() { blockedBytes, blockedMin, minWork = b, m, w })
}

// TestScatterNDBlocked runs ScatterND of single elements sorted by block
// of dst (see scatter_nd_blocked.go) on two workers, through the form's
// kernel and the general scatter, which sorts them too, for every element
// size and strings, and holds it to a loop that applies every update in
// index order: many updates into one element (the last wins), indices
// counted from the end, skipped ones (and the skipped last update), a dst
// whose last block is partial, data copied, cleared (no data) and filled
// with a value. (Strings take the other path: see blocking.)
func TestScatterNDBlocked(t *testing.T) {
	lowerBlocked(t)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	rng := rand.New(rand.NewPCG(19, 20))
	// 3233 elements, blocks of 64 bytes, the last partial; fewer updates
	// than elements (else ScatterND takes them in one loop: oneScan).
	const rows, cols, n = 61, 53, 2001
	for _, d := range []tensor.DType{tensor.Int8, tensor.Int16, tensor.Float32, tensor.Int64, tensor.Complex128, tensor.String} {
		for _, fill := range []string{"data", "zeros", "value"} {
			ind := make([]int64, 2*n)
			for t := range n {
				ind[2*t], ind[2*t+1] = int64(rng.IntN(rows)), int64(rng.IntN(cols))
				switch rng.IntN(12) {
				case 0:
					ind[2*t] -= rows // from the end
				case 1:
					ind[2*t+1] = cols + 3 // skipped
				case 2:
					ind[2*t], ind[2*t+1] = 5, 7 // one element, many times
				}
			}
			ind[2*n-1] = -cols - 1 // the last update skipped
			upd := tensor.Must(tensor.New(d, tensor.Shape{n}))
			for i := range n {
				setValue(upd, i, 1+i)
			}
			want := tensor.Must(tensor.New(d, tensor.Shape{rows, cols}))
			var data tensor.Tensor
			opt := ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd, OutOfRange: OutOfRangeSkip}}
			switch fill {
			case "data":
				data = tensor.Must(tensor.New(d, tensor.Shape{rows, cols}))
				for i := range rows * cols {
					setValue(data, i, -1-i)
					setValue(want, i, -1-i)
				}
			case "value":
				opt.Fill = tensor.Must(tensor.New(d, tensor.Shape{}))
				setValue(opt.Fill, 0, 9999)
				for i := range rows * cols {
					setValue(want, i, 9999)
				}
			}
			for t := range n {
				r, c := ind[2*t], ind[2*t+1]
				if r < 0 {
					r += rows
				}
				if c < 0 {
					c += cols
				}
				if r >= 0 && r < rows && c >= 0 && c < cols {
					setValue(want, int(r)*cols+int(c), 1+t)
				}
			}
			it := tensor.Must(tensor.From(tensor.Shape{n, 2}, ind))
			for _, k := range bothKernels {
				dst := tensor.Must(tensor.New(d, tensor.Shape{rows, cols}))
				if err := k.ScatterND(dst, data, it, upd, opt); err != nil {
					t.Fatalf("%s, %v, %s: %v", k.name, d, fill, err)
				}
				if i := tensor.FirstDiff(dst, want); i >= 0 {
					t.Fatalf("%s, %v, %s: element %d differs from the loop's", k.name, d, fill, i)
				}
			}
		}
	}
}

// setValue sets element i of t to v, as a number or a string.
func setValue(t tensor.Tensor, i, v int) {
	switch s := t.Data().(type) {
	case []string:
		s[i] = fmt.Sprint(v)
	case []complex128:
		s[i] = complex(float64(v), -float64(v))
	default:
		if t.DType().IsFloat() {
			t.SetFloatAt(i, float64(v))
		} else {
			t.SetIntAt(i, int64(v))
		}
	}
}

// TestBlockedPathTaken checks that the lowered sizes send
// TestScatterNDBlocked's calls through the blocks, and that the blocks
// are not taken in place, on one worker, or for too few updates.
func TestBlockedPathTaken(t *testing.T) {
	lowerBlocked(t)
	run := &scatterRun{m: &wordMover[word32]{}}
	if !blocking(run, 2001, 61*53, 4, 2) {
		t.Fatal("TestScatterNDBlocked's calls do not sort by block")
	}
	inPlace := &scatterRun{m: run.m, inPlace: true}
	for name, ok := range map[string]bool{
		"in place":         blocking(inPlace, 2001, 61*53, 4, 2),
		"one worker":       blocking(run, 2001, 61*53, 4, 1),
		"few updates":      blocking(run, 63, 61*53, 4, 2),
		"a reduction":      blocking(&scatterRun{}, 2001, 61*53, 4, 2),
		"dst in the cache": blocking(run, 2001, 100, 4, 2),
		"strings":          blocking(&scatterRun{m: &wordMover[string]{}}, 2001, 61*53, 16, 2),
	} {
		if ok {
			t.Errorf("%s: sorted by block", name)
		}
	}
}

// TestBlockedOneWorker runs every task of the blocks on one worker, as
// when the other's vCPU is taken away for the whole call: it must finish
// alone, with the loop's result.
func TestBlockedOneWorker(t *testing.T) {
	lowerBlocked(t)
	const size, n = 1000, 3001
	rng := rand.New(rand.NewPCG(21, 22))
	offs := make([]int32, n)
	upd := make([]float32, n)
	want := make([]float32, size)
	data := make([]float32, size)
	for i := range data {
		data[i] = float32(-i)
		want[i] = data[i]
	}
	for i := range offs {
		offs[i] = int32(rng.IntN(size))
		if i%10 == 0 {
			offs[i] = -1
		}
		upd[i] = float32(i + 1)
		if offs[i] >= 0 {
			want[offs[i]] = upd[i]
		}
	}
	for w := range 2 {
		s := getScratch()
		dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{size}))
		dt := tensor.Must(tensor.From(tensor.Shape{size}, data))
		ut := tensor.Must(tensor.From(tensor.Shape{n}, upd))
		it := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{n, 1})) // unread: offs are the indices
		s.see(&dst, &dt, &it, &ut)
		newScatterRun(s, &dst, &dt, &ut, 1, &ScatterOptions{})
		j := &s.blocked
		j.prepare(&s.run, offs, nil, size, 4)
		workAlone(t, j, w)
		for i, v := range dst.Data().([]float32) {
			if v != want[i] {
				t.Fatalf("worker %d alone: element %d is %v, want %v", w, i, v, want[i])
			}
		}
		s.release()
	}
}
