//go:build !amd64 || purego

package engine

// hostCPU describes an unknown processor: there is no CPUID without the
// assembly, and StrategyFor gives the unknown processor the plain copy.
func hostCPU() CPU { return CPU{} }

// hasGather says that gatherRows runs: only with the assembly.
const hasGather = false
