package main

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/registry"
)

// TestCompletionContent checks that each shell's script names every
// command, every flag of each and every operator, and completes file
// names where a flag takes a file.
func TestCompletionContent(t *testing.T) {
	for _, c := range []struct {
		shell string
		flag  func(name string) string // how the script names a flag
		files []string                 // what completes file names
	}{
		{"bash", func(name string) string { return "--" + name }, []string{`"eval --out"`, `"eval --in"`, "compgen -f"}},
		{"zsh", func(name string) string { return "--" + name + "[" }, []string{`'--out[`, ":file:_files'", "compset -P '*='"}},
		{"fish", func(name string) string { return " -l " + name + " " }, []string{"-l out -r -F", "-l in -r -F"}},
	} {
		code, script, stderr := runArgs("completion", c.shell)
		if code != exitOK || stderr != "" {
			t.Fatalf("completion %s: exit %d, %s", c.shell, code, stderr)
		}
		for _, cmd := range append(commands, &command{name: "help"}) {
			if !strings.Contains(script, cmd.name) {
				t.Errorf("%s: the command %s is missing", c.shell, cmd.name)
			}
			if cmd.define == nil {
				continue
			}
			fs, _ := cmd.flagSet(io.Discard)
			fs.VisitAll(func(f *flag.Flag) {
				if !strings.Contains(script, c.flag(f.Name)) {
					t.Errorf("%s: the flag --%s of %s is missing", c.shell, f.Name, cmd.name)
				}
			})
		}
		for _, op := range registry.Ops() {
			if !regexp.MustCompile(`[\s'"(]` + regexp.QuoteMeta(op.Name) + `[\s'")]`).MatchString(script) {
				t.Errorf("%s: the operator %s is missing", c.shell, op.Name)
			}
		}
		if c.shell == "fish" {
			for line := range strings.SplitSeq(strings.TrimSuffix(script, "\n"), "\n") {
				if !strings.HasPrefix(line, "complete -c scatter ") && !strings.HasPrefix(line, "# ") {
					t.Errorf("fish: line %q is not a completion or a comment (a description broken over lines?)", line)
				}
			}
		}
		for _, f := range c.files {
			if !strings.Contains(script, f) {
				t.Errorf("%s: no %q: file names are not completed", c.shell, f)
			}
		}
	}
}

// TestCompletionSyntax checks each script with its shell's syntax check,
// where the shell is installed.
func TestCompletionSyntax(t *testing.T) {
	for _, c := range []struct {
		shell string
		args  []string
	}{
		{"bash", []string{"-n"}},
		{"zsh", []string{"-n"}},
		{"fish", []string{"--no-execute"}},
	} {
		t.Run(c.shell, func(t *testing.T) {
			path, err := exec.LookPath(c.shell)
			if err != nil {
				t.Skipf("%s is not installed, so its script's syntax goes unchecked", c.shell)
			}
			_, script, _ := runArgs("completion", c.shell)
			file := filepath.Join(t.TempDir(), "scatter."+c.shell)
			if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(path, append(c.args, file)...).CombinedOutput(); err != nil {
				t.Errorf("%s %s: %v\n%s", c.shell, strings.Join(c.args, " "), err, out)
			}
		})
	}
}

// TestBashCompletion runs the bash script's function on command lines
// and checks what it offers.
func TestBashCompletion(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	dir := t.TempDir()
	for _, name := range []string{"data.npy", "indices.pb"} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	_, script, _ := runArgs("completion", "bash")
	file := filepath.Join(dir, "scatter.bash")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ line, want string }{
		{"scatter ev", "eval"},
		{"scatter co", "compare conform completion"},
		{"scatter eval jax.lax.ga", "jax.lax.gather"},
		{"scatter compare onnx.GatherE", "onnx.GatherElements"},
		{"scatter eval --o", "--opset --out"},
		{"scatter conform --q", "--quiet"},
		{"scatter eval onnx.Gather --out d", "data.npy"},
		{"scatter explain onnx.Gather --in indices=i", "indices.pb"},
		{"scatter eval onnx.Gather --opset ", ""},
		{"scatter help exp", "explain"},
		{"scatter completion z", "zsh"},
		{"scatter show i", "indices.pb"},
	} {
		cmd := exec.Command(bash, "-c", `source "$1"; COMP_LINE=$2; COMP_POINT=${#2}; _scatter; echo "${COMPREPLY[*]}"`, "bash", file, c.line)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if got := strings.TrimSuffix(string(out), "\n"); err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.line, got, err, c.want)
		}
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"completion"}, "scatter completion: name one shell: bash, fish, zsh."},
		{[]string{"completion", "tcsh"}, `scatter completion: no script for the shell "tcsh" (shells: bash, fish, zsh).`},
	} {
		code, stdout, stderr := runArgs(c.args...)
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want a usage error beginning %q", c.args, code, stdout, stderr, c.want)
		}
	}
}
