//go:build race

package bench

// raceEnabled says that the race detector is on: sync.Pool then drops
// some of what it is given, on purpose, so allocations cannot be counted.
const raceEnabled = true
