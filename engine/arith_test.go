package engine

import (
	"errors"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// The inputs below tell the two complex arithmetics apart in the last bit.
//
// (1+e + ei)(1+e - ei) with e = 2^-12 has the real part (1+e)^2 + e^2 =
// 1 + 2^-11 + 2^-23 exactly, which Go's complex64 product (in float64,
// rounded once) gives. ComplexC10 rounds (1+e)^2 = 1 + 2^-11 + 2^-24 to
// float32 first, a tie, to the even 1 + 2^-11, and adding e^2 = 2^-24 is a
// tie again. In float64 both round each product, so complex128 products
// agree.
//
// A mean of 1, 2 and 2 is 5/3: Go divides, 0x3fd55555 in float32 and
// 0x3ffaaaaaaaaaaaab in float64; ComplexC10 multiplies 5 by the rounded
// 1/3, which gives 0x3fd55556 and 0x3ffaaaaaaaaaaaaa.
func TestComplexArith(t *testing.T) {
	e := math.Ldexp(1, -12)
	x, y := complex(1+e, e), complex(1+e, -e)
	product64 := map[ComplexArith]float32{ComplexGo: float32(1 + 2*e + 2*e*e), ComplexC10: float32(1 + 2*e)}
	mean64 := map[ComplexArith]uint32{ComplexGo: 0x3fd55555, ComplexC10: 0x3fd55556}
	mean128 := map[ComplexArith]uint64{ComplexGo: 0x3ffaaaaaaaaaaaab, ComplexC10: 0x3ffaaaaaaaaaaaaa}
	for _, a := range []ComplexArith{ComplexGo, ComplexC10} {
		opt := ScatterOptions{Reduction: Mul, Arith: Arith{Complex: a}}
		got64 := scatterPair(t, []complex64{complex64(x)}, []complex64{complex64(y)}, opt)
		if got64 != complex(product64[a], 0) {
			t.Errorf("complex64 product under %d: got %v, want %v", a, got64, product64[a])
		}
		if got := scatterPair(t, []complex128{x}, []complex128{y}, opt); got != complex(1+2*e+2*e*e, 0) {
			t.Errorf("complex128 product under %d: got %v", a, got)
		}
		opt.Reduction = Mean
		if got := scatterPair(t, []complex64{1}, []complex64{2, 2}, opt); math.Float32bits(real(got)) != mean64[a] || imag(got) != 0 {
			t.Errorf("complex64 mean under %d: got %v (%#x), want %#x", a, got, math.Float32bits(real(got)), mean64[a])
		}
		if got := scatterPair(t, []complex128{1}, []complex128{2, 2}, opt); math.Float64bits(real(got)) != mean128[a] || imag(got) != 0 {
			t.Errorf("complex128 mean under %d: got %v (%#x), want %#x", a, got, math.Float64bits(real(got)), mean128[a])
		}
	}
	// (inf + inf i) / (2 + 0i): ComplexC10 computes (inf + inf*0)/2 +
	// (inf - inf*0)/2 i, NaN + NaN i (where Go's division, as C99's Annex
	// G asks, recovers inf + inf i).
	inf := math.Inf(1)
	if got := quoC10x128(complex(inf, inf), 2); !math.IsNaN(real(got)) || !math.IsNaN(imag(got)) {
		t.Errorf("C10 (inf+inf i)/2 = %v, want (NaN+NaNi)", got)
	}
	// 0/0 divides each part by a zero: (1 + 1i)/0 is inf + inf i.
	if got := quoC10x128(complex(1, 1), 0); !math.IsInf(real(got), 1) || !math.IsInf(imag(got), 1) {
		t.Errorf("C10 (1+1i)/0 = %v", got)
	}
	// |c| < |d| takes the mirror branch: (1 + 2i)/(1 + 2i) is 1.
	if got := quoC10x128(complex(1, 2), complex(1, 2)); got != 1 {
		t.Errorf("C10 (1+2i)/(1+2i) = %v", got)
	}
	err := ScatterND(tensor.Must(tensor.New(tensor.Complex64, tensor.Shape{1})), tensor.Tensor{},
		tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0})), tensor.Must(tensor.New(tensor.Complex64, tensor.Shape{1})),
		ScatterOptions{Reduction: Mul, Arith: Arith{Complex: ComplexC10 + 1}})
	if !errors.Is(err, ErrArgument) {
		t.Errorf("unknown complex arithmetic: got %v, want ErrArgument", err)
	}
}

// scatterPair scatters updates, all onto data[0] of a one-element data,
// through ScatterND and ScatterElements, and returns the result, which the
// two must agree on.
func scatterPair[T complex64 | complex128](t *testing.T, data, updates []T, opt ScatterOptions) T {
	t.Helper()
	d := tensor.Must(tensor.From(tensor.Shape{1}, data))
	u := tensor.Must(tensor.From(tensor.Shape{len(updates)}, updates))
	nd, el := tensor.Must(tensor.New(d.DType(), tensor.Shape{1})), tensor.Must(tensor.New(d.DType(), tensor.Shape{1}))
	if err := ScatterND(nd, d, tensor.Must(tensor.New(tensor.Int64, tensor.Shape{len(updates), 1})), u, opt); err != nil {
		t.Fatal(err)
	}
	if err := ScatterElements(el, d, tensor.Must(tensor.New(tensor.Int64, tensor.Shape{len(updates)})), u, 0, opt); err != nil {
		t.Fatal(err)
	}
	a, b := nd.Data().([]T)[0], el.Data().([]T)[0]
	if a != b {
		t.Fatalf("ScatterND gives %v, ScatterElements %v", a, b)
	}
	return a
}

// TestConcatStrings: with Arith.ConcatStrings, Add concatenates strings
// in index order, onto data, onto "" without self and onto zeros (""),
// and no other reduction takes them.
func TestConcatStrings(t *testing.T) {
	str := func(v ...string) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	idx := tensor.Must(tensor.From(tensor.Shape{4, 1}, []int64{2, 0, 2, 2}))
	upd := str("a", "b", "c", "d")
	opt := ScatterOptions{Reduction: Add, Arith: Arith{ConcatStrings: true}}
	tests := []struct {
		name string
		data tensor.Tensor
		opt  ScatterOptions
		want tensor.Tensor
	}{
		{"onto data", str("x", "y", "z"), opt, str("xb", "y", "zacd")},
		{"without self", str("x", "y", "z"), ScatterOptions{Reduction: Add, ExcludeSelf: true, Arith: opt.Arith}, str("b", "y", "acd")},
		{"onto zeros", tensor.Tensor{}, opt, str("b", "", "acd")},
	}
	for _, tt := range tests {
		dst := str("junk", "junk", "junk")
		if err := ScatterND(dst, tt.data, idx, upd, tt.opt); err != nil || !tensor.Equal(dst, tt.want) {
			t.Errorf("ScatterND %s: got %v, %v; want %v", tt.name, dst, err, tt.want)
		}
		dst = str("junk", "junk", "junk")
		flat, _ := idx.Reshape(tensor.Shape{4})
		if err := ScatterElements(dst, tt.data, flat, upd, 0, tt.opt); err != nil || !tensor.Equal(dst, tt.want) {
			t.Errorf("ScatterElements %s: got %v, %v; want %v", tt.name, dst, err, tt.want)
		}
	}
	for _, r := range []Reduction{Sub, Mul, Max, Min, Mean} {
		err := ScatterND(str("", "", ""), str("x", "y", "z"), idx, upd, ScatterOptions{Reduction: r, Arith: opt.Arith})
		if !errors.Is(err, ErrType) {
			t.Errorf("strings with %v: got %v, want ErrType", r, err)
		}
	}
	if err := ScatterND(str("", "", ""), str("x", "y", "z"), idx, upd, ScatterOptions{Reduction: Add}); !errors.Is(err, ErrType) {
		t.Errorf("strings with add, not asked for: got %v, want ErrType", err)
	}
}

// TestNumbersOnly checks that Arith.NumbersOnly refuses Add, Sub and Mul
// on bool elements, with ErrType, and leaves the other reductions, and
// bool arithmetic without it, as they were: Add is OR, Mul is AND, Sub is
// XOR.
func TestNumbersOnly(t *testing.T) {
	b := func(v ...bool) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	idx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 1}))
	upd := b(true, true)
	for _, c := range []struct {
		r       Reduction
		want    tensor.Tensor // without NumbersOnly
		refused bool
	}{
		{Add, b(true, true, false), true},
		{Sub, b(true, false, false), true},
		{Mul, b(false, true, false), true},
		{Max, b(true, true, false), false},
		{Min, b(false, true, false), false},
		{None, b(true, true, false), false},
	} {
		for _, numbersOnly := range []bool{false, true} {
			dst := b(false, false, false)
			err := ScatterND(dst, b(false, true, false), idx, upd, ScatterOptions{Reduction: c.r, Arith: Arith{NumbersOnly: numbersOnly}})
			switch {
			case numbersOnly && c.refused:
				if !errors.Is(err, ErrType) {
					t.Errorf("%v, numbers only: got %v, want ErrType", c.r, err)
				}
			case err != nil || !tensor.Equal(dst, c.want):
				t.Errorf("%v, numbers only %v: got %v, %v; want %v", c.r, numbersOnly, dst, err, c.want)
			}
		}
	}
}

// TestCountMean checks the means under Arith.CountInType, which divide by
// the count as the element type holds it: integer counts wrap (and the
// quotient rounds toward negative infinity), float32 and complex64 counts
// stop at 2^24, float16 counts round to float16, float64 ones are exact.
func TestCountMean(t *testing.T) {
	const big = 1 << 25
	f16 := func(f float32) float16.Float16 { return float16.Fromfloat32(f) }
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"int8, a count of 128 is -128", signedOps[int8](Mean, math.MinInt8, math.MaxInt8).countMean(64, 128), int8(-1)},
		{"int8, exact mean", signedOps[int8](Mean, math.MinInt8, math.MaxInt8).mean(64, 128), int8(0)},
		{"uint8, a count of 256 is 0, taken as 1", unsignedOps[uint8](Mean).countMean(10, 256), uint8(10)},
		{"float32 stops at 2^24", floatOps[float32](Mean).countMean(big, big), float32(2)},
		{"float64 counts on", floatOps[float64](Mean).countMean(big, big), float64(1)},
		{"complex64 stops at 2^24", complexOps(Mean, ComplexGo, mulC10x64, quoC10x64).countMean(big, big), complex64(2)},
		{"complex128 counts on", complexOps(Mean, ComplexGo, mulC10x128, quoC10x128).countMean(big, big), complex128(1)},
		// 2049 in float16 is 2048: 4096/2048, where 4096/2049 would be
		// 1.999.
		{"float16 count rounded", halfOps(Mean, float16.Float16.Float32, float16.Fromfloat32).countMean(f16(4096), 2049), f16(2)},
		{"float16 exact mean", halfOps(Mean, float16.Float16.Float32, float16.Fromfloat32).mean(f16(4096), 2049), f16(4096.0 / 2049)},
		{"a count of 0 is 1", floatOps[float32](Mean).countMean(3, 0), float32(3)},
	} {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
}
