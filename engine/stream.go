package engine

import (
	"unsafe"
)

// Streaming. A gather of whole rows from a large table into a large
// output (an embedding lookup, W5 and W8) is bound by memory: every row
// read is a miss at a random address, and every line of the output is
// read into the cache before it is written, only to be evicted again.
// The mover of such a call asks for the rows some pairs ahead before it
// copies the current one, so that several rows are in flight, and writes
// the output with non-temporal stores, which skip reading it. Go offers
// neither instruction, so stream_amd64.s holds the three it needs (SSE,
// which every amd64 processor has); elsewhere copyStreaming is a plain
// copy and the movers do not stream.

// Streaming thresholds: rows of at least streamBlock bytes, from a table
// or into an output of at least streamBytes (more than a core's share of
// the last-level cache, so that what is written would be evicted before
// it is read; a smaller output is better left in the cache).
const (
	streamBlock = 256
	streamBytes = 8 << 20
	// prefetchAhead is how many pairs ahead the mover asks for rows.
	prefetchAhead = 8
)

// streaming says whether a mover of blocks of block elements from src to
// dst, of element type E, should ask for rows ahead (prefetch) and write
// around the cache (stream). Strings are never streamed: their headers
// hold pointers, which the garbage collector must see written. A block
// streams only where it starts 16-byte aligned (see moveAhead): the
// forms' blocks start at multiples of the block, but a general scatter's
// window may start at any element.
func streaming[E any](dst, src view, block int) (prefetch, stream bool) {
	bytes := uintptr(block) * dst.size
	if bytes < streamBlock || bytes%64 != 0 {
		return false, false
	}
	prefetch = streamsWords[E](src.n)
	stream = streamsWords[E](dst.n) && uintptr(dst.p)%16 == 0
	return prefetch || stream, stream
}

// streamsWords says whether n elements of E are worth asking for ahead
// and writing around the cache: where the processor can be asked, when
// they take streamBytes or more and are not strings.
func streamsWords[E any](n int) bool {
	var zero E
	_, str := any(zero).(string)
	return canStream && !str && uintptr(n)*unsafe.Sizeof(zero) >= streamBytes
}
