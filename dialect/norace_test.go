//go:build !race

package dialect_test

// raceEnabled says that the race detector is on (see race_test.go).
const raceEnabled = false
