package engine

import (
	"math"
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// Rows written once. ScatterND of rows (reduction none) into another dst
// otherwise fills dst from data, a copy of the whole of it, and then
// writes each update's row over its row of dst: the rows the updates
// write are read from data and written for nothing, and where dst is past
// the cache each is written to memory twice. Where the strategy writes
// rows around the cache, each row of dst is instead written once, from
// the last update that writes it or else from data, in order along dst,
// with non-temporal stores, asking for the rows to come PrefetchAhead
// rows ahead: as many bytes move as the result needs. Which update is
// the last of a row is found first, in index order, so that the last
// one wins as it does in the two passes.

// rowsOnce says whether run's ScatterND of n rows of block elements into
// dst goes a row of dst at a time: reduction none, into a dst that may be
// written around the cache (streamsInto), in rows of whole cache lines of
// at least StreamBlock bytes (so that each starts on dst's 16-byte
// boundary); and n within an int32, which holds the last update of a row.
func rowsOnce(s *scratch, run *scatterRun, t *tensor.Tensor, block, n int) bool {
	bytes := uintptr(block) * s.views[vDst].size
	return run.red == nil && streamsInto(s, t) && int64(n) <= math.MaxInt32 &&
		bytes >= uintptr(strategy.StreamBlock) && bytes%64 == 0
}

// rowsOnceJob writes each row of dst once: row r from the update last[r],
// or from data's row r where last[r] is -1.
type rowsOnceJob struct {
	s     *scratch
	bytes uintptr // of a row
	last  []int32
}

// scatterRowsOnce runs ScatterND's rows of block elements at offs (-1
// for one skipped) into dst of rows rows, each row written once (see
// rowsOnce), on p workers.
func (s *scratch) scatterRowsOnce(offs []int32, block, rows, p int) {
	s.lastRow = resize(s.lastRow, rows)
	last := s.lastRow
	for r := range last {
		last[r] = -1
	}
	for t, o := range offs {
		if o >= 0 {
			last[int(o)/block] = int32(t)
		}
	}
	s.once = rowsOnceJob{s: s, bytes: uintptr(block) * s.views[vDst].size, last: last}
	parallel(rows, p, &s.once, &s.done)
	s.once = rowsOnceJob{}
}

func (j *rowsOnceJob) work(_, lo, hi int) {
	d, data, upd := j.s.views[vDst].p, j.s.views[vData].p, j.s.views[vUpd].p
	from := func(r int) unsafe.Pointer {
		if t := j.last[r]; t >= 0 {
			return unsafe.Add(upd, uintptr(t)*j.bytes)
		}
		return unsafe.Add(data, uintptr(r)*j.bytes)
	}
	// Every row is asked for ahead: data's too, whose rows the hardware
	// would follow only within a page, and not across the rows skipped.
	ahead := strategy.PrefetchAhead
	for r := lo; r < min(lo+ahead, hi); r++ {
		prefetchL2(from(r), j.bytes)
	}
	for r := lo; r < hi; r++ {
		if r+ahead < hi {
			prefetchL2(from(r+ahead), j.bytes)
		}
		copyStreaming(unsafe.Add(d, uintptr(r)*j.bytes), from(r), j.bytes)
	}
	storeFence()
}
