package engine

import (
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// Streaming. A gather of whole rows from a large table into a large
// output (an embedding lookup, W5 and W8) is bound by memory: every row
// read is a miss at a random address, and every line of the output is
// read into the cache before it is written, only to be evicted again.
// The mover of such a call asks for the rows some pairs ahead before it
// copies the current one, into the L2 (prefetchL2), so that several rows
// are in flight, and writes the output with non-temporal stores, which
// skip reading it. What counts as large, how far ahead, and whether to
// stream at all depend on the processor: the engine's Strategy
// (strategy.go) says. Go offers none of these instructions, so
// stream_amd64.s holds the four it needs (SSE, which every amd64
// processor has); elsewhere copyStreaming is a plain copy and the movers
// do not stream.

// streaming says whether a mover of blocks of block elements from src to
// dst, of element type E, should ask for rows ahead (prefetch) and write
// around the cache (stream), under the engine's strategy (see Strategy):
// blocks of at least StreamBlock bytes, a whole number of cache lines,
// from a table past the cache (prefetch) or into an output past it
// (stream). Strings are never streamed: their headers hold pointers,
// which the garbage collector must see written. A block streams only
// where it starts 16-byte aligned (see moveAhead): the forms' blocks start
// at multiples of the block, but a general scatter's window may start at
// any element. Single elements of 4 or 8 bytes from a table past the
// cache are asked for ElementsAhead pairs ahead, and never streamed. It
// returns how many pairs ahead to ask (0: none).
func streaming[E any](dst, src view, block int) (ahead int, stream bool) {
	bytes := uintptr(block) * dst.size
	if block == 1 && (bytes == 4 || bytes == 8) {
		if pastCache[E](src.n) {
			ahead = strategy.ElementsAhead
		}
		return ahead, false
	}
	if bytes < uintptr(strategy.StreamBlock) || bytes%64 != 0 {
		return 0, false
	}
	if pastCache[E](src.n) {
		ahead = strategy.PrefetchAhead
	}
	stream = strategy.NonTemporal && pastCache[E](dst.n) && uintptr(dst.p)%16 == 0
	return ahead, stream
}

// pastCache says whether n elements of E are past the cache under the
// engine's strategy, where the processor can be asked for them ahead and
// written around the cache: when they take StreamBytes or more and are
// not strings.
func pastCache[E any](n int) bool {
	var zero E
	_, str := any(zero).(string)
	return !str && pastCacheBytes(uintptr(n)*unsafe.Sizeof(zero))
}

// pastCacheBytes says whether a tensor of the given bytes is past the
// cache under the engine's strategy: StreamBytes or more, where the
// processor can be asked for lines ahead and written around the cache.
func pastCacheBytes(bytes uintptr) bool {
	return canStream && strategy.StreamBytes > 0 && bytes >= uintptr(strategy.StreamBytes)
}

// streamsInto says whether a scatter into dst (s.views[vDst]) may write
// it around the cache, where its run fills it from data: not in place,
// whose lines must be read anyway; the strategy writes around the cache
// (Strategy.NonTemporal); dst is past the cache and starts on a 16-byte
// boundary; and its elements are not strings, whose headers the garbage
// collector must see written. The slabs through a buffer and the rows
// written once take it (scatter_slabs.go, scatter_nd_once.go).
func streamsInto(s *scratch, dst *tensor.Tensor) bool {
	d := s.views[vDst]
	return strategy.NonTemporal && s.run.fillWith == fillCopy && dst.DType() != tensor.String &&
		pastCacheBytes(uintptr(d.n)*d.size) && uintptr(d.p)%16 == 0
}
