//go:build race

package main

// raceEnabled says whether the tests run with the race detector, whose
// runtime needs far more address space than the command.
const raceEnabled = true
