package tensor

import (
	"fmt"
	"strings"

	"github.com/scatter-dev/scatter/bfloat16"
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

type dtypeInfo struct {
	name string
	size int // bytes per element; 0 for string
}

var dtypeInfos = map[DType]dtypeInfo{
	Bool:       {"bool", 1},
	Int8:       {"int8", 1},
	Int16:      {"int16", 2},
	Int32:      {"int32", 4},
	Int64:      {"int64", 8},
	Uint8:      {"uint8", 1},
	Uint16:     {"uint16", 2},
	Uint32:     {"uint32", 4},
	Uint64:     {"uint64", 8},
	Float16:    {"float16", 2},
	BFloat16:   {"bfloat16", 2},
	Float32:    {"float32", 4},
	Float64:    {"float64", 8},
	Complex64:  {"complex64", 8},
	Complex128: {"complex128", 16},
	String:     {"string", 0},
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
	_, ok := dtypeInfos[d]
	return ok
}

// String returns the type's name as NumPy and ONNX spell it in lower case
// ("float32", "bfloat16", "string"), or "dtype(N)" for an unknown value.
func (d DType) String() string {
	if info, ok := dtypeInfos[d]; ok {
		return info.name
	}
	return fmt.Sprintf("dtype(%d)", int32(d))
}

// Size returns the number of bytes of one element, or 0 for String (whose
// elements have no fixed size) and for unknown types.
func (d DType) Size() int { return dtypeInfos[d].size }

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
		if info.name == name {
			return d, nil
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

// makeSlice allocates a zeroed slice of n elements of type d.
func makeSlice(d DType, n int) any {
	switch d {
	case Bool:
		return make([]bool, n)
	case Int8:
		return make([]int8, n)
	case Int16:
		return make([]int16, n)
	case Int32:
		return make([]int32, n)
	case Int64:
		return make([]int64, n)
	case Uint8:
		return make([]uint8, n)
	case Uint16:
		return make([]uint16, n)
	case Uint32:
		return make([]uint32, n)
	case Uint64:
		return make([]uint64, n)
	case Float16:
		return make([]float16.Float16, n)
	case BFloat16:
		return make([]bfloat16.BFloat16, n)
	case Float32:
		return make([]float32, n)
	case Float64:
		return make([]float64, n)
	case Complex64:
		return make([]complex64, n)
	case Complex128:
		return make([]complex128, n)
	case String:
		return make([]string, n)
	}
	return nil
}
