package reftest

import (
	"fmt"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// checkReduction fails when opt's reduction has no meaning for elements of
// type d.
func checkReduction(d tensor.DType, opt Options) error {
	r := opt.Reduction
	switch {
	case r > Mean:
		return fmt.Errorf("%w: unknown reduction %v", ErrArgument, r)
	case r == None:
		return nil
	case opt.ExcludeSelf && r == Sub:
		return fmt.Errorf("%w: sub cannot leave the existing value out", ErrArgument)
	case d == tensor.String && r != Add,
		d == tensor.Bool && r == Mean,
		d.IsComplex() && (r == Max || r == Min):
		return fmt.Errorf("%w: reduction %v on %v elements", ErrType, r, d)
	}
	return nil
}

// reduce returns what a position holding self ends with after receiving
// the updates ups, in order, under opt; ups is not empty.
func reduce(d tensor.DType, self any, ups []any, opt Options) any {
	r := opt.Reduction
	if r == None {
		return ups[len(ups)-1]
	}
	// The values that take part, in order, and how many of them count for
	// a mean.
	vals := append([]any{self}, ups...)
	if opt.ExcludeSelf {
		vals = ups
		switch {
		case opt.ZeroStart && (r == Add || r == Mean):
			vals = append([]any{zero(d)}, ups...)
		case opt.ZeroStart && r == Mul:
			vals = append([]any{unit(d)}, ups...)
		}
	}
	n := len(ups)
	if !opt.ExcludeSelf {
		n++
	}
	step := r
	if r == Mean {
		step = Add
	}
	if opt.HalfOnce && (d == tensor.Float16 || d == tensor.BFloat16) && (step == Add || step == Mul) {
		// In float32 all the way, rounded once.
		acc := widen(vals[0])
		for _, v := range vals[1:] {
			acc = floatStep(step, acc, widen(v), false)
		}
		sum := narrow(d, acc)
		if r == Mean {
			return narrow(d, widen(sum)/float32(n))
		}
		return sum
	}
	acc := vals[0]
	for _, v := range vals[1:] {
		acc = combine(step, acc, v, opt.StdMinMax)
	}
	if r == Mean {
		return mean(acc, n, opt.CountInType)
	}
	return acc
}

// combine returns the reduction step r of value v with update u, two
// elements of the same type. float16 and bfloat16 compute in float32 and
// round the result.
func combine(r Reduction, v, u any, std bool) any {
	switch v := v.(type) {
	case bool:
		u := u.(bool)
		switch r {
		case Add, Max:
			return v || u
		case Mul, Min:
			return v && u
		}
		return v != u // Sub
	case int8:
		return intStep(r, v, u.(int8))
	case int16:
		return intStep(r, v, u.(int16))
	case int32:
		return intStep(r, v, u.(int32))
	case int64:
		return intStep(r, v, u.(int64))
	case uint8:
		return intStep(r, v, u.(uint8))
	case uint16:
		return intStep(r, v, u.(uint16))
	case uint32:
		return intStep(r, v, u.(uint32))
	case uint64:
		return intStep(r, v, u.(uint64))
	case float32:
		return floatStep(r, v, u.(float32), std)
	case float64:
		return floatStep(r, v, u.(float64), std)
	case float16.Float16:
		return float16.Fromfloat32(floatStep(r, v.Float32(), u.(float16.Float16).Float32(), std))
	case bfloat16.BFloat16:
		return bfloat16.FromFloat32(floatStep(r, v.Float32(), u.(bfloat16.BFloat16).Float32(), std))
	case complex64:
		return complexStep(r, v, u.(complex64))
	case complex128:
		return complexStep(r, v, u.(complex128))
	case string:
		return v + u.(string) // Add: concatenation
	}
	panic(fmt.Sprintf("reftest: no arithmetic for %T", v))
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// intStep is Go's own integer arithmetic, which wraps.
func intStep[T integer](r Reduction, v, u T) T {
	switch r {
	case Sub:
		return v - u
	case Mul:
		return v * u
	case Max:
		return max(v, u)
	case Min:
		return min(v, u)
	}
	return v + u
}

func floatStep[T float32 | float64](r Reduction, v, u T, std bool) T {
	switch r {
	case Sub:
		return v - u
	case Mul:
		return v * u
	case Max:
		if std { // std::max(v, u): u only if v < u
			if v < u {
				return u
			}
			return v
		}
		if v != v {
			return v
		}
		if u != u || u > v {
			return u
		}
		return v
	case Min:
		if std { // std::min(v, u): u only if u < v
			if u < v {
				return u
			}
			return v
		}
		if v != v {
			return v
		}
		if u != u || u < v {
			return u
		}
		return v
	}
	return v + u
}

func complexStep[T complex64 | complex128](r Reduction, v, u T) T {
	switch r {
	case Sub:
		return v - u
	case Mul:
		return v * u
	}
	return v + u
}

// mean divides the sum of n values by n, in the element type.
func mean(sum any, n int, inType bool) any {
	switch s := sum.(type) {
	case int8:
		return int8(floorDiv(int64(s), divisor(int64(int8(n)), n, inType)))
	case int16:
		return int16(floorDiv(int64(s), divisor(int64(int16(n)), n, inType)))
	case int32:
		return int32(floorDiv(int64(s), divisor(int64(int32(n)), n, inType)))
	case int64:
		return floorDiv(s, int64(n))
	case uint8:
		return uint8(uint64(s) / uint64(divisor(int64(uint8(n)), n, inType)))
	case uint16:
		return uint16(uint64(s) / uint64(divisor(int64(uint16(n)), n, inType)))
	case uint32:
		return uint32(uint64(s) / uint64(divisor(int64(uint32(n)), n, inType)))
	case uint64:
		return s / uint64(n)
	case float32:
		return s / float32(n)
	case float64:
		return s / float64(n)
	case float16.Float16:
		return float16.Fromfloat32(s.Float32() / float32(n))
	case bfloat16.BFloat16:
		return bfloat16.FromFloat32(s.Float32() / float32(n))
	case complex64:
		return s / complex(float32(n), 0)
	case complex128:
		return s / complex(float64(n), 0)
	}
	panic(fmt.Sprintf("reftest: no mean for %T", sum))
}

// divisor returns the count n to divide by: n itself, or when inType,
// wrapped, its value in the element type (0 taken as 1).
func divisor(wrapped int64, n int, inType bool) int64 {
	switch {
	case !inType:
		return int64(n)
	case wrapped == 0:
		return 1
	}
	return wrapped
}

// floorDiv divides rounding toward negative infinity.
func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// widen returns a float16 or bfloat16 value as a float32.
func widen(v any) float32 {
	if h, ok := v.(float16.Float16); ok {
		return h.Float32()
	}
	return v.(bfloat16.BFloat16).Float32()
}

// narrow rounds f to float16 or bfloat16.
func narrow(d tensor.DType, f float32) any {
	if d == tensor.Float16 {
		return float16.Fromfloat32(f)
	}
	return bfloat16.FromFloat32(f)
}

// unit returns the element 1 of type d (true for bool), the start of
// ZeroStart's product.
func unit(d tensor.DType) any {
	switch zero(d).(type) {
	case bool:
		return true
	case int8:
		return int8(1)
	case int16:
		return int16(1)
	case int32:
		return int32(1)
	case int64:
		return int64(1)
	case uint8:
		return uint8(1)
	case uint16:
		return uint16(1)
	case uint32:
		return uint32(1)
	case uint64:
		return uint64(1)
	case float32:
		return float32(1)
	case float64:
		return float64(1)
	case float16.Float16:
		return float16.Fromfloat32(1)
	case bfloat16.BFloat16:
		return bfloat16.FromFloat32(1)
	case complex64:
		return complex64(1)
	case complex128:
		return complex128(1)
	}
	panic(fmt.Sprintf("reftest: no one of type %v", d))
}
