package onnx_test

import (
	"testing"

	"github.com/scatter-dev/scatter/bench"
)

// The workloads of WORKLOADS.md (package bench builds their inputs from a
// fixed seed), run through the public API into a reused destination: the
// nine bulk workloads, whose scatters copy data as part of what is timed
// (the bytes per operation are bench's Workload.Bytes), and the six small
// calls, a scatter in place and a gather into a reused output, whose
// allocations per call -benchmem reports (a steady state allocates
// nothing; TestIntoAllocatesNothing in package dialect asserts it).

func benchmark(b *testing.B, id string) {
	b.Helper()
	ws, err := bench.Find([]string{id})
	if err != nil {
		b.Fatal(err)
	}
	w := ws[0]
	c, err := w.Prepare()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(w.Bytes)
	b.ReportAllocs()
	if err := c.Reuse(); err != nil { // warm-up, and the pages of dst touched
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := c.Reuse(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkW1ScatterNDElemNone(b *testing.B)       { benchmark(b, "W1") }
func BenchmarkW2ScatterNDSliceNone(b *testing.B)      { benchmark(b, "W2") }
func BenchmarkW3ScatterNDAddDups(b *testing.B)        { benchmark(b, "W3") }
func BenchmarkW4ScatterElementsAddAxis1(b *testing.B) { benchmark(b, "W4") }
func BenchmarkW5GatherNDSlice(b *testing.B)           { benchmark(b, "W5") }
func BenchmarkW6GatherNDElem(b *testing.B)            { benchmark(b, "W6") }
func BenchmarkW7GatherElementsAxis1(b *testing.B)     { benchmark(b, "W7") }
func BenchmarkW8GatherAxis0(b *testing.B)             { benchmark(b, "W8") }
func BenchmarkW9ScatterElementsMaxAxis0(b *testing.B) { benchmark(b, "W9") }

func BenchmarkS1GatherRowsSmall(b *testing.B)         { benchmark(b, "S1") }
func BenchmarkS2KVCacheWrite(b *testing.B)            { benchmark(b, "S2") }
func BenchmarkS3GatherElementsSmall(b *testing.B)     { benchmark(b, "S3") }
func BenchmarkS4ScatterElementsAddSmall(b *testing.B) { benchmark(b, "S4") }
func BenchmarkS5GatherNDSmall(b *testing.B)           { benchmark(b, "S5") }
func BenchmarkS6ScatterNDAddSmall(b *testing.B)       { benchmark(b, "S6") }
