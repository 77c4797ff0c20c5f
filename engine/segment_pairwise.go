package engine

import (
	"math"
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// RunRules.PairwiseSum: NumPy's add reduction of a run (ufunc.reduceat)
// copies the run's first element and adds to it, with one addition, the
// pairwise sum of the others (pairwise_sum, numpy/_core/src/umath/
// loops_utils.h.src), element by element along the axis: fewer than 8
// summed in order from -0; up to 128 in 8 interleaved accumulators, added
// as ((r0+r1)+(r2+r3))+((r4+r5)+(r6+r7)), then the rest in order; more
// split in two at half rounded down to a multiple of 8. float16 and
// bfloat16 sum in float32 and round once; complex numbers sum their parts
// so, in 4 accumulators a part.

// pairwiseRunOf returns the loop of PairwiseSum for element type d, or nil
// for a type that sums in order (the integers, bool).
func pairwiseRunOf(d tensor.DType) typedRun { return floatRunOf(d).pairwise }

// pairwiseFloats sums the runs of units [lo, hi) of float32 or float64
// elements (see PairwiseSum).
func pairwiseFloats[F float32 | float64](j *runsJob, lo, hi int) {
	dst, _ := j.dst.Data().([]F)
	src, _ := j.src.Data().([]F)
	for u := lo; u < hi; u++ {
		d0, base, r0, r1 := j.unit(u)
		out := dst[d0 : d0+j.inner]
		if r0 == r1 {
			fillEmptySum(out, j.opt.Rules.Empty)
			continue
		}
		first := src[base+r0*j.inner:]
		for k := range out {
			out[k] = first[k]
			if r1-r0 > 1 {
				out[k] = add(first[k], pairwiseSum(src[base+(r0+1)*j.inner+k:], r1-r0-1, j.inner))
			}
		}
	}
}

// pairwiseHalves sums the runs of float16 or bfloat16 elements in
// float32, rounding once.
func pairwiseHalves[H float16.Float16 | bfloat16.BFloat16](j *runsJob, lo, hi int) {
	dst, _ := j.dst.Data().([]H)
	src, _ := j.src.Data().([]H)
	// The 16-bit types as their bits, which widen and narrow convert.
	bits := unsafe.Slice((*uint16)(unsafe.Pointer(unsafe.SliceData(src))), len(src))
	widen, narrow := halfConv[H]()
	for u := lo; u < hi; u++ {
		d0, base, r0, r1 := j.unit(u)
		out := dst[d0 : d0+j.inner]
		if r0 == r1 {
			fill := narrow(0)
			if j.opt.Rules.Empty == EmptyIdentity {
				fill = narrow(float32(math.Copysign(0, -1)))
			}
			for k := range out {
				out[k] = H(fill)
			}
			continue
		}
		for k := range out {
			first := bits[base+r0*j.inner+k]
			if r1-r0 == 1 {
				out[k] = H(first)
				continue
			}
			rest := bits[base+(r0+1)*j.inner+k:]
			out[k] = H(narrow(add(widen(first), pairwiseSumOf(rest, r1-r0-1, j.inner, widen))))
		}
	}
}

// halfConv returns the conversions of H's bits to float32 and back.
func halfConv[H float16.Float16 | bfloat16.BFloat16]() (widen func(uint16) float32, narrow func(float32) uint16) {
	var h H
	if _, ok := any(h).(float16.Float16); ok {
		return func(b uint16) float32 { return float16.Float16(b).Float32() },
			func(f float32) uint16 { return uint16(float16.Fromfloat32(f)) }
	}
	return func(b uint16) float32 { return bfloat16.BFloat16(b).Float32() },
		func(f float32) uint16 { return uint16(bfloat16.FromFloat32(f)) }
}

// pairwiseComplex sums the runs of complex elements (C) part by part, in
// their part type (F).
func pairwiseComplex[C complex64 | complex128, F float32 | float64](j *runsJob, lo, hi int) {
	dst, _ := j.dst.Data().([]C)
	src, _ := j.src.Data().([]C)
	parts := unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(src))), 2*len(src))
	for u := lo; u < hi; u++ {
		d0, base, r0, r1 := j.unit(u)
		out := dst[d0 : d0+j.inner]
		if r0 == r1 {
			var fill C
			if j.opt.Rules.Empty == EmptyIdentity {
				z := math.Copysign(0, -1)
				fill = C(complex(z, z))
			}
			for k := range out {
				out[k] = fill
			}
			continue
		}
		for k := range out {
			first := src[base+r0*j.inner+k]
			out[k] = first
			if r1-r0 > 1 {
				rr, ri := pairwiseParts(parts[2*(base+(r0+1)*j.inner+k):], 2*(r1-r0-1), j.inner)
				sum := C(complex(float64(rr), float64(ri)))
				out[k] = fixComplex(first+sum, first, sum)
			}
		}
	}
}

// fillEmptySum fills out, an empty run of a float sum, with +0, or with
// -0, the identity of addition, under EmptyIdentity.
func fillEmptySum[F float32 | float64](out []F, e EmptyRun) {
	fill := F(0)
	if e == EmptyIdentity {
		fill = F(math.Copysign(0, -1))
	}
	for k := range out {
		out[k] = fill
	}
}

// pairwiseSum is NumPy's pairwise_sum of the n elements a[0], a[s],
// a[2s], ... (see PairwiseSum).
func pairwiseSum[F float32 | float64](a []F, n, s int) F {
	return pairwiseSumOf(a, n, s, func(x F) F { return x })
}

// pairwiseSumOf is pairwiseSum of the elements converted by conv to F.
func pairwiseSumOf[E any, F float32 | float64](a []E, n, s int, conv func(E) F) F {
	if n < 8 {
		res := F(math.Copysign(0, -1))
		for i := range n {
			res = add(res, conv(a[i*s]))
		}
		return res
	}
	if n <= pairwiseBlock {
		var r [8]F
		for q := range r {
			r[q] = conv(a[q*s])
		}
		i := 8
		for ; i < n-n%8; i += 8 {
			for q := range r {
				r[q] = add(r[q], conv(a[(i+q)*s]))
			}
		}
		res := add(add(add(r[0], r[1]), add(r[2], r[3])), add(add(r[4], r[5]), add(r[6], r[7])))
		for ; i < n; i++ {
			res = add(res, conv(a[i*s]))
		}
		return res
	}
	n2 := n / 2
	n2 -= n2 % 8
	return add(pairwiseSumOf(a, n2, s, conv), pairwiseSumOf(a[n2*s:], n-n2, s, conv))
}

// pairwiseBlock is NumPy's PW_BLOCKSIZE.
const pairwiseBlock = 128

// pairwiseParts is NumPy's pairwise_sum of complex numbers, over their
// parts: a holds the parts of complex elements cs elements apart, n is
// twice their number, and the real part of element i/2 (i even) is
// a[i*cs], its imaginary part the next.
func pairwiseParts[F float32 | float64](a []F, n, cs int) (rr, ri F) {
	if n < 8 {
		rr, ri = F(math.Copysign(0, -1)), F(math.Copysign(0, -1))
		for i := 0; i < n; i += 2 {
			rr, ri = add(rr, a[i*cs]), add(ri, a[i*cs+1])
		}
		return rr, ri
	}
	if n <= pairwiseBlock {
		var r [8]F
		for q := 0; q < 8; q += 2 {
			r[q], r[q+1] = a[q*cs], a[q*cs+1]
		}
		i := 8
		for ; i < n-n%8; i += 8 {
			for q := 0; q < 8; q += 2 {
				r[q], r[q+1] = add(r[q], a[(i+q)*cs]), add(r[q+1], a[(i+q)*cs+1])
			}
		}
		rr, ri = add(add(r[0], r[2]), add(r[4], r[6])), add(add(r[1], r[3]), add(r[5], r[7]))
		for ; i < n; i += 2 {
			rr, ri = add(rr, a[i*cs]), add(ri, a[i*cs+1])
		}
		return rr, ri
	}
	n2 := n / 2
	n2 -= n2 % 8
	rr1, ri1 := pairwiseParts(a, n2, cs)
	rr2, ri2 := pairwiseParts(a[n2*cs:], n-n2, cs)
	return add(rr1, rr2), add(ri1, ri2)
}

// sumRunOf returns a loop of float32 or float64 Add and Mean runs that
// adds with the machine's instructions and checks the results for NaN,
// recomputing a unit that has one by the engine's NaN rule: the common
// case of a large reduction (TensorFlow's segment_sum and segment_mean)
// at the speed of the loads. nil for other types and arithmetic.
func sumRunOf(d tensor.DType, opt RunOptions) typedRun {
	if (opt.Reduction != Add && opt.Reduction != Mean) || opt.Arith.CountInType {
		return nil
	}
	return floatRunOf(d).sum
}

// sumRuns sums (or averages) the runs of units [lo, hi) of float32 or
// float64 elements in order, each run from its first slice.
func sumRuns[F float32 | float64](j *runsJob, lo, hi int) {
	dst, _ := j.dst.Data().([]F)
	src, _ := j.src.Data().([]F)
	if d, ok := any(dst).([]float32); ok && sumRuns32(j, d, any(src).([]float32), lo, hi) {
		return
	}
	inner, mean := j.inner, j.opt.Reduction == Mean
	for u := lo; u < hi; u++ {
		d0, base, r0, r1 := j.unit(u)
		out := dst[d0 : d0+inner]
		if r0 == r1 {
			fillEmptySum(out, j.opt.Rules.Empty)
			continue
		}
		copy(out, src[base+r0*inner:][:inner])
		sumRunGo(out, src, base, inner, r0, r1)
		if j.fix != nil && r1-r0 > 1 {
			j.fix(j.dst.Data(), d0, inner)
		}
		if mean {
			n := F(r1 - r0)
			for k, v := range out {
				out[k] = quo(v, n)
			}
		}
	}
}

// sumRuns32 is sumRuns for float32, each run in one call of sumRun:
// EigenStart's sums from +0 (j.fix), which need no correction after, a
// mean divided there. It reports false, having done nothing, where
// sumRun does not run (no AVX). The units go in order without a division
// each (j.unit's), outer position o and run i.
func sumRuns32(j *runsJob, dst, src []float32, lo, hi int) bool {
	if !sumRun(nil, nil, 0, 0, false, false) {
		return false
	}
	inner, mean, eigen := j.inner, j.opt.Reduction == Mean, j.fix != nil
	o, i := lo/j.runs, lo%j.runs
	for u := lo; u < hi; u++ {
		out := dst[u*inner:][:inner]
		if r0, r1 := j.lo[i], j.hi[i]; r0 == r1 {
			fillEmptySum(out, j.opt.Rules.Empty)
		} else {
			base := (o*j.size + r0) * inner
			sumRun(out, src[base:base+(r1-r0)*inner], r1-r0, inner, eigen && r1-r0 > 1, mean)
		}
		if i++; i == j.runs {
			o, i = o+1, 0
		}
	}
	return true
}

// sumRunGo adds rows r0+1 to r1-1 of src (rows of inner elements from
// base) to out, which holds row r0, by addRow, and again by add if a sum
// is a NaN, so that every NaN is the rule's.
func sumRunGo[F float32 | float64](out, src []F, base, inner, r0, r1 int) {
	for r := r0 + 1; r < r1; r++ {
		addRow(out, src[base+r*inner:][:inner])
	}
	nan := false
	for _, v := range out {
		nan = nan || v != v
	}
	if nan { // again, by the rule for every NaN the arithmetic makes
		copy(out, src[base+r0*inner:][:inner])
		for r := r0 + 1; r < r1; r++ {
			for k, x := range src[base+r*inner:][:inner] {
				out[k] = add(out[k], x)
			}
		}
	}
}

// addRow adds row to out element by element, four at a time.
func addRow[F float32 | float64](out, row []F) {
	out = out[:len(row)]
	k := 0
	for ; k+4 <= len(row); k += 4 {
		o, x := out[k:k+4:k+4], row[k:k+4:k+4]
		o[0] += x[0]
		o[1] += x[1]
		o[2] += x[2]
		o[3] += x[3]
	}
	for ; k < len(row); k++ {
		out[k] += row[k]
	}
}
