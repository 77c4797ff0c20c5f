package engine

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// typed builds a tensor of dtype d from small integer values.
func typed(t *testing.T, d tensor.DType, shape tensor.Shape, vals ...int) tensor.Tensor {
	t.Helper()
	return tensortest.FromInts(d, shape, vals...)
}

// must returns s, and panics if err is not nil.
func must(s tensor.Shape, err error) tensor.Shape {
	if err != nil {
		panic(err)
	}
	return s
}

// TestEveryType runs every kernel on every element type, so every mover
// size (1, 2, 4, 8 and 16 bytes, and strings) and every adding reducer,
// with values that differ from each other, so that a write that is
// missing, misplaced or out of order shows. Values are small integers
// converted to the type (tensortest.FromInts: a string of n letters); bool
// has only two, so its data is all false and its updates make the true
// positions the answer.
func TestEveryType(t *testing.T) {
	for _, d := range tensor.DTypes() {
		t.Run(d.String(), func(t *testing.T) {
			v := func(s tensor.Shape, vals ...int) tensor.Tensor {
				if d == tensor.Bool {
					for i, x := range vals {
						vals[i] = x % 2
					}
				}
				return typed(t, d, s, vals...)
			}
			// Positions 2, 0 and 2 again: the last update wins at 2.
			data := v(tensor.Shape{4}, 2, 4, 6, 8)
			idx := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{2, 0, 2}))
			upd := v(tensor.Shape{3}, 4, 1, 3)
			if d == tensor.Bool {
				data = v(tensor.Shape{4}, 0, 0, 0, 0) // updates false, true, true
				upd = v(tensor.Shape{3}, 0, 1, 1)
			}
			want := v(tensor.Shape{4}, 1, 4, 3, 8)
			check := func(what string, got tensor.Tensor, err error, want tensor.Tensor) {
				t.Helper()
				if err != nil || !tensor.Equal(got, want) {
					t.Errorf("%s: got %v, %v; want %v", what, got, err, want)
				}
			}
			dst := tensortest.Junk(d, tensor.Shape{4})
			check("ScatterND", dst, ScatterND(dst, data, idx, upd, ScatterOptions{}), want)
			flat := tensor.Must(tensor.From(tensor.Shape{3}, []int32{2, 0, -2}))
			dst = tensortest.Junk(d, tensor.Shape{4})
			check("ScatterElements", dst, ScatterElements(dst, data, flat, upd, 0,
				ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd}}), want)
			in := data.Clone()
			check("ScatterND in place", in, ScatterND(in, in, idx, upd, ScatterOptions{}), want)
			zeros := v(tensor.Shape{4}, 1, 0, 3, 0) // 0: "" for strings, false for bool
			dst = tensortest.Junk(d, tensor.Shape{4})
			check("ScatterND onto zeros", dst, ScatterND(dst, tensor.Tensor{}, idx, upd, ScatterOptions{}), zeros)

			// The gathers read the answer back, in another order: 3, 0, 2.
			got := tensortest.Junk(d, tensor.Shape{3})
			check("Gather", got, Gather(got, want, tensor.Must(tensor.From(tensor.Shape{3}, []uint8{3, 0, 2})), 0, 0, IndexRules{}),
				v(tensor.Shape{3}, 8, 1, 3))
			got = tensortest.Junk(d, tensor.Shape{3})
			check("GatherND", got, GatherND(got, want, tensor.Must(tensor.From(tensor.Shape{3, 1}, []int16{-1, 0, 2})), 0,
				IndexRules{Negative: NegativeFromEnd}), v(tensor.Shape{3}, 8, 1, 3))
			got = tensortest.Junk(d, tensor.Shape{3})
			check("GatherElements", got, GatherElements(got, want, tensor.Must(tensor.From(tensor.Shape{3}, []int64{3, 0, 2})), 0,
				IndexRules{}), v(tensor.Shape{3}, 8, 1, 3))

			// Add, with strings concatenating: 6+4+3 at 2, 2+1 at 0 (bool:
			// OR; strings: 6+4+3 letters).
			sum := v(tensor.Shape{4}, 3, 4, 13, 8)
			if d == tensor.Bool {
				sum = v(tensor.Shape{4}, 1, 0, 1, 0)
			}
			dst = tensortest.Junk(d, tensor.Shape{4})
			err := ScatterND(dst, data, idx, upd, ScatterOptions{Reduction: Add, Arith: Arith{ConcatStrings: true}})
			check("ScatterND add", dst, err, sum)
			dst = tensortest.Junk(d, tensor.Shape{4})
			err = ScatterElements(dst, data, flat, upd, 0, ScatterOptions{Reduction: Add, Rules: IndexRules{Negative: NegativeFromEnd},
				Arith: Arith{ConcatStrings: true}})
			check("ScatterElements add", dst, err, sum)
		})
	}
}

func TestHalfRoundsEveryStep(t *testing.T) {
	// 2048 + 1 + 1 in float16: each step rounds back to 2048 (spacing 2
	// there), so the sum stays 2048; summing in float32 first would give 2050.
	data := tensor.Must(tensor.From(tensor.Shape{1}, []float16.Float16{float16.Fromfloat32(2048)}))
	upd := tensor.Must(tensor.From(tensor.Shape{2}, []float16.Float16{float16.Fromfloat32(1), float16.Fromfloat32(1)}))
	idx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 0}))
	dst := tensor.Must(tensor.New(tensor.Float16, tensor.Shape{1}))
	if err := ScatterND(dst, data, idx, upd, ScatterOptions{Reduction: Add}); err != nil {
		t.Fatal(err)
	}
	if got := dst.Data().([]float16.Float16)[0].Float32(); got != 2048 {
		t.Errorf("float16 2048+1+1 = %v, want 2048", got)
	}
	// bfloat16 has 8 bits of precision: 256 + 1 rounds to 256 each time.
	bd := tensor.Must(tensor.From(tensor.Shape{1}, []bfloat16.BFloat16{bfloat16.FromFloat32(256)}))
	bu := tensor.Must(tensor.From(tensor.Shape{2}, []bfloat16.BFloat16{bfloat16.FromFloat32(1), bfloat16.FromFloat32(1)}))
	bdst := tensor.Must(tensor.New(tensor.BFloat16, tensor.Shape{1}))
	if err := ScatterND(bdst, bd, idx, bu, ScatterOptions{Reduction: Add}); err != nil {
		t.Fatal(err)
	}
	if got := bdst.Data().([]bfloat16.BFloat16)[0].Float32(); got != 256 {
		t.Errorf("bfloat16 256+1+1 = %v, want 256", got)
	}
}

func TestIntegerMeanRoundsDown(t *testing.T) {
	tests := []struct {
		data, u1, u2 int64
		exclude      bool
		want         int64
	}{
		{0, -3, -4, true, -4},  // -7/2 = -3.5 -> -4
		{0, 3, 4, true, 3},     // 7/2 -> 3
		{1, -3, -4, false, -2}, // -6/3 = -2 exactly
		{0, -3, -5, false, -3}, // -8/3 = -2.67 -> -3
	}
	for _, tt := range tests {
		data := tensor.Must(tensor.From(tensor.Shape{2}, []int64{tt.data, 9}))
		upd := tensor.Must(tensor.From(tensor.Shape{2}, []int64{tt.u1, tt.u2}))
		idx := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 0}))
		dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{2}))
		err := ScatterElements(dst, data, idx, upd, 0, ScatterOptions{Reduction: Mean, ExcludeSelf: tt.exclude})
		if err != nil {
			t.Fatal(err)
		}
		if got := dst.Data().([]int64); got[0] != tt.want || got[1] != 9 {
			t.Errorf("%+v: got %v", tt, got)
		}
	}
}

func TestIntegersWrap(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{1}, []int8{127}))
	upd := tensor.Must(tensor.From(tensor.Shape{1}, []int8{1}))
	idx := tensor.Must(tensor.From(tensor.Shape{1}, []int64{0}))
	dst := tensor.Must(tensor.New(tensor.Int8, tensor.Shape{1}))
	if err := ScatterElements(dst, data, idx, upd, 0, ScatterOptions{Reduction: Add}); err != nil {
		t.Fatal(err)
	}
	if got := dst.Data().([]int8)[0]; got != -128 {
		t.Errorf("127+1 in int8 = %d, want -128", got)
	}
}

func TestBoolReductions(t *testing.T) {
	tests := []struct {
		red  Reduction
		want []bool // data [true false], updates [true true] at 0 and 1
	}{
		{Add, []bool{true, true}},
		{Mul, []bool{true, false}},
		{Sub, []bool{false, true}},
		{Max, []bool{true, true}},
		{Min, []bool{true, false}},
	}
	for _, tt := range tests {
		data := tensor.Must(tensor.From(tensor.Shape{2}, []bool{true, false}))
		upd := tensor.Must(tensor.From(tensor.Shape{2}, []bool{true, true}))
		idx := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 1}))
		dst := tensor.Must(tensor.New(tensor.Bool, tensor.Shape{2}))
		if err := ScatterElements(dst, data, idx, upd, 0, ScatterOptions{Reduction: tt.red}); err != nil {
			t.Fatal(err)
		}
		if got := dst.Data().([]bool); got[0] != tt.want[0] || got[1] != tt.want[1] {
			t.Errorf("%v: got %v, want %v", tt.red, got, tt.want)
		}
	}
}

func TestNaNPropagates(t *testing.T) {
	nan := float32(math.NaN())
	for _, red := range []Reduction{Max, Min} {
		for _, tc := range [][2]float32{{nan, 1}, {1, nan}} {
			data := tensor.Must(tensor.From(tensor.Shape{1}, []float32{tc[0]}))
			upd := tensor.Must(tensor.From(tensor.Shape{1}, []float32{tc[1]}))
			idx := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1}))
			if err := ScatterND(dst, data, idx, upd, ScatterOptions{Reduction: red}); err != nil {
				t.Fatal(err)
			}
			if got := dst.Data().([]float32)[0]; got == got {
				t.Errorf("%v(%v, %v) = %v, want NaN", red, tc[0], tc[1], got)
			}
		}
	}
}

func TestReductionTypeErrors(t *testing.T) {
	tests := []struct {
		d   tensor.DType
		opt ScatterOptions
	}{
		{tensor.String, ScatterOptions{Reduction: Mul}},
		{tensor.Bool, ScatterOptions{Reduction: Mean}},
		{tensor.Complex64, ScatterOptions{Reduction: Max}},
		{tensor.Complex128, ScatterOptions{Reduction: Min}},
	}
	for _, tt := range tests {
		data := typed(t, tt.d, tensor.Shape{2}, 1, 1)
		idx := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
		upd := typed(t, tt.d, tensor.Shape{1}, 1)
		dst := tensor.Must(tensor.New(tt.d, tensor.Shape{2}))
		if err := ScatterND(dst, data, idx, upd, tt.opt); !errors.Is(err, ErrType) {
			t.Errorf("%v %v: got %v, want ErrType", tt.d, tt.opt.Reduction, err)
		}
	}
	data := typed(t, tensor.Float32, tensor.Shape{2}, 1, 1)
	idx := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
	upd := typed(t, tensor.Float32, tensor.Shape{1}, 1)
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	for _, opt := range []ScatterOptions{{Reduction: Sub, ExcludeSelf: true}, {Reduction: Reduction(42)}} {
		if err := ScatterND(dst, data, idx, upd, opt); !errors.Is(err, ErrArgument) {
			t.Errorf("%+v: got %v, want ErrArgument", opt, err)
		}
	}
}

func TestIndexErrorSaysWhereAndWhat(t *testing.T) {
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 4}))
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 4}))
	idx := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 1, 7, 0}))
	upd := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	err := ScatterND(dst, data, idx, upd, ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd}})
	want := "index out of range: indices[1] = [7, 0]: component 0 is 7, allowed range [-4, 3] for dimension 0 of data [4,4]"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	var ie *IndexError
	if !errors.As(err, &ie) || ie.Value != 7 || ie.Dim != 0 || ie.Size != 4 || ie.Pos[0] != 1 || ie.Pos[1] != 0 {
		t.Errorf("IndexError fields: %+v", ie)
	}

	big := tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64}))
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 4}))
	err = Gather(out, data, big, 0, 0, IndexRules{})
	want = "index out of range: indices[0] = 18446744073709551615, allowed range [0, 3] for dimension 0 of data [4,4]"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	// A uint64 tuple prints unsigned, the bad component and the others.
	pairs := tensor.Must(tensor.From(tensor.Shape{1, 2}, []uint64{1, math.MaxUint64}))
	err = GatherND(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1})), data, pairs, 0, IndexRules{})
	want = "index out of range: indices[0] = [1, 18446744073709551615]: component 1 is 18446744073709551615, allowed range [0, 3] for dimension 1 of data [4,4]"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	pairs = tensor.Must(tensor.From(tensor.Shape{1, 2}, []uint64{7, math.MaxUint64}))
	err = GatherND(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1})), data, pairs, 0, IndexRules{})
	want = "index out of range: indices[0] = [7, 18446744073709551615]: component 0 is 7, allowed range [0, 3] for dimension 0 of data [4,4]"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
	empty := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{0, 2}))
	err = Gather(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 2})), empty,
		tensor.Must(tensor.From(tensor.Shape{1}, []int32{0})), 0, 0, IndexRules{})
	if err == nil || !strings.Contains(err.Error(), "is empty and has no valid index") {
		t.Errorf("empty dimension: got %v", err)
	}
}

func TestShapeAndArgumentErrors(t *testing.T) {
	f := func(s ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, s)) }
	ix := func(s tensor.Shape, v ...int64) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"scatternd updates shape", ScatterND(f(4), f(4), ix(tensor.Shape{2, 1}, 0, 1), f(3), ScatterOptions{}), ErrShape},
		{"scatternd k > rank", ScatterND(f(4), f(4), ix(tensor.Shape{1, 2}, 0, 1), f(1), ScatterOptions{}), ErrShape},
		{"scatternd scalar indices", ScatterND(f(4), f(4), ix(tensor.Shape{}, 0), f(), ScatterOptions{}), ErrShape},
		{"scatternd dst shape", ScatterND(f(5), f(4), ix(tensor.Shape{1, 1}, 0), f(1), ScatterOptions{}), ErrShape},
		{"scatternd float indices", ScatterND(f(4), f(4), f(1, 1), f(1), ScatterOptions{}), ErrType},
		{"scatternd updates type", ScatterND(f(4), f(4), ix(tensor.Shape{1, 1}, 0), ix(tensor.Shape{1}, 0), ScatterOptions{}), ErrType},
		{"scatternd dst type", ScatterND(ix(tensor.Shape{4}, 0, 0, 0, 0), f(4), ix(tensor.Shape{1, 1}, 0), f(1), ScatterOptions{}), ErrType},
		{"elements dst type", ScatterElements(ix(tensor.Shape{4}, 0, 0, 0, 0), f(4), ix(tensor.Shape{1}, 0), f(1), 0, ScatterOptions{}), ErrType},
		{"elements dst shape", ScatterElements(f(2, 2), f(4), ix(tensor.Shape{1}, 0), f(1), 0, ScatterOptions{}), ErrShape},
		{"gather dst type", Gather(ix(tensor.Shape{1}, 0), f(2), ix(tensor.Shape{1}, 0), 0, 0, IndexRules{}), ErrType},
		{"gather dst shape", Gather(f(2), f(2), ix(tensor.Shape{1}, 0), 0, 0, IndexRules{}), ErrShape},
		{"elements axis", ScatterElements(f(4), f(4), ix(tensor.Shape{1}, 0), f(1), 1, ScatterOptions{}), ErrArgument},
		{"elements rank", ScatterElements(f(4), f(4), ix(tensor.Shape{1, 1}, 0), f(1, 1), 0, ScatterOptions{}), ErrShape},
		{"elements indices > data", GatherElements(f(3, 2), f(2, 2), ix(tensor.Shape{3, 2}, 0, 0, 0, 0, 0, 0), 1, IndexRules{}), ErrShape},
		{"elements indices > updates", ScatterElements(f(2), f(2), ix(tensor.Shape{2}, 0, 0), f(1), 0, ScatterOptions{}), ErrShape},
		{"gathernd batch", GatherND(f(2), f(2, 2), ix(tensor.Shape{2, 1}, 0, 0), 2, IndexRules{}), ErrArgument},
		{"gathernd batch dims differ", GatherND(f(3), f(2, 2), ix(tensor.Shape{3, 1}, 0, 0, 0), 1, IndexRules{}), ErrShape},
		{"gather axis", Gather(f(2), f(2), ix(tensor.Shape{1}, 0), -1, 0, IndexRules{}), ErrArgument},
		{"gather scalar data", Gather(f(), f(), ix(tensor.Shape{}, 0), 0, 0, IndexRules{}), ErrShape},
		{"gather batch > axis", Gather(f(2, 2), f(2, 2), ix(tensor.Shape{2}, 0, 0), 0, 1, IndexRules{}), ErrArgument},
	}
	for _, tt := range tests {
		if !errors.Is(tt.err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		}
	}
}

func TestDstOverlap(t *testing.T) {
	buf := make([]float32, 8)
	data := tensor.Must(tensor.From(tensor.Shape{4}, buf[:4]))
	shifted := tensor.Must(tensor.From(tensor.Shape{4}, buf[2:6]))
	idx := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
	upd := tensor.Must(tensor.From(tensor.Shape{1}, []float32{5}))
	if err := ScatterND(shifted, data, idx, upd, ScatterOptions{}); !errors.Is(err, ErrArgument) {
		t.Errorf("partial overlap: got %v", err)
	}
	// dst == data is an in-place update.
	if err := ScatterND(data, data, idx, upd, ScatterOptions{}); err != nil || buf[0] != 5 {
		t.Errorf("in place: %v, %v", err, buf)
	}
	out := tensor.Must(tensor.From(tensor.Shape{1}, buf[:1]))
	if err := Gather(out, data, tensor.Must(tensor.From(tensor.Shape{1}, []int64{1})), 0, 0, IndexRules{}); !errors.Is(err, ErrArgument) {
		t.Errorf("gather into data: got %v", err)
	}
}

// TestValidationBeforeWrite: an in-place scatter whose last index is bad
// leaves data untouched.
func TestValidationBeforeWrite(t *testing.T) {
	buf := []float32{1, 2, 3}
	data := tensor.Must(tensor.From(tensor.Shape{3}, buf))
	idx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 3}))
	upd := tensor.Must(tensor.From(tensor.Shape{2}, []float32{9, 9}))
	if err := ScatterND(data, data, idx, upd, ScatterOptions{}); !errors.Is(err, ErrIndex) {
		t.Fatalf("got %v", err)
	}
	if buf[0] != 1 {
		t.Errorf("data was written before validation finished: %v", buf)
	}
}

// TestGatherAfterScatter: for unique indices, gathering at the scattered
// positions returns the updates.
func TestGatherAfterScatter(t *testing.T) {
	data := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{5, 3, 2}))
	idx := tensor.Must(tensor.From(tensor.Shape{3, 2}, []int64{4, 0, -1, 2, 1, 1}))
	vals := make([]float64, 3*2)
	for i := range vals {
		vals[i] = float64(i + 1)
	}
	upd := tensor.Must(tensor.From(tensor.Shape{3, 2}, vals))
	dst := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{5, 3, 2}))
	rules := IndexRules{Negative: NegativeFromEnd}
	if err := ScatterND(dst, data, idx, upd, ScatterOptions{Rules: rules}); err != nil {
		t.Fatal(err)
	}
	back := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{3, 2}))
	if err := GatherND(back, dst, idx, 0, rules); err != nil {
		t.Fatal(err)
	}
	if !tensor.Equal(back, upd) {
		t.Errorf("got %v, want %v", back, upd)
	}
}

// TestScatterOntoZeros: a zero data tensor stands for zeros, and dst is
// not touched when an index is bad.
func TestScatterOntoZeros(t *testing.T) {
	buf := []float32{7, 7, 7, 7}
	dst := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	idx := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{1, 3, 1}))
	upd := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))
	if err := ScatterND(dst, tensor.Tensor{}, idx, upd, ScatterOptions{Reduction: Add}); err != nil {
		t.Fatal(err)
	}
	if buf[0] != 0 || buf[1] != 4 || buf[2] != 0 || buf[3] != 2 {
		t.Errorf("got %v", buf)
	}
	buf[0] = 9
	bad := tensor.Must(tensor.From(tensor.Shape{1}, []int64{4}))
	err := ScatterElements(dst, tensor.Tensor{}, bad, tensor.Must(tensor.From(tensor.Shape{1}, []float32{1})), 0, ScatterOptions{})
	if !errors.Is(err, ErrIndex) || buf[0] != 9 {
		t.Errorf("bad index: %v, dst %v", err, buf)
	}
	if err := ScatterND(dst, tensor.Tensor{}, idx, tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, 2, 3})), ScatterOptions{}); !errors.Is(err, ErrType) {
		t.Errorf("updates of another type: %v", err)
	}
}

// TestColumnWidth: blocks of four cache lines while the buffer holds them,
// then narrower down to one line, then none.
func TestColumnWidth(t *testing.T) {
	for _, c := range []struct{ rows, size, want int }{
		{4096, 4, 64}, // exactly colBuffer
		{4097, 4, 32},
		{8192, 4, 32},
		{8193, 4, 16},
		{16384, 4, 16},
		{16385, 4, 0},
		{10, 1, 256},
		{10, 8, 32},
		{10, 16, 16}, // complex128, and strings (16-byte headers)
		{1 << 20, 8, 0},
	} {
		if got := columnWidth(c.rows, c.size); got != c.want {
			t.Errorf("columnWidth(%d, %d) = %d, want %d", c.rows, c.size, got, c.want)
		}
	}
}

// nanKinds are the floating-point types with three NaNs of distinct
// payloads and signs, and the bits of 1.
var nanKinds = []struct {
	d    tensor.DType
	nans [3]uint64
	one  uint64
}{
	{tensor.Float32, [3]uint64{0x7fc00001, 0xffc00002, 0x7fc00003}, 0x3f800000},
	{tensor.Float64, [3]uint64{0x7ff8000000000001, 0xfff8000000000002, 0x7ff8000000000003}, 0x3ff0000000000000},
	{tensor.Float16, [3]uint64{0x7e01, 0xfe02, 0x7e03}, 0x3c00},
	{tensor.BFloat16, [3]uint64{0x7fc1, 0xffc2, 0x7fc3}, 0x3f80},
}

// fromBits returns a 1-D tensor of floating-point type d with the given
// bit patterns.
func fromBits(d tensor.DType, bits ...uint64) tensor.Tensor {
	x := tensor.Must(tensor.New(d, tensor.Shape{len(bits)}))
	for i, b := range bits {
		switch s := x.Data().(type) {
		case []float32:
			s[i] = math.Float32frombits(uint32(b))
		case []float64:
			s[i] = math.Float64frombits(b)
		case []float16.Float16:
			s[i] = float16.Frombits(uint16(b))
		case []bfloat16.BFloat16:
			s[i] = bfloat16.FromBits(uint16(b))
		}
	}
	return x
}

// bitsAt returns the bits of element i of a floating-point tensor.
func bitsAt(x tensor.Tensor, i int) uint64 {
	switch s := x.Data().(type) {
	case []float32:
		return uint64(math.Float32bits(s[i]))
	case []float64:
		return math.Float64bits(s[i])
	case []float16.Float16:
		return uint64(s[i].Bits())
	case []bfloat16.BFloat16:
		return uint64(s[i].Bits())
	}
	panic("not a floating-point tensor")
}

// TestNaNBits pins which NaN Max and Min keep, bit for bit: a NaN already
// in place stays; otherwise the first NaN update wins and stays. With
// ExcludeSelf the existing value takes no part, so the first NaN update
// wins. Each case runs through ScatterND, ScatterElements along axis 0
// and along axis 1 (the one-loop path).
func TestNaNBits(t *testing.T) {
	for _, k := range nanKinds {
		a, b, c := k.nans[0], k.nans[1], k.nans[2]
		tests := []struct {
			name    string
			data    uint64
			updates []uint64
			exclude bool
			want    uint64
		}{
			{"a NaN in place stays", a, []uint64{k.one, b}, false, a},
			{"the first NaN update wins", k.one, []uint64{b, c}, false, b},
			{"and stays", k.one, []uint64{b, k.one}, false, b},
			{"without self, the first NaN update", a, []uint64{k.one, b, c}, true, b},
		}
		for _, red := range []Reduction{Max, Min} {
			for _, tt := range tests {
				opt := ScatterOptions{Reduction: red, ExcludeSelf: tt.exclude}
				n := len(tt.updates)
				data, upd := fromBits(k.d, tt.data), fromBits(k.d, tt.updates...)
				dst := tensortest.Junk(k.d, tensor.Shape{1})
				err := ScatterND(dst, data, tensor.Must(tensor.New(tensor.Int64, tensor.Shape{n, 1})), upd, opt)
				if got := bitsAt(dst, 0); err != nil || got != tt.want {
					t.Errorf("%v ScatterND %v %s: got %#x, %v; want %#x", k.d, red, tt.name, got, err, tt.want)
				}
				dst = tensortest.Junk(k.d, tensor.Shape{1})
				err = ScatterElements(dst, data, tensor.Must(tensor.New(tensor.Int64, tensor.Shape{n})), upd, 0, opt)
				if got := bitsAt(dst, 0); err != nil || got != tt.want {
					t.Errorf("%v ScatterElements axis 0 %v %s: got %#x, %v; want %#x", k.d, red, tt.name, got, err, tt.want)
				}
				row := func(x tensor.Tensor) tensor.Tensor { return tensor.Must(x.Reshape(tensor.Shape{1, x.Len()})) }
				dst = tensortest.Junk(k.d, tensor.Shape{1, 1})
				err = ScatterElements(dst, row(data), tensor.Must(tensor.New(tensor.Int64, tensor.Shape{1, n})), row(upd), 1, opt)
				if got := bitsAt(dst, 0); err != nil || got != tt.want {
					t.Errorf("%v ScatterElements axis 1 %v %s: got %#x, %v; want %#x", k.d, red, tt.name, got, err, tt.want)
				}
			}
		}
	}
}

// TestGatherElementsTouchedRows gathers along the last axis of a matrix
// larger than touchBytes, with enough indices per row that gatherRows
// reads each row a cache line at a time first (gatherRows2), and checks
// the result, the flat position of a bad index and that the rows were
// read, against a plain loop.
func TestGatherElementsTouchedRows(t *testing.T) {
	const rows, size, last = 512, 1024, 128 // 2 MiB of float32; 128 >= 1024/16 indices per row
	vals := make([]float32, rows*size)
	for i := range vals {
		vals[i] = float32(i) // distinct, and exact in float32; only vals[0] is zero
	}
	data := tensor.Must(tensor.From(tensor.Shape{rows, size}, vals))
	for _, c := range []struct {
		name  string
		rules IndexRules
		bad   int // flat position of an index out of range, or -1
	}{
		{"in range", IndexRules{Negative: NegativeFromEnd}, -1},
		{"skip", IndexRules{Negative: NegativeFromEnd, OutOfRange: OutOfRangeSkip}, 300*last + 5},
		{"error", IndexRules{Negative: NegativeFromEnd}, 300*last + 5},
	} {
		t.Run(c.name, func(t *testing.T) {
			ind := make([]int64, rows*last)
			for i := range ind {
				ind[i] = int64((i*7919)%(2*size) - size) // from -size to size-1
			}
			if c.bad >= 0 {
				ind[c.bad] = size
			}
			indices := tensor.Must(tensor.From(tensor.Shape{rows, last}, ind))
			dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, last}))
			s := getScratch()
			err := gatherElements(s, &dst, &data, &indices, 1, c.rules)
			touched := 0
			for _, n := range s.touched {
				touched += n
			}
			s.release()
			if c.bad >= 0 && c.rules.OutOfRange == OutOfRangeError {
				var ie *IndexError
				if !errors.As(err, &ie) || ie.Pos[0] != c.bad/last || ie.Pos[1] != c.bad%last || ie.Value != size {
					t.Fatalf("err = %v, want an IndexError at [%d %d]", err, c.bad/last, c.bad%last)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if touched != 1 {
				t.Errorf("touchLines counted %d zeros, want 1 (vals[0], in row 0): the rows were not read first", touched)
			}
			got := dst.Data().([]float32)
			for r := range rows {
				for j := range last {
					var want float32 // zero for a skipped index
					if p := ind[r*last+j]; p < size {
						if p < 0 {
							p += size
						}
						want = vals[r*size+int(p)]
					}
					if g := got[r*last+j]; g != want {
						t.Fatalf("dst[%d][%d] = %v, want %v (index %d)", r, j, g, want, ind[r*last+j])
					}
				}
			}
		})
	}
}

// TestFormsRefuseClamp: the forms' kernels do not clamp, so they refuse
// OutOfRangeClamp with an ErrArgument naming the operator and the mode,
// rather than treat it as OutOfRangeError; the general kernels clamp.
func TestFormsRefuseClamp(t *testing.T) {
	clamp := IndexRules{OutOfRange: OutOfRangeClamp}
	data := typed(t, tensor.Float32, tensor.Shape{2, 2}, 1, 2, 3, 4)
	dst := func(s ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, s)) }
	ind := func(s tensor.Shape, v ...int) tensor.Tensor { return typed(t, tensor.Int64, s, v...) }
	upd := typed(t, tensor.Float32, tensor.Shape{1, 2}, 5, 6)
	for _, c := range []struct {
		op  string
		err error
	}{
		{"ScatterND", ScatterND(dst(2, 2), data, ind(tensor.Shape{1, 1}, 5), upd, ScatterOptions{Rules: clamp})},
		{"ScatterElements", ScatterElements(dst(2, 2), data, ind(tensor.Shape{1, 2}, 5, 0), upd, 0, ScatterOptions{Rules: clamp})},
		{"GatherND", GatherND(dst(1, 2), data, ind(tensor.Shape{1, 1}, 5), 0, clamp)},
		{"GatherElements", GatherElements(dst(1, 2), data, ind(tensor.Shape{1, 2}, 5, 0), 0, clamp)},
		{"Gather", Gather(dst(1, 2), data, ind(tensor.Shape{1}, 5), 0, 0, clamp)},
	} {
		if !errors.Is(c.err, ErrArgument) || !strings.Contains(c.err.Error(), c.op+" does not take OutOfRangeClamp") {
			t.Errorf("%s with OutOfRangeClamp: err = %v, want an ErrArgument naming %s and OutOfRangeClamp", c.op, c.err, c.op)
		}
	}
	// The general gather with GatherND's dimension numbers clamps row 5
	// to row 1.
	out := dst(1, 2)
	indices := ind(tensor.Shape{1, 1}, 5)
	dims := GatherNDDims(data.Shape(), indices.Shape(), 0)
	if err := GatherGeneral(out, data, indices, &dims, GatherOptions{Rules: clamp}); err != nil {
		t.Fatal(err)
	}
	if got := out.Data().([]float32); got[0] != 3 || got[1] != 4 {
		t.Errorf("GatherGeneral clamped row 5 to %v, want [3 4]", got)
	}
}
