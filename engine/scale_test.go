package engine_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// TestScaleMatchesReference checks ScatterOptions.Scale on every scatter
// that takes it (ScatterND, ScatterElements, and ScatterGeneral with
// index_add's dimension numbers along a later axis) against the
// reference, on random values of every element type but
// string, which has no product.
func TestScaleMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 5))
	types := slices.DeleteFunc(slices.Clone(dtypes), func(d tensor.DType) bool { return d == tensor.String })
	var cases []refCase
	for iter := 0; iter < 1500; iter++ {
		d := types[rng.IntN(len(types))]
		scale := randValues(rng, d, tensor.Shape{})
		opt := randOptions(rng, d, GeneralKernels) // rules every kernel of the test takes
		opt.Scale = scale
		ds := RandShape(rng, 1+rng.IntN(3), 4)
		switch iter % 3 {
		case 0: // ScatterND of rows
			is := tensor.Shape{rng.IntN(5), 1}
			us := tensortest.Join(is[:1], ds[1:])
			data, updates := randValues(rng, d, ds), randValues(rng, d, us)
			indices := indicesOf(rng, is, randTuples(rng, ds, is, 0))
			cases = append(cases, scatterCase(rng, "ScatterND scaled", data, indices, opt.Rules,
				func(dst, data tensor.Tensor) error { return ScatterND(dst, data, indices, updates, opt) },
				func(data tensor.Tensor) (tensor.Tensor, error) { return reftest.ScatterND(data, indices, updates, opt) },
				opt, "indices", indices, "updates", updates))
		case 1: // ScatterElements
			axis := rng.IntN(len(ds))
			is := ds.Clone()
			is[axis] = rng.IntN(5)
			data, updates := randValues(rng, d, ds), randValues(rng, d, is)
			indices := indicesOf(rng, is, randIndices(rng, tensortest.Count(is), ds[axis], rng.IntN(3) == 0))
			cases = append(cases, scatterCase(rng, "ScatterElements scaled", data, indices, opt.Rules,
				func(dst, data tensor.Tensor) error { return ScatterElements(dst, data, indices, updates, axis, opt) },
				func(data tensor.Tensor) (tensor.Tensor, error) {
					return reftest.ScatterElements(data, indices, updates, axis, opt)
				},
				opt, "axis", axis, "indices", indices, "updates", updates))
		default: // ScatterGeneral: slices along the last axis, as index_add
			axis := len(ds) - 1
			ds[axis] = max(ds[axis], 1) // the general scatter checks an index even when its window is empty
			n := rng.IntN(5)
			us := ds.Clone()
			us[axis] = n
			data, updates := randValues(rng, d, ds), randValues(rng, d, us)
			// Indices in range: the reference's index errors name positions
			// of its expanded index, not of these.
			vals := randIndices(rng, n, ds[axis], false)
			indices := indicesOf(rng, tensor.Shape{n, 1}, vals)
			dims := ScatterDims{UpdateWindowDims: AllBut(len(ds), axis), InsertedWindowDims: []int{axis},
				ScatterDimsToOperandDims: []int{axis}, IndexVectorDim: 1}
			// The reference: ScatterElements by an index as large as updates.
			full := make([]int, tensortest.Count(us))
			for i := range full {
				full[i] = int(vals[i%max(n, 1)])
			}
			expanded := tensortest.FromInts(tensor.Int64, us, full...)
			cases = append(cases, scatterCase(rng, "ScatterGeneral scaled", data, indices, opt.Rules,
				func(dst, data tensor.Tensor) error { return ScatterGeneral(dst, data, indices, updates, &dims, opt) },
				func(data tensor.Tensor) (tensor.Tensor, error) {
					return reftest.ScatterElements(data, expanded, updates, axis, opt)
				},
				opt, "dims", dims, "indices", indices, "updates", updates))
		}
	}
	checkCases(t, cases)
}

// TestScale checks the scale's arithmetic on values where the rounding
// shows: the product is rounded to the element type before it is added.
func TestScale(t *testing.T) {
	f16 := func(v ...float32) tensor.Tensor {
		return tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{len(v)}, v))
	}
	f16s := func(v float32) tensor.Tensor {
		return tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{}, []float32{v}))
	}
	for _, tc := range []struct {
		name                 string
		data, updates, scale tensor.Tensor
		red                  Reduction
		want                 tensor.Tensor
	}{
		{"float32 add", tensortest.Of[float32](tensor.Shape{3}, 1, 2, 3), tensortest.Of[float32](tensor.Shape{3}, 10, 20, 30), tensor.Scalar(float32(-0.5)), Add,
			tensortest.Of[float32](tensor.Shape{3}, -4, -8, -12)},
		{"int8 wraps", tensortest.Of[int8](tensor.Shape{3}, 1, 2, 3), tensortest.Of[int8](tensor.Shape{3}, 100, 2, -3), tensor.Scalar(int8(2)), Add,
			tensortest.Of[int8](tensor.Shape{3}, -55, 6, -3)},
		{"bool is and", tensortest.Of[bool](tensor.Shape{3}, false, false, true), tensortest.Of[bool](tensor.Shape{3}, true, true, false), tensor.Scalar(false), Add,
			tensortest.Of[bool](tensor.Shape{3}, false, false, true)},
		{"none writes the product", tensortest.Of[float32](tensor.Shape{3}, 1, 2, 3), tensortest.Of[float32](tensor.Shape{3}, 10, 20, 30), tensor.Scalar(float32(3)), None,
			tensortest.Of[float32](tensor.Shape{3}, 30, 60, 90)},
		// 3*(1+2^-10) is 3.0029296875, which float16 rounds to 3.00390625:
		// Add takes the product in float32 (-3 + 3.0029296875), None
		// writes it rounded.
		{"float16 adds the product in float32", f16(-3, 0, 0), f16(3, 0, 0), f16s(1.0009765625), Add, f16(0.0029296875, 0, 0)},
		{"float16 none writes the product rounded", f16(-3, 0, 0), f16(3, 0, 0), f16s(1.0009765625), None, f16(3.00390625, 0, 0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			idx := tensortest.FromInts(tensor.Int64, tensor.Shape{3, 1}, 0, 1, 2)
			dst := tc.data.Clone()
			if err := ScatterND(dst, dst, idx, tc.updates, ScatterOptions{Reduction: tc.red, Scale: tc.scale}); err != nil {
				t.Fatal(err)
			}
			if d := reftest.Diff(dst, tc.want); d != "" {
				t.Error(d)
			}
		})
	}
}

// TestScaleRefusals checks that a scale of another type or size, or one
// whose product the element type lacks, is refused and leaves dst as it
// was.
func TestScaleRefusals(t *testing.T) {
	idx := tensortest.FromInts(tensor.Int64, tensor.Shape{1, 1}, 0)
	for _, tc := range []struct {
		name          string
		data, upd, sc tensor.Tensor
		arith         Arith
	}{
		{"type", tensortest.Of[float32](tensor.Shape{2}, 1, 2), tensortest.Of[float32](tensor.Shape{1}, 3), tensor.Scalar(2.0), Arith{}},
		{"size", tensortest.Of[float32](tensor.Shape{2}, 1, 2), tensortest.Of[float32](tensor.Shape{1}, 3), tensortest.Of[float32](tensor.Shape{2}, 1, 2), Arith{}},
		{"strings", tensor.Must(tensor.From(tensor.Shape{2}, []string{"a", "b"})), tensor.Must(tensor.From(tensor.Shape{1}, []string{"c"})),
			tensor.Scalar("x"), Arith{ConcatStrings: true}},
		{"bool with NumbersOnly", tensortest.Of[bool](tensor.Shape{2}, true, false), tensortest.Of[bool](tensor.Shape{1}, true), tensor.Scalar(true), Arith{NumbersOnly: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := tc.data.Clone()
			err := ScatterND(dst, dst, idx, tc.upd, ScatterOptions{Reduction: None, Scale: tc.sc, Arith: tc.arith})
			if !errors.Is(err, ErrType) {
				t.Fatalf("err = %v, want ErrType", err)
			}
			if d := reftest.Diff(dst, tc.data); d != "" {
				t.Errorf("dst changed: %s", d)
			}
		})
	}
}

// TestScaleAllocs checks that a scaled scatter repeated allocates nothing.
func TestScaleAllocs(t *testing.T) {
	if RaceEnabled {
		t.Skip("the race detector makes sync.Pool drop its items")
	}
	data := tensortest.Of[float32](tensor.Shape{4}, 1, 2, 3, 4)
	idx := tensortest.FromInts(tensor.Int64, tensor.Shape{2, 1}, 3, 0)
	upd := tensortest.Of[float32](tensor.Shape{2}, 5, 6)
	opt := ScatterOptions{Reduction: Add, Scale: tensor.Scalar(float32(2))}
	if n := testing.AllocsPerRun(50, func() { _ = ScatterND(data, data, idx, upd, opt) }); n != 0 {
		t.Errorf("%v allocations per call, want 0", n)
	}
}
