package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// fullWriter fails every write, as /dev/full does.
type fullWriter struct{}

var errFull = errors.New("no space left on device")

func (fullWriter) Write([]byte) (int, error) { return 0, errFull }

// TestStdoutWriteFails checks that every command whose standard output
// cannot be written exits 1 with one line on standard error, naming the
// failure.
func TestStdoutWriteFails(t *testing.T) {
	dir := t.TempDir()
	x := write(t, dir, "x.npy", tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, 2})))
	mlir := filepath.Join("..", "..", "conformance", "testdata", "stablehlo", "interpret", "gather.mlir")
	for _, args := range [][]string{
		{"show", x},
		{"conform", mlir},
		{"ops"},
		{"ops", "gather_nd"},
		{"help"},
		{"help", "eval"},
		{"eval", "--help"},
		{"eval", "onnx.Gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[1]", "--out", filepath.Join(dir, "o.npy")},
		{"eval", "onnx.Gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[1]", "--out", "-"},
		{"explain", "onnx.Gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[1]"},
		{"compare", "--family", "gather", "--in", "data=float32:[1,2]", "--in", "indices=int64:[1]"},
	} {
		var stderr bytes.Buffer
		code := run(args, fullWriter{}, &stderr)
		msg := stderr.String()
		if code != exitInvalid || strings.Count(msg, "\n") != 1 || !strings.Contains(msg, errFull.Error()) {
			t.Errorf("%s into a full device: exit %d, stderr %q; want 1 and one line naming the failure", strings.Join(args, " "), code, msg)
		}
	}
}
