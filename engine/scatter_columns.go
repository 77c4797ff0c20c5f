package engine

import (
	"sync"
	"unsafe"
)

// Column blocks. Along axis 0, consecutive updates of a column land in
// rows of dst far apart: applied to dst itself, nearly every one costs a
// cache and a TLB miss. scatterColumns instead copies a block of columns
// of data into a dense buffer, applies every row of updates to it there,
// and copies it out to dst. The buffer holds at most colBuffer bytes, so
// that it stays in cache; blocks are colBytes wide, four cache lines, so
// that every line read or written is used whole and each strided step
// moves enough to pay for itself.
//
// Those strided steps are misses the hardware does not see coming, one
// row of data, indices and updates after another: where dst is past the
// cache (pastCache), the copy in and the updates ask for their rows
// colAhead rows ahead where the strategy prefetches, and the copy out
// writes around the cache where it streams, as the gathers of rows do
// (see stream.go).
const (
	colBytes  = 256
	colBuffer = 1 << 20
)

// columnWidth returns how many columns of elements of the given size in
// bytes (16 for strings, their headers) a block of scatterColumns holds
// for dst of the given number of rows, or 0 when a block of at least a
// cache line would not fit in the buffer.
func columnWidth(rows, size int) int {
	w := colBytes / size
	for w*size > 64 && rows*w*size > colBuffer {
		w /= 2
	}
	if w*size < 64 || rows*w*size > colBuffer {
		return 0
	}
	return w
}

// columnJob is the parallel part of ScatterElements along axis 0 through
// column blocks: each worker owns blocks of columns.
type columnJob struct {
	run                *scatterRun
	data               view
	ind                []int64
	lim                limit
	rows, inner, width int
}

func (j *columnJob) work(_, lo, hi int) {
	j.run.fast.scatterColumns(j.data, j.ind, j.lim, j.rows, j.inner, j.width, lo*j.width, min(hi*j.width, j.inner))
}

// setColumnBlocks is scatterColumns (see fastScatter) for reduction
// none: the updates src set into dst.
func setColumnBlocks[E any](dst, src []E, data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	ahead := strategy.PrefetchAhead > 0 && pastCache[E](len(src))
	columnBlocks(dst, words[E](data), lim.size, inner, width, c0, c1, func(buf []E, b, w int) {
		for i := range rows {
			if ahead {
				columnsAhead(ind, src, i+colAhead, rows, inner, b, w)
			}
			setColumns(buf, ind[i*inner+b:][:w], src[i*inner+b:][:w], lim.size, w, lim.fromEnd)
		}
	})
}

// reduceColumnBlocks is scatterColumns (see fastScatter) combining the
// updates src into dst by red.
func reduceColumnBlocks[T number](red Reduction, dst, src []T, data view, ind []int64, lim limit, rows, inner, width, c0, c1 int) {
	from := words[T](data)
	ahead := strategy.PrefetchAhead > 0 && pastCache[T](len(src))
	columnBlocks(dst, from, lim.size, inner, width, c0, c1, func(buf []T, b, w int) {
		for i := range rows {
			if ahead {
				columnsAhead(ind, src, i+colAhead, rows, inner, b, w)
			}
			reduceColumns(red, buf, ind[i*inner+b:][:w], src[i*inner+b:][:w], lim.size, w, lim.fromEnd)
		}
	})
}

// columnBlocks is scatterColumns for one element type. For each block of
// width columns it fills buf from data, calls apply to update the block,
// which buf holds as [size][w] starting at column b, and copies buf out
// to dst, asking ahead and streaming where dst is large (see above).
func columnBlocks[E any](dst, data []E, size, inner, width, c0, c1 int, apply func(buf []E, b, w int)) {
	scratch := getBuffer[E](&columnPool, size*width)
	defer columnPool.Put(scratch)
	buf := *scratch
	var zero E
	es := unsafe.Sizeof(zero)
	big := pastCache[E](len(dst))
	ask, nt := big && strategy.PrefetchAhead > 0, big && strategy.NonTemporal
	for b := c0; b < c1; b += width {
		w := min(width, c1-b)
		wb := uintptr(w) * es
		buf := buf[:size*w]
		ahead := ask && data != nil
		if ahead {
			for p := range min(colAhead, size) {
				prefetchL2(unsafe.Pointer(&data[p*inner+b]), wb)
			}
		}
		for p := range size {
			if data == nil {
				clear(buf[p*w : (p+1)*w])
				continue
			}
			if ahead && p+colAhead < size {
				prefetchL2(unsafe.Pointer(&data[(p+colAhead)*inner+b]), wb)
			}
			copy(buf[p*w:(p+1)*w], data[p*inner+b:][:w])
		}
		apply(buf, b, w)
		stream := nt && wb%64 == 0
		for p := range size {
			d := dst[p*inner+b:][:w]
			if stream && uintptr(unsafe.Pointer(&d[0]))%16 == 0 {
				copyStreaming(unsafe.Pointer(&d[0]), unsafe.Pointer(&buf[p*w]), wb)
			} else {
				copy(d, buf[p*w:(p+1)*w])
			}
		}
	}
	if nt {
		storeFence()
	}
}

// colAhead is how many rows ahead the column blocks ask for rows.
const colAhead = 16

// columnsAhead asks for the w indices and updates of row k at column b,
// if there is such a row.
func columnsAhead[E any](ind []int64, src []E, k, rows, inner, b, w int) {
	if k >= rows {
		return
	}
	var zero E
	prefetchL2(unsafe.Pointer(&ind[k*inner+b]), uintptr(w)*8)
	prefetchL2(unsafe.Pointer(&src[k*inner+b]), uintptr(w)*unsafe.Sizeof(zero))
}

// The column buffers of ScatterElements along axis 0, kept so that
// repeated calls do not allocate (and clear) them each time: each worker
// takes one (a *[]E of any E; one of another type than the caller wants
// is dropped).
var columnPool sync.Pool

// The column loops' indices have been validated; an index outside the
// limit is one the rules skip.

// setColumns applies one row of updates of ScatterElements along axis 0
// to the columns that dst starts at: dst[p*inner + j] = upd[j] for p =
// idx[j] within [0, size), inner being the elements per index of axis 0.
//
//go:noinline
func setColumns[E any](dst []E, idx []int64, upd []E, size, inner int, fromEnd int64) {
	upd = upd[:len(idx)]
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			dst[int(p)*inner+j] = upd[j]
		}
	}
}

// reduceColumns is setColumns combining each update into its element by
// red.
//
//go:noinline
func reduceColumns[T number](red Reduction, dst []T, idx []int64, upd []T, size, inner int, fromEnd int64) {
	upd = upd[:len(idx)]
	for j, v := range idx {
		if p := wrap(v, fromEnd); uint64(p) < uint64(size) {
			d := int(p)*inner + j
			dst[d] = combine(red, dst[d], upd[j])
		}
	}
}
