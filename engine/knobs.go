package engine

import (
	"math"

	"github.com/scatter-dev/scatter/tensor"
)

// The knobs of Arith beyond the complex arithmetic and string
// concatenation (MinMax, HalfOnce, ZeroStart, CountInType, DivideAll)
// change the reducer a scatter uses: newKnobReducer builds it.

// newKnobReducer returns the reducer of blocks of the given size for dst's
// element type (see elemTypes) and opt's reduction and knobs, which
// checkReduction has accepted.
func newKnobReducer(dst, src tensor.Tensor, block int, opt ScatterOptions) reducer {
	red := elemTypeOf(dst.DType()).reducer(dst, src, block, opt)
	if opt.Arith.ZeroStart || opt.Arith.CountInType || opt.Arith.MeanTowardZero || opt.Arith.SqrtCount {
		red.setKnobs(opt)
	}
	return red
}

// halfKnobs returns the reducer of float16 or bfloat16 elements (H) that
// opt's HalfOnce or MinMax asks for, or nil for the plain one.
func halfKnobs[H ~uint16](dst []H, src tensor.Tensor, block int, opt ScatterOptions,
	widen func(H) float32, narrow func(float32) H) reducer {
	r := opt.Reduction
	switch {
	case opt.Arith.HalfOnce && (r == Add || r == Mul || r == Mean):
		s, _ := src.Data().([]H)
		return &halfOnce[H]{blocks: blocks[H]{dst: dst, src: s, block: block, o: halfOps(r, widen, narrow)},
			acc: make([]float32, len(dst)), mul: r == Mul, widen: widen, narrow: narrow}
	case r == Add && !opt.Scale.IsZero():
		// value + scale*update in float32, rounded once a step (see
		// scaleCopy, which leaves these updates as they are).
		sc := widen(opt.Scale.Data().([]H)[0])
		f := floatOps[float32](Add)
		return newFuncReducer(dst, src, block, ops[H]{identity: narrow(f.identity), combine: func(v, u H) H {
			return narrow(add(widen(v), mul(widen(u), sc)))
		}})
	case opt.Arith.MinMax != MinMaxNaN && (r == Max || r == Min):
		f := minMaxOps[float32](r, opt.Arith.MinMax)
		return newFuncReducer(dst, src, block, ops[H]{identity: narrow(f.identity), combine: func(v, u H) H {
			return narrow(f.combine(widen(v), widen(u)))
		}})
	}
	return nil
}

// minMaxOps are Max and Min under mode m (see MinMax) on a floating-point
// type, m not being MinMaxNaN, whose loops are numReducer's own.
func minMaxOps[T float](r Reduction, m MinMax) ops[T] {
	o := floatOps[T](r) // the identity: -Inf for Max, +Inf for Min
	switch m {
	case MinMaxStd:
		if r == Min {
			o.combine = func(v, u T) T { return choose(b2i(u < v), v, u) }
		} else {
			o.combine = func(v, u T) T { return choose(b2i(v < u), v, u) }
		}
	case MinMaxStdUpdate:
		// std::max(u, v) is (u < v) ? v : u; std::min(u, v) is
		// (v < u) ? v : u.
		if r == Min {
			o.combine = func(v, u T) T { return choose(b2i(!(v < u)), v, u) }
		} else {
			o.combine = func(v, u T) T { return choose(b2i(!(u < v)), v, u) }
		}
	case MinMaxLastNaN:
		nan := o.combine
		o.combine = func(v, u T) T {
			if u != u {
				return u
			}
			return nan(v, u)
		}
	case MinMaxIEEE:
		nan := o.combine
		// Of two equal values, the one whose sign is the one wanted: +0
		// for Max, -0 for Min.
		want := r == Min
		o.combine = func(v, u T) T {
			if v == u && math.Signbit(float64(v)) != want && math.Signbit(float64(u)) == want {
				return u
			}
			return nan(v, u)
		}
	}
	return o
}

// withKnobs returns o with ZeroStart (Add and Mean start ExcludeSelf's
// blocks from the zero value, +0, rather than the identity, -0),
// CountInType (Mean divides by the count as the element type holds it)
// MeanTowardZero (a signed integer Mean rounds toward zero) and SqrtCount
// (Mean divides by the count's square root) applied, for reduction r.
func withKnobs[T any](o ops[T], opt ScatterOptions) ops[T] {
	r, zeroStart, countInType := opt.Reduction, opt.Arith.ZeroStart, opt.Arith.CountInType
	if zeroStart && (r == Add || r == Mean) {
		var zero T
		o.identity = zero
	}
	switch {
	case opt.Arith.SqrtCount && o.root != nil && countInType:
		o.mean = o.countRoot
	case opt.Arith.SqrtCount && o.root != nil:
		o.mean = o.root
	case countInType && o.mean != nil:
		o.mean = o.countMean
	}
	if opt.Arith.MeanTowardZero && !countInType && o.towardZero != nil {
		o.mean = o.towardZero
	}
	return o
}

// floorMean divides a by the count n converted to T, which wraps (an
// int8 count of 128 is -128), rounding toward negative infinity whatever
// the signs; a count that converts to 0 is taken as 1. The most negative
// value divided by -1 stays itself, as two's complement arithmetic gives.
// It is an integer mean under Arith.CountInType.
func floorMean[T signed | unsigned](a T, n int) T {
	b := T(n)
	if b == 0 {
		b = 1
	}
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// divideAll replaces each block b of dst in [b0, b1) by its mean over
// counts[b]+self values, or over 1 when that is 0.
func divideAll[T any](dst []T, block int, counts []int, self, b0, b1 int, mean func(T, int) T) {
	for b := b0; b < b1; b++ {
		divideBlock(dst[b*block:(b+1)*block], max(counts[b]+self, 1), mean)
	}
}

// widePasses is implemented by a reducer that reduces into an
// accumulator of another type than dst's (HalfOnce): before its updates
// are reduced, begin loads the blocks they hit into it, and after, end
// rounds them back into dst. Either may see a block more than once.
type widePasses interface {
	begin(ps []pair)
	end(ps []pair)
}

// halfOnce is the reducer of HalfOnce: float16 or bfloat16 (H) sums and
// products accumulated in float32, in acc (as large as dst, of which only
// the blocks the updates hit are read or written), and rounded once. Mean
// sums, and divides the rounded sum in float32, as halfOps' mean does.
type halfOnce[H ~uint16] struct {
	blocks[H]
	acc    []float32
	mul    bool // Mul, else Add
	widen  func(H) float32
	narrow func(float32) H
}

func (r *halfOnce[H]) begin(ps []pair) {
	for _, p := range ps {
		acc, blk := r.acc[p.d:p.d+r.block], r.dst[p.d:p.d+r.block]
		for j := range acc {
			acc[j] = r.widen(blk[j])
		}
	}
}

func (r *halfOnce[H]) end(ps []pair) {
	for _, p := range ps {
		acc, blk := r.acc[p.d:p.d+r.block], r.dst[p.d:p.d+r.block]
		for j := range acc {
			blk[j] = r.narrow(acc[j])
		}
	}
}

func (r *halfOnce[H]) reduce(ps []pair) {
	for _, p := range ps {
		acc, upd := r.acc[p.d:p.d+r.block], r.src[p.s:p.s+r.block]
		if r.mul {
			for j := range acc {
				acc[j] = mul(acc[j], r.widen(upd[j]))
			}
			continue
		}
		for j := range acc {
			acc[j] = add(acc[j], r.widen(upd[j]))
		}
	}
}

func (r *halfOnce[H]) rebind(dst, src any, block int) {
	r.blocks.rebind(dst, src, block)
	r.acc = resize(r.acc, len(r.dst))
}
