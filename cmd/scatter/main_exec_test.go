package main

import (
	"os"
	"testing"
)

// runMainEnv, set to 1, makes the test binary run as the command itself,
// so that a test can run the command in a process of its own (under an
// address-space limit).
const runMainEnv = "SCATTER_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		main()
	}
	os.Exit(m.Run())
}
