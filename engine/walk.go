package engine

import "github.com/scatter-dev/scatter/tensor"

// elemWalk computes the offsets of the elements of ScatterElements and
// GatherElements a row at a time (a row runs along the last dimension of
// indices). The element at p of indices is at p in the indices-shaped
// tensor (updates, or a gather's output) and addresses p with p[axis]
// replaced by its value in the data-shaped one (a scatter's dst, a
// gather's data).
type elemWalk struct {
	ind         []int64
	is          tensor.Shape
	axis        int
	lim         limit
	data, other []int // strides of the data-shaped and the indices-shaped tensor
	last        int   // is[len(is)-1]
	// cur holds a cursor per worker, coords the coordinates they step.
	cur    []rowCursor
	coords []int
}

// rowCursor is a worker's place in the rows of an elemWalk: row r, at
// coordinates coord of indices (the last one left out), whose first
// element is at data in the data-shaped tensor (without the axis
// coordinate) and at other in the indices-shaped one. Stepping it to the
// next row adds strides where computing a row's offsets afresh would
// divide.
type rowCursor struct {
	coord       []int
	r           int
	data, other int
}

// init sets e up for a call with p workers, keeping its buffers.
func (e *elemWalk) init(ind []int64, is tensor.Shape, axis int, lim limit, data, other []int, p int) {
	e.ind, e.is, e.axis, e.lim, e.data, e.other, e.last = ind, is, axis, lim, data, other, is[len(is)-1]
	rank := len(is) - 1
	e.cur = resize(e.cur, p)
	e.coords = resize(e.coords, p*rank)
	for w := range e.cur {
		e.cur[w].coord = e.coords[w*rank : (w+1)*rank]
	}
}

// rows returns the number of rows.
func (e *elemWalk) rows() int {
	if e.last == 0 {
		return 0
	}
	return len(e.ind) / e.last
}

// row returns worker w's cursor, placed at row r.
func (e *elemWalk) row(w, r int) *rowCursor {
	c := &e.cur[w]
	c.r, c.data, c.other = r, 0, 0
	for d := len(e.is) - 2; d >= 0; d-- {
		x := 0
		if n := e.is[d]; n > 0 { // else there are no rows, and r is 0
			x, r = r%n, r/n
		}
		c.coord[d] = x
		if d != e.axis {
			c.data += x * e.data[d]
		}
		c.other += x * e.other[d]
	}
	return c
}

// next steps c to the next row.
func (e *elemWalk) next(c *rowCursor) {
	c.r++
	for d := len(e.is) - 2; d >= 0; d-- {
		c.coord[d]++
		c.other += e.other[d]
		if d != e.axis {
			c.data += e.data[d]
		}
		if c.coord[d] < e.is[d] {
			return
		}
		c.other -= e.is[d] * e.other[d]
		if d != e.axis {
			c.data -= e.is[d] * e.data[d]
		}
		c.coord[d] = 0
	}
}

// index returns the index values of c's row.
func (e *elemWalk) index(c *rowCursor) []int64 { return e.ind[c.r*e.last : (c.r+1)*e.last] }

// steps returns what an element's data offset adds per position along the
// row and per unit of its index value.
func (e *elemWalk) steps() (along, value int) {
	if e.axis == len(e.is)-1 {
		return 0, 1 // the axis is the row itself
	}
	return 1, e.data[e.axis]
}

// scatterPairs fills buf with the pairs (data offset, other offset) of
// the elements of c's row from position j on, and of the rows after it up
// to r1, whose data offsets lie in [lo, hi), until buf is full. Values
// outside the limit (which the rules skip, as the others were refused
// before) give no pair. It returns the number of pairs and the position
// to go on from in c's row, to which it has stepped c.
func (e *elemWalk) scatterPairs(c *rowCursor, j, r1, lo, hi int, buf []pair) (n, nj int) {
	width := uint(hi - lo)
	along, value := e.steps()
	for ; c.r < r1; e.next(c) {
		row := e.index(c)
		for ; j < len(row); j++ {
			if n == len(buf) {
				return n, j
			}
			d := -1
			if p, ok := e.lim.pos(row[j]); ok {
				d = c.data + j*along + p*value
			}
			buf[n] = pair{d, c.other + j}
			if uint(d-lo) < width {
				n++
			}
		}
		j = 0
	}
	return n, 0
}

// pairIter hands over, a batch at a time, the pairs of the updates of a
// scatter that land in [lo, hi) of dst: the tuples of an ndWalk, or rows
// r0 to r1 of an elemWalk (worker w's cursor stepping them). It can start
// again, for the passes that ExcludeSelf and Mean make.
type pairIter struct {
	nd     *ndWalk
	el     *elemWalk
	hlo    *layout // the general scatter's, with the windows' starts
	starts []int
	b0     int // the first batch position of starts to walk
	block  int // elements per ScatterND tuple
	lo, hi int
	r0, r1 int
	w      int
	buf    []pair

	t, j int // the next tuple, or the next position in the cursor's row
	cur  *rowCursor
	done bool
	// The general scatter's place: the next batch position, the next
	// window position in it, and its offset in updates.
	k, other int
}

// start goes back to the first update.
func (it *pairIter) start() {
	it.t, it.j, it.done = 0, 0, false
	if it.el != nil {
		it.cur = it.el.row(it.w, it.r0)
	}
	if it.hlo != nil {
		coord, wcoord := it.hlo.coordsOf(it.w)
		clear(wcoord)
		it.t, it.k = it.b0, 0
		_, it.other, _ = it.hlo.batchAt(min(it.b0, max(it.hlo.batches-1, 0)), coord)
		it.done = it.b0 >= len(it.starts)
	}
}

// next returns the next batch, and false when there is none.
func (it *pairIter) next() ([]pair, bool) {
	if it.done {
		return nil, false
	}
	var n int
	if it.hlo != nil {
		coord, wcoord := it.hlo.coordsOf(it.w)
		n, it.t, it.k, it.other = it.hlo.scatterPairs(it.starts, it.t, it.k, it.other, it.lo, it.hi, coord, wcoord, it.buf)
		it.done = it.t >= len(it.starts)
		return it.buf[:n], true
	}
	if it.nd != nil {
		n, it.t = it.nd.scatterPairs(it.t, it.lo, it.hi, it.block, it.buf)
		it.done = it.t >= it.nd.n
	} else {
		n, it.j = it.el.scatterPairs(it.cur, it.j, it.r1, it.lo, it.hi, it.buf)
		it.done = it.cur.r >= it.r1
	}
	return it.buf[:n], true
}
