package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// gatherCore runs the general gather that gatherGeneral has checked, the
// shapes of operand, indices and the result in s.shapes.
func gatherCore(s *scratch, dst, operand, indices *tensor.Tensor, d *GatherDims, opt *GatherOptions) error {
	os, is, shape := tensor.Shape(s.shapes[dataShape]), tensor.Shape(s.shapes[indexShape]), tensor.Shape(s.shapes[outShape])
	ind, err := gatherIndices(s, dst, operand, indices, shape)
	if err != nil {
		return err
	}
	if dst.Len() == 0 && opt.Rules.OutOfRange != OutOfRangeError && !opt.Rules.negativesOnly() {
		return nil // nothing read, so nothing to clamp or fill
	}
	s.win = windowDims(s.win, len(os), d.CollapsedSliceDims, d.OperandBatchingDims)
	s.winSize = resize(s.winSize, len(s.win))
	for i, w := range s.win {
		s.winSize[i] = d.SliceSizes[w]
	}
	l := &s.hlo
	l.set(&layoutDims{operand: os, indices: is, other: shape, vecDim: d.IndexVectorDim, otherWin: d.OffsetDims,
		winOp: s.win, winSize: s.winSize, comp: d.StartIndexMap, opBatch: d.OperandBatchingDims,
		indBatch: d.StartIndicesBatchingDims, runs: true}, opt.Rules)
	l.gathers = true
	if bad := firstNegative(ind, opt.Rules); bad >= 0 {
		return l.indexErr(*indices, ind, bad, os)
	}
	if dst.Len() == 0 && opt.Rules.OutOfRange != OutOfRangeError {
		return nil
	}
	if bad := gatherLayout(s, dst, operand, ind, opt.Fill); bad >= 0 {
		return l.indexErr(*indices, ind, bad, os)
	}
	return nil
}

// gatherLayout moves the slices that s.hlo describes from operand into
// dst, the start indices being ind, a skipped slice filled with fill (or
// zeros). It returns the flat position in ind of the first start index
// component that the rules refuse, or -1.
func gatherLayout(s *scratch, dst, operand *tensor.Tensor, ind []int64, fill tensor.Tensor) int {
	l := &s.hlo
	p := parts(dst.Len() + len(ind))
	s.workerPairs(p)
	l.workers(p)
	j := &s.hg
	j.s, j.ind, j.found, j.lines = s, ind, s.noneFound(p), resize(j.lines, p)
	j.m = s.apply.get(dst, operand, s.views[vDst], s.views[vData], l.run)
	j.m.setFill(viewOf(&fill))
	steal(l.batches, p, j, s, true)
	return leastOf(j.found)
}

// hloGatherJob is the parallel part of the general gather: each worker
// takes chunks of the batch positions (see steal).
type hloGatherJob struct {
	s     *scratch
	m     mover
	ind   []int64
	found []int
	lines []lineGather // per worker, for byLines
}

func (j *hloGatherJob) work(w, lo, hi int) {
	if lo >= hi {
		return
	}
	l := &j.s.hlo
	coord, wcoord := l.coordsOf(w)
	if l.windows == 1 && l.run == 1 && len(l.comp) == 1 && len(l.bSize) > 0 {
		j.byLines(w, lo, hi, coord)
		return
	}
	clear(wcoord)
	buf := j.s.pairsOf(w)[:0]
	at, out, bop := l.batchAt(lo, coord)
	for b := lo; b < hi; b++ {
		if b > lo {
			di, do, db := l.nextBatch(coord)
			at, out, bop = at+di, out+do, bop+db
		}
		src, bad := l.start(j.ind, at)
		if bad >= 0 {
			j.found[w] = at + bad*l.vecStride
			break
		}
		if src >= 0 {
			src += bop
		}
		op, ot := 0, 0
		for range l.windows {
			sp := -1
			if src >= 0 {
				sp = src + op
			}
			if buf = append(buf, pair{out + ot, sp}); len(buf) == batch {
				j.m.move(buf)
				buf = buf[:0]
			}
			dop, dot := l.nextWindow(wcoord)
			op, ot = op+dop, ot+dot
		}
	}
	j.m.move(buf)
}

// byLines is work for a gather of one element per start index of one
// component (one window of a run of 1): it moves the elements a line of
// the innermost batch dimension at a time, in a typed loop with constant
// steps.
func (j *hloGatherJob) byLines(w, lo, hi int, coord []int) {
	l := &j.s.hlo
	last := len(l.bSize) - 1
	// The worker's own, in the scratch: on the stack, the line would
	// escape through the mover's interface to the heap, every call.
	g := &j.lines[w]
	*g = lineGather{ind: j.ind, dAt: l.bInd[last], dOut: l.bOther[last], dBase: l.bOp[last],
		lim: l.compLim[0], stride: l.opStrides[l.comp[0]], rule: l.rules.OutOfRange}
	if bad := l.lines(lo, hi-lo, coord, func(_, at, out, base, n int) int {
		g.at, g.out, g.base, g.n = at, out, base, n
		if bad := j.m.gatherLine(g); bad >= 0 {
			return at + bad*g.dAt
		}
		return -1
	}); bad >= 0 {
		j.found[w] = bad
	}
	if g.streamed {
		storeFence()
	}
	g.ind = nil // the caller's, which the pooled scratch must not keep alive
}

// lineGather is a line of a gather: n start indices of one component,
// ind[at], ind[at+dAt], ..., each moving the element at its position
// (under lim and the rule for one outside) times stride plus base, in the
// operand, to out, in dst; out steps by dOut and base by dBase.
type lineGather struct {
	ind         []int64
	at, dAt     int
	out, dOut   int
	base, dBase int
	n, stride   int
	lim         limit
	rule        OutOfRange

	// touched counts what touchLines read (see gatherRows), so that the
	// reads stay.
	touched int
	// streamed says that a line was written around the cache (see
	// streamsOut), and storeFence must follow the lines.
	streamed bool
	// Each worker has a lineGather of its own, next to the others' (see
	// byLines): a cache line apart, they write no line another reads.
	_ [64]byte
}

// gatherLine moves the elements of line g from m's src to its dst; a
// start index the rules skip gets m's fill value. It returns the position
// in the line of the first start index the rules refuse, or -1.
// gatherLineElems is gatherLine (see mover): the line g from src into
// dst, fill where a skipped index leaves an element.
func gatherLineElems[E comparable](dst, src []E, fill E, g *lineGather) int {
	var zero E
	if g.dAt == 1 && g.dOut == 1 && g.dBase == 0 && g.stride == 1 && fill == zero &&
		g.rule != OutOfRangeClamp && g.rule != OutOfRangeWrap {
		// Along one row of the operand, into consecutive elements: the
		// forms' loop, and their reading of a row into cache first when
		// the line has at least as many indices as the row has cache
		// lines and the operand is past the cache (see gatherRows).
		row := src[g.base : g.base+g.lim.size]
		if worthTouching(src, g.lim.size, g.n) {
			g.touched += touchLines(row)
		}
		stream := streamsOut(dst)
		g.streamed = g.streamed || stream
		return gatherRow(dst[g.out:g.out+g.n], row, g.ind[g.at:g.at+g.n], g.lim.fromEnd,
			g.rule == OutOfRangeSkip, stream)
	}
	ind, at, out, base := g.ind, g.at, g.out, g.base
	size, fromEnd := uint64(g.lim.size), g.lim.fromEnd
	for i := range g.n {
		p := wrap(ind[at], fromEnd)
		if uint64(p) >= size {
			switch {
			case (g.rule == OutOfRangeClamp || g.rule == OutOfRangeWrap) && size > 0:
				p = IndexRules{OutOfRange: g.rule}.moved(p, int(size))
			case g.rule == OutOfRangeSkip:
				dst[out] = fill
				at, out, base = at+g.dAt, out+g.dOut, base+g.dBase
				continue
			default:
				return i
			}
		}
		dst[out] = src[base+int(p)*g.stride]
		at, out, base = at+g.dAt, out+g.dOut, base+g.dBase
	}
	return -1
}
