package engine

import (
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
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
}

// checkReduction fails when reduction r is not defined for element type d.
func checkReduction(d tensor.DType, opt ScatterOptions) error {
	r := opt.Reduction
	if r > Xor {
		return argErr("unknown reduction %v", r)
	}
	if r == None {
		return nil
	}
	if opt.ExcludeSelf && r == Sub {
		return argErr("reduction sub needs the existing value and cannot exclude it")
	}
	if opt.Arith.Complex > ComplexC10 {
		return argErr("unknown complex arithmetic %d", opt.Arith.Complex)
	}
	if opt.Arith.MinMax > MinMaxIEEE {
		return argErr("unknown max and min rule %d", opt.Arith.MinMax)
	}
	if opt.ExcludeSelf && opt.Arith.MinMax == MinMaxStd && (r == Max || r == Min) && d.IsFloat() {
		// No start value lets std::max(start, u) be u for a NaN u.
		return argErr("reduction %v by std::max and std::min cannot leave the existing value out", r)
	}
	switch {
	case d == tensor.String && !(r == Add && opt.Arith.ConcatStrings):
		return typeErr("reduction %v is not defined for string elements", r)
	case d == tensor.Bool && r == Mean:
		return typeErr("reduction mean is not defined for bool elements")
	case d == tensor.Bool && opt.Arith.NumbersOnly && (r == Add || r == Sub || r == Mul):
		return typeErr("reduction %v takes numbers, not bool elements", r)
	case d.IsComplex() && (r == Max || r == Min):
		return typeErr("reduction %v is not defined for %v elements, which have no order", r, d)
	case r.bitwise() && d != tensor.Bool && !d.IsInteger():
		return typeErr("reduction %v is defined for bool and integer elements only, not %v", r, d)
	}
	return nil
}

// reducer combines blocks of src's elements into dst's with one reduction.
type reducer interface {
	// reduce sets each dst element of the blocks to the reduction of it
	// and the matching src element, pair by pair in order.
	reduce(ps []pair)
	// setIdentity sets the dst blocks to the reduction's identity, where
	// ExcludeSelf starts.
	setIdentity(ps []pair)
	// divide sets the dst block at d to its mean over n values.
	divide(d, n int)
	// divideCounts sets each dst block b in [b0, b1) that counts[b]
	// values went into, plus self, to its mean over them.
	divideCounts(counts []int, self, b0, b1 int)
	// divideAll is divideCounts dividing every block, one that no value
	// went into by 1 (Arith.DivideAll).
	divideAll(counts []int, self, b0, b1 int)
	// rebind points the reducer at the element slices of new dst and src
	// tensors of its element type (or at none, for nil), for a later
	// call.
	rebind(dst, src any, block int)
	// setKnobs applies opt.Arith's ZeroStart and CountInType to the
	// reducer, which was built for opt.Reduction.
	setKnobs(opt ScatterOptions)
}

// newReducer returns the reducer of blocks of the given size for dst's
// element type and opt's reduction and arithmetic, which checkReduction
// has accepted. Mean reduces by adding; the kernel divides at the end.
func newReducer(dst, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	r := opt.Reduction
	switch d := dst.Data().(type) {
	case []bool:
		return newFuncReducer(d, src, block, boolOps(r))
	case []int8:
		return intReducer(d, src, block, r, signedOps[int8](r, math.MinInt8, math.MaxInt8))
	case []int16:
		return intReducer(d, src, block, r, signedOps[int16](r, math.MinInt16, math.MaxInt16))
	case []int32:
		return intReducer(d, src, block, r, signedOps[int32](r, math.MinInt32, math.MaxInt32))
	case []int64:
		return intReducer(d, src, block, r, signedOps[int64](r, math.MinInt64, math.MaxInt64))
	case []uint8:
		return intReducer(d, src, block, r, unsignedOps[uint8](r))
	case []uint16:
		return intReducer(d, src, block, r, unsignedOps[uint16](r))
	case []uint32:
		return intReducer(d, src, block, r, unsignedOps[uint32](r))
	case []uint64:
		return intReducer(d, src, block, r, unsignedOps[uint64](r))
	case []float16.Float16:
		return newFuncReducer(d, src, block, halfOps(r, float16.Float16.Float32, float16.Fromfloat32))
	case []bfloat16.BFloat16:
		return newFuncReducer(d, src, block, halfOps(r, bfloat16.BFloat16.Float32, bfloat16.FromFloat32))
	case []float32:
		return newNumReducer(d, src, block, r, floatOps[float32](r))
	case []float64:
		return newNumReducer(d, src, block, r, floatOps[float64](r))
	case []complex64:
		return newFuncReducer(d, src, block, complexOps(r, opt.Arith.Complex, mulC10x64, quoC10x64))
	case []complex128:
		return newFuncReducer(d, src, block, complexOps(r, opt.Arith.Complex, mulC10x128, quoC10x128))
	case []string:
		// Add, which concatenates (Arith.ConcatStrings).
		return newFuncReducer(d, src, block, ops[string]{combine: func(v, u string) string { return v + u }})
	}
	panic("engine: no reducer for " + dst.DType().String()) // unreachable: checkReduction refused it
}

// intReducer is the reducer of an integer type: a numReducer, or for
// And, Or and Xor (whose ops integerOps gives) one calling their
// functions.
func intReducer[T signed | unsigned](dst []T, src tensor.Tensor, block int, r Reduction, o ops[T]) reducer {
	if r.bitwise() {
		return newFuncReducer(dst, src, block, o)
	}
	return newNumReducer(dst, src, block, r, o)
}

type number interface{ signed | unsigned | float }

// numReducer is the reducer of the integer and real floating-point types:
// its loops do the arithmetic inline. It computes exactly what ops[T]
// defines.
type numReducer[T number] struct {
	blocks[T]
	red Reduction // Add for Mean, which sums
}

func newNumReducer[T number](dst []T, src tensor.Tensor, block int, r Reduction, o ops[T]) reducer {
	s, _ := src.Data().([]T)
	if r == Mean {
		r = Add // Mean sums; the kernel divides at the end
	}
	return &numReducer[T]{blocks: blocks[T]{dst: dst, src: s, block: block, o: o}, red: r}
}

func (r *numReducer[T]) reduce(ps []pair) {
	if r.block == 1 {
		reduceElems(r.red, r.dst, r.src, ps)
		return
	}
	for _, p := range ps {
		reduceSlice(r.red, r.dst[p.d:p.d+r.block], r.src[p.s:p.s+r.block])
	}
}

// reduceElems reduces single elements; the switch is outside the loops.
func reduceElems[T number](red Reduction, dst, src []T, ps []pair) {
	switch red {
	case Add:
		for _, p := range ps {
			dst[p.d] += src[p.s]
		}
	case Sub:
		for _, p := range ps {
			dst[p.d] -= src[p.s]
		}
	case Mul:
		for _, p := range ps {
			dst[p.d] *= src[p.s]
		}
	case Max:
		for _, p := range ps {
			dst[p.d] = maxNaN(dst[p.d], src[p.s])
		}
	case Min:
		for _, p := range ps {
			dst[p.d] = minNaN(dst[p.d], src[p.s])
		}
	}
}

// reduceSlice reduces the block src into the block dst of the same length.
func reduceSlice[T number](red Reduction, dst, src []T) {
	src = src[:len(dst)]
	switch red {
	case Add:
		for j := range dst {
			dst[j] += src[j]
		}
	case Sub:
		for j := range dst {
			dst[j] -= src[j]
		}
	case Mul:
		for j := range dst {
			dst[j] *= src[j]
		}
	case Max:
		for j, u := range src {
			dst[j] = maxNaN(dst[j], u)
		}
	case Min:
		for j, u := range src {
			dst[j] = minNaN(dst[j], u)
		}
	}
}

// blocks is what every reducer holds, dst and src in blocks of block
// elements and the arithmetic, with the methods that do not depend on how
// the reducer combines values.
type blocks[T any] struct {
	dst, src []T
	block    int
	o        ops[T]
}

func (r *blocks[T]) rebind(dst, src any, block int) {
	r.dst, _ = dst.([]T)
	r.src, _ = src.([]T)
	r.block = block
}

func (r *blocks[T]) setIdentity(ps []pair) { fillBlocks(r.dst, ps, r.block, r.o.identity) }

func (r *blocks[T]) divide(d, n int) { divideBlock(r.dst[d:d+r.block], n, r.o.mean) }

func (r *blocks[T]) divideCounts(counts []int, self, b0, b1 int) {
	divideCounts(r.dst, r.block, counts, self, b0, b1, r.o.mean)
}

func (r *blocks[T]) divideAll(counts []int, self, b0, b1 int) {
	divideAll(r.dst, r.block, counts, self, b0, b1, r.o.mean)
}

func (r *blocks[T]) setKnobs(opt ScatterOptions) {
	r.o = withKnobs(r.o, opt)
}

// funcReducer is the reducer of the types whose arithmetic is not Go's
// own operators (float16, bfloat16, complex, bool): it calls ops[T].
type funcReducer[T any] struct {
	blocks[T]
}

func newFuncReducer[T any](dst []T, src tensor.Tensor, block int, o ops[T]) reducer {
	s, _ := src.Data().([]T)
	return &funcReducer[T]{blocks[T]{dst: dst, src: s, block: block, o: o}}
}

func (r *funcReducer[T]) reduce(ps []pair) {
	for _, p := range ps {
		blk, upd := r.dst[p.d:p.d+r.block], r.src[p.s:p.s+r.block]
		for j := range blk {
			blk[j] = r.o.combine(blk[j], upd[j])
		}
	}
}

// fillBlocks sets the dst blocks of ps to v.
func fillBlocks[T any](dst []T, ps []pair, block int, v T) {
	for _, p := range ps {
		blk := dst[p.d : p.d+block]
		for j := range blk {
			blk[j] = v
		}
	}
}

// divideCounts replaces each block b of dst in [b0, b1) that counts[b]
// values went into by its mean over counts[b]+self values.
func divideCounts[T any](dst []T, block int, counts []int, self, b0, b1 int, mean func(T, int) T) {
	for b := b0; b < b1; b++ {
		if n := counts[b]; n > 0 {
			divideBlock(dst[b*block:(b+1)*block], n+self, mean)
		}
	}
}

// divideBlock replaces each element of blk by mean(element, n).
func divideBlock[T any](blk []T, n int, mean func(T, int) T) {
	for j := range blk {
		blk[j] = mean(blk[j], n)
	}
}

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
		return ops[T]{combine: func(v, u T) T { return v - u }}
	case Mul:
		return ops[T]{combine: func(v, u T) T { return v * u }, identity: 1}
	case Max:
		return ops[T]{combine: maxNaN[T], identity: T(math.Inf(-1))}
	case Min:
		return ops[T]{combine: minNaN[T], identity: T(math.Inf(1))}
	}
	// Add, Mean. -0 is the identity of addition: -0 + x == x for every x,
	// including +0 and -0.
	return ops[T]{
		combine:   func(v, u T) T { return v + u },
		identity:  negZero,
		mean:      func(sum T, n int) T { return sum / T(n) },
		countMean: func(sum T, n int) T { return sum / T(countIn[T](n)) },
	}
}

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
		o.countMean = func(sum H, n int) H { return narrow(widen(sum) / widen(narrow(float32(countIn[float32](n))))) }
	}
	return o
}

// complexOps is the arithmetic of complex64 or complex128 under a, with
// mulC10 and quoC10 the type's ComplexC10 product and quotient. Addition
// and subtraction are the same under both: part by part. Go's product is
// mulGo's (Go's v * u, with no fused rounding); its quotient is the
// runtime's, which divides a mean by a real count exactly, fused or not.
func complexOps[T complex64 | complex128](r Reduction, a ComplexArith, mulC10, quoC10 func(x, y T) T) ops[T] {
	mul, quo := mulGo[T], func(v, u T) T { return v / u }
	if a == ComplexC10 {
		mul, quo = mulC10, quoC10
	}
	switch r {
	case Sub:
		return ops[T]{combine: func(v, u T) T { return v - u }}
	case Mul:
		return ops[T]{combine: mul, identity: 1}
	}
	negZero := math.Copysign(0, -1)
	return ops[T]{
		combine:   func(v, u T) T { return v + u },
		identity:  T(complex(negZero, negZero)),
		mean:      func(sum T, n int) T { return quo(sum, T(complex(float64(n), 0))) },
		countMean: func(sum T, n int) T { return quo(sum, T(complex(float64(countIn[T](n)), 0))) },
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
	return T(complex(re, im))
}

func mulC10x64(x, y complex64) complex64 { return complex(mulC10(real(x), imag(x), real(y), imag(y))) }

func mulC10x128(x, y complex128) complex128 {
	return complex(mulC10(real(x), imag(x), real(y), imag(y)))
}

func quoC10x64(x, y complex64) complex64 { return complex(quoC10(real(x), imag(x), real(y), imag(y))) }

func quoC10x128(x, y complex128) complex128 {
	return complex(quoC10(real(x), imag(x), real(y), imag(y)))
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

// bitwise reports whether r is And, Or or Xor.
func (r Reduction) bitwise() bool { return r == And || r == Or || r == Xor }

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
