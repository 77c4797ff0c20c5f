package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// This file checks the kernels against the reference implementations of
// testkit/reftest, on random shapes, indices (with duplicates, negative
// and out-of-range values, of every integer type), element types (every
// one, so every mover size and every reducer), values (with ±0, NaN,
// infinities and integers that wrap), index rules, reductions and
// arithmetic, comparing the results bit for bit and the errors by class.

// errorClasses are the classes of error that the engine and the reference
// share.
var errorClasses = []error{ErrIndex, ErrShape, ErrType, ErrArgument, tensor.ErrTooLarge}

// sameClass reports whether the engine's error err is of the class of the
// reference's error wantErr.
func sameClass(err, wantErr error) bool {
	for _, c := range errorClasses {
		if errors.Is(err, c) {
			return errors.Is(wantErr, c)
		}
	}
	return false
}

// eachMode runs a test as the kernels run by default (small inputs on one
// goroutine), with every kernel split over 8 goroutines however small its
// input, and split so again with the path of tensors too large for
// precomputed offsets.
func eachMode(t *testing.T, test func(t *testing.T)) {
	t.Run("default", test)
	t.Run("split", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
		defer SetMinWork(1)()
		test(t)
	})
	t.Run("split/no-offsets", func(t *testing.T) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8))
		defer SetMinWork(1)()
		defer SetMaxOffset(-1)()
		test(t)
	})
}

// random helpers

// dtypes are the element types the tests pick from: every one, so that
// every mover (1, 2, 4, 8 and 16 bytes, strings) and every reducer runs;
// indexTypes the index types, int64 most often.
var (
	dtypes     = tensor.DTypes()
	indexTypes = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int16, tensor.Int8,
		tensor.Uint8, tensor.Uint16, tensor.Uint32, tensor.Uint64}
)

// cornerBytes are the bytes from which tensortest.Fuzz.Elements makes the
// corner values: NaN, +Inf, -Inf, -0, 65504, 1000 (and the integers 127,
// 126, -127, -128, 125, 124), and 0.
var cornerBytes = []byte{127, 126, 0x81, 0x80, 125, 124, 0}

// randValues returns a tensor of type d and shape s whose elements are
// those tensortest.Fuzz.Elements reads from random bytes, a fifth of them
// corner values: floats that are NaN, infinities, -0 or sums that round,
// integers that wrap, one-letter or empty strings.
func randValues(rng *rand.Rand, d tensor.DType, s tensor.Shape) tensor.Tensor {
	b := make([]byte, tensortest.Count(s))
	for i := range b {
		b[i] = byte(rng.Uint32())
		if rng.IntN(5) == 0 {
			b[i] = cornerBytes[rng.IntN(len(cornerBytes))]
		}
	}
	return tensortest.NewFuzz(b).Elements(d, s)
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

// indicesOf returns the index values v as a tensor of shape s and a random
// index type, converted as Go converts (a negative value wraps in an
// unsigned type, to a value far out of range).
func indicesOf(rng *rand.Rand, s tensor.Shape, v []int64) tensor.Tensor {
	ints := make([]int, len(v))
	for i, x := range v {
		ints[i] = int(x)
	}
	return tensortest.FromInts(indexTypes[rng.IntN(len(indexTypes))], s, ints...)
}

// randTuples returns indices of shape is whose last dimension holds tuples
// addressing dimensions from, from+1, ... of data of shape ds.
func randTuples(rng *rand.Rand, ds, is tensor.Shape, from int) []int64 {
	k := is[len(is)-1]
	ind := make([]int64, tensortest.Count(is))
	for i := range ind {
		ind[i] = randIndices(rng, 1, ds[from+i%max(k, 1)], rng.IntN(3) == 0)[0]
	}
	return ind
}

// everyRuleNegatives are the rules for negative indices that every kernel
// takes; NegativeSkip, the scatters' only, is drawn where they are.
var everyRuleNegatives = []Negative{NegativeError, NegativeFromEnd, NegativeRefused}

func randRules(rng *rand.Rand) IndexRules {
	return IndexRules{Negative: everyRuleNegatives[rng.IntN(len(everyRuleNegatives))], OutOfRange: OutOfRange(rng.IntN(2))}
}

// reductionsFor are the reductions defined for each kind of element.
func reductionsFor(d tensor.DType) []Reduction {
	switch {
	case d == tensor.String:
		return []Reduction{None, Add}
	case d == tensor.Bool:
		return []Reduction{None, Add, Sub, Mul, Max, Min}
	case d.IsComplex():
		return []Reduction{None, Add, Sub, Mul, Mean, Div}
	}
	return []Reduction{None, Add, Sub, Mul, Max, Min, Mean, Div}
}

// randOptions returns random scatter options for elements of type d: a
// reduction defined for d, or one time in sixteen any reduction (an
// unknown one too), with either arithmetic.
func randOptions(rng *rand.Rand, d tensor.DType, kern Kernels) ScatterOptions {
	reds := reductionsFor(d)
	opt := ScatterOptions{Reduction: reds[rng.IntN(len(reds))], ExcludeSelf: rng.IntN(2) == 0, Rules: randRules(rng),
		Arith: Arith{Complex: ComplexArith(rng.IntN(2)), ConcatStrings: rng.IntN(4) != 0, MinMax: MinMax(rng.IntN(5)),
			SqrtCount: rng.IntN(8) == 0}}
	if rng.IntN(6) == 0 && kern.Name() == FastKernels.Name() {
		opt.Rules.Negative = NegativeSkip // the forms' rule, which the general core refuses
	}
	if rng.IntN(16) == 0 {
		opt.Reduction = beyondMean(Reduction(rng.IntN(int(Mean) + 3)))
	}
	if (opt.Reduction == Sub || opt.Reduction == Div) && rng.IntN(8) != 0 {
		opt.ExcludeSelf = false
	}
	return opt
}

// beyondMean returns r for None to Mean, Div for the reduction after
// Mean, and for any later one, one past every reduction: the bitwise
// reductions of the general scatter have no counterpart in the forms'
// reference, so the reductions after Mean stand for Div and an unknown
// one.
func beyondMean(r Reduction) Reduction {
	switch {
	case r == Mean+1:
		return Div
	case r > Mean:
		return Div + 1
	}
	return r
}

// refCase is one random call of a kernel with the reference's outcome,
// made once and checked in each mode of eachMode.
type refCase struct {
	what string
	// run calls the kernel with dst, which starts as a copy of start.
	run   func(dst tensor.Tensor) error
	start tensor.Tensor
	// keep says a failed call must leave dst as it was.
	keep bool
	// indices are the call's indices and rules its index rules, which a
	// bad index error quotes.
	indices tensor.Tensor
	rules   IndexRules
	want    tensor.Tensor
	wantErr error
	ctx     []any // the call, for a failure message
}

// failure returns how the kernel's outcome (the dst it wrote, and its
// error) disagrees with the reference's, or "" when both succeed with the
// same values, compared by their bits but for NaN payloads, or both fail
// with errors of the same class: on index values, the kernel with an
// *IndexError that names the first bad index in row-major order of
// indices, the first the reference lists, and with dst as it was if
// c.keep; for any other reason, with dst as it was.
func (c *refCase) failure() string {
	dst := c.start.Clone()
	err := c.run(dst)
	if d := reftest.Disagreement(dst, err, c.want, c.wantErr, sameClass); d != "" || err == nil {
		return d
	}
	if errors.Is(err, ErrIndex) {
		if d := c.indexFailure(err); d != "" || !c.keep {
			return d
		}
	}
	if d := reftest.Diff(dst, c.start); d != "" {
		return fmt.Sprintf("the failed call (%v) wrote dst: %s", err, d)
	}
	return ""
}

// indexFailure returns how the kernel's index error err disagrees with
// the reference's, or "".
func (c *refCase) indexFailure(err error) string {
	var ie *IndexError
	var re *reftest.IndexError
	switch {
	case !errors.As(err, &ie):
		return fmt.Sprintf("error %v is not an *IndexError", err)
	case !errors.As(c.wantErr, &re):
		return fmt.Sprintf("the reference fails with %v, not on index values", c.wantErr)
	case !slices.Equal(ie.Pos, c.indices.Shape().Coords(re.Bad[0])):
		return fmt.Sprintf("error at %v, want the first bad index, at %v (bad: flat %v): %v",
			ie.Pos, c.indices.Shape().Coords(re.Bad[0]), re.Bad, err)
	}
	// The value it quotes, and the range it gives for the size it quotes,
	// which the value lies outside (a uint64 index above the int64 range
	// reads as negative).
	v, _ := c.indices.IntAt(re.Bad[0])
	unsigned := c.indices.DType() == tensor.Uint64
	lo, hi := IndexBounds(c.rules, ie.Size)
	if inside := lo <= v && v <= hi && !(unsigned && v < 0); ie.Value != v || ie.Unsigned != unsigned || ie.Min != lo || ie.Max != hi || inside {
		return fmt.Sprintf("error quotes %d (unsigned %v) in [%d, %d] for size %d, want %d in [%d, %d]: %v",
			ie.Value, ie.Unsigned, ie.Min, ie.Max, ie.Size, v, lo, hi, err)
	}
	return ""
}

// checkCases checks every case in each mode.
func checkCases(t *testing.T, cases []refCase) {
	eachMode(t, func(t *testing.T) {
		for i := range cases {
			if f := cases[i].failure(); f != "" {
				t.Fatalf("%s, case %d: %s\n%v", cases[i].what, i, f, cases[i].ctx)
			}
		}
	})
}

// The ways scatterCase calls a scatter.
const (
	intoJunk  = iota // into a dst of random values, data apart
	inPlace          // dst is data
	ontoZeros        // into a dst of random values, with a zero data tensor, which stands for zeros
)

// scatterCase returns a case that calls a scatter (run, with dst and data)
// on data with indices under rules, in one of the three ways at random,
// into a dst of random values, with the outcome of ref, given the data the
// call stands for. A failed call must leave dst as it was in place; into
// another dst it may have written part of it.
func scatterCase(rng *rand.Rand, what string, data, indices tensor.Tensor, rules IndexRules,
	run func(dst, data tensor.Tensor) error, ref func(data tensor.Tensor) (tensor.Tensor, error), ctx ...any) refCase {
	return scatterCaseIn(rng.IntN(3), randValues(rng, data.DType(), data.Shape()), what, data, indices, rules, run, ref, ctx...)
}

// scatterCaseIn is scatterCase in the given way (intoJunk, inPlace,
// ontoZeros) into a dst that starts as start, of data's type and shape.
func scatterCaseIn(mode int, start tensor.Tensor, what string, data, indices tensor.Tensor, rules IndexRules,
	run func(dst, data tensor.Tensor) error, ref func(data tensor.Tensor) (tensor.Tensor, error), ctx ...any) refCase {
	c := refCase{what: what, indices: indices, rules: rules, start: start}
	switch mode {
	case intoJunk:
		c.run = func(dst tensor.Tensor) error { return run(dst, data) }
	case inPlace:
		c.start = data
		c.run = func(dst tensor.Tensor) error { return run(dst, dst) }
	case ontoZeros:
		data = tensor.Must(tensor.New(data.DType(), data.Shape()))
		c.run = func(dst tensor.Tensor) error { return run(dst, tensor.Tensor{}) }
	}
	c.keep = mode == inPlace
	c.want, c.wantErr = ref(data)
	c.ctx = append(ctx, "mode", mode, "data", data)
	return c
}

func TestScatterNDMatchesReference(t *testing.T) { scatterNDMatchesReference(t, FastKernels) }

// scatterNDMatchesReference checks kern.ScatterND against the reference.
func scatterNDMatchesReference(t *testing.T, kern Kernels) {
	rng := rand.New(rand.NewPCG(1, 2))
	cases := make([]refCase, 4000)
	for i := range cases {
		ds := RandShape(rng, 1+rng.IntN(3), 4)
		k := rng.IntN(len(ds) + 1)
		lead := RandShape(rng, 1+rng.IntN(2), 4)
		is, us := tensortest.Join(lead, tensor.Shape{k}), tensortest.Join(lead, ds[k:])
		d := dtypes[rng.IntN(len(dtypes))]
		data, updates := randValues(rng, d, ds), randValues(rng, d, us)
		indices := indicesOf(rng, is, randTuples(rng, ds, is, 0))
		opt := randOptions(rng, d, kern)
		cases[i] = scatterCase(rng, "ScatterND", data, indices, opt.Rules,
			func(dst, data tensor.Tensor) error { return kern.ScatterND(dst, data, indices, updates, opt) },
			func(data tensor.Tensor) (tensor.Tensor, error) {
				return reftest.ScatterND(data, indices, updates, opt)
			},
			opt, "indices", indices, "updates", updates)
	}
	checkCases(t, cases)
}

func TestScatterElementsMatchesReference(t *testing.T) {
	scatterElementsMatchesReference(t, FastKernels)
}

// scatterElementsMatchesReference checks kern.ScatterElements against the reference.
func scatterElementsMatchesReference(t *testing.T, kern Kernels) {
	rng := rand.New(rand.NewPCG(3, 4))
	var cases []refCase
	for iter := 0; iter < 4000; iter++ {
		ds := RandShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		is := make(tensor.Shape, len(ds))
		us := make(tensor.Shape, len(ds))
		for d := range ds {
			if d == axis {
				is[d] = rng.IntN(6)
			} else {
				is[d] = rng.IntN(ds[d] + 1)
			}
			us[d] = is[d] + rng.IntN(2)*rng.IntN(2) // updates sometimes larger
		}
		cases = append(cases, scatterElementsCase(rng, kern, ds, is, us, axis))
	}
	// Along axis 0 with indices and updates as wide as data: the column
	// blocks, several of them, the last one partial.
	for iter := 0; iter < 400; iter++ {
		ds := tensor.Shape{1 + rng.IntN(40), 1 + rng.IntN(100)}
		is := tensor.Shape{rng.IntN(60), ds[1]}
		cases = append(cases, scatterElementsCase(rng, kern, ds, is, is, 0))
	}
	checkCases(t, cases)
}

// scatterElementsCase returns a scatterCase of kern.ScatterElements on random
// values and indices of the given shapes.
func scatterElementsCase(rng *rand.Rand, kern Kernels, ds, is, us tensor.Shape, axis int) refCase {
	d := dtypes[rng.IntN(len(dtypes))]
	data, updates := randValues(rng, d, ds), randValues(rng, d, us)
	indices := indicesOf(rng, is, randIndices(rng, tensortest.Count(is), ds[axis], rng.IntN(3) == 0))
	opt := randOptions(rng, d, kern)
	return scatterCase(rng, "ScatterElements", data, indices, opt.Rules,
		func(dst, data tensor.Tensor) error {
			return kern.ScatterElements(dst, data, indices, updates, axis, opt)
		},
		func(data tensor.Tensor) (tensor.Tensor, error) {
			return reftest.ScatterElements(data, indices, updates, axis, opt)
		},
		opt, "axis", axis, "indices", indices, "updates", updates)
}

// The gathers write into a dst of random values, which they must
// overwrite, with zeros where they skip an index.

func TestGatherNDMatchesReference(t *testing.T) { gatherNDMatchesReference(t, FastKernels) }

// gatherNDMatchesReference checks kern.GatherND against the reference.
func gatherNDMatchesReference(t *testing.T, kern Kernels) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := make([]refCase, 3000)
	for i := range cases {
		ds := RandShape(rng, 1+rng.IntN(4), 4)
		b := rng.IntN(len(ds))
		k := rng.IntN(len(ds) - b + 1)
		mid := RandShape(rng, rng.IntN(2), 3)
		is := tensortest.Join(ds[:b], mid, tensor.Shape{k})
		data, indices := randValues(rng, dtypes[rng.IntN(len(dtypes))], ds), indicesOf(rng, is, randTuples(rng, ds, is, b))
		rules := randRules(rng)
		shape, err := GatherNDShape(ds, is, b)
		if err != nil {
			t.Fatalf("GatherNDShape(%v, %v, %d): %v", ds, is, b, err)
		}
		want, wantErr := reftest.GatherND(data, indices, b, rules)
		cases[i] = refCase{what: "GatherND", indices: indices, rules: rules, start: randValues(rng, data.DType(), shape),
			run:  func(dst tensor.Tensor) error { return kern.GatherND(dst, data, indices, b, rules) },
			want: want, wantErr: wantErr, ctx: []any{rules, "batch dims", b, "data", data, "indices", indices}}
	}
	checkCases(t, cases)
}

func TestGatherMatchesReference(t *testing.T) { gatherMatchesReference(t, FastKernels) }

// gatherMatchesReference checks kern.Gather against the reference.
func gatherMatchesReference(t *testing.T, kern Kernels) {
	rng := rand.New(rand.NewPCG(7, 8))
	cases := make([]refCase, 3000)
	for i := range cases {
		ds := RandShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		b := rng.IntN(axis + 1)
		is := tensortest.Join(ds[:b], RandShape(rng, rng.IntN(3), 3))
		data := randValues(rng, dtypes[rng.IntN(len(dtypes))], ds)
		indices := indicesOf(rng, is, randIndices(rng, tensortest.Count(is), ds[axis], rng.IntN(3) == 0))
		rules := randRules(rng)
		shape, err := GatherShape(ds, is, axis, b)
		if err != nil {
			t.Fatalf("GatherShape(%v, %v, %d, %d): %v", ds, is, axis, b, err)
		}
		want, wantErr := reftest.Gather(data, indices, axis, b, rules)
		cases[i] = refCase{what: "Gather", indices: indices, rules: rules, start: randValues(rng, data.DType(), shape),
			run:  func(dst tensor.Tensor) error { return kern.Gather(dst, data, indices, axis, b, rules) },
			want: want, wantErr: wantErr, ctx: []any{rules, "axis", axis, "batch dims", b, "data", data, "indices", indices}}
	}
	checkCases(t, cases)
}

func TestGatherElementsMatchesReference(t *testing.T) { gatherElementsMatchesReference(t, FastKernels) }

// gatherElementsMatchesReference checks kern.GatherElements against the reference.
func gatherElementsMatchesReference(t *testing.T, kern Kernels) {
	rng := rand.New(rand.NewPCG(9, 10))
	cases := make([]refCase, 3000)
	for i := range cases {
		ds := RandShape(rng, 1+rng.IntN(3), 4)
		axis := rng.IntN(len(ds))
		is := make(tensor.Shape, len(ds))
		for d := range ds {
			if d == axis {
				is[d] = rng.IntN(6)
			} else {
				is[d] = rng.IntN(ds[d] + 1)
			}
		}
		data := randValues(rng, dtypes[rng.IntN(len(dtypes))], ds)
		indices := indicesOf(rng, is, randIndices(rng, tensortest.Count(is), ds[axis], rng.IntN(3) == 0))
		rules := randRules(rng)
		want, wantErr := reftest.GatherElements(data, indices, axis, rules)
		cases[i] = refCase{what: "GatherElements", indices: indices, rules: rules, start: randValues(rng, data.DType(), is),
			run:  func(dst tensor.Tensor) error { return kern.GatherElements(dst, data, indices, axis, rules) },
			want: want, wantErr: wantErr, ctx: []any{rules, "axis", axis, "data", data, "indices", indices}}
	}
	checkCases(t, cases)
}

// TestGeneralMatchesReference runs the reference tests of the forms with
// the form functions going through the general kernels: the general
// gather and scatter then meet the same reference, on the same cases.
//
// With split-small, every call is split among workers, and a scatter by slabs
// fills and updates one slab at a time.
func TestGeneralMatchesReference(t *testing.T) {
	for _, split := range []bool{false, true} {
		if split {
			defer SetMinWork(1)()
			defer SetSlabBytes(1)()
		}
		for name, test := range map[string]func(*testing.T, Kernels){
			"ScatterND":       scatterNDMatchesReference,
			"ScatterElements": scatterElementsMatchesReference,
			"GatherND":        gatherNDMatchesReference,
			"Gather":          gatherMatchesReference,
			"GatherElements":  gatherElementsMatchesReference,
		} {
			t.Run(fmt.Sprintf("%s/split-small=%v", name, split), func(t *testing.T) { test(t, GeneralKernels) })
		}
	}
}

// TestScatterNDChecksAsItGoes: ScatterND of more single updates than dst
// has elements, into a dst that is not data, checks each index as it
// applies it (no offsets pass). It reports the first bad index in index
// order, or under ReportLast the last bad tuple, and leaves data as it
// was; into a fresh dst it has written part of it by then (had the
// indices been validated first, dst would still be all zero); in place it
// writes nothing; with OutOfRangeSkip it applies the others; and without
// a bad index it equals the in-place result, which goes through the
// offsets.
func TestScatterNDChecksAsItGoes(t *testing.T) {
	defer SetMinWork(64)() // not a small call, so not the small calls' path
	const size, n = 100, 400
	fresh := func() (data, upd []float32, idx []int64) {
		data, upd, idx = make([]float32, size), make([]float32, n), make([]int64, n)
		for i := range data {
			data[i] = float32(i)
		}
		for i := range upd {
			upd[i] = float32(i%7) + 0.5
			idx[i] = int64(i*37) % size
			if i%5 == 0 {
				idx[i] -= size // counts from the end
			}
		}
		return data, upd, idx
	}
	f32 := func(v []float32) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	ind := func(v []int64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v), 1}, v)) }
	fromEnd := IndexRules{Negative: NegativeFromEnd}

	data, upd, idx := fresh()
	want := slices.Clone(data)
	opt := ScatterOptions{Reduction: Add, Rules: fromEnd}
	if err := ScatterND(f32(want), f32(want), ind(idx), f32(upd), opt); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, size)
	if err := ScatterND(f32(got), f32(data), ind(idx), f32(upd), opt); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("into another dst: %v, want %v (in place)", got, want)
	}

	first, last := 150, 333
	for _, c := range []struct {
		name    string
		rules   IndexRules
		pos     int // of the reported index; -1 for none
		inPlace bool
	}{
		{"first", fromEnd, first, false},
		{"last", IndexRules{Negative: NegativeFromEnd, Report: ReportLast}, last, false},
		{"in place", fromEnd, first, true},
		{"skip", IndexRules{Negative: NegativeFromEnd, OutOfRange: OutOfRangeSkip}, -1, false},
	} {
		data, upd, idx := fresh()
		idx[first], idx[last] = size, -size-1
		before := slices.Clone(data)
		dst := make([]float32, size)
		if c.inPlace {
			dst = data
		}
		opt := ScatterOptions{Reduction: Add, Rules: c.rules}
		err := ScatterND(f32(dst), f32(data), ind(idx), f32(upd), opt)
		if c.pos < 0 {
			skipped, refErr := reftest.ScatterND(f32(data), ind(idx), f32(upd), opt)
			if refErr != nil {
				t.Fatalf("%s: the reference fails: %v", c.name, refErr)
			}
			if d := reftest.Diff(f32(dst), skipped); err != nil || d != "" {
				t.Errorf("%s: %v %s", c.name, err, d)
			}
			continue
		}
		var ie *IndexError
		if !errors.As(err, &ie) || !slices.Equal(ie.Pos, []int{c.pos, 0}) {
			t.Errorf("%s: %v, want an IndexError at [%d 0]", c.name, err, c.pos)
		}
		if !slices.Equal(data, before) {
			t.Errorf("%s: data changed", c.name)
		}
		if !c.inPlace && !slices.ContainsFunc(dst, func(v float32) bool { return v != 0 }) {
			t.Errorf("%s: dst untouched: the indices were validated first", c.name)
		}
	}
}

// TestMove64: rows of 64 bytes, whatever the element size, move as one
// fixed-size copy (move64); a skipped index fills its row with zeros.
// Gather and GatherND give the reference's rows.
func TestMove64(t *testing.T) {
	skip := IndexRules{OutOfRange: OutOfRangeSkip}
	for _, dt := range []tensor.DType{tensor.Int8, tensor.Float16, tensor.Float32, tensor.Float64, tensor.Complex128} {
		width := 64 / dt.Size()
		vals := make([]int, 8*width)
		for i := range vals {
			vals[i] = i%100 + 1
		}
		data := tensortest.FromInts(dt, tensor.Shape{8, width}, vals...)
		rows := []int{3, 0, 9, 7, 3, -1, 5}
		for _, nd := range []bool{false, true} {
			shape := tensor.Shape{len(rows)}
			if nd {
				shape = tensor.Shape{len(rows), 1}
			}
			indices := tensortest.FromInts(tensor.Int64, shape, rows...)
			out := tensortest.Junk(dt, tensor.Shape{len(rows), width})
			var err error
			var want tensor.Tensor
			var refErr error
			if nd {
				err = GatherND(out, data, indices, 0, skip)
				want, refErr = reftest.GatherND(data, indices, 0, skip)
			} else {
				err = Gather(out, data, indices, 0, 0, skip)
				want, refErr = reftest.Gather(data, indices, 0, 0, skip)
			}
			if refErr != nil {
				t.Fatalf("%v rows of %d, GatherND %v: the reference fails: %v", dt, width, nd, refErr)
			}
			if d := reftest.Diff(out, want); err != nil || d != "" {
				t.Errorf("%v rows of %d, GatherND %v: %v %s", dt, width, nd, err, d)
			}
		}
	}
}
