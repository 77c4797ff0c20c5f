package engine

import (
	"math"
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// elemType is what the engine knows of one element type: the size of an
// element as the movers move it (a string moves as its header), how a
// scatter that reduces builds its reducer, and for an integer type but
// int64, how its indices widen to int64. Moving needs only the size; only
// the reductions' arithmetic and the widening are typed.
type elemType struct {
	size uintptr
	// widen sets out to the elements of data, a slice of this type and
	// of out's length, as int64: nil but for the integer types indices
	// may have, and for int64, which the kernels read as it is.
	widen func(out []int64, data any)
	// reducer returns the reducer of blocks of the given size for opt's
	// reduction and knobs (see newKnobReducer), dst and src being of
	// this type.
	reducer func(dst, src tensor.Tensor, block int, opt ScatterOptions) reducer
}

// elemTypes holds the elemType of each tensor.DType at its number, a zero
// one at the numbers without a type: adding an element type is adding a
// row. The engine consults it once per call, never per element.
var elemTypes = [...]elemType{
	tensor.Bool:       typeRow(boolReducer),
	tensor.Int8:       indexRow[int8](typeRow(signedReducer[int8](math.MinInt8, math.MaxInt8))),
	tensor.Int16:      indexRow[int16](typeRow(signedReducer[int16](math.MinInt16, math.MaxInt16))),
	tensor.Int32:      indexRow[int32](typeRow(signedReducer[int32](math.MinInt32, math.MaxInt32))),
	tensor.Int64:      typeRow(signedReducer[int64](math.MinInt64, math.MaxInt64)),
	tensor.Uint8:      indexRow[uint8](typeRow(unsignedReducer[uint8])),
	tensor.Uint16:     indexRow[uint16](typeRow(unsignedReducer[uint16])),
	tensor.Uint32:     indexRow[uint32](typeRow(unsignedReducer[uint32])),
	tensor.Uint64:     withWiden(typeRow(unsignedReducer[uint64]), widenUint64),
	tensor.Float16:    typeRow(halfReducer(float16.Float16.Float32, float16.Fromfloat32)),
	tensor.BFloat16:   typeRow(halfReducer(bfloat16.BFloat16.Float32, bfloat16.FromFloat32)),
	tensor.Float32:    typeRow(floatReducer[float32]),
	tensor.Float64:    typeRow(floatReducer[float64]),
	tensor.Complex64:  typeRow(complexReducer(mulC10x64, quoC10x64)),
	tensor.Complex128: typeRow(complexReducer(mulC10x128, quoC10x128)),
	tensor.String:     typeRow(stringReducer),
}

// elemTypeOf returns the elemType of d, a zero one for an unknown d.
func elemTypeOf(d tensor.DType) *elemType {
	if uint(d) >= uint(len(elemTypes)) {
		return &elemTypes[tensor.Undefined]
	}
	return &elemTypes[d]
}

// typeRow returns the elemType of the element type T, whose reducers red
// builds from dst's elements.
func typeRow[T any](red func(dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer) elemType {
	var zero T
	return elemType{size: unsafe.Sizeof(zero), reducer: func(dst, src tensor.Tensor, block int, opt ScatterOptions) reducer {
		d, _ := dst.Data().([]T)
		return red(d, src, block, opt)
	}}
}

// indexRow returns row, the elemType of T, with T's widening to int64.
func indexRow[T ~int8 | ~int16 | ~int32 | ~uint8 | ~uint16 | ~uint32](row elemType) elemType {
	return withWiden(row, func(out []int64, data any) { widen(out, data.([]T)) })
}

// withWiden returns row with its widening to int64, f.
func withWiden(row elemType, f func(out []int64, data any)) elemType {
	row.widen = f
	return row
}

// widen sets out to v as int64.
func widen[I ~int8 | ~int16 | ~int32 | ~uint8 | ~uint16 | ~uint32](out []int64, v []I) {
	out = out[:len(v)]
	for i, x := range v {
		out[i] = int64(x)
	}
}

// widenUint64 is the widening of uint64 indices: values above MaxInt64
// saturate to MaxInt64, which no dimension admits.
func widenUint64(out []int64, data any) {
	v := data.([]uint64)
	out = out[:len(v)]
	for i, x := range v {
		out[i] = int64(min(x, math.MaxInt64))
	}
}

// The reducers of each kind of element type, for opt's reduction and
// knobs, which checkReduction has accepted. Mean reduces by adding; the
// kernel divides at the end.

func boolReducer(dst []bool, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	return newFuncReducer(dst, src, block, boolOps(opt.Reduction))
}

func signedReducer[T signed](lowest, highest T) func(dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	return func(dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
		return intReducer(dst, src, block, opt.Reduction, signedOps[T](opt.Reduction, lowest, highest))
	}
}

func unsignedReducer[T unsigned](dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	return intReducer(dst, src, block, opt.Reduction, unsignedOps[T](opt.Reduction))
}

// floatReducer is the reducer of float32 or float64 elements: max and
// min by a rule other than MinMaxNaN, MinMaxStdUpdate and MinMaxLastNaN,
// and div, call
// their functions, the rest do their arithmetic inline.
func floatReducer[T float](dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	r := opt.Reduction
	if opt.Arith.MinMax == MinMaxStdUpdate && (r == Max || r == Min) {
		// Inline, in the loops of the other reductions.
		return newNumReducer(dst, src, block, updateFirst(r), floatOps[T](r))
	}
	if opt.Arith.MinMax == MinMaxLastNaN && (r == Max || r == Min) {
		return newNumReducer(dst, src, block, lastNaN(r), floatOps[T](r))
	}
	if opt.Arith.MinMax != MinMaxNaN && (r == Max || r == Min) {
		return newFuncReducer(dst, src, block, minMaxOps[T](r, opt.Arith.MinMax))
	}
	if r == Div {
		return newFuncReducer(dst, src, block, floatOps[T](r))
	}
	return newNumReducer(dst, src, block, r, floatOps[T](r))
}

// halfReducer returns the reducers of float16 or bfloat16 elements (H),
// which widen converts to float32 and narrow rounds back.
func halfReducer[H ~uint16](widen func(H) float32, narrow func(float32) H) func(dst []H, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	return func(dst []H, src tensor.Tensor, block int, opt ScatterOptions) reducer {
		if red := halfKnobs(dst, src, block, opt, widen, narrow); red != nil {
			return red
		}
		o := halfOps(opt.Reduction, widen, narrow)
		if opt.Arith.CountInType && o.mean != nil {
			stepCounts(&o, widen, narrow)
		}
		return newFuncReducer(dst, src, block, o)
	}
}

// complexReducer returns the reducers of complex64 or complex128 elements,
// whose ComplexC10 products and quotients mulC10 and quoC10 compute.
func complexReducer[T complex64 | complex128](mulC10, quoC10 func(x, y T) T) func(dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	return func(dst []T, src tensor.Tensor, block int, opt ScatterOptions) reducer {
		return newFuncReducer(dst, src, block, complexOps(opt.Reduction, opt.Arith.Complex, mulC10, quoC10))
	}
}

// stringReducer is the reducer of Add, which concatenates
// (Arith.ConcatStrings).
func stringReducer(dst []string, src tensor.Tensor, block int, _ ScatterOptions) reducer {
	return newFuncReducer(dst, src, block, ops[string]{combine: func(v, u string) string { return v + u }})
}
