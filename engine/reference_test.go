package engine

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// This file checks the kernels against plain reference loops that walk
// coordinates one element at a time, on random shapes, indices (with
// duplicates, negative and out-of-range values) and values (with ±0 and
// NaN).

func prod(s []int) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

func coords(i int, s []int) []int {
	c := make([]int, len(s))
	for d := len(s) - 1; d >= 0; d-- {
		c[d] = i % s[d]
		i /= s[d]
	}
	return c
}

func flat(c, s []int) int {
	f := 0
	for d := range s {
		f = f*s[d] + c[d]
	}
	return f
}

// refResolve returns the position for v, -1 to skip, or ok=false.
func refResolve(v int64, size int, r IndexRules) (int, bool) {
	if v < 0 && r.Negative == NegativeFromEnd {
		v += int64(size)
	}
	if v < 0 || v >= int64(size) {
		if r.OutOfRange == OutOfRangeSkip {
			return -1, true
		}
		return 0, false
	}
	return int(v), true
}

func refCombine(red Reduction, v, u float64) float64 {
	switch red {
	case Add, Mean:
		return v + u
	case Sub:
		return v - u
	case Mul:
		return v * u
	case Max:
		if math.IsNaN(v) || math.IsNaN(u) {
			return math.NaN()
		}
		if u > v { // equal values, such as +0 and -0, keep the existing one
			return u
		}
		return v
	case Min:
		if math.IsNaN(v) || math.IsNaN(u) {
			return math.NaN()
		}
		if u < v {
			return u
		}
		return v
	}
	return u
}

// refApply applies the updates (dst position, value) in order.
func refApply(out []float64, writes [][2]float64, opt ScatterOptions) {
	touched := map[int]int{}
	for _, w := range writes {
		p, u := int(w[0]), w[1]
		n, seen := touched[p]
		touched[p] = n + 1
		switch {
		case opt.Reduction == None, opt.ExcludeSelf && !seen:
			out[p] = u
		default:
			out[p] = refCombine(opt.Reduction, out[p], u)
		}
	}
	if opt.Reduction == Mean {
		for p, n := range touched {
			if !opt.ExcludeSelf {
				n++
			}
			out[p] /= float64(n)
		}
	}
}

func refScatterND(data []float64, ds []int, ind []int64, is []int, upd []float64, opt ScatterOptions) ([]float64, bool) {
	out := append([]float64(nil), data...)
	k := is[len(is)-1]
	n := prod(is[:len(is)-1])
	slice := prod(ds[k:])
	var writes [][2]float64
	for t := 0; t < n; t++ {
		c := make([]int, len(ds))
		skip := false
		for j := 0; j < k; j++ {
			p, ok := refResolve(ind[t*k+j], ds[j], opt.Rules)
			if !ok {
				return nil, false
			}
			if p < 0 {
				skip = true
			}
			c[j] = p
		}
		if skip {
			continue
		}
		base := flat(c, ds)
		for e := 0; e < slice; e++ {
			writes = append(writes, [2]float64{float64(base + e), upd[t*slice+e]})
		}
	}
	refApply(out, writes, opt)
	return out, true
}

func refScatterElements(data []float64, ds []int, ind []int64, is []int, upd []float64, us []int, axis int, opt ScatterOptions) ([]float64, bool) {
	out := append([]float64(nil), data...)
	var writes [][2]float64
	for i := 0; i < prod(is); i++ {
		c := coords(i, is)
		u := upd[flat(c, us)]
		p, ok := refResolve(ind[i], ds[axis], opt.Rules)
		if !ok {
			return nil, false
		}
		if p < 0 {
			continue
		}
		c[axis] = p
		writes = append(writes, [2]float64{float64(flat(c, ds)), u})
	}
	refApply(out, writes, opt)
	return out, true
}

func refGatherND(data []float64, ds []int, ind []int64, is []int, b int, r IndexRules) ([]float64, bool) {
	k := is[len(is)-1]
	n := prod(is[:len(is)-1])
	slice := prod(ds[b+k:])
	perBatch := n / max(prod(ds[:b]), 1)
	var out []float64
	for t := 0; t < n; t++ {
		c := make([]int, len(ds))
		copy(c, coords(t/max(perBatch, 1), ds[:b]))
		skip := false
		for j := 0; j < k; j++ {
			p, ok := refResolve(ind[t*k+j], ds[b+j], r)
			if !ok {
				return nil, false
			}
			skip = skip || p < 0
			c[b+j] = p
		}
		for e := 0; e < slice; e++ {
			if skip {
				out = append(out, 0)
				continue
			}
			out = append(out, data[flat(c, ds)+e])
		}
	}
	return out, true
}

func refGather(data []float64, ds []int, ind []int64, is []int, axis, b int, r IndexRules) ([]float64, bool) {
	os := append(append(append([]int{}, ds[:axis]...), is[b:]...), ds[axis+1:]...)
	out := make([]float64, prod(os))
	for i := range out {
		c := coords(i, os)
		// c = [data dims before axis][indices dims after b][data dims after axis]
		ic := append(append([]int{}, c[:b]...), c[axis:axis+len(is)-b]...)
		p, ok := refResolve(ind[flat(ic, is)], ds[axis], r)
		if !ok {
			return nil, false
		}
		if p < 0 {
			continue
		}
		dc := append(append(append([]int{}, c[:axis]...), p), c[axis+len(is)-b:]...)
		out[i] = data[flat(dc, ds)]
	}
	for i := 0; i < prod(is); i++ { // errors are raised even when the output is empty
		if _, ok := refResolve(ind[i], ds[axis], r); !ok {
			return nil, false
		}
	}
	return out, true
}

func refGatherElements(data []float64, ds []int, ind []int64, is []int, axis int, r IndexRules) ([]float64, bool) {
	out := make([]float64, prod(is))
	for i := range out {
		c := coords(i, is)
		p, ok := refResolve(ind[i], ds[axis], r)
		if !ok {
			return nil, false
		}
		if p < 0 {
			continue
		}
		c[axis] = p
		out[i] = data[flat(c, ds)]
	}
	return out, true
}

// eachMode runs a test as the kernels run by default (small inputs on one
// goroutine), with every kernel split over 8 goroutines however small its
// input, and split so again with the path of tensors too large for
// precomputed offsets.
func eachMode(t *testing.T, test func(t *testing.T)) {
	t.Run("default", test)
	t.Run("split", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
		defer func(w int) { minWork = w }(minWork)
		minWork = 1
		test(t)
	})
	t.Run("split/no-offsets", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
		defer func(w, o int) { minWork, maxOffset = w, o }(minWork, maxOffset)
		minWork, maxOffset = 1, -1
		test(t)
	})
}

// random helpers

func randShape(rng *rand.Rand, rank, maxDim int) []int {
	s := make([]int, rank)
	for i := range s {
		s[i] = rng.IntN(maxDim + 1)
		if rng.IntN(4) != 0 && s[i] == 0 {
			s[i] = 1 + rng.IntN(maxDim)
		}
	}
	return s
}

var specials = []float64{0, math.Copysign(0, -1), 1, -1, 2.5, math.NaN(), math.Inf(1), -3}

func randValues(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		if rng.IntN(5) == 0 {
			v[i] = specials[rng.IntN(len(specials))]
		} else {
			v[i] = float64(rng.IntN(21) - 10)
		}
	}
	return v
}

func randIndices(rng *rand.Rand, n, size int, wild bool) []int64 {
	v := make([]int64, n)
	for i := range v {
		lo, hi := 0, size
		if wild {
			lo, hi = -size-1, size+1
		}
		if hi-lo > 0 {
			v[i] = int64(lo + rng.IntN(hi-lo))
		}
		if wild && rng.IntN(50) == 0 {
			v[i] = int64(size + 7)
		}
	}
	return v
}

func randRules(rng *rand.Rand) IndexRules {
	return IndexRules{Negative: Negative(rng.IntN(2)), OutOfRange: OutOfRange(rng.IntN(2))}
}

func randOptions(rng *rand.Rand) ScatterOptions {
	opt := ScatterOptions{Reduction: Reduction(rng.IntN(7)), ExcludeSelf: rng.IntN(2) == 0, Rules: randRules(rng)}
	if opt.Reduction == Sub {
		opt.ExcludeSelf = false
	}
	return opt
}

func f64(t *testing.T, s []int, v []float64) tensor.Tensor {
	t.Helper()
	return tensor.Must(tensor.From(tensor.Shape(s), v))
}

func i64(t *testing.T, s []int, v []int64) tensor.Tensor {
	t.Helper()
	return tensor.Must(tensor.From(tensor.Shape(s), v))
}

func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

// check compares the kernel's outcome with the reference's.
func check(t *testing.T, what string, err error, got []float64, want []float64, ok bool, ctx ...any) {
	t.Helper()
	if ok != (err == nil) {
		t.Fatalf("%s: kernel error %v, reference ok=%v", what, err, ok)
	}
	if err != nil {
		if !errors.Is(err, ErrIndex) {
			t.Fatalf("%s: error %v does not match ErrIndex", what, err)
		}
		var ie *IndexError
		if !errors.As(err, &ie) {
			t.Fatalf("%s: error %v is not an *IndexError", what, err)
		}
		return
	}
	if !sameBits(got, want) {
		t.Fatalf("%s:\n got %v\nwant %v\n%s", what, got, want, ctx)
	}
}

func TestScatterNDMatchesReference(t *testing.T) { eachMode(t, testScatterNDMatchesReference) }

func testScatterNDMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		ds := randShape(rng, 1+rng.IntN(3), 4)
		k := rng.IntN(len(ds) + 1)
		lead := randShape(rng, 1+rng.IntN(2), 4)
		is := append(append([]int{}, lead...), k)
		us := append(append([]int{}, lead...), ds[k:]...)
		data, upd := randValues(rng, prod(ds)), randValues(rng, prod(us))
		ind := make([]int64, prod(is))
		for i := range ind {
			ind[i] = randIndices(rng, 1, ds[i%max(k, 1)], rng.IntN(3) == 0)[0]
		}
		opt := randOptions(rng)
		want, ok := refScatterND(data, ds, ind, is, upd, opt)
		dst := make([]float64, len(data))
		err := ScatterND(f64(t, ds, dst), f64(t, ds, data), i64(t, is, ind), f64(t, us, upd), opt)
		check(t, "ScatterND", err, dst, want, ok, opt, data, ind, upd)
	}
}

func TestScatterElementsMatchesReference(t *testing.T) {
	eachMode(t, testScatterElementsMatchesReference)
}

func testScatterElementsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 3000; iter++ {
		ds := randShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		is := make([]int, len(ds))
		us := make([]int, len(ds))
		for d := range ds {
			if d == axis {
				is[d] = rng.IntN(6)
			} else {
				is[d] = rng.IntN(ds[d] + 1)
			}
			us[d] = is[d] + rng.IntN(2)*rng.IntN(2) // updates sometimes larger
		}
		checkScatterElements(t, rng, ds, is, us, axis)
	}
	// Along axis 0 with indices and updates as wide as data: the column
	// blocks, several of them, the last one partial.
	for iter := 0; iter < 300; iter++ {
		ds := []int{1 + rng.IntN(40), 1 + rng.IntN(100)}
		is := []int{rng.IntN(60), ds[1]}
		checkScatterElements(t, rng, ds, is, is, 0)
	}
}

// checkScatterElements runs ScatterElements on random values and indices
// of the given shapes, in one of three ways (into a junk-filled dst, in
// place, onto zeros), and compares it with the reference. An error must
// name the first bad index in index order, and in place leave data as it
// was.
func checkScatterElements(t *testing.T, rng *rand.Rand, ds, is, us []int, axis int) {
	t.Helper()
	data, upd := randValues(rng, prod(ds)), randValues(rng, prod(us))
	ind := randIndices(rng, prod(is), ds[axis], rng.IntN(3) == 0)
	opt := randOptions(rng)
	dst := randValues(rng, len(data))
	from := f64(t, ds, data)
	mode := rng.IntN(3)
	switch mode {
	case 0: // in place
		copy(dst, data)
		from = f64(t, ds, dst)
	case 1: // onto zeros
		clear(data)
		from = tensor.Tensor{}
	}
	want, ok := refScatterElements(data, ds, ind, is, upd, us, axis, opt)
	err := ScatterElements(f64(t, ds, dst), from, i64(t, is, ind), f64(t, us, upd), axis, opt)
	check(t, "ScatterElements", err, dst, want, ok, opt, data, ind, upd, is, us, axis)
	if err == nil {
		return
	}
	first := slices.IndexFunc(ind, func(v int64) bool {
		_, ok := refResolve(v, ds[axis], opt.Rules)
		return !ok
	})
	var ie *IndexError
	errors.As(err, &ie) // check has made sure it is one
	if !slices.Equal(ie.Pos, tensor.Shape(is).Coords(first)) {
		t.Fatalf("ScatterElements: error at %v, want the first bad index, at %v: %v", ie.Pos, tensor.Shape(is).Coords(first), err)
	}
	if mode == 0 && !sameBits(dst, data) {
		t.Fatalf("ScatterElements in place: data written before the error %v:\n got %v\nwant %v", err, dst, data)
	}
}

func TestGatherNDMatchesReference(t *testing.T) { eachMode(t, testGatherNDMatchesReference) }

func testGatherNDMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 3000; iter++ {
		ds := randShape(rng, 1+rng.IntN(4), 4)
		b := rng.IntN(len(ds))
		k := rng.IntN(len(ds) - b + 1)
		mid := randShape(rng, rng.IntN(2), 3)
		is := append(append(append([]int{}, ds[:b]...), mid...), k)
		data := randValues(rng, prod(ds))
		ind := make([]int64, prod(is))
		for i := range ind {
			ind[i] = randIndices(rng, 1, ds[b+i%max(k, 1)], rng.IntN(3) == 0)[0]
		}
		rules := randRules(rng)
		want, ok := refGatherND(data, ds, ind, is, b, rules)
		shape, err := GatherNDShape(ds, is, b)
		if err != nil {
			t.Fatalf("GatherNDShape(%v, %v, %d): %v", ds, is, b, err)
		}
		dst := make([]float64, prod(shape))
		err = GatherND(f64(t, shape, dst), f64(t, ds, data), i64(t, is, ind), b, rules)
		check(t, "GatherND", err, dst, want, ok)
	}
}

func TestGatherMatchesReference(t *testing.T) { eachMode(t, testGatherMatchesReference) }

func testGatherMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for iter := 0; iter < 3000; iter++ {
		ds := randShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		b := rng.IntN(axis + 1)
		is := append(append([]int{}, ds[:b]...), randShape(rng, rng.IntN(3), 3)...)
		data := randValues(rng, prod(ds))
		ind := randIndices(rng, prod(is), ds[axis], rng.IntN(3) == 0)
		rules := randRules(rng)
		want, ok := refGather(data, ds, ind, is, axis, b, rules)
		shape, err := GatherShape(ds, is, axis, b)
		if err != nil {
			t.Fatalf("GatherShape: %v", err)
		}
		dst := make([]float64, prod(shape))
		err = Gather(f64(t, shape, dst), f64(t, ds, data), i64(t, is, ind), axis, b, rules)
		check(t, "Gather", err, dst, want, ok)
	}
}

func TestGatherElementsMatchesReference(t *testing.T) {
	eachMode(t, testGatherElementsMatchesReference)
}

func testGatherElementsMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for iter := 0; iter < 3000; iter++ {
		ds := randShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		is := make([]int, len(ds))
		for d := range ds {
			if d == axis {
				is[d] = rng.IntN(6)
			} else {
				is[d] = rng.IntN(ds[d] + 1)
			}
		}
		data := randValues(rng, prod(ds))
		ind := randIndices(rng, prod(is), ds[axis], rng.IntN(3) == 0)
		rules := randRules(rng)
		want, ok := refGatherElements(data, ds, ind, is, axis, rules)
		dst := make([]float64, prod(is))
		err := GatherElements(f64(t, is, dst), f64(t, ds, data), i64(t, is, ind), axis, rules)
		check(t, "GatherElements", err, dst, want, ok)
	}
}
