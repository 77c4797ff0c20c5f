package conformance

import (
	"errors"
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// The StableHLO runner's own operations (those around the scatters and
// gathers in the tests) read each element as a bool, an int64 (signed
// types), a uint64 (unsigned), a float64 or a complex128, compute in that
// type, and store the result back rounded or truncated to the element
// type. For float16, bfloat16 and float32, float64 holds every sum,
// difference and product of two elements closely enough that one
// rounding to the element type gives the correctly rounded result, as
// StableHLO computes them.

// class is how the runner computes on an element type.
type class uint8

const (
	classBool class = iota
	classSigned
	classUnsigned
	classFloat
	classComplex
)

func classOf(d tensor.DType) class {
	switch {
	case d == tensor.Bool:
		return classBool
	case d.IsSigned():
		return classSigned
	case d.IsUnsigned():
		return classUnsigned
	case d.IsComplex():
		return classComplex
	}
	return classFloat
}

// getInt returns integer element i: signed types sign-extended, unsigned
// ones zero-extended, as the bits of a uint64.
func getInt(t tensor.Tensor, i int) uint64 {
	v, _ := t.IntAt(i)
	return uint64(v)
}

// getFloat returns floating-point element i exactly.
func getFloat(t tensor.Tensor, i int) float64 {
	f, _ := t.FloatAt(i)
	return f
}

func getComplex(t tensor.Tensor, i int) complex128 {
	switch s := t.Data().(type) {
	case []complex64:
		return complex128(s[i])
	case []complex128:
		return s[i]
	}
	return 0
}

func setComplex(t tensor.Tensor, i int, c complex128) {
	switch s := t.Data().(type) {
	case []complex64:
		s[i] = complex64(c)
	case []complex128:
		s[i] = c
	}
}

func getBool(t tensor.Tensor, i int) bool { return t.Data().([]bool)[i] }

func setBool(t tensor.Tensor, i int, b bool) { t.Data().([]bool)[i] = b }

// errOp is the error of an operation that the element type has no
// meaning for.
var errOp = errors.New("not defined for this element type")

// binary computes dst[di] = name(x[xi], y[yi]) for an element-wise
// operation name ("add", "subtract", "multiply", "maximum", "minimum",
// "and", "or", "xor") as StableHLO defines it: bool add and maximum are OR,
// multiply and minimum AND; integers wrap; float maximum and minimum are
// IEEE 754's (NaN wins, -0 < +0); complex maximum and minimum compare
// (real, imaginary) lexicographically, as the interpreter does.
func binary(name string, dst tensor.Tensor, di int, x tensor.Tensor, xi int, y tensor.Tensor, yi int) error {
	switch classOf(x.DType()) {
	case classBool:
		a, b := getBool(x, xi), getBool(y, yi)
		switch name {
		case "add", "maximum", "or":
			setBool(dst, di, a || b)
		case "multiply", "minimum", "and":
			setBool(dst, di, a && b)
		case "xor":
			setBool(dst, di, a != b)
		default:
			return fmt.Errorf("%s on i1: %w", name, errOp)
		}
	case classSigned, classUnsigned:
		a, b := getInt(x, xi), getInt(y, yi)
		r, ok := ring(name, a, b)
		if !ok {
			r, ok = bitsOrOrder(name, a, b, x.DType().IsSigned())
		}
		if !ok {
			return fmt.Errorf("%s: %w", name, errOp)
		}
		dst.SetIntAt(di, int64(r))
	case classFloat:
		r, ok := field(name, getFloat(x, xi), getFloat(y, yi), ieeeMinMax)
		if !ok {
			return fmt.Errorf("%s on %s: %w", name, stablehlo.ElemName(x.DType()), errOp)
		}
		dst.SetFloatAt(di, r)
	case classComplex:
		r, ok := field(name, getComplex(x, xi), getComplex(y, yi), lexMinMax)
		if !ok {
			return fmt.Errorf("%s on %s: %w", name, stablehlo.ElemName(x.DType()), errOp)
		}
		setComplex(dst, di, r)
	}
	return nil
}

// field computes name on floating-point or complex numbers a and b: the
// ring operations, and maximum and minimum by minMax.
func field[T float64 | complex128](name string, a, b T, minMax func(name string, a, b T) T) (T, bool) {
	if name == "maximum" || name == "minimum" {
		return minMax(name, a, b), true
	}
	return ring(name, a, b)
}

// ring returns a+b, a-b or a*b for add, subtract or multiply (name), and
// false for any other operation.
func ring[T uint64 | float64 | complex128](name string, a, b T) (T, bool) {
	switch name {
	case "add":
		return a + b, true
	case "subtract":
		return a - b, true
	case "multiply":
		return a * b, true
	}
	return 0, false
}

// bitsOrOrder returns the bitwise and, or, xor, or the maximum or
// minimum (name) of two integers, compared as signed or not.
func bitsOrOrder(name string, a, b uint64, signed bool) (uint64, bool) {
	less := a < b
	if signed {
		less = int64(a) < int64(b)
	}
	switch name {
	case "and":
		return a & b, true
	case "or":
		return a | b, true
	case "xor":
		return a ^ b, true
	case "maximum":
		if less {
			return b, true
		}
		return a, true
	case "minimum":
		if less {
			return a, true
		}
		return b, true
	}
	return 0, false
}

// lexMinMax compares complex numbers (real, imaginary) lexicographically,
// as the interpreter does: a when it wins on the real parts, or on the
// imaginary parts when the real ones are equal; b otherwise (NaN
// included).
func lexMinMax(name string, a, b complex128) complex128 {
	wins := func(p, q float64) bool { return p > q }
	if name == "minimum" {
		wins = func(p, q float64) bool { return p < q }
	}
	if real(a) == real(b) && wins(imag(a), imag(b)) || real(a) != real(b) && wins(real(a), real(b)) {
		return a
	}
	return b
}

// ieeeMinMax is IEEE 754's maximum or minimum (name): a NaN operand
// wins, and -0 < +0.
func ieeeMinMax(name string, a, b float64) float64 {
	switch {
	case a != a:
		return a
	case b != b:
		return b
	case a == b: // equal, or +0 and -0
		if math.Signbit(a) == (name == "maximum") {
			return b
		}
		return a
	case (a > b) == (name == "maximum"):
		return a
	}
	return b
}

// compareElem returns compare(x[xi], y[yi]) in direction dir (EQ, NE, GE, GT,
// LE, LT). Integers compare as their type is signed or not; floats as
// IEEE 754 does (NaN is unordered: only NE holds), or in IEEE's total
// order when cmpType is TOTALORDER; complex numbers only for EQ and NE;
// bools as 0 and 1.
func compareElem(dir, cmpType string, x tensor.Tensor, xi int, y tensor.Tensor, yi int) (bool, error) {
	var c int // -1, 0, 1; or 2 for unordered
	switch classOf(x.DType()) {
	case classBool:
		c = cmp3(b2i(getBool(x, xi)), b2i(getBool(y, yi)))
	case classSigned:
		c = cmp3(int64(getInt(x, xi)), int64(getInt(y, yi)))
	case classUnsigned:
		c = cmp3(getInt(x, xi), getInt(y, yi))
	case classFloat:
		a, b := getFloat(x, xi), getFloat(y, yi)
		switch {
		case cmpType == "TOTALORDER":
			c = cmp3(totalKey(a), totalKey(b))
		case a != a || b != b:
			c = 2
		default:
			c = cmp3(a, b)
		}
	case classComplex:
		if dir != "EQ" && dir != "NE" {
			return false, fmt.Errorf("compare %s of complex numbers: %w", dir, errOp)
		}
		if getComplex(x, xi) == getComplex(y, yi) {
			c = 0
		} else {
			c = 2
		}
	}
	switch dir {
	case "EQ":
		return c == 0, nil
	case "NE":
		return c != 0, nil
	case "GE":
		return c == 0 || c == 1, nil
	case "GT":
		return c == 1, nil
	case "LE":
		return c == 0 || c == -1, nil
	}
	return c == -1, nil // LT
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func cmp3[T int | int64 | uint64 | float64](a, b T) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// totalKey maps f to an integer that orders as IEEE 754's totalOrder.
func totalKey(f float64) int64 {
	b := int64(math.Float64bits(f))
	if b < 0 {
		return math.MinInt64 - b - 1 // negative values: larger magnitude first
	}
	return b
}

// convertElem stores x[xi] converted to dst's element type in dst[di]:
// integers wrap to a narrower integer type; a float becomes an integer
// rounded toward zero (NaN or a value out of the type's range is an
// error, the result being implementation-defined); anything becomes a
// bool as != 0; a real number becomes a complex one with imaginary part
// 0. A complex number only converts to a complex type.
func convertElem(dst tensor.Tensor, di int, x tensor.Tensor, xi int) error {
	from, to := classOf(x.DType()), classOf(dst.DType())
	var (
		i     uint64 // the value as an integer, when from is bool or integer
		f     float64
		c     complex128
		isInt = from != classFloat && from != classComplex
	)
	switch from {
	case classBool:
		i = uint64(b2i(getBool(x, xi)))
		f = float64(i)
	case classSigned:
		i = getInt(x, xi)
		f = float64(int64(i))
	case classUnsigned:
		i = getInt(x, xi)
		f = float64(i)
	case classFloat:
		f = getFloat(x, xi)
	case classComplex:
		c = getComplex(x, xi)
		if to != classComplex {
			return fmt.Errorf("convert from %s to %s: %w", stablehlo.ElemName(x.DType()), stablehlo.ElemName(dst.DType()), errOp)
		}
	}
	if from != classComplex {
		c = complex(f, 0)
	}
	switch to {
	case classBool:
		setBool(dst, di, c != 0 || isInt && i != 0)
	case classSigned, classUnsigned:
		if !isInt {
			t := math.Trunc(f)
			lo, hi := intRange(dst.DType())
			if f != f || t < lo || t >= hi {
				return fmt.Errorf("convert %v to %s: out of range", f, stablehlo.ElemName(dst.DType()))
			}
			if t < 0 {
				i = uint64(int64(t))
			} else {
				i = uint64(t)
			}
		}
		dst.SetIntAt(di, int64(i))
	case classFloat:
		dst.SetFloatAt(di, f)
	case classComplex:
		setComplex(dst, di, c)
	}
	return nil
}

// intRange returns [lo, hi) of integer type d as float64 values.
func intRange(d tensor.DType) (lo, hi float64) {
	bits := float64(8 * d.Size())
	if d.IsUnsigned() {
		return 0, math.Exp2(bits)
	}
	return -math.Exp2(bits - 1), math.Exp2(bits - 1)
}

// ulpDistance is the distance between two elements of a floating-point
// or complex type as the StableHLO interpreter's check.expect_close
// measures it (stablehlo/tests/CheckOps.cpp): 0 for equal bits or two
// NaNs of any payload; between finite values, the number of values of the
// type between them (their magnitudes' bit patterns subtracted, or added
// across zero, so +0 and -0 are 0 apart); otherwise (an infinity against
// anything else) the largest uint64. Complex elements take the larger
// distance of their real and imaginary parts.
func ulpDistance(x tensor.Tensor, xi int, y tensor.Tensor, yi int) uint64 {
	switch s := x.Data().(type) {
	case []float16.Float16:
		return ulpBits(uint64(s[xi].Bits()), uint64(y.Data().([]float16.Float16)[yi].Bits()), 5, 10)
	case []bfloat16.BFloat16:
		return ulpBits(uint64(s[xi].Bits()), uint64(y.Data().([]bfloat16.BFloat16)[yi].Bits()), 8, 7)
	case []float32:
		return ulpBits(uint64(math.Float32bits(s[xi])), uint64(math.Float32bits(y.Data().([]float32)[yi])), 8, 23)
	case []float64:
		return ulpBits(math.Float64bits(s[xi]), math.Float64bits(y.Data().([]float64)[yi]), 11, 52)
	case []complex64:
		a, b := s[xi], y.Data().([]complex64)[yi]
		return max(ulpBits(uint64(math.Float32bits(real(a))), uint64(math.Float32bits(real(b))), 8, 23),
			ulpBits(uint64(math.Float32bits(imag(a))), uint64(math.Float32bits(imag(b))), 8, 23))
	case []complex128:
		a, b := s[xi], y.Data().([]complex128)[yi]
		return max(ulpBits(math.Float64bits(real(a)), math.Float64bits(real(b)), 11, 52),
			ulpBits(math.Float64bits(imag(a)), math.Float64bits(imag(b)), 11, 52))
	}
	return math.MaxUint64
}

// ulpBits is ulpDistance for two bit patterns of a binary floating-point
// format with exp exponent bits and man mantissa bits.
func ulpBits(a, b uint64, exp, man uint) uint64 {
	if a == b {
		return 0
	}
	sign := uint64(1) << (exp + man)
	expMask := (uint64(1)<<exp - 1) << man
	finite := func(v uint64) bool { return v&expMask != expMask }
	nan := func(v uint64) bool { return v&expMask == expMask && v&(uint64(1)<<man-1) != 0 }
	switch {
	case finite(a) && finite(b):
		ma, mb := a&^sign, b&^sign
		if a&sign != b&sign {
			return ma + mb
		}
		return max(ma, mb) - min(ma, mb)
	case nan(a) && nan(b):
		return 0
	}
	return math.MaxUint64
}
