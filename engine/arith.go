package engine

import (
	"math"

	"github.com/scatter-dev/scatter/tensor"
)

// ops is the arithmetic of one reduction over one element type.
type ops[T any] struct {
	combine func(v, u T) T // the reduction of value v with update u
	// identity is the value i with combine(i, u) == u, bit for bit, for
	// every u, but for the complex product: (1+0i)*u turns a u with a NaN
	// or infinite part into NaN+NaNi, as PyTorch's complex product does.
	// ExcludeSelf starts each updated position from it.
	identity T
	mean     func(sum T, n int) T // sum / n, rounded as the type rounds
	// countMean is mean under Arith.CountInType: it divides by n as T
	// holds it (see withKnobs).
	countMean func(sum T, n int) T
	// towardZero is mean under Arith.MeanTowardZero: a signed integer
	// quotient rounded toward zero; nil for the other types, whose mean
	// it leaves as it is.
	towardZero func(sum T, n int) T
	// root and countRoot are mean and countMean under Arith.SqrtCount:
	// they divide by the square root of the count in T; nil where T has
	// none (the integers).
	root, countRoot func(sum T, n int) T
}

// checkReduction fails when reduction r is not defined for element type d.
func checkReduction(d tensor.DType, opt *ScatterOptions) error {
	r := opt.Reduction
	if r > Div {
		return argErr("unknown reduction %v", r)
	}
	if r == None {
		return nil
	}
	if opt.ExcludeSelf && (r == Sub || r == Div) {
		return argErr("reduction %v needs the existing value and cannot exclude it", r)
	}
	if opt.Arith.Complex > ComplexC10 {
		return argErr("unknown complex arithmetic %d", opt.Arith.Complex)
	}
	if opt.Arith.MinMax > MinMaxStdUpdate {
		return argErr("unknown max and min rule %d", opt.Arith.MinMax)
	}
	if opt.ExcludeSelf && opt.Arith.MinMax == MinMaxStd && (r == Max || r == Min) && d.IsFloat() {
		// No start value lets std::max(start, u) be u for a NaN u.
		return argErr("reduction %v by std::max and std::min cannot leave the existing value out", r)
	}
	switch {
	case d == tensor.String && !(r == Add && opt.Arith.ConcatStrings):
		return typeErr("reduction %v is not defined for string elements", r)
	case d == tensor.Bool && (r == Mean || r == Div):
		return typeErr("reduction %v is not defined for bool elements", r)
	case r == Mean && opt.Arith.SqrtCount && !d.IsFloat() && !d.IsComplex():
		return typeErr("reduction mean by the square root of the count is not defined for %v elements", d)
	case d == tensor.Bool && opt.Arith.NumbersOnly && (r == Add || r == Sub || r == Mul):
		return typeErr("reduction %v takes numbers, not bool elements", r)
	case d.IsComplex() && (r == Max || r == Min):
		return typeErr("reduction %v is not defined for %v elements, which have no order", r, d)
	case r.bitwise() && d != tensor.Bool && !d.IsInteger():
		return typeErr("reduction %v is defined for bool and integer elements only, not %v", r, d)
	}
	return nil
}

// reduceElems reduces single elements; the switch is outside the loops.
func reduceElems[T number](red Reduction, dst, src []T, ps []pair) {
	switch red {
	case Add:
		for _, p := range ps {
			dst[p.d] = add(dst[p.d], src[p.s])
		}
	case Sub:
		for _, p := range ps {
			dst[p.d] = sub(dst[p.d], src[p.s])
		}
	case Mul:
		for _, p := range ps {
			dst[p.d] = mul(dst[p.d], src[p.s])
		}
	case Max:
		for _, p := range ps {
			dst[p.d] = maxNaN(dst[p.d], src[p.s])
		}
	case Min:
		for _, p := range ps {
			dst[p.d] = minNaN(dst[p.d], src[p.s])
		}
	case maxUpdate:
		for _, p := range ps {
			dst[p.d] = maxUpdateFirst(dst[p.d], src[p.s])
		}
	case minUpdate:
		for _, p := range ps {
			dst[p.d] = minUpdateFirst(dst[p.d], src[p.s])
		}
	default: // maxLast, minLast
		for _, p := range ps {
			dst[p.d] = combine(red, dst[p.d], src[p.s])
		}
	}
}

// reduceSlice reduces the block src into the block dst of the same length.
func reduceSlice[T number](red Reduction, dst, src []T) {
	src = src[:len(dst)]
	switch red {
	case Add:
		for j := range dst {
			dst[j] = add(dst[j], src[j])
		}
	case Sub:
		for j := range dst {
			dst[j] = sub(dst[j], src[j])
		}
	case Mul:
		for j := range dst {
			dst[j] = mul(dst[j], src[j])
		}
	case Max:
		for j, u := range src {
			dst[j] = maxNaN(dst[j], u)
		}
	case Min:
		for j, u := range src {
			dst[j] = minNaN(dst[j], u)
		}
	case maxUpdate:
		for j, u := range src {
			dst[j] = maxUpdateFirst(dst[j], u)
		}
	case minUpdate:
		for j, u := range src {
			dst[j] = minUpdateFirst(dst[j], u)
		}
	default: // maxLast, minLast
		for j, u := range src {
			dst[j] = combine(red, dst[j], u)
		}
	}
}

// maxUpdate and minUpdate are the reductions a numReducer applies for Max
// and Min under MinMaxStdUpdate, so that their loops do the comparison
// inline; no caller names them (checkReduction refuses what lies past
// Xor).
const (
	maxUpdate Reduction = Xor + 1 + iota
	minUpdate
	// maxLast and minLast are Max and Min under MinMaxLastNaN.
	maxLast
	minLast
)

// lastNaN returns the reduction a numReducer applies for r under
// MinMaxLastNaN.
func lastNaN(r Reduction) Reduction {
	if r == Min {
		return minLast
	}
	return maxLast
}

// maxLastNaN is maxNaN but that a NaN update replaces the value whatever
// it is (MinMaxLastNaN).
func maxLastNaN[T number](v, u T) T {
	return choose(b2i(!(u <= v))&^b2i(v != v)|b2i(u != u), v, u)
}

// minLastNaN is minNaN but that a NaN update replaces the value whatever
// it is (MinMaxLastNaN).
func minLastNaN[T number](v, u T) T {
	return choose(b2i(!(u >= v))&^b2i(v != v)|b2i(u != u), v, u)
}

// updateFirst returns the reduction a numReducer applies for r under
// MinMaxStdUpdate.
func updateFirst(r Reduction) Reduction {
	if r == Min {
		return minUpdate
	}
	return maxUpdate
}

// maxUpdateFirst is std::max(u, v): v when u < v, else u (a NaN update,
// and any update in place of a NaN value, and of equals the update).
func maxUpdateFirst[T number](v, u T) T { return choose(b2i(!(u < v)), v, u) }

// minUpdateFirst is std::min(u, v): v when v < u, else u.
func minUpdateFirst[T number](v, u T) T { return choose(b2i(!(v < u)), v, u) }

type signed interface {
	~int8 | ~int16 | ~int32 | ~int64
}
type unsigned interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}
type float interface{ ~float32 | ~float64 }

// integerOps holds what signed and unsigned integers share: arithmetic
// wraps (two's complement), as Go's does.
func integerOps[T signed | unsigned](r Reduction, lowest, highest T) ops[T] {
	switch r {
	case And, Or, Xor:
		return bitOps[T](r)
	case Sub:
		return ops[T]{combine: func(v, u T) T { return v - u }}
	case Mul:
		return ops[T]{combine: func(v, u T) T { return v * u }, identity: 1}
	case Div:
		// checkDivisors has refused a zero u; Go's / truncates toward zero
		// and gives the most negative value for it divided by -1.
		return ops[T]{combine: func(v, u T) T { return v / u }, identity: 1}
	case Max:
		return ops[T]{combine: func(v, u T) T { return max(v, u) }, identity: lowest}
	case Min:
		return ops[T]{combine: func(v, u T) T { return min(v, u) }, identity: highest}
	}
	return ops[T]{combine: func(v, u T) T { return v + u }} // Add, Mean
}

func signedOps[T signed](r Reduction, lowest, highest T) ops[T] {
	o := integerOps(r, lowest, highest)
	o.mean = func(sum T, n int) T {
		// Floor division: round toward negative infinity.
		s, d := int64(sum), int64(n)
		q := s / d
		if s%d != 0 && s < 0 {
			q--
		}
		return T(q)
	}
	o.countMean = floorMean[T]
	o.towardZero = func(sum T, n int) T { return T(int64(sum) / int64(n)) }
	return o
}

func unsignedOps[T unsigned](r Reduction) ops[T] {
	o := integerOps(r, 0, ^T(0))
	o.mean = func(sum T, n int) T { return T(uint64(sum) / uint64(n)) }
	o.countMean = floorMean[T]
	return o
}

func floatOps[T float](r Reduction) ops[T] {
	negZero := T(math.Copysign(0, -1))
	switch r {
	case Sub:
		return ops[T]{combine: sub[T]}
	case Mul:
		return ops[T]{combine: mul[T], identity: 1}
	case Div:
		return ops[T]{combine: quo[T], identity: 1}
	case Max:
		return ops[T]{combine: maxNaN[T], identity: T(math.Inf(-1))}
	case Min:
		return ops[T]{combine: minNaN[T], identity: T(math.Inf(1))}
	}
	// Add, Mean. -0 is the identity of addition: -0 + x == x for every x,
	// including +0 and -0.
	return ops[T]{
		combine:   add[T],
		identity:  negZero,
		mean:      func(sum T, n int) T { return quo(sum, T(n)) },
		countMean: func(sum T, n int) T { return quo(sum, T(countIn[T](n))) },
		root:      func(sum T, n int) T { return quo(sum, sqrtIn(T(n))) },
		countRoot: func(sum T, n int) T { return quo(sum, sqrtIn(T(countIn[T](n)))) },
	}
}

// sqrtIn returns the square root of x rounded to T: for float32 through
// float64, whose 53 bits make the double rounding exact for a square
// root.
func sqrtIn[T float](x T) T { return T(math.Sqrt(float64(x))) }

// maxNaN returns the larger of v and u, or the NaN if either is one: v
// when they are equal (so -0 stays -0 against +0), and v when both are
// NaN. It has no branch, which random data would mispredict half the
// time: u <= v is false exactly when u is larger or either is NaN.
func maxNaN[T number](v, u T) T {
	return choose(b2i(!(u <= v))&^b2i(v != v), v, u)
}

// minNaN returns the smaller of v and u, or the NaN if either is one, as
// maxNaN does.
func minNaN[T number](v, u T) T {
	return choose(b2i(!(u >= v))&^b2i(v != v), v, u)
}

// choose returns v for i == 0 and u for i == 1. It indexes a pair where
// an if would be a jump: Go selects between floats with a branch.
func choose[T any](i int, v, u T) T {
	pair := [2]T{v, u}
	return pair[i&1]
}

// b2i returns 1 for true and 0 for false, which compiles to a set-on-
// condition instruction.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// halfOps computes every step in float32 and rounds the result back to the
// 16-bit type after each one.
func halfOps[H ~uint16](r Reduction, widen func(H) float32, narrow func(float32) H) ops[H] {
	f := floatOps[float32](r)
	o := ops[H]{
		combine:  func(v, u H) H { return narrow(f.combine(widen(v), widen(u))) },
		identity: narrow(f.identity),
	}
	if f.mean != nil {
		o.mean = func(sum H, n int) H { return narrow(f.mean(widen(sum), n)) }
		// The count is counted in float32 and rounded to H.
		o.countMean = func(sum H, n int) H { return narrow(quo(widen(sum), widen(narrow(float32(countIn[float32](n)))))) }
		// The count rounded to H, its square root rounded to H, as
		// sqrt(N) computes on a 16-bit N.
		root := func(n float32) float32 { return widen(narrow(sqrtIn(widen(narrow(n))))) }
		o.root = func(sum H, n int) H { return narrow(quo(widen(sum), root(float32(n)))) }
		o.countRoot = func(sum H, n int) H { return narrow(quo(widen(sum), root(float32(countIn[float32](n))))) }
	}
	return o
}

// stepCounts makes o's counting means (countMean, countRoot) count as a
// sum of ones in H rounded after every step does, as a float16 or bfloat16
// count accumulated without HalfOnce's float32 buffer: it stops growing
// where adding one no longer changes it (2048 for float16, 256 for
// bfloat16).
func stepCounts[H ~uint16](o *ops[H], widen func(H) float32, narrow func(float32) H) {
	stop := float32(1)
	for widen(narrow(stop+1)) != stop {
		stop++
	}
	count := func(n int) float32 { return min(float32(max(n, 1)), stop) }
	o.countMean = func(sum H, n int) H { return narrow(quo(widen(sum), count(n))) }
	o.countRoot = func(sum H, n int) H { return narrow(quo(widen(sum), widen(narrow(sqrtIn(count(n)))))) }
}

// complexOps is the arithmetic of complex64 or complex128 under a, with
// mulC10 and quoC10 the type's ComplexC10 product and quotient. Addition
// and subtraction are the same under both: part by part. Go's product is
// mulGo's (Go's v * u, with no fused rounding); its quotient is the
// runtime's, which divides a mean by a real count exactly, fused or not.
func complexOps[T complex64 | complex128](r Reduction, a ComplexArith, mulC10, quoC10 func(x, y T) T) ops[T] {
	mul, quo := mulGo[T], func(v, u T) T { return fixComplex(v/u, v, u) }
	if a == ComplexC10 {
		mul, quo = mulC10, quoC10
	}
	switch r {
	case Sub:
		return ops[T]{combine: func(v, u T) T { return fixComplex(v-u, v, u) }}
	case Mul:
		return ops[T]{combine: mul, identity: 1}
	case Div:
		return ops[T]{combine: quo, identity: 1}
	}
	negZero := math.Copysign(0, -1)
	return ops[T]{
		combine:   func(v, u T) T { return fixComplex(v+u, v, u) },
		identity:  T(complex(negZero, negZero)),
		mean:      func(sum T, n int) T { return quo(sum, T(complex(float64(n), 0))) },
		countMean: func(sum T, n int) T { return quo(sum, T(complex(float64(countIn[T](n)), 0))) },
		root:      func(sum T, n int) T { return quo(sum, complexRoot[T](n)) },
		countRoot: func(sum T, n int) T { return quo(sum, complexRoot[T](countIn[T](n))) },
	}
}

// countIn returns the count of n values as adding ones in T (in its
// parts, for a complex T) counts them, as PyTorch's mean does: 0 taken as
// 1, and no further than 2^24 in float32 and complex64, where adding one
// no longer changes the sum.
func countIn[T float | complex64 | complex128](n int) int {
	n = max(n, 1)
	if stop := T(1 << 24); stop+1 == stop {
		return min(n, 1<<24)
	}
	return n
}

// The ComplexC10 arithmetic, on the parts of complex numbers of type F.
// An explicit conversion to F rounds each product before it is added,
// where Go could otherwise fuse a multiply and an add into one rounding.

func mulC10[F float32 | float64](a, b, c, d F) (re, im F) {
	return F(a*c) - F(b*d), F(a*d) + F(b*c)
}

func quoC10[F float32 | float64](a, b, c, d F) (re, im F) {
	absC, absD := F(math.Abs(float64(c))), F(math.Abs(float64(d)))
	switch {
	case absC >= absD && absC == 0 && absD == 0:
		return a / absC, b / absD
	case absC >= absD:
		rat := d / c
		scl := 1 / (c + F(d*rat))
		return (a + F(b*rat)) * scl, (b - F(a*rat)) * scl
	}
	rat := c / d // also when c or d is NaN
	scl := 1 / (d + F(c*rat))
	return (F(a*rat) + b) * scl, (F(b*rat) - a) * scl
}

// mulGo is Go's complex product v * u as the compiler computes it, in
// float64 for complex64 too: (a*c - b*d) + (a*d + b*c)i, then rounded to
// the type. Written out, so that explicit conversions round each product
// before the sum: the compiler fuses a product and a sum into one rounding
// on arm64, ppc64le, riscv64 and s390x where nothing stops it, and the
// builtin v * u does not.
func mulGo[T complex64 | complex128](v, u T) T {
	x, y := complex128(v), complex128(u)
	re, im := mulC10(real(x), imag(x), real(y), imag(y))
	return fixComplex(T(complex(re, im)), v, u)
}

func mulC10x64(x, y complex64) complex64 {
	return fixComplex(complex(mulC10(real(x), imag(x), real(y), imag(y))), x, y)
}

func mulC10x128(x, y complex128) complex128 {
	return fixComplex(complex(mulC10(real(x), imag(x), real(y), imag(y))), x, y)
}

func quoC10x64(x, y complex64) complex64 {
	return fixComplex(complex(quoC10(real(x), imag(x), real(y), imag(y))), x, y)
}

func quoC10x128(x, y complex128) complex128 {
	return fixComplex(complex(quoC10(real(x), imag(x), real(y), imag(y))), x, y)
}

// boolOps: add, max and or are OR, mul, min and and are AND, sub and xor
// are XOR.
func boolOps(r Reduction) ops[bool] {
	switch r {
	case Mul, Min, And:
		return ops[bool]{combine: func(v, u bool) bool { return v && u }, identity: true}
	case Sub, Xor:
		return ops[bool]{combine: func(v, u bool) bool { return v != u }}
	}
	return ops[bool]{combine: func(v, u bool) bool { return v || u }}
}

// bitOps is And, Or or Xor over an integer type; the identity of And has
// every bit set.
func bitOps[T signed | unsigned](r Reduction) ops[T] {
	switch r {
	case And:
		return ops[T]{combine: func(v, u T) T { return v & u }, identity: ^T(0)}
	case Or:
		return ops[T]{combine: func(v, u T) T { return v | u }}
	}
	return ops[T]{combine: func(v, u T) T { return v ^ u }}
}

// combine is reduceElems for one element, small enough to be inlined.
func combine[T number](red Reduction, v, u T) T {
	switch red {
	case Add:
		return add(v, u)
	case Sub:
		return sub(v, u)
	case Mul:
		return mul(v, u)
	case Max, Min:
		// maxNaN or minNaN, written out (u wins when !(a <= b) and v is
		// not NaN) so that combine stays within the inliner's budget.
		a, b := u, v
		if red == Min {
			a, b = v, u
		}
		pair := [2]T{v, u}
		return pair[b2i(!(a <= b))&^b2i(v != v)&1]
	case maxUpdate:
		return maxUpdateFirst(v, u)
	case minUpdate:
		return minUpdateFirst(v, u)
	case maxLast:
		return maxLastNaN(v, u)
	case minLast:
		return minLastNaN(v, u)
	}
	return v
}

// complexRoot returns the square root of the count n as a complex T: the
// count in T's parts, its real square root rounded to them, and 0i, as
// the principal square root of a positive real is.
func complexRoot[T complex64 | complex128](n int) T {
	var z T
	if _, c64 := any(z).(complex64); c64 {
		return T(complex(float64(sqrtIn(float32(n))), 0))
	}
	return T(complex(math.Sqrt(float64(n)), 0))
}
