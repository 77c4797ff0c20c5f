package engine_test

import (
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The kernels the fuzz target calls, by the number its first byte picks.
const (
	fuzzScatterND = iota
	fuzzScatterElements
	fuzzGatherND
	fuzzGatherElements
	fuzzGather
	fuzzKernels
)

// fuzzIndexTypes are the index types the fuzz target picks from: every
// integer type, and a float, which every kernel refuses.
var fuzzIndexTypes = append(slices.Clone(indexTypes), tensor.Float32)

// FuzzKernels calls one of the five kernels as the fuzzer's bytes say, on
// shapes that mostly fit and now and then do not, values of every element
// type with their corners, indices of every integer type (a float too)
// with negative and out-of-range values, any reduction (an unknown one
// too), either index rule, either arithmetic, a scatter into a junk dst,
// in place or onto zeros, and at times the work split over goroutines
// however small it is (ScatterND's single elements then sorted by block of
// dst). It checks the outcome against testkit/reftest as
// the differential tests do (refCase.failure), a quarter of the time
// through the general kernels with the kernel's dimension numbers: the
// same result bit for bit
// but for NaN payloads, or an error of the reference's class, an index
// error naming the first bad index, and dst as it was where the kernel
// promises it.
func FuzzKernels(f *testing.F) {
	// A seed per kernel, element type and way of calling.
	for op := range fuzzKernels {
		for d := range dtypes {
			for mode := range 3 {
				// op, type, index type, rules, split; data shape [2,3];
				// then the kernel's choices and values.
				f.Add([]byte{byte(op), byte(d), 0, byte(mode), 0, 2, 2, 3,
					byte(op + d), 1, byte(mode), 5, 7, 2, 0, 1, 0x81, 0x7f, 3, 1, 2, 1, 0, 9, 11, 4})
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		k := FastKernels
		c, split := readKernelCall(in, &k)
		if split {
			// Two workers, and single elements sorted by block of dst
			// where that path takes them.
			defer SetMinWork(1)()
			defer SetBlocked()()
		}
		// Now and then through the general kernels, with the form's
		// dimension numbers: the fast paths and the general core must
		// meet the same reference. (The call reads k when it runs.)
		if in.Pick(4) == 0 && c.rules.Negative != NegativeSkip { // which the general core refuses
			k = GeneralKernels
		}
		if d := c.failure(); d != "" {
			t.Fatalf("%s: %s\n%v", c.what, d, c.ctx)
		}
	})
}

// readKernelCall decodes a call of one of *k's kernels and the
// reference's outcome from in; split says to split the work however small
// it is.
func readKernelCall(in *tensortest.Fuzz, k *Kernels) (c refCase, split bool) {
	op := in.Pick(fuzzKernels)
	dt := dtypes[in.Pick(len(dtypes))]
	it := fuzzIndexTypes[in.Pick(len(fuzzIndexTypes))]
	rules := IndexRules{Negative: everyRuleNegatives[in.Pick(len(everyRuleNegatives))], OutOfRange: OutOfRange(in.Pick(2))}
	split = in.Bool()
	ds := in.Shape()
	data := in.Elements(dt, ds)
	switch op {
	case fuzzScatterND, fuzzScatterElements:
		if in.Pick(4) == 0 {
			rules.Negative = NegativeSkip // a scatter's rule only
		}
		opt := ScatterOptions{Reduction: beyondMean(Reduction(in.Pick(int(Mean) + 3))), ExcludeSelf: in.Bool(), Rules: rules,
			Arith: Arith{Complex: ComplexArith(in.Pick(2)), ConcatStrings: in.Bool(), MinMax: MinMax(in.Pick(5)), SqrtCount: in.Pick(4) == 0}}
		mode := in.Pick(3)
		if op == fuzzScatterND {
			indices, us := in.ND(it, ds, 0, true)
			updates := in.Elements(in.Mostly(dt, dtypes), us)
			return scatterCaseIn(mode, tensortest.Junk(dt, ds), "ScatterND", data, indices, rules,
				func(dst, data tensor.Tensor) error { return k.ScatterND(dst, data, indices, updates, opt) },
				func(data tensor.Tensor) (tensor.Tensor, error) {
					return reftest.ScatterND(data, indices, updates, opt)
				},
				opt, "indices", indices, "updates", updates), split
		}
		axis := in.Next() % 4
		indices := in.Along(it, ds, axis)
		us := indices.Shape()
		if len(us) > 0 && in.Pick(4) == 0 {
			us[0]++ // updates may be larger than indices
		}
		updates := in.Elements(in.Mostly(dt, dtypes), in.Fit(us))
		return scatterCaseIn(mode, tensortest.Junk(dt, ds), "ScatterElements", data, indices, rules,
			func(dst, data tensor.Tensor) error { return k.ScatterElements(dst, data, indices, updates, axis, opt) },
			func(data tensor.Tensor) (tensor.Tensor, error) {
				return reftest.ScatterElements(data, indices, updates, axis, opt)
			},
			opt, "axis", axis, "indices", indices, "updates", updates), split
	case fuzzGatherND:
		b := in.Next() % 3
		indices, _ := in.ND(it, ds, min(max(b, 0), len(ds)), false)
		shape, err := GatherNDShape(ds, indices.Shape(), b)
		want, wantErr := reftest.GatherND(data, indices, b, rules)
		return gatherCase("GatherND", dt, shape, err, indices, rules, want, wantErr,
			func(dst tensor.Tensor) error { return k.GatherND(dst, data, indices, b, rules) },
			rules, "batch dims", b, "data", data, "indices", indices), split
	case fuzzGatherElements:
		axis := in.Next() % 4
		indices := in.Along(it, ds, axis)
		shape, err := GatherElementsShape(ds, indices.Shape(), axis)
		want, wantErr := reftest.GatherElements(data, indices, axis, rules)
		return gatherCase("GatherElements", dt, shape, err, indices, rules, want, wantErr,
			func(dst tensor.Tensor) error { return k.GatherElements(dst, data, indices, axis, rules) },
			rules, "axis", axis, "data", data, "indices", indices), split
	}
	axis, b := in.Next()%4, in.Next()%3
	is := in.Fit(tensortest.Join(ds[:min(max(b, 0), len(ds))], in.Shape()))
	indices := in.IndicesFor(it, is, tensortest.Sizes(ds, axis, 1))
	shape, err := GatherShape(ds, is, axis, b)
	want, wantErr := reftest.Gather(data, indices, axis, b, rules)
	return gatherCase("Gather", dt, shape, err, indices, rules, want, wantErr,
		func(dst tensor.Tensor) error { return k.Gather(dst, data, indices, axis, b, rules) },
		rules, "axis", axis, "batch dims", b, "data", data, "indices", indices), split
}

// gatherCase returns the case of a gather (run) of elements of type dt
// into a junk dst of the output shape, or, when the kernel's shape
// function refuses the arguments (shapeErr), of a scalar's shape: the
// kernel must then fail as the reference does and leave dst alone. (A
// gather may have written part of dst when it finds a bad index.)
func gatherCase(what string, dt tensor.DType, shape tensor.Shape, shapeErr error, indices tensor.Tensor, rules IndexRules,
	want tensor.Tensor, wantErr error, run func(dst tensor.Tensor) error, ctx ...any) refCase {
	if shapeErr != nil {
		shape = tensor.Shape{}
	}
	return refCase{what: what, indices: indices, rules: rules, start: tensortest.Junk(dt, shape),
		run: run, want: want, wantErr: wantErr, ctx: ctx}
}
