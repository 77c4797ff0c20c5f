//go:build !unix

package engine

import "time"

// cpuTime returns 0 where the process's CPU time is not at hand (js,
// wasip1, windows); BenchmarkScatterRows then reports only wall time.
func cpuTime() time.Duration { return 0 }
