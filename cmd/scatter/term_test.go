package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFileIsTerminal(t *testing.T) {
	regular, err := os.Create(filepath.Join(t.TempDir(), "f"))
	if err != nil {
		t.Fatal(err)
	}
	defer regular.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, c := range []struct {
		name string
		w    io.Writer
	}{
		{"buffer", &bytes.Buffer{}},
		{"regular file", regular},
		{"null device", null},
		{"null device, checked", &checkedWriter{w: null}},
	} {
		if fileIsTerminal(c.w) {
			t.Errorf("%s taken for a terminal", c.name)
		}
	}
	// The master side of a pseudo-terminal is a character device that is
	// not the null device.
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to check a terminal with: %v", err)
	}
	defer ptmx.Close()
	if !fileIsTerminal(&checkedWriter{w: ptmx}) {
		t.Error("a pseudo-terminal not taken for a terminal")
	}
}

// TestOutDashToTerminal checks that eval refuses to write .npy bytes to a
// terminal, with the pipe that shows them instead, and writes them where
// standard output is not one.
func TestOutDashToTerminal(t *testing.T) {
	defer func(f func(w io.Writer) bool) { isTerminal = f }(isTerminal)
	args := []string{"eval", "onnx.Gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[1]", "--out", "-"}
	for _, terminal := range []bool{false, true} {
		isTerminal = func(io.Writer) bool { return terminal }
		code, stdout, stderr := runArgs(args...)
		switch {
		case terminal && (code != exitUsage || stdout != "" || !strings.Contains(stderr, "--out - | scatter show -")):
			t.Errorf("to a terminal: exit %d, stdout %q, stderr %q; want a usage error with the pipe", code, stdout, stderr)
		case !terminal && (code != exitOK || !strings.HasPrefix(stdout, "\x93NUMPY")):
			t.Errorf("to a pipe: exit %d, stdout %q, stderr %q; want .npy", code, stdout, stderr)
		}
	}
}
