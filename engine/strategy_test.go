package engine

import "testing"

// TestStrategyFor holds StrategyFor to its rule (README's Speed section)
// on described processors: the Skylake-SP Xeon and the Emerald Rapids
// Xeon of issue 28's figures, this project's Zen 4 EPYC, processors with
// a small L3, with none, and with no cache leaf at all.
func TestStrategyFor(t *testing.T) {
	tests := map[string]struct {
		cpu  CPU
		want Strategy
	}{
		"Skylake-SP": {
			// Gather Data Sampling's microcode: the AVX-512 gather
			// lost there (issue 28).
			cpu:  CPU{Vendor: "GenuineIntel", Family: 6, Model: 85, L2: 1 * mib, L3: 35.75 * mib, AVX512F: true},
			want: Strategy{StreamBytes: 8.9375 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true},
		},
		"Ice Lake-SP": {
			cpu:  CPU{Vendor: "GenuineIntel", Family: 6, Model: 106, L2: 1.25 * mib, L3: 48 * mib, AVX512F: true},
			want: Strategy{StreamBytes: 12 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true},
		},
		"Emerald Rapids": {
			// A large L3 shared by many cores: from 32 MiB.
			cpu:  CPU{Vendor: "GenuineIntel", Family: 6, Model: 207, L2: 2 * mib, L3: 320 * mib, AVX512F: true},
			want: Strategy{StreamBytes: 32 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true, Gather: true},
		},
		"Zen 4": {
			cpu:  CPU{Vendor: "AuthenticAMD", Family: 25, Model: 17, L2: 1 * mib, L3: 32 * mib, AVX512F: true},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true, Gather: true},
		},
		"Zen 4 without AVX-512": {
			// The same processor with AVX-512 turned off by the
			// operating system: no gather.
			cpu:  CPU{Vendor: "AuthenticAMD", Family: 25, Model: 17, L2: 1 * mib, L3: 32 * mib},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true},
		},
		"Zen 3 with V-Cache, a 96 MiB L3": {
			cpu:  CPU{Vendor: "AuthenticAMD", Family: 25, Model: 1, L2: 512 << 10, L3: 96 * mib},
			want: Strategy{StreamBytes: 24 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true},
		},
		"Intel client with a 6 MiB L3": {
			// A small L3: from 8 MiB.
			cpu:  CPU{Vendor: "GenuineIntel", Family: 6, Model: 158, L2: 256 << 10, L3: 6 * mib},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true},
		},
		"Intel with no cache leaf": {
			cpu:  CPU{Vendor: "GenuineIntel", Family: 6, Model: 58},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32},
		},
		"another vendor": {
			// Another vendor's L3 is no reason to stream.
			cpu:  CPU{Vendor: "CentaurHauls", Family: 6, Model: 15, L2: 1 * mib, L3: 32 * mib},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32},
		},
		"unknown processor": {
			cpu:  CPU{},
			want: Strategy{StreamBytes: 8 * mib, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32},
		},
	}
	for name, tt := range tests {
		if got := StrategyFor(tt.cpu); got != tt.want {
			t.Errorf("%s: %+v, want %+v", name, got, tt.want)
		}
	}
}

// TestHostStrategy checks that the engine runs with the strategy of the
// processor it describes, and takes the AVX-512 gather only where both
// the strategy and the processor have it.
func TestHostStrategy(t *testing.T) {
	if got, want := HostStrategy(), StrategyFor(HostCPU()); got != want {
		t.Errorf("HostStrategy() = %+v, StrategyFor(HostCPU()) = %+v", got, want)
	}
	if canGather != (HostStrategy().Gather && hasGather) {
		t.Errorf("canGather %v with the strategy's Gather %v and hasGather %v", canGather, HostStrategy().Gather, hasGather)
	}
	if HostStrategy().Gather && !HostCPU().AVX512F {
		t.Error("the strategy gathers with AVX-512 on a processor without it")
	}
}

// TestStrategyString checks the one-line descriptions bench prints.
func TestStrategyString(t *testing.T) {
	tests := []struct {
		s    Strategy
		want string
	}{
		{Strategy{StreamBytes: 32 << 20, StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true, Gather: true},
			"rows of 256 B or more past 32 MiB: prefetch 8 ahead, non-temporal stores; elements past 32 MiB: prefetch 32 ahead; AVX-512 gather"},
		{Strategy{StreamBytes: 8 << 20, ElementsAhead: 16},
			"plain copy; elements past 8 MiB: prefetch 16 ahead; gather one at a time"},
		{Strategy{StreamBytes: 8 << 20, StreamBlock: 256, PrefetchAhead: 8},
			"rows of 256 B or more past 8 MiB: prefetch 8 ahead; gather one at a time"},
		{Strategy{StreamBytes: 16 << 20, StreamBlock: 64, NonTemporal: true},
			"rows of 64 B or more past 16 MiB: non-temporal stores; gather one at a time"},
		{Strategy{StreamBlock: 256, PrefetchAhead: 8, ElementsAhead: 32, NonTemporal: true}, "plain copy; gather one at a time"},
		{Strategy{Gather: true}, "plain copy; AVX-512 gather"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.s, got, tt.want)
		}
	}
}
