package numpy_test

import (
	"testing"

	"github.com/scatter-dev/scatter/testkit/benchtest"
)

// S8 of WORKLOADS.md's segment and index family, the one that calls the
// numpy dialect (package bench builds its inputs from seed 8,
// testkit/benchtest times it): numpy.put of 64 values at 64 distinct
// positions of a [4096] float32 vector, in place, whose allocations per
// call -benchmem reports (0 in a steady state).

func BenchmarkS8PutSmall(b *testing.B) { benchtest.Run(b, "S8") }
