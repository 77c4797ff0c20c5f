package engine

import "testing"

// leaves is a processor's CPUID answers by leaf and sub-leaf; a leaf it
// does not list answers zeros, as one past the processor's last does.
type leaves map[[2]uint32][4]uint32

func (l leaves) id(leaf, sub uint32) (a, b, c, d uint32) {
	r := l[[2]uint32{leaf, sub}]
	return r[0], r[1], r[2], r[3]
}

// vendorLeaf is leaf 0 of a processor of the given vendor (twelve
// characters) whose last leaf is top.
func vendorLeaf(top uint32, vendor string) [4]uint32 {
	w := func(s string) uint32 {
		return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
	}
	return [4]uint32{top, w(vendor[0:4]), w(vendor[8:12]), w(vendor[4:8])}
}

// cacheLeaf encodes a cache of the deterministic cache parameters (leaf 4
// or 0x8000001D): its type (1 data, 2 instructions, 3 unified), level,
// ways, line size and sets.
func cacheLeaf(typ, level, ways, line, sets uint32) [4]uint32 {
	return [4]uint32{typ | level<<5, (ways-1)<<22 | (line - 1), sets - 1, 0}
}

// intelLeaves are the leaves of an Intel processor whose leaf 1 has eax,
// with 48 KiB L1 caches of data and instructions and an L2 and L3 as
// given (leaf 4).
func intelLeaves(eax uint32, l2, l3 [4]uint32) leaves {
	return leaves{
		{0, 0}: vendorLeaf(0x1f, "GenuineIntel"),
		{1, 0}: {eax, 0, 0, 0},
		{4, 0}: cacheLeaf(1, 1, 12, 64, 64),
		{4, 1}: cacheLeaf(2, 1, 12, 64, 64),
		{4, 2}: l2,
		{4, 3}: l3,
	}
}

// mib is a mebibyte, for the tables of cache sizes.
const mib = 1 << 20

// TestDescribeCPU reads the vendor, family, model and cache sizes from
// the CPUID leaves of described processors: this project's AMD EPYC
// (recorded), a Skylake-SP and an Emerald Rapids Xeon (their leaf 4 as
// Intel's manual lays it out, with their published cache sizes), an AMD
// processor without the topology extensions (the legacy leaf, which gives
// the L3 of the whole processor), and processors that answer no cache
// leaf.
func TestDescribeCPU(t *testing.T) {
	tests := []struct {
		name   string
		leaves leaves
		want   CPU
	}{
		{
			// CPUID of the 2-vCPU AMD EPYC (Zen 4) under KVM this
			// project is measured on, 2026-11-29.
			name: "AMD EPYC Zen 4, recorded",
			leaves: leaves{
				{0, 0}:          {0x1c, 0x68747541, 0x444d4163, 0x69746e65},
				{1, 0}:          {0xa10f11, 0x1020800, 0xfffa3203, 0x178bfbff},
				{0x80000000, 0}: {0x80000021, 0x68747541, 0x444d4163, 0x69746e65},
				{0x80000001, 0}: {0xa10f11, 0x40000000, 0x4003f3, 0x2fd3fbff},
				{0x80000006, 0}: {0x5c002200, 0x6c004200, 0x4006140, 0xa009140},
				{0x8000001d, 0}: {0x121, 0x1c0003f, 0x3f, 0x0},
				{0x8000001d, 1}: {0x122, 0x1c0003f, 0x3f, 0x0},
				{0x8000001d, 2}: {0x143, 0x1c0003f, 0x7ff, 0x2},
				{0x8000001d, 3}: {0x4163, 0x3c0003f, 0x7fff, 0x1},
			},
			want: CPU{Vendor: "AuthenticAMD", Family: 25, Model: 17, L2: 1 * mib, L3: 32 * mib},
		},
		{
			name: "Skylake-SP",
			leaves: intelLeaves(0x50654, // family 6, model 85
				cacheLeaf(3, 2, 16, 64, 1024), cacheLeaf(3, 3, 11, 64, 53248)), // 1 MiB, 35.75 MiB
			want: CPU{Vendor: "GenuineIntel", Family: 6, Model: 85, L2: 1 * mib, L3: 35.75 * mib},
		},
		{
			name: "Emerald Rapids",
			leaves: intelLeaves(0xc06f2, // family 6, model 207
				cacheLeaf(3, 2, 16, 64, 2048), cacheLeaf(3, 3, 16, 64, 327680)), // 2 MiB, 320 MiB
			want: CPU{Vendor: "GenuineIntel", Family: 6, Model: 207, L2: 2 * mib, L3: 320 * mib},
		},
		{
			name: "AMD without topology extensions",
			leaves: leaves{
				{0, 0}:          vendorLeaf(0x10, "AuthenticAMD"),
				{1, 0}:          {0x800f12, 0, 0, 0}, // family 0x17, model 1: Zen
				{0x80000000, 0}: {0x8000001f, 0, 0, 0},
				{0x80000006, 0}: {0, 0, 512 << 16, 16 << 18}, // 512 KiB, 16 x 512 KiB
			},
			want: CPU{Vendor: "AuthenticAMD", Family: 23, Model: 1, L2: 512 << 10, L3: 8 * mib},
		},
		{
			name: "Intel with no cache leaf",
			leaves: leaves{
				{0, 0}: vendorLeaf(2, "GenuineIntel"),
				{1, 0}: {0x306a9, 0, 0, 0},
			},
			want: CPU{Vendor: "GenuineIntel", Family: 6, Model: 58},
		},
		{
			name:   "nothing past leaf 0",
			leaves: leaves{{0, 0}: vendorLeaf(0, "GenuineIotel")},
			want:   CPU{Vendor: "GenuineIotel"},
		},
		{name: "no answer at all", leaves: leaves{}, want: CPU{}},
	}
	for _, tt := range tests {
		if got := describeCPU(tt.leaves.id); got != tt.want {
			t.Errorf("%s: described as %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

// TestCPUString checks the one-line descriptions bench prints.
func TestCPUString(t *testing.T) {
	tests := []struct {
		c    CPU
		want string
	}{
		{CPU{Vendor: "AuthenticAMD", Family: 25, Model: 17, L2: 1 << 20, L3: 32 << 20, AVX512F: true},
			"AuthenticAMD family 25 model 17, L2 1 MiB, L3 32 MiB, AVX-512"},
		{CPU{Vendor: "GenuineIntel", Family: 6, Model: 85, L2: 1 << 20, L3: 37486592},
			"GenuineIntel family 6 model 85, L2 1 MiB, L3 35.75 MiB"},
		{CPU{Vendor: "GenuineIntel", Family: 6, Model: 58, L2: 256 << 10}, "GenuineIntel family 6 model 58, L2 256 KiB, L3 unknown"},
		{CPU{}, "unknown processor"},
	}
	for _, tt := range tests {
		if got := tt.c.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.c, got, tt.want)
		}
	}
}
