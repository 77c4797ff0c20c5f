package engine

import (
	"encoding/binary"
	"fmt"
	"strings"
)

// CPU describes the processor the engine runs on, as far as the way it
// moves rows depends on it (see Strategy). On amd64 the engine reads it
// once, from the CPUID instruction, when the package is initialised;
// other platforms (and amd64 built with the purego tag) have no CPUID
// here and describe an unknown processor, the zero CPU.
type CPU struct {
	// Vendor is CPUID's vendor string: "GenuineIntel", "AuthenticAMD",
	// "HygonGenuine", ...; "" where unknown.
	Vendor string
	// Family and Model are the display family and model (the base
	// fields with the extended ones added as Intel and AMD document):
	// 6 and 85 for a Skylake-SP or Cascade Lake Xeon, 25 and 17 for a
	// Zen 4 EPYC.
	Family, Model int
	// L2 is the size in bytes of one level-2 cache: a core's own on the
	// server parts this is about (0 where unknown).
	L2 int
	// L3 is the size in bytes of one level-3 cache, shared by the cores
	// of a socket or a core complex (0 where unknown or none).
	L3 int
	// AVX512F says that the processor and the operating system run
	// AVX-512 Foundation instructions.
	AVX512F bool
}

// String describes c in one line, such as "AuthenticAMD family 25 model
// 17, L2 1 MiB, L3 32 MiB, AVX-512".
func (c CPU) String() string {
	if c.Vendor == "" {
		return "unknown processor"
	}
	s := fmt.Sprintf("%s family %d model %d, L2 %s, L3 %s", c.Vendor, c.Family, c.Model, cacheSize(c.L2), cacheSize(c.L3))
	if c.AVX512F {
		s += ", AVX-512"
	}
	return s
}

// cacheSize writes a cache size in MiB, or KiB below one, or "unknown".
func cacheSize(n int) string {
	switch {
	case n <= 0:
		return "unknown"
	case n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.2f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%d KiB", n>>10)
}

// HostCPU returns the description of the processor the engine runs on,
// read when the package was initialised.
func HostCPU() CPU { return host }

// host is the processor the engine runs on; strategy is what StrategyFor
// chose for it, which the movers read.
var (
	host     = hostCPU()
	strategy = StrategyFor(host)
)

// describeCPU reads a CPU from the CPUID leaves that id returns (EAX,
// EBX, ECX, EDX for the leaf in EAX and sub-leaf in ECX): the vendor
// (leaf 0), family and model (leaf 1), and the cache sizes from the
// deterministic cache parameters (Intel's leaf 4; AMD's and Hygon's
// 0x8000001D where the topology extensions are, else their legacy
// 0x80000006). It leaves AVX512F false: that needs the operating system's
// word too, which the caller has.
func describeCPU(id func(leaf, sub uint32) (a, b, c, d uint32)) CPU {
	var c CPU
	top, b, cx, d := id(0, 0)
	vendor := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, b), d), cx)
	c.Vendor = strings.TrimRight(string(vendor), "\x00")
	if top < 1 {
		return c
	}
	a, _, _, _ := id(1, 0)
	c.Family = int(a>>8) & 0xf
	c.Model = int(a>>4) & 0xf
	if c.Family == 0xf {
		c.Family += int(a>>20) & 0xff
	}
	if c.Family == 6 || c.Family >= 0xf {
		c.Model |= int(a>>16) & 0xf << 4
	}
	amd := c.Vendor == "AuthenticAMD" || c.Vendor == "HygonGenuine"
	switch {
	case amd:
		ext, _, _, _ := id(0x80000000, 0)
		_, _, feat, _ := id(0x80000001, 0)
		switch {
		case ext >= 0x8000001d && feat&(1<<22) != 0: // TOPOEXT
			c.L2, c.L3 = cacheLeaves(id, 0x8000001d)
		case ext >= 0x80000006:
			_, _, l2, l3 := id(0x80000006, 0)
			c.L2 = int(l2>>16) << 10         // KiB
			c.L3 = int(l3>>18) * (512 << 10) // units of 512 KiB
		}
	case top >= 4:
		c.L2, c.L3 = cacheLeaves(id, 4)
	}
	return c
}

// cacheLeaves returns the sizes of the level-2 and level-3 data or
// unified caches that the deterministic cache parameters of leaf (4 or
// 0x8000001D) list, one sub-leaf a cache until one of type 0.
func cacheLeaves(id func(leaf, sub uint32) (a, b, c, d uint32), leaf uint32) (l2, l3 int) {
	for sub := uint32(0); sub < 16; sub++ {
		a, b, c, _ := id(leaf, sub)
		typ := a & 0x1f
		if typ == 0 {
			break
		}
		if typ == 2 { // instructions
			continue
		}
		ways := int(b>>22) + 1
		parts := int(b>>12)&0x3ff + 1
		line := int(b)&0xfff + 1
		size := ways * parts * line * (int(c) + 1)
		switch (a >> 5) & 7 {
		case 2:
			l2 = size
		case 3:
			l3 = size
		}
	}
	return l2, l3
}
