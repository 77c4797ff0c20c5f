package reftest

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// checkReduction fails when opt's reduction has no meaning for elements of
// type d, or opt asks for what this package has no reference of.
func checkReduction(d tensor.DType, opt engine.ScatterOptions) error {
	scaled := !opt.Scale.IsZero()
	switch {
	case opt.Reduction == engine.Div && scaled:
		return fmt.Errorf("reftest: %w: reduction div takes no scale", engine.ErrArgument)
	case scaled && (opt.Scale.DType() != d || opt.Scale.Len() != 1):
		return fmt.Errorf("reftest: %w: a scale of %v %v for %v elements", engine.ErrType, opt.Scale.DType(), opt.Scale.Shape(), d)
	case !opt.Fill.IsZero() || opt.Exact || opt.Arith.NumbersOnly:
		return fmt.Errorf("reftest: %w: no reference of Fill, Exact or NumbersOnly", engine.ErrArgument)
	}
	r := opt.Reduction
	switch {
	case r > engine.Div || r == engine.And || r == engine.Or || r == engine.Xor:
		return fmt.Errorf("reftest: %w: no reference of reduction %v", engine.ErrArgument, r)
	case r == engine.None:
		return nil
	case opt.ExcludeSelf && (r == engine.Sub || r == engine.Div):
		return fmt.Errorf("reftest: %w: %v cannot leave the existing value out", engine.ErrArgument, r)
	case opt.ExcludeSelf && opt.Arith.MinMax == engine.MinMaxStd && (r == engine.Max || r == engine.Min) && d.IsFloat():
		return fmt.Errorf("reftest: %w: std::max and std::min cannot leave the existing value out", engine.ErrArgument)
	case r == engine.Mean && opt.Arith.SqrtCount && !d.IsFloat() && !d.IsComplex():
		return fmt.Errorf("reftest: %w: mean by the square root of the count on %v elements", engine.ErrType, d)
	case d == tensor.String && !(r == engine.Add && opt.Arith.ConcatStrings),
		d == tensor.Bool && (r == engine.Mean || r == engine.Div),
		d.IsComplex() && (r == engine.Max || r == engine.Min):
		return fmt.Errorf("reftest: %w: reduction %v on %v elements", engine.ErrType, r, d)
	}
	return nil
}

// reduce returns what a position holding self ends with after receiving
// the updates ups, in order, under opt; ups is not empty.
func reduce(d tensor.DType, self any, ups []any, opt engine.ScatterOptions) any {
	r := opt.Reduction
	a := arithOf(d)
	half := d == tensor.Float16 || d == tensor.BFloat16
	scaled := !opt.Scale.IsZero()
	if scaled && half && r == engine.Add && !opt.Arith.HalfOnce {
		// value + scale*update in float32, rounded once a step.
		acc := self
		if opt.ExcludeSelf {
			acc = zero(d) // ZeroStart's +0; -0 otherwise
			if !opt.Arith.ZeroStart {
				acc = narrow(d, float32(math.Copysign(0, -1)))
			}
		}
		s := widen(opt.Scale.At(0))
		for _, u := range ups {
			acc = narrow(d, floatStep(engine.Add, widen(acc), floatStep(engine.Mul, widen(u), s, engine.ScatterOptions{}), opt))
		}
		return acc
	}
	if scaled {
		s, times := opt.Scale.At(0), make([]any, len(ups))
		for i, u := range ups {
			times[i] = a.step(engine.Mul, u, s, opt)
		}
		ups = times
	}
	if r == engine.None {
		return ups[len(ups)-1]
	}
	// The values that take part, in order, and how many of them count for
	// a mean.
	vals := append([]any{self}, ups...)
	if opt.ExcludeSelf {
		vals = ups
		switch {
		case opt.Arith.ZeroStart && (r == engine.Add || r == engine.Mean):
			vals = append([]any{zero(d)}, ups...)
		case r == engine.Mul:
			vals = append([]any{a.one}, ups...)
		}
	}
	n := len(ups)
	if !opt.ExcludeSelf {
		n++
	}
	step := r
	if r == engine.Mean {
		step = engine.Add
	}
	acc := vals[0]
	if opt.Arith.HalfOnce && (d == tensor.Float16 || d == tensor.BFloat16) && (step == engine.Add || step == engine.Mul) {
		// In float32 all the way, rounded once.
		f := widen(vals[0])
		for _, v := range vals[1:] {
			f = floatStep(step, f, widen(v), engine.ScatterOptions{})
		}
		acc = narrow(d, f)
	} else {
		for _, v := range vals[1:] {
			acc = a.step(step, acc, v, opt)
		}
	}
	if r == engine.Mean {
		return a.mean(acc, n, opt)
	}
	return acc
}

// arith is the arithmetic of one element type, on Go values of that type.
type arith struct {
	// step returns the reduction step r of value v with update u under
	// opt (Arith.MinMax, Arith.Complex).
	step func(r engine.Reduction, v, u any, opt engine.ScatterOptions) any
	// mean divides the sum of n values by n under opt (Arith.CountInType,
	// Arith.Complex); nil where Mean has no meaning.
	mean func(sum any, n int, opt engine.ScatterOptions) any
	// one is the element 1 (true for bool), the start of ZeroStart's
	// product; nil where Mul has no meaning.
	one any
}

// ariths holds the arithmetic of every element type. float16 and bfloat16
// compute in float32 and round the result.
var ariths = map[tensor.DType]arith{
	tensor.Bool: {step: func(r engine.Reduction, v, u any, _ engine.ScatterOptions) any {
		return boolStep(r, v.(bool), u.(bool))
	}, one: true},
	tensor.Int8:       intArith[int8](),
	tensor.Int16:      intArith[int16](),
	tensor.Int32:      intArith[int32](),
	tensor.Int64:      intArith[int64](),
	tensor.Uint8:      intArith[uint8](),
	tensor.Uint16:     intArith[uint16](),
	tensor.Uint32:     intArith[uint32](),
	tensor.Uint64:     intArith[uint64](),
	tensor.Float32:    floatArith[float32](),
	tensor.Float64:    floatArith[float64](),
	tensor.Float16:    halfArith(tensor.Float16),
	tensor.BFloat16:   halfArith(tensor.BFloat16),
	tensor.Complex64:  complexArith[complex64](),
	tensor.Complex128: complexArith[complex128](),
	// Add is concatenation; nothing else has a meaning.
	tensor.String: {step: func(_ engine.Reduction, v, u any, _ engine.ScatterOptions) any { return v.(string) + u.(string) }},
}

func arithOf(d tensor.DType) arith {
	a, ok := ariths[d]
	if !ok {
		panic(fmt.Sprintf("reftest: no arithmetic for %v", d))
	}
	return a
}

// boolStep: Add and Max are OR, Mul and Min AND, Sub XOR.
func boolStep(r engine.Reduction, x, y bool) bool {
	return logical(x, y, r == engine.Add || r == engine.Max, r == engine.Mul || r == engine.Min)
}

// logical is x OR y when or, else x AND y when and, else x XOR y.
func logical(x, y, or, and bool) bool {
	switch {
	case or:
		return x || y
	case and:
		return x && y
	}
	return x != y
}

type integer interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

func intArith[T integer]() arith {
	return arith{
		step: func(r engine.Reduction, v, u any, _ engine.ScatterOptions) any { return intStep(r, v.(T), u.(T)) },
		mean: func(sum any, n int, opt engine.ScatterOptions) any {
			return intMean(sum.(T), n, opt.Arith.CountInType, opt.Arith.MeanTowardZero)
		},
		one: T(1),
	}
}

func floatArith[T float32 | float64]() arith {
	return arith{
		step: func(r engine.Reduction, v, u any, opt engine.ScatterOptions) any {
			return floatStep(r, v.(T), u.(T), opt)
		},
		mean: func(sum any, n int, opt engine.ScatterOptions) any {
			c := T(n)
			if opt.Arith.SqrtCount {
				c = T(math.Sqrt(float64(c)))
			}
			return ruleNaN(sum.(T)/c, sum.(T), c)
		},
		one: T(1),
	}
}

// halfArith is the arithmetic of float16 or bfloat16 (d).
func halfArith(d tensor.DType) arith {
	return arith{
		step: func(r engine.Reduction, v, u any, opt engine.ScatterOptions) any {
			return narrow(d, floatStep(r, widen(v), widen(u), opt))
		},
		mean: func(sum any, n int, opt engine.ScatterOptions) any {
			c := float32(n)
			if opt.Arith.SqrtCount { // the count and its root in d
				c = widen(narrow(d, float32(math.Sqrt(float64(widen(narrow(d, c)))))))
			}
			return narrow(d, ruleNaN(widen(sum)/c, widen(sum), c))
		},
		one: narrow(d, 1),
	}
}

func complexArith[T complex64 | complex128]() arith {
	return arith{
		step: func(r engine.Reduction, v, u any, opt engine.ScatterOptions) any {
			if r == engine.Mul && opt.Arith.Complex == engine.ComplexC10 {
				return ruleNaNComplex(c10Product(v.(T), u.(T)), v.(T), u.(T))
			}
			if r == engine.Div && opt.Arith.Complex == engine.ComplexC10 {
				return ruleNaNComplex(c10Quotient(v.(T), u.(T)), v.(T), u.(T))
			}
			return complexStep(r, v.(T), u.(T))
		},
		mean: func(sum any, n int, opt engine.ScatterOptions) any {
			count := T(complex(float64(n), 0))
			if opt.Arith.SqrtCount { // the root of the count in the parts' type
				r := math.Sqrt(float64(n))
				if _, c64 := any(count).(complex64); c64 {
					r = float64(float32(math.Sqrt(float64(float32(n)))))
				}
				count = T(complex(r, 0))
				if opt.Arith.Complex == engine.ComplexC10 {
					return ruleNaNComplex(c10ByReal(sum.(T), r), sum.(T), count)
				}
				return ruleNaNComplex(sum.(T)/count, sum.(T), count)
			}
			if opt.Arith.Complex == engine.ComplexC10 {
				return ruleNaNComplex(c10ByReal(sum.(T), float64(n)), sum.(T), count)
			}
			return ruleNaNComplex(sum.(T)/count, sum.(T), count)
		},
		one: T(1),
	}
}

// c10Product is v*u as c10::complex's operator*= computes it: the four
// products of the parts, each rounded to the parts' type (the explicit
// conversions keep Go from fusing a product into the sum that follows),
// then the two sums (ac - bd) and (ad + bc), each rounded.
func c10Product[T complex64 | complex128](v, u T) T {
	if x, ok := any(v).(complex64); ok {
		y := any(u).(complex64)
		ac, bd := float32(real(x)*real(y)), float32(imag(x)*imag(y))
		ad, bc := float32(real(x)*imag(y)), float32(imag(x)*real(y))
		return any(complex(ac-bd, ad+bc)).(T)
	}
	x, y := complex128(v), complex128(u)
	ac, bd := float64(real(x)*real(y)), float64(imag(x)*imag(y))
	ad, bc := float64(real(x)*imag(y)), float64(imag(x)*real(y))
	return T(complex(ac-bd, ad+bc))
}

// c10Quotient is v/u as c10::complex's operator/= computes it: Smith's
// algorithm, the larger part of the divisor u = c+di scaled away, the
// reciprocal of the scaled divisor multiplied in, every step rounded to
// the parts' type; 0/0 divides each part of v by a zero.
func c10Quotient[T complex64 | complex128](v, u T) T {
	if x, ok := any(v).(complex64); ok {
		y := any(u).(complex64)
		re, im := smith(real(x), imag(x), real(y), imag(y))
		return any(complex(re, im)).(T)
	}
	x, y := complex128(v), complex128(u)
	re, im := smith(real(x), imag(x), real(y), imag(y))
	return T(complex(re, im))
}

// smith divides a+bi by c+di in F, each product rounded before the sum
// that takes it.
func smith[F float32 | float64](a, b, c, d F) (F, F) {
	ac, ad := F(math.Abs(float64(c))), F(math.Abs(float64(d)))
	if !(ac >= ad) { // |d| larger, or a part of the divisor NaN
		ratio := c / d
		scale := 1 / (d + F(c*ratio))
		return (F(a*ratio) + b) * scale, (F(b*ratio) - a) * scale
	}
	if ac == 0 {
		return a / ac, b / ad
	}
	ratio := d / c
	scale := 1 / (c + F(d*ratio))
	return (a + F(b*ratio)) * scale, (b - F(a*ratio)) * scale
}

// c10ByReal is sum / (n + 0i), n a count or its square root (exact in
// the parts' type), as c10::complex's operator/= computes it.
// Its denominator has |c| = n >= |d| = 0, so its ratio d/c is 0 and its
// scale 1/(c + d*0) is 1/n: the quotient is (a + b*0) * (1/n) +
// (b - a*0) * (1/n) i, every step rounded to the parts' type (which
// differs in the last bit from a/n, and turns an infinite part into a NaN
// in the other).
func c10ByReal[T complex64 | complex128](sum T, n float64) T {
	if x, ok := any(sum).(complex64); ok {
		a, b := real(x), imag(x)
		scale := 1 / float32(n)
		re := float32(a+float32(b*0)) * scale
		im := float32(b-float32(a*0)) * scale
		return any(complex(re, im)).(T)
	}
	x := complex128(sum)
	a, b := real(x), imag(x)
	scale := 1 / float64(n)
	re := float64(a+float64(b*0)) * scale
	im := float64(b-float64(a*0)) * scale
	return T(complex(re, im))
}

// intStep is Go's own integer arithmetic, which wraps.
func intStep[T integer](r engine.Reduction, v, u T) T {
	switch r {
	case engine.Sub:
		return v - u
	case engine.Mul:
		return v * u
	case engine.Div:
		return v / u // checkDivisors has refused 0
	case engine.Max:
		return max(v, u)
	case engine.Min:
		return min(v, u)
	}
	return v + u
}

// intMean divides sum by the count n, signed integers rounding toward
// negative infinity, or toward zero with towardZero. With inType the count
// is n converted to T, which wraps, and taken as 1 when that is 0 (and
// the quotient rounds toward negative infinity).
func intMean[T integer](sum T, n int, inType, towardZero bool) T {
	c := int64(n)
	if inType {
		if c = int64(T(n)); c == 0 {
			c = 1
		}
	}
	if ^T(0) > 0 { // unsigned
		return T(uint64(sum) / uint64(c))
	}
	if towardZero && !inType {
		return T(int64(sum) / c)
	}
	return T(floorDiv(int64(sum), c))
}

func floatStep[T float32 | float64](r engine.Reduction, v, u T, opt engine.ScatterOptions) T {
	switch r {
	case engine.Sub:
		return ruleNaN(v-u, v, u)
	case engine.Mul:
		return ruleNaN(v*u, v, u)
	case engine.Div:
		return ruleNaN(v/u, v, u)
	case engine.Max, engine.Min:
		if opt.Arith.MinMax == engine.MinMaxStdUpdate { // std::max(u, v): v only if u < v; std::min(u, v): v only if v < u
			if r == engine.Max && u < v || r == engine.Min && v < u {
				return v
			}
			return u
		}
		if opt.Arith.MinMax == engine.MinMaxStd { // std::max(v, u): u only if v < u; std::min: u only if u < v
			if r == engine.Max && v < u || r == engine.Min && u < v {
				return u
			}
			return v
		}
		switch {
		case u != u && opt.Arith.MinMax == engine.MinMaxLastNaN:
			return u
		case v != v:
			return v
		case u != u:
			return u
		case r == engine.Max && u > v, r == engine.Min && u < v:
			return u
		case u == v && opt.Arith.MinMax == engine.MinMaxIEEE && math.Signbit(float64(u)) == (r == engine.Min) && math.Signbit(float64(v)) != (r == engine.Min):
			return u // +0 over -0 for Max, -0 over +0 for Min
		}
		return v
	}
	return ruleNaN(v+u, v, u)
}

func complexStep[T complex64 | complex128](r engine.Reduction, v, u T) T {
	switch r {
	case engine.Sub:
		return ruleNaNComplex(v-u, v, u)
	case engine.Mul:
		// Go's v * u, which the compiler computes in float64 for
		// complex64 too; written out, since it may fuse a product into
		// the sum that follows on arm64, ppc64le, riscv64 and s390x.
		// c10Product's complex128 form is that computation.
		return ruleNaNComplex(T(c10Product(complex128(v), complex128(u))), v, u)
	case engine.Div:
		return ruleNaNComplex(v/u, v, u)
	}
	return ruleNaNComplex(v+u, v, u)
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

// ruleNaN returns r, the result of an operation on v and u, or where it is
// a NaN, the NaN of the engine's rule (firstNaN of v and u). IEEE 754 and
// Go leave that NaN open; the rule makes it the same on every platform.
func ruleNaN[T float32 | float64](r, v, u T) T {
	if r == r {
		return r
	}
	return firstNaN(v, u)
}

// firstNaN returns the first of xs that is a NaN, with its quiet bit set,
// or the negative quiet NaN when none is.
func firstNaN[T float32 | float64](xs ...T) T {
	for _, x := range xs {
		if x != x {
			if f, ok := any(x).(float32); ok {
				return any(math.Float32frombits(math.Float32bits(f) | 1<<22)).(T)
			}
			return T(math.Float64frombits(math.Float64bits(float64(x)) | 1<<51))
		}
	}
	var zero T
	if _, ok := any(zero).(float32); ok {
		return any(math.Float32frombits(0xffc00000)).(T)
	}
	return T(math.Float64frombits(0xfff8000000000000))
}

// ruleNaNComplex returns r, the result of an operation on the complex v
// and u, with each NaN part replaced by firstNaN of the parts of v and u
// in order: real(v), imag(v), real(u), imag(u).
func ruleNaNComplex[T complex64 | complex128](r, v, u T) T {
	if c, ok := any(r).(complex64); ok {
		x, y := any(v).(complex64), any(u).(complex64)
		re, im := nanParts(real(c), imag(c), real(x), imag(x), real(y), imag(y))
		return any(complex(re, im)).(T)
	}
	c, x, y := complex128(r), complex128(v), complex128(u)
	re, im := nanParts(real(c), imag(c), real(x), imag(x), real(y), imag(y))
	return T(complex(re, im))
}

// nanParts returns re and im, each NaN of them replaced by firstNaN of
// the operands' parts.
func nanParts[F float32 | float64](re, im F, parts ...F) (F, F) {
	if re == re && im == im {
		return re, im
	}
	n := firstNaN(parts...)
	if re != re {
		re = n
	}
	if im != im {
		im = n
	}
	return re, im
}
