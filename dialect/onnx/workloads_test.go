package onnx_test

import (
	"testing"

	"github.com/scatter-dev/scatter/testkit/benchtest"
)

// The workloads of WORKLOADS.md that call the ONNX dialect (package bench
// builds their inputs from a fixed seed, testkit/benchtest times them),
// run through the public API into a reused destination: the
// nine bulk workloads, whose scatters copy data as part of what is timed
// (the bytes per operation are bench's Workload.Bytes), and the six small
// calls, a scatter in place and a gather into a reused output, whose
// allocations per call -benchmem reports (a steady state allocates
// nothing; TestIntoAllocatesNothing in package dialect asserts it).

func BenchmarkW1ScatterNDElemNone(b *testing.B)       { benchtest.Run(b, "W1") }
func BenchmarkW2ScatterNDSliceNone(b *testing.B)      { benchtest.Run(b, "W2") }
func BenchmarkW3ScatterNDAddDups(b *testing.B)        { benchtest.Run(b, "W3") }
func BenchmarkW4ScatterElementsAddAxis1(b *testing.B) { benchtest.Run(b, "W4") }
func BenchmarkW5GatherNDSlice(b *testing.B)           { benchtest.Run(b, "W5") }
func BenchmarkW6GatherNDElem(b *testing.B)            { benchtest.Run(b, "W6") }
func BenchmarkW7GatherElementsAxis1(b *testing.B)     { benchtest.Run(b, "W7") }
func BenchmarkW8GatherAxis0(b *testing.B)             { benchtest.Run(b, "W8") }
func BenchmarkW9ScatterElementsMaxAxis0(b *testing.B) { benchtest.Run(b, "W9") }

func BenchmarkS1GatherRowsSmall(b *testing.B)         { benchtest.Run(b, "S1") }
func BenchmarkS2KVCacheWrite(b *testing.B)            { benchtest.Run(b, "S2") }
func BenchmarkS3GatherElementsSmall(b *testing.B)     { benchtest.Run(b, "S3") }
func BenchmarkS4ScatterElementsAddSmall(b *testing.B) { benchtest.Run(b, "S4") }
func BenchmarkS5GatherNDSmall(b *testing.B)           { benchtest.Run(b, "S5") }
func BenchmarkS6ScatterNDAddSmall(b *testing.B)       { benchtest.Run(b, "S6") }
