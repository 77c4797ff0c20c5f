package engine

import "fmt"

// Strategy is how the movers copy whole rows (the row paths of ScatterND,
// GatherND and Gather, ScatterElements' column blocks along axis 0) and
// whether GatherElements takes eight indices an instruction. The engine
// runs with StrategyFor(HostCPU()), chosen once when the package is
// initialised; a call reads it, never the processor.
type Strategy struct {
	// StreamBytes is the size from which a tensor counts as past the
	// cache: rows read from a table of at least this many bytes are
	// asked for PrefetchAhead pairs ahead, and rows written into an
	// output of at least this many bytes go around the cache where
	// NonTemporal says so. 0: no tensor is, and every row is a plain
	// copy.
	StreamBytes int
	// StreamBlock is the least row, in bytes, that is asked for ahead
	// or streamed: a shorter one is left to the hardware's prefetcher.
	StreamBlock int
	// PrefetchAhead is how many pairs ahead a mover asks for the rows it
	// reads from a table past the cache; 0: it does not ask.
	PrefetchAhead int
	// ElementsAhead is how many pairs ahead a mover of single 4- or
	// 8-byte elements asks for the element it reads from a table past
	// the cache (GatherND and Gather of elements at random); 0: it does
	// not ask.
	ElementsAhead int
	// NonTemporal says that rows written into an output past the cache
	// go with non-temporal stores, which skip reading each line of the
	// output into the cache before writing it.
	NonTemporal bool
	// Gather says that GatherElements gathers eight 4- or 8-byte
	// elements an AVX-512 instruction (only where the processor has
	// AVX-512F); otherwise it takes one index at a time.
	Gather bool
}

// String describes s in one line, such as "stream rows of 256 B or more
// past 32 MiB: prefetch 8 ahead, non-temporal stores; AVX-512 gather".
func (s Strategy) String() string {
	out := "plain copy"
	if s.StreamBytes > 0 && (s.PrefetchAhead > 0 || s.NonTemporal) {
		out = fmt.Sprintf("rows of %d B or more past %s:", s.StreamBlock, cacheSize(s.StreamBytes))
		if s.PrefetchAhead > 0 {
			out += fmt.Sprintf(" prefetch %d ahead", s.PrefetchAhead)
			if s.NonTemporal {
				out += ","
			}
		}
		if s.NonTemporal {
			out += " non-temporal stores"
		}
	}
	if s.StreamBytes > 0 && s.ElementsAhead > 0 {
		out += fmt.Sprintf("; elements past %s: prefetch %d ahead", cacheSize(s.StreamBytes), s.ElementsAhead)
	}
	if s.Gather {
		return out + "; AVX-512 gather"
	}
	return out + "; gather one at a time"
}

// HostStrategy returns the strategy the engine runs with: StrategyFor of
// HostCPU.
func HostStrategy() Strategy { return strategy }

// StrategyFor returns the strategy for the processor c:
//
//   - A tensor is past the cache from a quarter of the L3 that CPUID
//     gives, at least 8 MiB and at most 32 MiB: a gather's table and
//     output of that size take half the L3 together, and the rest is the
//     other cores' (in a VM, other tenants'); a larger L3 is shared by
//     more of them, so that a core keeps no more of it. Where CPUID gives
//     no L3, from 8 MiB.
//   - Rows of 256 bytes (four cache lines) or more read from a table past
//     the cache are asked for 8 pairs ahead, on every processor: the
//     hardware's prefetcher follows a row once it has begun, never the
//     jump to the next one.
//   - Single elements read at random from a table past the cache are
//     asked for 32 pairs ahead, on every processor: the core alone keeps
//     too few of those misses under way.
//   - Rows written into an output past the cache go with non-temporal
//     stores, together with the prefetch (alone they won little or lost),
//     on the Intel and AMD (and Hygon) processors whose L3 CPUID gives;
//     not on an unknown one.
//   - The AVX-512 gather wherever the processor has AVX-512F, except on
//     the Intel cores whose microcode slows gathers against Gather Data
//     Sampling (Skylake-SP to Tiger Lake: see gdsCore): it paid on
//     Emerald Rapids and on Zen 4, and lost on Skylake-SP.
//
// README's Speed section gives the figures behind each choice.
func StrategyFor(c CPU) Strategy {
	s := Strategy{StreamBytes: minStream, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32}
	known := c.Vendor == "GenuineIntel" || c.Vendor == "AuthenticAMD" || c.Vendor == "HygonGenuine"
	if known && c.L3 > 0 {
		s.StreamBytes = min(max(c.L3/4, minStream), maxStream)
		s.NonTemporal = true
	}
	s.Gather = c.AVX512F && !gdsCore(c)
	return s
}

// The bounds of StrategyFor's StreamBytes: the least, the fixed threshold
// every processor had before the rule, where its L3 is small; the most,
// where a large L3 is shared by many cores.
const (
	minStream = 8 << 20
	maxStream = 32 << 20
)

// gdsCore says that c is one of the Intel cores with AVX-512 whose
// gathers Gather Data Sampling ("Downfall", CVE-2022-40982) affects, which
// their microcode slows several times: family 6, Skylake-SP, Cascade
// Lake and Cooper Lake (85), Ice Lake (106, 108, 125, 126), Tiger Lake
// (140, 141) and Rocket Lake (167).
func gdsCore(c CPU) bool {
	if c.Vendor != "GenuineIntel" || c.Family != 6 {
		return false
	}
	switch c.Model {
	case 85, 106, 108, 125, 126, 140, 141, 167:
		return true
	}
	return false
}
