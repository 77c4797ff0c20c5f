// Package helpertest is for tests that run the test binary again as a
// helper process, to stop or kill it at a known point (in the middle of a
// write), and that look at what it left in a directory.
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package helpertest

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// ready is the line a helper prints when it has reached the point at which
// the test acts on it.
const ready = "ready"

// Arg returns the value of the environment variable env, which Start sets
// for the helper test, and skips t, a helper test run as an ordinary test,
// when it is not set.
func Arg(t *testing.T, env string) string {
	t.Helper()
	v := os.Getenv(env)
	if v == "" {
		t.Skip("a helper process, run by another test")
	}
	return v
}

// Ready tells the test that started the helper that it has reached its
// point.
func Ready() { fmt.Println(ready) }

// Start runs the test named test of this test binary as a helper process,
// with env=value in its environment, and returns it once it is Ready.
func Start(t *testing.T, test, env, value string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$")
	cmd.Env = append(os.Environ(), env+"="+value)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != ready+"\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the helper %s said %q, %v", test, line, err)
	}
	return cmd
}

// DirNames returns the names in dir, sorted.
func DirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(es))
	for i, e := range es {
		names[i] = e.Name()
	}
	return slices.Sorted(slices.Values(names))
}
