package torch

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

type scalarKind uint8

const (
	kindInt scalarKind = iota // the zero Scalar is the int 0
	kindBool
	kindFloat
	kindComplex
)

// Scalar is a Python number as PyTorch receives one for the value of
// torch.scatter: a bool, an int (int64), a float (float64) or a complex
// (complex128). Its kind decides how it is cast to the input's element
// type (see ScatterValue). The zero Scalar is the int 0.
type Scalar struct {
	kind scalarKind
	i    int64 // the int, or the bool as 0 or 1
	f    float64
	c    complex128
}

// Bool returns a bool Scalar.
func Bool(v bool) Scalar {
	s := Scalar{kind: kindBool}
	if v {
		s.i = 1
	}
	return s
}

// Int returns an int Scalar.
func Int(v int64) Scalar { return Scalar{kind: kindInt, i: v} }

// Float returns a float Scalar.
func Float(v float64) Scalar { return Scalar{kind: kindFloat, f: v} }

// Complex returns a complex Scalar.
func Complex(v complex128) Scalar { return Scalar{kind: kindComplex, c: v} }

// String formats s as Python would print it: True, 3, 2.5, (1+2j).
func (s Scalar) String() string {
	switch s.kind {
	case kindBool:
		if s.i != 0 {
			return "True"
		}
		return "False"
	case kindFloat:
		return formatFloat(s.f)
	case kindComplex:
		im := formatFloat(imag(s.c))
		if im[0] != '-' {
			im = "+" + im
		}
		return "(" + formatFloat(real(s.c)) + im + "j)"
	}
	return strconv.FormatInt(s.i, 10)
}

func formatFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ScalarOf reads a 0-d tensor as a Scalar, the way PyTorch reads a 0-d
// tensor passed where a number is expected: bool as a bool, integers as an
// int, floating-point types as a float and complex types as a complex. A
// uint64 above the int64 range and string elements are refused.
func ScalarOf(t tensor.Tensor) (Scalar, error) {
	if t.IsZero() {
		return Scalar{}, fmt.Errorf("%w: missing input \"value\"", dialect.ErrInput)
	}
	if t.Rank() != 0 {
		return Scalar{}, fmt.Errorf("%w: value must be a 0-d tensor, got shape %v", dialect.ErrInput, t.Shape())
	}
	if v, ok := t.IntAt(0); ok {
		if v < 0 && t.DType() == tensor.Uint64 { // IntAt reads a uint64 as its bits
			return Scalar{}, fmt.Errorf("%w: value %d does not fit an int64", dialect.ErrInput, uint64(v))
		}
		return Int(v), nil
	}
	if f, ok := t.FloatAt(0); ok {
		return Float(f), nil
	}
	switch v := t.At(0).(type) {
	case bool:
		return Bool(v), nil
	case complex64:
		return Complex(complex128(v)), nil
	case complex128:
		return Complex(v), nil
	}
	return Scalar{}, dialect.TypeError(fmt.Sprintf("value must be a bool, integer, floating-point or complex tensor, got %v", t.DType()))
}

// bfloat16Max is the largest finite bfloat16, 0x7F7F.
var bfloat16Max = float64(bfloat16.FromBits(0x7f7f).Float32())

// as casts s to an element of type d as PyTorch's checked scalar
// conversion does:
//
//   - To bool nothing overflows: any nonzero value (NaN too) is true; a
//     complex value is judged by its real part.
//   - From complex to a real type, a nonzero imaginary part overflows.
//   - From float to an integer type, NaN, the infinities and values
//     outside [lowest, max] overflow; the rest truncate toward zero.
//   - From int to a signed type, values outside its range overflow; to
//     uint8, values in [-255, 255] are accepted and wrap.
//   - From float or int to a floating-point type, finite values beyond its
//     largest finite value overflow; NaN and the infinities pass. float16
//     and bfloat16 round through float32 (round to nearest even twice),
//     as PyTorch does.
func (s Scalar) as(d tensor.DType) (cast, error) { return s.asParam(d, "value") }

// asParam is as for the parameter called name, which its error names.
func (s Scalar) asParam(d tensor.DType, name string) (cast, error) {
	overflow := func() (cast, error) {
		return cast{}, fmt.Errorf("%w: %s %v cannot be converted to %v without overflow", dialect.ErrInput, name, s, d)
	}
	if d == tensor.Bool {
		switch s.kind {
		case kindFloat:
			return boolCast(s.f != 0), nil
		case kindComplex:
			return boolCast(real(s.c) != 0), nil
		}
		return boolCast(s.i != 0), nil
	}
	if d.IsComplex() {
		re, im := s.real(), 0.0
		if s.kind == kindComplex {
			re, im = real(s.c), imag(s.c)
		}
		if d == tensor.Complex128 {
			if s.kind == kindInt || s.kind == kindBool {
				return complex128Cast(complex(float64(s.i), 0)), nil
			}
			return complex128Cast(complex(re, im)), nil
		}
		if s.kind == kindInt || s.kind == kindBool {
			return complex64Cast(complex(float32(s.i), 0)), nil
		}
		if beyond(re, math.MaxFloat32) || beyond(im, math.MaxFloat32) {
			return overflow()
		}
		return complex64Cast(complex(float32(re), float32(im))), nil
	}
	kind, f := s.kind, s.f
	if kind == kindComplex {
		if imag(s.c) != 0 {
			return overflow()
		}
		kind, f = kindFloat, real(s.c)
	}
	isInt := kind == kindInt || kind == kindBool // a bool is 0 or 1
	switch d {
	case tensor.Float64:
		if isInt {
			return cast{lo: math.Float64bits(float64(s.i))}, nil
		}
		return cast{lo: math.Float64bits(f)}, nil
	case tensor.Float32:
		if isInt {
			return cast{lo: uint64(math.Float32bits(float32(s.i)))}, nil
		}
		if beyond(f, math.MaxFloat32) {
			return overflow()
		}
		return cast{lo: uint64(math.Float32bits(float32(f)))}, nil
	case tensor.Float16:
		if isInt {
			if s.i < -65504 || s.i > 65504 {
				return overflow()
			}
			return cast{lo: uint64(float16.Fromfloat32(float32(s.i)))}, nil
		}
		if beyond(f, 65504) {
			return overflow()
		}
		return cast{lo: uint64(float16.Fromfloat32(float32(f)))}, nil
	case tensor.BFloat16:
		if isInt {
			return cast{lo: uint64(bfloat16.FromFloat32(float32(s.i)).Bits())}, nil
		}
		if beyond(f, bfloat16Max) {
			return overflow()
		}
		return cast{lo: uint64(bfloat16.FromFloat32(float32(f)).Bits())}, nil
	}
	lo, hi, ok := opcall.IntRange(d)
	if !ok {
		return cast{}, fmt.Errorf("%w: torch has no %v tensors", dialect.ErrInput, d)
	}
	var v int64
	switch {
	case isInt && d.IsUnsigned():
		// A negative int wraps if its magnitude fits.
		if s.i > 0 && uint64(s.i) > hi || s.i < 0 && -uint64(s.i) > hi {
			return overflow()
		}
		return cast{lo: uint64(s.i)}, nil
	case isInt:
		if s.i < lo || s.i > int64(hi) {
			return overflow()
		}
		v = s.i
	default:
		// hi converts to the next power of two for int64 and uint64, so
		// 2^63 passes the check; it becomes -2^63, as on x86-64.
		if math.IsNaN(f) || math.IsInf(f, 0) || f < float64(lo) || f > float64(hi) {
			return overflow()
		}
		switch {
		case f >= 1<<63 && d == tensor.Uint64:
			return cast{lo: uint64(f)}, nil
		case f >= 1<<63:
			v = math.MinInt64
		default:
			v = int64(f) // truncates toward zero
		}
	}
	return cast{lo: uint64(v)}, nil
}

// beyond reports whether f is finite and larger in magnitude than max.
func beyond(f, max float64) bool {
	return !math.IsInf(f, 0) && !math.IsNaN(f) && math.Abs(f) > max
}

func (s Scalar) real() float64 {
	switch s.kind {
	case kindFloat:
		return s.f
	case kindComplex:
		return real(s.c)
	}
	return float64(s.i)
}

// cast is a Scalar cast to an element type, as the words of the
// element's bits (see rawbytes.WordSize): the real part, or the whole
// element of a real type, in lo, and a complex type's imaginary part in
// hi.
type cast struct{ lo, hi uint64 }

func boolCast(b bool) cast {
	if b {
		return cast{lo: 1}
	}
	return cast{}
}

func complex64Cast(c complex64) cast {
	return cast{lo: uint64(math.Float32bits(real(c))), hi: uint64(math.Float32bits(imag(c)))}
}

func complex128Cast(c complex128) cast {
	return cast{lo: math.Float64bits(real(c)), hi: math.Float64bits(imag(c))}
}

// fill sets every element of t, of the element type v was cast to, to v:
// the first by its words, in the host's byte order, and the rest by
// copying it.
func (v cast) fill(t tensor.Tensor) {
	b := rawbytes.Bytes(t.Data())
	if len(b) == 0 {
		return
	}
	size, word := t.DType().Size(), rawbytes.WordSize(t.Data())
	putWord(b[:word], v.lo)
	if size > word {
		putWord(b[word:size], v.hi)
	}
	for n := size; n < len(b); n *= 2 {
		copy(b[n:], b[:n])
	}
}

// putWord writes the low len(b) bytes of x into b in the host's byte
// order.
func putWord(b []byte, x uint64) {
	switch len(b) {
	case 1:
		b[0] = byte(x)
	case 2:
		binary.NativeEndian.PutUint16(b, uint16(x))
	case 4:
		binary.NativeEndian.PutUint32(b, uint32(x))
	case 8:
		binary.NativeEndian.PutUint64(b, x)
	}
}
