// Package benchtest runs the workloads of package bench as Go benchmarks:
// the Benchmark<Id> functions of the dialects they call (dialect/onnx's
// W1 to W9 and S1 to S6, dialect/tf's W10 to W12 and S7, dialect/numpy's
// S8) are each one call of Run.
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package benchtest

import (
	"testing"

	"github.com/scatter-dev/scatter/bench"
)

// Run prepares the workload with the given ID (bench.Find) and times its
// Into form into the destination that Prepare allocated (a small call in
// place writes into its data): one untimed call, which touches the
// destination's pages, then b's loop. It sets the bytes per operation to
// the workload's Bytes (0 for a small call) and reports allocations.
func Run(b *testing.B, id string) {
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
	if err := c.Reuse(); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		if err := c.Reuse(); err != nil {
			b.Fatal(err)
		}
	}
}
