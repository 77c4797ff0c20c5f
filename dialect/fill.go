package dialect

import (
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// Fill is what an element of an operator's output holds when no update
// reaches it, for the operators whose output starts from no data tensor:
// the value of an empty segment of a segment reduction. The dialect hands
// FillValue's scalar to the engine (engine.ScatterOptions.Fill).
type Fill uint8

// The fills.
const (
	// FillZero is the zero value (0, +0, false).
	FillZero Fill = iota
	// FillOne is one (1, 1+0i, true).
	FillOne
	// FillLowest is the lowest finite value of the type (the most
	// negative float, an integer type's minimum, false): C++'s
	// numeric_limits<T>::lowest(), TensorFlow's empty maximum.
	FillLowest
	// FillHighest is the highest finite value of the type (true for
	// bool): numeric_limits<T>::max(), TensorFlow's empty minimum.
	FillHighest
	// FillMinusInf is -Inf for the floating-point types, an integer
	// type's minimum and false: JAX's identity of max.
	FillMinusInf
	// FillPlusInf is +Inf for the floating-point types, an integer
	// type's maximum and true: JAX's identity of min.
	FillPlusInf
)

var fillNames = [...]string{"0", "1", "the lowest finite value of the type", "the highest finite value of the type",
	"-inf (the lowest integer, false)", "+inf (the highest integer, true)"}

// String says what the fill is, as the documents quote it.
func (f Fill) String() string {
	if int(f) < len(fillNames) {
		return fillNames[f]
	}
	return "fill(?)"
}

// FillValue returns the fill f as a scalar of element type d; ok is false
// where d has no such value (the lowest or highest complex number, a
// string other than ""). The scalar is made once and shared: it must not
// be modified.
func FillValue(f Fill, d tensor.DType) (t tensor.Tensor, ok bool) {
	if int(f) >= len(fillValues) {
		return tensor.Tensor{}, false
	}
	t, ok = fillValues[f][d]
	return t, ok
}

// fillValues holds every fill of every element type that has it.
var fillValues = func() [len(fillNames)]map[tensor.DType]tensor.Tensor {
	var all [len(fillNames)]map[tensor.DType]tensor.Tensor
	for f := range all {
		all[f] = map[tensor.DType]tensor.Tensor{}
	}
	put := func(f Fill, vals ...tensor.Tensor) {
		for _, v := range vals {
			all[f][v.DType()] = v
		}
	}
	for _, d := range []tensor.DType{tensor.Bool, tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8,
		tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64,
		tensor.Complex64, tensor.Complex128, tensor.String} {
		put(FillZero, tensor.Must(tensor.New(d, tensor.Shape{})))
	}
	put(FillOne, tensor.Scalar(true), tensor.Scalar(int8(1)), tensor.Scalar(int16(1)), tensor.Scalar(int32(1)),
		tensor.Scalar(int64(1)), tensor.Scalar(uint8(1)), tensor.Scalar(uint16(1)), tensor.Scalar(uint32(1)),
		tensor.Scalar(uint64(1)), tensor.Scalar(float16.Fromfloat32(1)), tensor.Scalar(bfloat16.FromFloat32(1)),
		tensor.Scalar(float32(1)), tensor.Scalar(float64(1)), tensor.Scalar(complex64(1)), tensor.Scalar(complex128(1)))
	ints := func(low bool) []tensor.Tensor {
		if low {
			return []tensor.Tensor{tensor.Scalar(false), tensor.Scalar(int8(math.MinInt8)), tensor.Scalar(int16(math.MinInt16)),
				tensor.Scalar(int32(math.MinInt32)), tensor.Scalar(int64(math.MinInt64)), tensor.Scalar(uint8(0)),
				tensor.Scalar(uint16(0)), tensor.Scalar(uint32(0)), tensor.Scalar(uint64(0))}
		}
		return []tensor.Tensor{tensor.Scalar(true), tensor.Scalar(int8(math.MaxInt8)), tensor.Scalar(int16(math.MaxInt16)),
			tensor.Scalar(int32(math.MaxInt32)), tensor.Scalar(int64(math.MaxInt64)), tensor.Scalar(uint8(math.MaxUint8)),
			tensor.Scalar(uint16(math.MaxUint16)), tensor.Scalar(uint32(math.MaxUint32)), tensor.Scalar(uint64(math.MaxUint64))}
	}
	put(FillLowest, ints(true)...)
	put(FillLowest, tensor.Scalar(float16.Frombits(0xfbff)), tensor.Scalar(bfloat16.BFloat16(0xff7f)),
		tensor.Scalar(float32(-math.MaxFloat32)), tensor.Scalar(-math.MaxFloat64))
	put(FillHighest, ints(false)...)
	put(FillHighest, tensor.Scalar(float16.Frombits(0x7bff)), tensor.Scalar(bfloat16.BFloat16(0x7f7f)),
		tensor.Scalar(float32(math.MaxFloat32)), tensor.Scalar(math.MaxFloat64))
	put(FillMinusInf, ints(true)...)
	put(FillMinusInf, tensor.Scalar(float16.Inf(-1)), tensor.Scalar(bfloat16.FromFloat32(float32(math.Inf(-1)))),
		tensor.Scalar(float32(math.Inf(-1))), tensor.Scalar(math.Inf(-1)))
	put(FillPlusInf, ints(false)...)
	put(FillPlusInf, tensor.Scalar(float16.Inf(1)), tensor.Scalar(bfloat16.FromFloat32(float32(math.Inf(1)))),
		tensor.Scalar(float32(math.Inf(1))), tensor.Scalar(math.Inf(1)))
	return all
}()
