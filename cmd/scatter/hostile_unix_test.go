//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runWithin runs the command args and fails t if it does not end within a
// few seconds: an open of a named pipe without a writer blocks for ever.
func runWithin(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := runArgs(args...)
		done <- result{code, stdout, stderr}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(10 * time.Second):
		t.Fatalf("scatter %s blocked", strings.Join(args, " "))
		return 0, "", ""
	}
}

// TestNamedPipesRefused checks that a named pipe without a writer given as
// an input of any format, or as --peers, is refused with an error rather
// than blocking the command, and that an output onto a named pipe or a
// symbolic link is refused and leaves it in place.
func TestNamedPipesRefused(t *testing.T) {
	dir := t.TempDir()
	fifo := func(name string) string {
		p := filepath.Join(dir, name)
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Skip("no named pipes:", err)
		}
		return p
	}
	pb, npy, js := fifo("p.pb"), fifo("p.npy"), fifo("p.json")
	for _, args := range [][]string{
		{"show", pb},
		{"show", npy},
		{"eval", "onnx.Gather", "--in", "data=" + npy, "--in", "indices=int64:[0]", "--out", filepath.Join(dir, "o.npy")},
		{"eval", "onnx.Gather", "--in", "data=" + pb, "--in", "indices=int64:[0]", "--out", filepath.Join(dir, "o.npy")},
		{"explain", "onnx.Gather", "--in", "data=" + npy, "--in", "indices=int64:[0]"},
		{"compare", "--family", "gather", "--in", "data=" + pb, "--in", "indices=int64:[0]"},
		{"bench", "--workload", "S1", "--reps", "1", "--plot", filepath.Join(dir, "b.png"), "--peers", js},
		{"bench", "--workload", "S1", "--reps", "1", "--plot", filepath.Join(dir, "b.png"), "--peers", "/dev/zero"},
	} {
		code, _, stderr := runWithin(t, args...)
		if code == exitOK || !strings.Contains(stderr, "not a regular file but a") {
			t.Errorf("scatter %s: exit %d, %q; want a failure naming what the file is", strings.Join(args, " "), code, stderr)
		}
	}
	target := filepath.Join(dir, "target.npy")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.npy")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ out, kind string }{{npy, "a named pipe"}, {link, "a symbolic link"}} {
		code, _, stderr := runWithin(t, "eval", "onnx.Gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[0]", "--out", c.out)
		if code != exitInvalid || !strings.Contains(stderr, "--out "+c.out+": not a regular file but "+c.kind) {
			t.Errorf("eval --out %s: exit %d, %q; want 1 naming it %s", c.out, code, stderr, c.kind)
		}
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer one: %v, %v", fi, err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the link's target holds %q", b)
	}
}
