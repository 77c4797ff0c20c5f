package engine

import (
	"sync"

	"github.com/scatter-dev/scatter/tensor"
)

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
	// setKnobs applies opt.Arith's ZeroStart, CountInType and SqrtCount
	// to the reducer, which was built for opt.Reduction.
	setKnobs(opt ScatterOptions)
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
	reduceBlocks(r.red, r.dst, r.src, ps, r.block)
}

// The fastScatter and halver methods: each hands r's slices and
// reduction to its operation's loops (scatter_nd.go,
// scatter_elements.go, scatter_columns.go, general_scatter.go,
// scatter_halves.go).

func (r *numReducer[T]) scatterOffsets(offs []int32, s0, block int) {
	if block == 1 {
		reduceOffsets(r.red, r.dst, offs, r.src[s0:])
		return
	}
	reduceOffsetBlocks(r.red, r.dst, r.src[s0*block:], offs, block)
}

func (r *numReducer[T]) scatterIndex(ind []int64, lim limit, block int) {
	if block == 1 {
		reduceIndex(r.red, r.dst, ind, r.src, lim.size, lim.fromEnd)
		return
	}
	for t, v := range ind {
		if p, ok := lim.pos(v); ok {
			reduceSlice(r.red, r.dst[p*block:(p+1)*block], r.src[t*block:(t+1)*block])
		}
	}
}

func (r *numReducer[T]) scatterStarts(starts []int, s0 int) {
	reduceOffsets(r.red, r.dst, starts, r.src[s0:])
}

func (r *numReducer[T]) scatterLine(to view, base int, ind []int64, s0 int, lim limit, skip bool) int {
	return reduceRow(r.red, words[T](to)[base:][:lim.size], ind, r.src[s0:], lim.fromEnd, skip)
}

func (r *numReducer[T]) scatterRows(e *elemWalk, w, r0, r1 int, skip bool) int {
	return reduceElementRows(r.red, r.dst, r.src, e, w, r0, r1, skip)
}

func (r *numReducer[T]) scatterColumns(data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	reduceColumnBlocks(r.red, r.dst, r.src, data, ind, lim, rows, inner, width, c0, c1)
}

func (r *numReducer[T]) halves(ind []int64, done *sync.WaitGroup) int {
	return applyHalves(r, ind, done)
}

// intReducer is the reducer of an integer type: a numReducer, or for
// And, Or, Xor and Div (whose ops integerOps gives) one calling their
// functions.
func intReducer[T signed | unsigned](dst []T, src tensor.Tensor, block int, r Reduction, o ops[T]) reducer {
	if r.bitwise() || r == Div {
		return newFuncReducer(dst, src, block, o)
	}
	return newNumReducer(dst, src, block, r, o)
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
	bytes := blockBytes[T](r.block)
	for i, p := range ps {
		prefetchBlock(r.dst, ps, i, bytes)
		blk, upd := r.dst[p.d:p.d+r.block], r.src[p.s:p.s+r.block]
		for j := range blk {
			blk[j] = r.o.combine(blk[j], upd[j])
		}
	}
}

// fillBlocks sets the dst blocks of ps to v.
func fillBlocks[T any](dst []T, ps []pair, block int, v T) {
	bytes := blockBytes[T](block)
	for i, p := range ps {
		prefetchBlock(dst, ps, i, bytes)
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
