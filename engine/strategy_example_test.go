package engine_test

import (
	"fmt"

	"github.com/scatter-dev/scatter/engine"
)

// The copy strategy of three processors: a Zen 4 EPYC, a Skylake-SP Xeon
// (whose microcode slows the AVX-512 gather) and one CPUID says nothing
// about. The engine runs with StrategyFor(HostCPU()), which
// HostStrategy returns.
func ExampleStrategyFor() {
	zen4 := engine.CPU{Vendor: "AuthenticAMD", Family: 25, Model: 17, L2: 1 << 20, L3: 32 << 20, AVX512F: true}
	skylake := engine.CPU{Vendor: "GenuineIntel", Family: 6, Model: 85, L2: 1 << 20, L3: 36608 << 10, AVX512F: true}
	for _, c := range []engine.CPU{zen4, skylake, {}} {
		fmt.Printf("%v:\n  %v\n", c, engine.StrategyFor(c))
	}
	// Output:
	// AuthenticAMD family 25 model 17, L2 1 MiB, L3 32 MiB, AVX-512:
	//   rows of 256 B or more past 8 MiB: prefetch 8 ahead, non-temporal stores; elements past 8 MiB: prefetch 32 ahead; AVX-512 gather
	// GenuineIntel family 6 model 85, L2 1 MiB, L3 35.75 MiB, AVX-512:
	//   rows of 256 B or more past 8.94 MiB: prefetch 8 ahead, non-temporal stores; elements past 8.94 MiB: prefetch 32 ahead; gather one at a time
	// unknown processor:
	//   rows of 256 B or more past 8 MiB: prefetch 8 ahead; elements past 8 MiB: prefetch 32 ahead; gather one at a time
}
