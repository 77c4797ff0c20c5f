package engine

import (
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestDeterministicAcrossThreads runs every operator, with every
// reduction, on random inputs full of duplicate indices at GOMAXPROCS 1, 2
// and 8 (with the parallel threshold lowered so that the inputs are
// split), and requires bit-identical outputs: floats compared by bits.
func TestDeterministicAcrossThreads(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	f32 := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = rng.Float32()*2 - 1 // sums depend on order in the last bits
		}
		return v
	}
	ints := func(n, below int) []int64 {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(rng.IntN(below))
		}
		return v
	}
	mk := func(s tensor.Shape, v []float32) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	data := mk(tensor.Shape{64, 96}, f32(64*96))
	ndIdx := tensor.Must(tensor.From(tensor.Shape{20000, 2}, append(ints(20000, 64)[:0:0], interleave(ints(20000, 64), ints(20000, 96))...)))
	ndRows := tensor.Must(tensor.From(tensor.Shape{3000, 1}, ints(3000, 64)))
	ndUpd := mk(tensor.Shape{20000}, f32(20000))
	rowUpd := mk(tensor.Shape{3000, 96}, f32(3000*96))
	elIdx1 := tensor.Must(tensor.From(tensor.Shape{64, 300}, ints(64*300, 96)))
	elUpd1 := mk(tensor.Shape{64, 300}, f32(64*300))
	elIdx0 := tensor.Must(tensor.From(tensor.Shape{500, 96}, ints(500*96, 64)))
	elUpd0 := mk(tensor.Shape{500, 96}, f32(500*96))
	gIdx := tensor.Must(tensor.From(tensor.Shape{40, 50}, ints(2000, 96)))

	type run func() (tensor.Tensor, error)
	var cases []struct {
		name string
		f    run
	}
	add := func(name string, f run) {
		cases = append(cases, struct {
			name string
			f    run
		}{name, f})
	}
	scatter := func(updOn func(dst tensor.Tensor, opt ScatterOptions) error, opt ScatterOptions) run {
		return func() (tensor.Tensor, error) {
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{64, 96}))
			return dst, updOn(dst, opt)
		}
	}
	for _, red := range []Reduction{None, Add, Sub, Mul, Max, Min, Mean} {
		for _, ex := range []bool{false, true} {
			if red == Sub && ex {
				continue
			}
			opt := ScatterOptions{Reduction: red, ExcludeSelf: ex}
			name := red.String()
			if ex {
				name += "/exclude-self"
			}
			add("ScatterND elements "+name, scatter(func(dst tensor.Tensor, o ScatterOptions) error {
				return ScatterND(dst, data, ndIdx, ndUpd, o)
			}, opt))
			add("ScatterND rows "+name, scatter(func(dst tensor.Tensor, o ScatterOptions) error {
				return ScatterND(dst, data, ndRows, rowUpd, o)
			}, opt))
			add("ScatterElements axis 1 "+name, scatter(func(dst tensor.Tensor, o ScatterOptions) error {
				return ScatterElements(dst, data, elIdx1, elUpd1, 1, o)
			}, opt))
			add("ScatterElements axis 0 "+name, scatter(func(dst tensor.Tensor, o ScatterOptions) error {
				return ScatterElements(dst, data, elIdx0, elUpd0, 0, o)
			}, opt))
		}
	}
	// Fewer single elements than dst holds, which ScatterND sorts by block
	// of dst in the second round; many sums into a line, which it applies
	// in halves there.
	fewIdx := tensor.Must(tensor.From(tensor.Shape{3000, 2}, interleave(ints(3000, 64), ints(3000, 96))))
	fewUpd := mk(tensor.Shape{3000}, f32(3000))
	line := mk(tensor.Shape{6144}, f32(6144))
	lineIdx := tensor.Must(tensor.From(tensor.Shape{20000, 1}, ints(20000, 6144)))
	for _, red := range []Reduction{None, Add} {
		opt := ScatterOptions{Reduction: red}
		add("ScatterND few elements "+red.String(), scatter(func(dst tensor.Tensor, o ScatterOptions) error {
			return ScatterND(dst, data, fewIdx, fewUpd, o)
		}, opt))
		add("ScatterND line "+red.String(), func() (tensor.Tensor, error) {
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{6144}))
			return dst, ScatterND(dst, line, lineIdx, ndUpd, opt)
		})
	}
	add("GatherND", func() (tensor.Tensor, error) {
		dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{20000}))
		return dst, GatherND(dst, data, ndIdx, 0, IndexRules{})
	})
	add("GatherElements", func() (tensor.Tensor, error) {
		dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{64, 300}))
		return dst, GatherElements(dst, data, elIdx1, 1, IndexRules{})
	})
	add("Gather", func() (tensor.Tensor, error) {
		dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{64, 40, 50}))
		return dst, Gather(dst, data, gIdx, 1, 0, IndexRules{})
	})

	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	defer func(w int) { minWork = w }(minWork)
	minWork = 64
	// same runs each case at GOMAXPROCS 1, 2 and 8 and requires the same
	// bits.
	same := func(t *testing.T) {
		for _, c := range cases {
			var first tensor.Tensor
			for _, procs := range []int{1, 2, 8} {
				runtime.GOMAXPROCS(procs)
				got, err := c.f()
				if err != nil {
					t.Fatalf("%s at %d threads: %v", c.name, procs, err)
				}
				if procs == 1 {
					first = got
					continue
				}
				if i := tensor.FirstDiff(got, first); i >= 0 {
					t.Errorf("%s: element %d differs at %d threads: %v vs %v", c.name, i, procs, got.At(i), first.At(i))
				}
			}
		}
	}
	t.Run("as built", same)
	// Then with ScatterND's blocks and halves, and the copy strategy's
	// streaming, from small sizes.
	s := HostStrategy()
	s.StreamBytes = 1 << 10
	forceStrategy(t, s)
	defer func(b, m, c, hb, hm int, ht bool) {
		blockedBytes, blockedMin, halvesChunk, halvesBytes, halvesMin, halvesTimed = b, m, c, hb, hm, ht
	}(blockedBytes, blockedMin, halvesChunk, halvesBytes, halvesMin, halvesTimed)
	blockedBytes, blockedMin, halvesChunk, halvesBytes, halvesMin, halvesTimed = 64, 64, 64, 256, 100, false
	t.Run("small blocks and halves", same)
}

// interleave returns a[0], b[0], a[1], b[1], ...
func interleave(a, b []int64) []int64 {
	out := make([]int64, 0, 2*len(a))
	for i := range a {
		out = append(out, a[i], b[i])
	}
	return out
}
