package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestConformQuietAndRun checks that conform --quiet prints the failed
// tests and the summary only, and that --run counts and prints only the
// tests whose name its regular expression matches.
func TestConformQuietAndRun(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	dir := t.TempDir()
	test := func(shape, lit string) string {
		return "func.func @main() {\n  %c = stablehlo.constant " + lit + " : tensor<" + shape + "xf32>\n" +
			"  check.expect_eq %c, %c : tensor<" + shape + "xf32>\n  func.return\n}\n"
	}
	// good passes; huge fails under --max-bytes 1MiB.
	for name, src := range map[string]string{"good.mlir": test("2", "dense<[1.0, 2.0]>"), "huge.mlir": test("1000000000", "dense<0.0>")} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		args  []string
		code  int
		lines []string // the lines of stdout, each by its start
	}{
		{nil, exitInvalid, []string{"PASS good.mlir", "FAIL huge.mlir", "1 passed, 1 failed"}},
		{[]string{"--quiet"}, exitInvalid, []string{"FAIL huge.mlir", "1 passed, 1 failed"}},
		{[]string{"--run", "go+d"}, exitOK, []string{"PASS good.mlir", "1 passed, 0 failed"}},
		{[]string{"--run", "go+d", "--quiet"}, exitOK, []string{"1 passed, 0 failed"}},
		{[]string{"--run", "^h"}, exitInvalid, []string{"FAIL huge.mlir", "0 passed, 1 failed"}},
	} {
		args := append(append([]string{"conform", "--max-bytes", "1MiB"}, c.args...), dir)
		code, stdout, stderr := runArgs(args...)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		ok := code == c.code && stderr == "" && len(lines) == len(c.lines)
		for i := 0; ok && i < len(lines); i++ {
			ok = strings.HasPrefix(lines[i], c.lines[i])
		}
		if !ok {
			t.Errorf("%q: exit %d, stdout\n%s\nstderr %q; want exit %d and lines beginning %q", c.args, code, stdout, stderr, c.code, c.lines)
		}
	}
	for _, c := range []struct{ pattern, want string }{
		{"zzz", `scatter conform: --run "zzz" matches none of the 2 tests.`},
		{"(", `scatter conform: --run "(": not a regular expression: missing closing ): ` + "`(`."},
	} {
		code, stdout, stderr := runArgs("conform", "--max-bytes", "1MiB", "--run", c.pattern, dir)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("--run %q: exit %d, stdout %q, stderr %q; want a usage error beginning %q", c.pattern, code, stdout, stderr, c.want)
		}
	}
}
