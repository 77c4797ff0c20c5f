package main

import (
	"bytes"
	"errors"
	"math/bits"
	"os"
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
		{"completion", "bash"},
		{"eval", "--help"},
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

// TestConformLimits checks that conform holds a test to --max-bytes (a
// short file declaring a huge constant fails that test, in a line of its
// own, rather than the run) and to --timeout.
func TestConformLimits(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	dir := t.TempDir()
	splat := filepath.Join(dir, "splat.mlir")
	short := filepath.Join(dir, "short.mlir")
	test := func(lit string) string {
		return "func.func @main() {\n  %c = stablehlo.constant " + lit + " : tensor<1000000000xf32>\n" +
			"  check.expect_eq %c, %c : tensor<1000000000xf32>\n  func.return\n}\n"
	}
	for name, src := range map[string]string{splat: test("dense<0.0>"), short: test("dense<[1.0, 2.0]>")} {
		if err := os.WriteFile(name, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runArgs("conform", "--max-bytes", "1MiB", splat)
	if code != exitInvalid || !strings.Contains(stdout, "FAIL splat.mlir: splat.mlir:2:") || !strings.Contains(stdout, "over the limit of 1048576 bytes") {
		t.Errorf("conform --max-bytes 1MiB of a 4 GB splat: exit %d, %q %q; want a failed test naming the limit", code, stdout, stderr)
	}
	code, stdout, _ = runArgs("conform", "--max-bytes", "8GiB", short)
	want := "dense literal of shape [2] for type tensor<1000000000xf32>"
	if bits.UintSize == 32 {
		want = "takes 4000000000 bytes, more than a 32-bit int counts"
	}
	if code != exitInvalid || !strings.Contains(stdout, want) {
		t.Errorf("conform of a 2-element literal for 10^9 elements: exit %d, %q; want a failed test naming the shapes", code, stdout)
	}
	mlir := filepath.Join("..", "..", "conformance", "testdata", "stablehlo", "interpret", "gather.mlir")
	code, stdout, _ = runArgs("conform", "--timeout", "1ns", mlir)
	if code != exitInvalid || !strings.Contains(stdout, "timed out after its timeout of 1ns") {
		t.Errorf("conform --timeout 1ns: exit %d, %q; want a test that timed out", code, stdout)
	}
	if code, _, stderr := runArgs("conform", "--timeout", "-1s", mlir); code != exitUsage || !strings.Contains(stderr, "--timeout -1s") {
		t.Errorf("conform --timeout -1s: exit %d, %q; want a usage error", code, stderr)
	}
}

// TestOutputSizeLimit checks that --max-bytes bounds what eval writes, in
// the file's own encoding: one long string gathered many times takes
// little memory but as many bytes a copy in a .pb, and four bytes a
// character of the longest in a .npy. Nothing is written.
func TestOutputSizeLimit(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	dir := t.TempDir()
	long := write(t, dir, "long.pb", tensor.Must(tensor.From(tensor.Shape{1}, []string{strings.Repeat("a", 30000)})))
	indices := "int64:[" + strings.TrimSuffix(strings.Repeat("0,", 100), ",") + "]"
	for _, c := range []struct{ out, size string }{
		{filepath.Join(dir, "o.npy"), "the .npy data of 100 strings of 30000 UTF-32 code units takes 12000000 bytes"},
		{filepath.Join(dir, "o.pb"), `the TensorProto of tensor "output" takes 3000`},
		{"-", "the .npy data of 100 strings of 30000 UTF-32 code units takes 12000000 bytes"},
	} {
		var stdout, stderr bytes.Buffer
		code := run([]string{"eval", "onnx.Gather", "--max-bytes", "1MB", "--in", "data=" + long, "--in", "indices=" + indices, "--out", c.out}, &stdout, &stderr)
		if code != exitInvalid || !strings.Contains(stderr.String(), c.size) || !strings.Contains(stderr.String(), "over the limit of 1000000 bytes") || stdout.Len() > 0 {
			t.Errorf("eval --out %s of 100 strings of 30 KB under --max-bytes 1MB: exit %d, %q, %d bytes out; want 1 naming the size, nothing written",
				c.out, code, stderr.String(), stdout.Len())
		}
		if _, err := os.Stat(c.out); c.out != "-" && err == nil {
			t.Errorf("eval --out %s over the limit created the file", c.out)
		}
	}
}

// TestCompareAllTooLarge checks that compare, when every operator refuses
// the call as too large for --max-bytes, exits 1 saying so rather than 0
// for an agreement.
func TestCompareAllTooLarge(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	code, stdout, stderr := runArgs("compare", "--family", "gather", "--max-bytes", "48B",
		"--in", "data=float32:[[1,2,3,4]]", "--in", "indices=int64:[0,0,0,0]")
	if code != exitInvalid || strings.Contains(stdout, "agree") || !strings.Contains(stderr, "every operator refused the call") ||
		!strings.Contains(stderr, tooLargeHint) {
		t.Errorf("compare of a gather whose output is over --max-bytes: exit %d, %q, %q; want 1 and no agreement", code, stdout, stderr)
	}
}

// TestClip checks that a line echoing a long value keeps its start and
// end and says how long it was, between runes, and that a long line of
// short words is bounded too.
func TestClip(t *testing.T) {
	long := strings.Repeat("9", 5000)
	for _, c := range []struct{ in, want string }{
		{"short line", "short line"},
		{"dimension " + long + " is too large", "dimension " + strings.Repeat("9", 32) + "..." + strings.Repeat("9", 16) + " (5000 bytes) is too large"},
		{strings.Repeat("é", 100), strings.Repeat("é", 16) + "..." + strings.Repeat("é", 8) + " (200 bytes)"},
	} {
		if got := clip(c.in); got != c.want {
			t.Errorf("clip(%.80q...) = %q, want %q", c.in, got, c.want)
		}
	}
	words := strings.Repeat("1, ", 100000)
	if got := clip(words); len(got) > maxLine+32 || !strings.HasSuffix(got, "(300000 bytes)") {
		t.Errorf("clip of 300 KB of short words: %d bytes ending %q", len(got), got[max(0, len(got)-40):])
	}
	// What the command prints of a hostile attribute and literal.
	for _, args := range [][]string{
		{"eval", "onnx.Gather", "--attr", "axis=" + long, "--in", "data=float32:[1]", "--in", "indices=int64:[0]", "--out", "o.npy"},
		{"eval", "onnx.Gather", "--in", "data=float32:[" + strings.Repeat("x", 120000) + "]", "--in", "indices=int64:[0]", "--out", "o.npy"},
	} {
		if code, _, stderr := runArgs(args...); code != exitUsage || len(stderr) > 400 {
			t.Errorf("eval with a hostile %.30s...: exit %d, %d bytes on standard error; want 2 and a short line", args[3], code, len(stderr))
		}
	}
}

// TestConformClipsErrorsNotNames checks that conform prints a test's name
// whole, however long, and clips the value its error echoes.
func TestConformClipsErrorsNotNames(t *testing.T) {
	dir := t.TempDir()
	name := strings.Repeat("long_name_", 10) + ".mlir"
	src := "func.func @main() {\n  %c = stablehlo.constant dense<" + strings.Repeat("7", 5000) + "> : tensor<i8>\n  func.return\n}\n"
	if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, _ := runArgs("conform", filepath.Join(dir, name))
	line, _, _ := strings.Cut(stdout, "\n")
	if !strings.HasPrefix(line, "FAIL "+name+": ") || !strings.Contains(line, "(5002 bytes) for i8") || len(line) > 500 {
		t.Errorf("conform of a long name echoing 5000 digits: %q; want the name whole and the digits clipped", line)
	}
}
