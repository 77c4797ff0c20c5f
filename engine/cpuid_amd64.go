//go:build amd64 && !purego

package engine

import "golang.org/x/sys/cpu"

// cpuid returns EAX, EBX, ECX and EDX after the CPUID instruction with
// EAX = leaf and ECX = sub.
//
//go:noescape
func cpuid(leaf, sub uint32) (a, b, c, d uint32)

// hostCPU describes the processor from its CPUID leaves, and whether the
// operating system lets AVX-512 run (x/sys/cpu checks both).
func hostCPU() CPU {
	c := describeCPU(cpuid)
	c.AVX512F = cpu.X86.HasAVX512F
	return c
}

// hasGather says that the build has the assembly of gatherRows and the
// processor (and operating system) can run it: a strategy that asks for
// the AVX-512 gather gets it only where this holds.
var hasGather = cpu.X86.HasAVX512F
