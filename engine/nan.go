package engine

import "math"

// Which NaN an operation makes is left open by IEEE 754 and by Go: x86
// keeps the first NaN operand and makes the negative quiet NaN of
// infinities (Inf - Inf, 0 * Inf), arm64 and s390x make the positive one,
// and with two NaN operands the one kept depends on the order in which
// the compiler puts them in the instruction. So that a result is the same
// bits on every platform, the engine's arithmetic makes every NaN by one
// rule, x86's as the engine states its operands: a NaN result is the
// first NaN operand, the existing value before the update (for a complex
// part, the real part before the imaginary, v's before u's), quieted;
// where neither operand is a NaN, it is the negative quiet NaN. The rule
// costs a comparison a step that is not taken but when the result is a
// NaN.

// add returns v + u, a NaN by the rule above.
func add[T number](v, u T) T {
	if r := v + u; r == r {
		return r
	}
	return nanOf(v, u)
}

// sub returns v - u, a NaN by the rule above.
func sub[T number](v, u T) T {
	if r := v - u; r == r {
		return r
	}
	return nanOf(v, u)
}

// mul returns v * u, a NaN by the rule above.
func mul[T number](v, u T) T {
	if r := v * u; r == r {
		return r
	}
	return nanOf(v, u)
}

// quo returns v / u, a NaN by the rule above.
func quo[T float](v, u T) T {
	if r := v / u; r == r {
		return r
	}
	return nanOf(v, u)
}

// nanOf returns the NaN that the rule makes of the operands v and u of a
// floating-point operation whose result is a NaN. It is called only then:
// an integer type never gets here.
//
//go:noinline
func nanOf[T number](v, u T) T {
	switch x := any(v).(type) {
	case float32:
		return any(nan32(x, any(u).(float32))).(T)
	case float64:
		return any(nan64(x, any(u).(float64))).(T)
	}
	return v
}

// nan32 is the rule's NaN of float32 operands.
func nan32(ops ...float32) float32 {
	for _, x := range ops {
		if x != x {
			return math.Float32frombits(math.Float32bits(x) | 1<<22)
		}
	}
	return math.Float32frombits(0xffc00000)
}

// nan64 is the rule's NaN of float64 operands.
func nan64(ops ...float64) float64 {
	for _, x := range ops {
		if x != x {
			return math.Float64frombits(math.Float64bits(x) | 1<<51)
		}
	}
	return math.Float64frombits(0xfff8000000000000)
}

// fixComplex returns r, the result of an operation on the complex operands
// v and u, with each NaN part made by the rule from the parts of v and u
// in order.
func fixComplex[T complex64 | complex128](r, v, u T) T {
	switch c := any(r).(type) {
	case complex64:
		x, y := any(v).(complex64), any(u).(complex64)
		re, im := real(c), imag(c)
		if re != re || im != im {
			n := nan32(real(x), imag(x), real(y), imag(y))
			re, im = pick(re, n), pick(im, n)
			return any(complex(re, im)).(T)
		}
	case complex128:
		x, y := any(v).(complex128), any(u).(complex128)
		re, im := real(c), imag(c)
		if re != re || im != im {
			n := nan64(real(x), imag(x), real(y), imag(y))
			return any(complex(pick(re, n), pick(im, n))).(T)
		}
	}
	return r
}

// pick returns x, or n where x is a NaN.
func pick[F float](x, n F) F {
	if x != x {
		return n
	}
	return x
}
