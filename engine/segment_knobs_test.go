package engine

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// The knobs of the segment reductions: ScatterOptions.Fill, NegativeSkip,
// Arith.SqrtCount and MinMaxStdUpdate.

func sf32(shape tensor.Shape, v ...float32) tensor.Tensor { return tensor.Must(tensor.From(shape, v)) }

func si64(shape tensor.Shape, v ...int64) tensor.Tensor { return tensor.Must(tensor.From(shape, v)) }

func TestScatterFill(t *testing.T) {
	upd := sf32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6)
	for _, tc := range []struct {
		name string
		red  Reduction
		fill float32
		want []float32
	}{
		// Rows 0 and 2 get [1,2] and [3,4]+[5,6]; row 1 and 3 keep the fill.
		{"add", Add, -0.5, []float32{0.5, 1.5, -0.5, -0.5, 7.5, 9.5, -0.5, -0.5}},
		{"max from the lowest float32", Max, -math.MaxFloat32, []float32{1, 2, -math.MaxFloat32, -math.MaxFloat32, 5, 6, -math.MaxFloat32, -math.MaxFloat32}},
		{"none", None, 7, []float32{1, 2, 7, 7, 5, 6, 7, 7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ind := si64(tensor.Shape{3, 1}, 0, 2, 2)
			opt := ScatterOptions{Reduction: tc.red, Fill: tensor.Scalar(tc.fill)}
			for _, split := range []bool{false, true} {
				if split {
					defer func(w int) { minWork = w }(minWork)
					minWork = 1
				}
				dst := tensor.Must(tensor.Empty(tensor.Float32, tensor.Shape{4, 2}))
				if err := ScatterND(dst, tensor.Tensor{}, ind, upd, opt); err != nil {
					t.Fatal(err)
				}
				if got := dst.Data().([]float32); !slices.Equal(got, tc.want) {
					t.Errorf("split %v: got %v, want %v", split, got, tc.want)
				}
			}
		})
	}
	// ScatterElements along axis 0, whose column blocks read data: the
	// fill instead.
	dst := tensor.Must(tensor.Empty(tensor.Float32, tensor.Shape{3, 2}))
	err := ScatterElements(dst, tensor.Tensor{}, si64(tensor.Shape{1, 2}, 2, 0), sf32(tensor.Shape{1, 2}, 8, 9), 0,
		ScatterOptions{Reduction: Add, Fill: tensor.Scalar(float32(1))})
	if want := []float32{1, 10, 1, 1, 9, 1}; err != nil || !slices.Equal(dst.Data().([]float32), want) {
		t.Errorf("ScatterElements: got %v, %v, want %v", dst.Data(), err, want)
	}
	// Strings fill too.
	sdst := tensor.Must(tensor.Empty(tensor.String, tensor.Shape{3}))
	err = ScatterND(sdst, tensor.Tensor{}, si64(tensor.Shape{1, 1}, 1), tensor.Must(tensor.From(tensor.Shape{1}, []string{"b"})),
		ScatterOptions{Reduction: Add, Arith: Arith{ConcatStrings: true}, Fill: tensor.Scalar("a")})
	if want := []string{"a", "ab", "a"}; err != nil || !slices.Equal(sdst.Data().([]string), want) {
		t.Errorf("strings: got %v, %v, want %v", sdst.Data(), err, want)
	}
}

func TestScatterFillRefusals(t *testing.T) {
	ind, upd := si64(tensor.Shape{1, 1}, 0), sf32(tensor.Shape{1}, 1)
	data := sf32(tensor.Shape{2}, 5, 6)
	for _, tc := range []struct {
		name  string
		data  tensor.Tensor
		fill  tensor.Tensor
		class error
	}{
		{"a fill of another type", tensor.Tensor{}, tensor.Scalar(float64(1)), ErrType},
		{"a fill of two elements", tensor.Tensor{}, sf32(tensor.Shape{2}, 1, 2), ErrType},
		{"a fill with data", data, tensor.Scalar(float32(1)), ErrArgument},
	} {
		dst := sf32(tensor.Shape{2}, 3, 4)
		err := ScatterND(dst, tc.data, ind, upd, ScatterOptions{Reduction: Add, Fill: tc.fill})
		if !errors.Is(err, tc.class) {
			t.Errorf("%s: got %v, want %v", tc.name, err, tc.class)
		}
		if got := dst.Data().([]float32); !slices.Equal(got, []float32{3, 4}) {
			t.Errorf("%s: dst written: %v", tc.name, got)
		}
	}
}

func TestNegativeSkip(t *testing.T) {
	skip := IndexRules{Negative: NegativeSkip}
	upd := sf32(tensor.Shape{5}, 1, 2, 4, 8, 16)
	// Negative ids are dropped, whatever their size; the rest add up.
	dst := tensor.Must(tensor.Empty(tensor.Float32, tensor.Shape{3}))
	err := ScatterND(dst, tensor.Tensor{}, si64(tensor.Shape{5, 1}, 0, -1, 2, math.MinInt64, 0), upd,
		ScatterOptions{Reduction: Add, Rules: skip})
	if want := []float32{17, 0, 4}; err != nil || !slices.Equal(dst.Data().([]float32), want) {
		t.Errorf("dropped: got %v, %v, want %v", dst.Data(), err, want)
	}
	// Past the end is an error naming the first such id (the last under
	// ReportLast), not a negative one; in place nothing is written.
	for _, tc := range []struct {
		report Report
		pos    int
		value  int64
	}{{ReportFirst, 1, 3}, {ReportLast, 3, 5}} {
		data := sf32(tensor.Shape{3}, 9, 9, 9)
		rules := skip
		rules.Report = tc.report
		err := ScatterND(data, data, si64(tensor.Shape{5, 1}, -4, 3, 0, 5, -1), upd, ScatterOptions{Reduction: Add, Rules: rules})
		var ie *IndexError
		if !errors.As(err, &ie) || ie.Pos[0] != tc.pos || ie.Value != tc.value || ie.Min != 0 || ie.Max != 2 {
			t.Errorf("report %v: got %v (%+v), want position %d value %d in [0, 2]", tc.report, err, ie, tc.pos, tc.value)
		}
		if got := data.Data().([]float32); !slices.Equal(got, []float32{9, 9, 9}) {
			t.Errorf("report %v: in place written: %v", tc.report, got)
		}
	}
	// With OutOfRangeSkip both ends are dropped.
	dst = tensor.Must(tensor.Empty(tensor.Float32, tensor.Shape{3}))
	err = ScatterND(dst, tensor.Tensor{}, si64(tensor.Shape{5, 1}, 7, -1, 2, 3, 0), upd,
		ScatterOptions{Reduction: Add, Rules: IndexRules{Negative: NegativeSkip, OutOfRange: OutOfRangeSkip}})
	if want := []float32{16, 0, 4}; err != nil || !slices.Equal(dst.Data().([]float32), want) {
		t.Errorf("both ends dropped: got %v, %v, want %v", dst.Data(), err, want)
	}
	// ScatterElements drops them too.
	dst = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 3}))
	err = ScatterElements(dst, tensor.Tensor{}, si64(tensor.Shape{1, 3}, -1, 1, -3), sf32(tensor.Shape{1, 3}, 1, 2, 3), 1,
		ScatterOptions{Reduction: Add, Rules: skip})
	if want := []float32{0, 2, 0}; err != nil || !slices.Equal(dst.Data().([]float32), want) {
		t.Errorf("ScatterElements: got %v, %v, want %v", dst.Data(), err, want)
	}
	// A gather, a slice and the general core refuse it.
	data := sf32(tensor.Shape{3}, 1, 2, 3)
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1}))
	one := si64(tensor.Shape{1}, 0)
	for name, err := range map[string]error{
		"Gather":         Gather(out, data, one, 0, 0, skip),
		"GatherElements": GatherElements(out, data, one, 0, skip),
		"GatherND":       GatherND(out, data, si64(tensor.Shape{1, 1}, 0), 0, skip),
		"DynamicSlice":   DynamicSlice(out, data, []int64{0}, skip),
		"ScatterGeneral": ScatterGeneral(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 2})), tensor.Tensor{},
			si64(tensor.Shape{1, 1}, 0), sf32(tensor.Shape{1, 2, 2}, 1, 2, 3, 4),
			&ScatterDims{UpdateWindowDims: []int{1, 2}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}, ScatterOptions{Rules: skip}),
	} {
		if !errors.Is(err, ErrArgument) {
			t.Errorf("%s: got %v, want ErrArgument", name, err)
		}
	}
}

func TestSqrtCount(t *testing.T) {
	// Four values into position 0, three into 2, none into 1: their sums
	// divided by 2 and by sqrt(3) rounded to the type.
	ind := si64(tensor.Shape{7, 1}, 0, 0, 2, 0, 2, 0, 2)
	opt := ScatterOptions{Reduction: Mean, ExcludeSelf: true, Arith: Arith{SqrtCount: true}}
	dst := tensor.Must(tensor.Empty(tensor.Float32, tensor.Shape{3}))
	err := ScatterND(dst, tensor.Tensor{}, ind, sf32(tensor.Shape{7}, 1, 2, 1, 3, 1, 4, 1), opt)
	root3 := float32(math.Sqrt(3))
	if want := []float32{5, 0, 3 / root3}; err != nil || !slices.Equal(dst.Data().([]float32), want) {
		t.Errorf("float32: got %v, %v, want %v", dst.Data(), err, want)
	}
	// float16: sqrt(3) rounded to float16 (1.732), the quotient rounded.
	h := func(v ...float32) tensor.Tensor {
		return tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{len(v)}, v))
	}
	hdst := tensor.Must(tensor.Empty(tensor.Float16, tensor.Shape{3}))
	err = ScatterND(hdst, tensor.Tensor{}, ind, h(1, 2, 1, 3, 1, 4, 1), opt)
	r16 := float16.Fromfloat32(root3).Float32()
	want := []float32{5, 0, float16.Fromfloat32(3 / r16).Float32()}
	if got, _ := tensor.Float32s(hdst); err != nil || !slices.Equal(got, want) {
		t.Errorf("float16: got %v, %v, want %v", got, err, want)
	}
	// Integers have no square root.
	idst := tensor.Must(tensor.New(tensor.Int32, tensor.Shape{3}))
	err = ScatterND(idst, tensor.Tensor{}, ind, tensor.Must(tensor.From(tensor.Shape{7}, []int32{1, 2, 3, 4, 5, 6, 7})), opt)
	if !errors.Is(err, ErrType) {
		t.Errorf("int32: got %v, want ErrType", err)
	}
}

func TestMinMaxStdUpdate(t *testing.T) {
	nan := float32(math.NaN())
	negZero := float32(math.Copysign(0, -1))
	for _, tc := range []struct {
		name        string
		red         Reduction
		value, upd  float32
		want        float32
		wantNaN     bool
		wantNegZero bool
	}{
		{"max: a NaN update replaces", Max, 1, nan, 0, true, false},
		{"max: a NaN value is replaced", Max, nan, 1, 1, false, false},
		{"max: smaller keeps the value", Max, 3, 2, 3, false, false},
		{"max: of equals the update", Max, 0, negZero, 0, false, true},
		{"min: a NaN update replaces", Min, 1, nan, 0, true, false},
		{"min: a NaN value is replaced", Min, nan, 1, 1, false, false},
		{"min: larger keeps the value", Min, 2, 3, 2, false, false},
		{"min: of equals the update", Min, negZero, 0, 0, false, false},
	} {
		data := sf32(tensor.Shape{1}, tc.value)
		err := ScatterND(data, data, si64(tensor.Shape{1, 1}, 0), sf32(tensor.Shape{1}, tc.upd),
			ScatterOptions{Reduction: tc.red, Arith: Arith{MinMax: MinMaxStdUpdate}})
		got := data.Data().([]float32)[0]
		switch {
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.wantNaN != (got != got), !tc.wantNaN && got != tc.want, math.Signbit(float64(got)) != tc.wantNegZero:
			t.Errorf("%s: got %v", tc.name, got)
		}
	}
}

// Without HalfOnce, a float16 or bfloat16 count in the type stops where
// a sum of ones in the type does: 2048 values of 1 and 2 of 3 in one
// segment sum to 2048 + 6 = 2054 (2056 in float16, rounded every step:
// 2048 then +3 twice), divided by 2048, not by 2050.
func TestHalfCountStops(t *testing.T) {
	vals := make([]float32, 2050)
	for i := range vals {
		vals[i] = 1
	}
	vals[2048], vals[2049] = 3, 3
	upd := tensor.Must(tensor.FromFloat32s(tensor.Float16, tensor.Shape{2050}, vals))
	ind := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2050, 1}))
	for _, tc := range []struct {
		name string
		once bool
		want float32
	}{
		// Sums in float16 stop at 2048: +3 rounds 2051 to 2052, then
		// 2055 to 2056; counted 2048: 2056/2048.
		{"in float16, step by step", false, float16.Fromfloat32(2056.0 / 2048).Float32()},
		// HalfOnce: 2054 in float32, rounded to 2054; count 2050.
		{"HalfOnce", true, float16.Fromfloat32(float16.Fromfloat32(2054).Float32() / float16.Fromfloat32(2050).Float32()).Float32()},
	} {
		dst := tensor.Must(tensor.Empty(tensor.Float16, tensor.Shape{1}))
		err := ScatterND(dst, tensor.Tensor{}, ind, upd, ScatterOptions{Reduction: Mean, ExcludeSelf: true,
			Arith: Arith{CountInType: true, HalfOnce: tc.once, ZeroStart: true}})
		got, _ := tensor.Float32s(dst)
		if err != nil || got[0] != tc.want {
			t.Errorf("%s: got %v, %v, want %v", tc.name, got, err, tc.want)
		}
	}
}
