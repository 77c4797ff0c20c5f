//go:build unix

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/tensor"
)

// addressSpace is the limit on the address space of the command's process
// in TestHostileUnderAddressSpaceLimit, in KiB as ulimit -v takes it.
const addressSpace = 1 << 20 // 1 GiB

// hostileInputs writes into dir the files of the probes, each a
// few bytes to a few megabytes, and returns the command lines that read
// them.
func hostileInputs(t *testing.T, dir string) [][]string {
	t.Helper()
	put := func(name, src string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	test := func(body string) string {
		return "func.func @main() {\n" + body + "  func.return\n}\n"
	}
	// A 4 GB splat, and a short literal of a type of 4 GB.
	splat := put("splat.mlir", test("  %c = stablehlo.constant dense<0.0> : tensor<1000000000xf32>\n  check.expect_eq %c, %c : tensor<1000000000xf32>\n"))
	short := put("short.mlir", test("  %c = stablehlo.constant dense<[1.0, 2.0]> : tensor<1000000000xf32>\n  check.expect_eq %c, %c : tensor<1000000000xf32>\n"))
	// 200,000 operations: 10 MB of text, 200 MB parsed.
	ops := put("ops.mlir", test(strings.Repeat("  %c = stablehlo.constant dense<0> : tensor<i8>\n", 200_000)+
		"  check.expect_eq %c, %c : tensor<i8>\n"))
	// A tensor of 4 MB reduced 10,000 times, by calls fanning out.
	fan := test("  %z = stablehlo.constant dense<0.0> : tensor<f32>\n" +
		"  %b = stablehlo.broadcast_in_dim %z, dims = [] : (tensor<f32>) -> tensor<1000000xf32>\n" +
		"  call @f0(%b, %z) : (tensor<1000000xf32>, tensor<f32>) -> ()\n  check.expect_eq %z, %z : tensor<f32>\n")
	for level := range 4 {
		call := fmt.Sprintf("  call @f%d(%%b, %%z) : (tensor<1000000xf32>, tensor<f32>) -> ()\n", level+1)
		if level == 3 {
			call = "  %r = stablehlo.reduce(%b init: %z) applies stablehlo.add across dimensions = [0] : (tensor<1000000xf32>, tensor<f32>) -> tensor<f32>\n"
		}
		fan += fmt.Sprintf("func.func private @f%d(%%b: tensor<1000000xf32>, %%z: tensor<f32>) {\n%s  func.return\n}\n", level, strings.Repeat(call, 10))
	}
	reduce := put("reduce.mlir", fan)
	// An ONNX node test of 10,000 Gather nodes.
	m := &onnxpb.Model{IRVersion: 8, Opsets: map[string]int64{"": 13}}
	m.Graph.Inputs = []onnxpb.ValueInfo{{Name: "x", DType: tensor.Float32}, {Name: "i", DType: tensor.Int64}}
	prev := "x"
	for k := range 10000 {
		out := fmt.Sprintf("g%d", k)
		m.Graph.Nodes = append(m.Graph.Nodes, onnxpb.Node{OpType: "Gather", Inputs: []string{prev, "i"}, Outputs: []string{out}})
		prev = out
	}
	m.Graph.Outputs = []onnxpb.ValueInfo{{Name: prev, DType: tensor.Float32}}
	nodes := filepath.Join(dir, "nodes")
	if err := os.MkdirAll(filepath.Join(nodes, "test_data_set_0"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := onnxpb.WriteModelFile(filepath.Join(nodes, "model.onnx"), m); err != nil {
		t.Fatal(err)
	}
	// A string of 1 MB gathered 1000 times.
	long := write(t, dir, "long.pb", tensor.Must(tensor.From(tensor.Shape{1}, []string{strings.Repeat("a", 1_000_000)})))
	indices := "int64:[" + strings.TrimSuffix(strings.Repeat("0,", 1000), ",") + "]"
	return [][]string{
		{"conform", "--max-bytes", "64MiB", splat},
		{"conform", splat}, // under the default, an eighth of the address space
		{"conform", short},
		{"conform", "--max-bytes", "16MiB", ops},
		{"conform", "--max-bytes", "8MB", reduce},
		{"conform", nodes},
		{"eval", "onnx.Gather", "--max-bytes", "10MB", "--in", "data=" + long, "--in", "indices=" + indices, "--out", filepath.Join(dir, "o.npy")},
		{"eval", "onnx.Gather", "--max-bytes", "10MB", "--in", "data=" + long, "--in", "indices=" + indices, "--out", filepath.Join(dir, "o.pb")},
		{"bench", "--workload", "S1", "--reps", "1", "--plot", filepath.Join(dir, "b.png"), "--peers", "/dev/zero"},
	}
}

// TestHostileUnderAddressSpaceLimit runs the command, in a process of its
// own whose address space is limited to 1 GiB, on the hostile inputs of
// issue 26: each must fail with exit status 1 and one line on standard
// error (or, for conform, a failed test), within seconds, where the
// command used to run out of memory, run for minutes, or write gigabytes.
func TestHostileUnderAddressSpaceLimit(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's runtime needs more address space than the limit")
	}
	if testing.Short() {
		t.Skip("runs the command in 8 processes")
	}
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh to set ulimit -v")
	}
	self, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	for _, args := range hostileInputs(t, dir) {
		sh := []string{"-c", fmt.Sprintf(`ulimit -v %d && exec "$0" "$@"`, addressSpace), self}
		cmd := exec.Command("sh", append(sh, args...)...)
		cmd.Env = append(os.Environ(), runMainEnv+"=1")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		name := strings.Join(args[:min(len(args), 2)], " ")
		code := cmd.ProcessState.ExitCode()
		msg := stderr.String()
		if args[0] == "conform" {
			msg = stdout.String()
		}
		switch {
		case err != nil && code != exitInvalid:
			t.Errorf("%s: %v (exit %d), standard error %.300q; want exit 1", name, err, code, stderr.String())
		case code != exitInvalid:
			t.Errorf("%s: exit %d, want 1", name, code)
		case strings.Contains(stderr.String(), "runtime:") || strings.Contains(stderr.String(), "goroutine"):
			t.Errorf("%s: the runtime failed: %.300q", name, stderr.String())
		case args[0] != "conform" && strings.Count(msg, "\n") != 1:
			t.Errorf("%s: standard error %.300q, want one line", name, msg)
		case args[0] == "conform" && !strings.HasPrefix(msg, "FAIL "):
			t.Errorf("%s: standard output %.300q, want a failed test", name, msg)
		case took > 20*time.Second:
			t.Errorf("%s: took %v", name, took)
		}
		t.Logf("%s: %v: %.200s", name, took.Round(time.Millisecond), strings.TrimSpace(msg))
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "o.*")); len(names) > 0 {
		t.Errorf("outputs written: %v", names)
	}
}
