package tf_test

import (
	"testing"

	"github.com/scatter-dev/scatter/testkit/benchtest"
)

// The workloads of WORKLOADS.md's segment and index family that call the
// tf dialect (package bench builds their inputs from fixed seeds,
// testkit/benchtest times them), each into a reused output: the bulk
// segment reductions W10 to W12, whose bytes per operation are bench's
// Workload.Bytes (data and ids read, the output written), and the small
// sorted segment sum S7, whose allocations per call -benchmem reports (0
// in a steady state).

func BenchmarkW10UnsortedSegmentSum(b *testing.B) { benchtest.Run(b, "W10") }
func BenchmarkW11SortedSegmentMean(b *testing.B)  { benchtest.Run(b, "W11") }
func BenchmarkW12UnsortedSegmentMax(b *testing.B) { benchtest.Run(b, "W12") }

func BenchmarkS7SegmentSumSmall(b *testing.B) { benchtest.Run(b, "S7") }
