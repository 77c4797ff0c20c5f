package tensor

import (
	"fmt"
	"reflect"
	"strings"
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/internal/hugepage"
	"github.com/x448/float16"
)

// DType is an element type. Its values are those of ONNX's
// TensorProto.DataType, so a DType read from an ONNX file needs no mapping.
type DType int32

// The element types, numbered as ONNX numbers them.
const (
	Undefined  DType = 0
	Float32    DType = 1
	Uint8      DType = 2
	Int8       DType = 3
	Uint16     DType = 4
	Int16      DType = 5
	Int32      DType = 6
	Int64      DType = 7
	String     DType = 8
	Bool       DType = 9
	Float16    DType = 10
	Float64    DType = 11
	Uint32     DType = 12
	Uint64     DType = 13
	Complex64  DType = 14
	Complex128 DType = 15
	BFloat16   DType = 16
)

// Elem is the set of Go types that hold tensor elements, one per DType.
type Elem interface {
	bool | int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 |
		float16.Float16 | bfloat16.BFloat16 | float32 | float64 |
		complex64 | complex128 | string
}

// dtypeInfo is what the package knows of one element type: its name,
// its size, and the per-type parts of the methods that take any slice.
type dtypeInfo struct {
	name string
	size int // bytes per element; 0 for string
	// elem is the Go type of an element.
	elem reflect.Type
	// makeSlice allocates a zeroed slice of n elements.
	makeSlice func(n int) any
	// firstDiff is FirstDiff for two slices of the type.
	firstDiff func(a, b any) int
	// intAt and setIntAt, set for the integer types only, are IntAt and
	// SetIntAt for a slice of the type.
	intAt    func(data any, i int) int64
	setIntAt func(data any, i int, v int64)
	// floatAt and setFloatAt, set for the floating-point types only, are
	// FloatAt and SetFloatAt for a slice of the type.
	floatAt    func(data any, i int) float64
	setFloatAt func(data any, i int, f float64)
}

// dtypeInfos holds the dtypeInfo of each DType at its number; the
// numbers without a type have a zero entry.
var dtypeInfos = [...]dtypeInfo{
	Bool:       elemInfo[bool]("bool", 1, sameDiff[bool]),
	Int8:       intInfo[int8]("int8", 1),
	Int16:      intInfo[int16]("int16", 2),
	Int32:      intInfo[int32]("int32", 4),
	Int64:      intInfo[int64]("int64", 8),
	Uint8:      intInfo[uint8]("uint8", 1),
	Uint16:     intInfo[uint16]("uint16", 2),
	Uint32:     intInfo[uint32]("uint32", 4),
	Uint64:     intInfo[uint64]("uint64", 8),
	Float16:    floatInfo("float16", 2, sameDiff[float16.Float16], float16.Float16.Float32, float16.Fromfloat32),
	BFloat16:   floatInfo("bfloat16", 2, sameDiff[bfloat16.BFloat16], bfloat16.BFloat16.Float32, bfloat16.FromFloat32),
	Float32:    floatInfo("float32", 4, bitsDiff[float32, uint32], same[float32], same[float32]),
	Float64:    floatInfo("float64", 8, bitsDiff[float64, uint64], same[float64], same[float64]),
	Complex64:  elemInfo[complex64]("complex64", 8, bitsDiff[complex64, [2]uint32]),
	Complex128: elemInfo[complex128]("complex128", 16, bitsDiff[complex128, [2]uint64]),
	String:     elemInfo[string]("string", 0, sameDiff[string]),
}

// elemInfo describes the type whose elements are Go values of type T
// and which FirstDiff compares with diff.
func elemInfo[T Elem](name string, size int, diff func(a, b any) int) dtypeInfo {
	return dtypeInfo{
		name: name,
		size: size,
		elem: reflect.TypeFor[T](),
		makeSlice: func(n int) any {
			s := make([]T, n)
			if size > 0 && n > 0 {
				// Large fixed-size tensors on huge pages, as NumPy's arrays.
				hugepage.Advise(unsafe.Pointer(&s[0]), uintptr(n)*uintptr(size))
			}
			return s
		},
		firstDiff: diff,
	}
}

// integer is the set of the integer element types.
type integer interface {
	int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64
}

// intInfo describes an integer type: IntAt widens an element as a Go
// conversion does (a uint64 keeps its bits), SetIntAt truncates.
func intInfo[T integer](name string, size int) dtypeInfo {
	d := elemInfo[T](name, size, sameDiff[T])
	d.intAt = func(data any, i int) int64 { return int64(data.([]T)[i]) }
	d.setIntAt = func(data any, i int, v int64) { data.([]T)[i] = T(v) }
	return d
}

// floatInfo describes a floating-point type which FirstDiff compares
// with diff, whose elements widen converts exactly to a float F and round
// converts from one, rounding to nearest even. SetFloatAt reaches a type
// narrower than float32 by way of a float32 rounded to odd (see
// float32Odd), so that the value is rounded once.
func floatInfo[T Elem, F float32 | float64](name string, size int,
	diff func(a, b any) int, widen func(T) F, round func(F) T) dtypeInfo {
	d := elemInfo[T](name, size, diff)
	d.floatAt = func(data any, i int) float64 { return float64(widen(data.([]T)[i])) }
	if size < 4 {
		d.setFloatAt = func(data any, i int, f float64) { data.([]T)[i] = round(F(float32Odd(f))) }
	} else {
		d.setFloatAt = func(data any, i int, f float64) { data.([]T)[i] = round(F(f)) }
	}
	return d
}

// same returns v: the conversion of a float32 or float64 to itself.
func same[T any](v T) T { return v }

// sameDiff is FirstDiff for slices of T whose elements are equal when
// their Go values are: the integers, bool, string, and float16 and
// bfloat16, whose Go values are their bits.
func sameDiff[T comparable](a, b any) int { return firstDiff(a.([]T), b.([]T)) }

// bitsDiff is FirstDiff for slices of T compared by bits: each slice is
// viewed as a slice of B, a type of T's size that holds bits (uint32 for
// float32, [2]uint64 for complex128, ...).
func bitsDiff[T, B comparable](a, b any) int {
	return firstDiff(viewAs[B](a.([]T)), viewAs[B](b.([]T)))
}

// viewAs returns the memory of s viewed as elements of type B, which must
// have the size of T.
func viewAs[B, T any](s []T) []B {
	return unsafe.Slice((*B)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// info returns d's dtypeInfo, a zero one for an unknown d.
func (d DType) info() *dtypeInfo {
	if d < 0 || int(d) >= len(dtypeInfos) {
		return &dtypeInfos[Undefined]
	}
	return &dtypeInfos[d]
}

// DTypes returns every supported element type in ONNX numbering order.
func DTypes() []DType {
	return []DType{Float32, Uint8, Int8, Uint16, Int16, Int32, Int64, String, Bool,
		Float16, Float64, Uint32, Uint64, Complex64, Complex128, BFloat16}
}

// IntegerTypes returns the signed and then the unsigned integer types, each
// from the narrowest.
func IntegerTypes() []DType {
	return []DType{Int8, Int16, Int32, Int64, Uint8, Uint16, Uint32, Uint64}
}

// Valid reports whether d is one of the supported element types.
func (d DType) Valid() bool {
	return d.info().name != ""
}

// String returns the type's name as NumPy and ONNX spell it in lower case
// ("float32", "bfloat16", "string"), or "dtype(N)" for an unknown value.
func (d DType) String() string {
	if d.Valid() {
		return d.info().name
	}
	return fmt.Sprintf("dtype(%d)", int32(d))
}

// Size returns the number of bytes of one element, or 0 for String (whose
// elements have no fixed size) and for unknown types.
func (d DType) Size() int { return d.info().size }

// IsInteger reports whether d is a signed or unsigned integer type.
func (d DType) IsInteger() bool { return d.IsSigned() || d.IsUnsigned() }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool {
	return d == Int8 || d == Int16 || d == Int32 || d == Int64
}

// IsUnsigned reports whether d is an unsigned integer type.
func (d DType) IsUnsigned() bool {
	return d == Uint8 || d == Uint16 || d == Uint32 || d == Uint64
}

// IsFloat reports whether d is a real floating-point type.
func (d DType) IsFloat() bool {
	return d == Float16 || d == BFloat16 || d == Float32 || d == Float64
}

// IsComplex reports whether d is a complex type.
func (d DType) IsComplex() bool { return d == Complex64 || d == Complex128 }

// ParseDType returns the DType named s. It accepts the names String returns
// and ONNX's spellings ("float", "double", "FLOAT16", "tensor(int64)").
func ParseDType(s string) (DType, error) {
	name := strings.ToLower(strings.TrimSpace(s))
	name = strings.TrimSuffix(strings.TrimPrefix(name, "tensor("), ")")
	switch name {
	case "float":
		return Float32, nil
	case "double":
		return Float64, nil
	case "half":
		return Float16, nil
	}
	for d, info := range dtypeInfos {
		if info.name == name && name != "" {
			return DType(d), nil
		}
	}
	return Undefined, fmt.Errorf("tensor: unknown element type %q", s)
}

// DTypeOf returns the DType whose elements are Go values of type T.
func DTypeOf[T Elem]() DType {
	var zero T
	return dtypeOfValue(any(zero))
}

func dtypeOfValue(v any) DType {
	switch v.(type) {
	case bool:
		return Bool
	case int8:
		return Int8
	case int16:
		return Int16
	case int32:
		return Int32
	case int64:
		return Int64
	case uint8:
		return Uint8
	case uint16:
		return Uint16
	case uint32:
		return Uint32
	case uint64:
		return Uint64
	case float16.Float16:
		return Float16
	case bfloat16.BFloat16:
		return BFloat16
	case float32:
		return Float32
	case float64:
		return Float64
	case complex64:
		return Complex64
	case complex128:
		return Complex128
	case string:
		return String
	}
	return Undefined
}

// dtypeOfSlice returns the DType of a slice of one of the Elem types.
func dtypeOfSlice(data any) DType {
	switch data.(type) {
	case []bool:
		return Bool
	case []int8:
		return Int8
	case []int16:
		return Int16
	case []int32:
		return Int32
	case []int64:
		return Int64
	case []uint8:
		return Uint8
	case []uint16:
		return Uint16
	case []uint32:
		return Uint32
	case []uint64:
		return Uint64
	case []float16.Float16:
		return Float16
	case []bfloat16.BFloat16:
		return BFloat16
	case []float32:
		return Float32
	case []float64:
		return Float64
	case []complex64:
		return Complex64
	case []complex128:
		return Complex128
	case []string:
		return String
	}
	return Undefined
}

// makeSlice allocates a zeroed slice of n elements of type d; nil for an
// unknown d.
func makeSlice(d DType, n int) any {
	if mk := d.info().makeSlice; mk != nil {
		return mk(n)
	}
	return nil
}
