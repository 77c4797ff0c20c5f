package scatter_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pictures are the packages that draw, and so alone import the plotting
// libraries.
var pictures = []string{"./bench/chart", "./explain"}

// TestConsumerModule makes a module that uses this one, as a user's
// would (a require and a replace pointing at this checkout), and runs go
// mod tidy in it: a program that imports dialect/onnx must need nothing
// but float16 and x/sys, and one that imports every package but the
// command and the pictures no module that only the pictures need. A test
// of a library package that imported a picture package would pull the
// plotting libraries into every user's go.sum, as go mod tidy records what
// the tests of the packages a module imports need.
func TestConsumerModule(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command")
	}
	root, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	onlyPictures := picturesOnlyModules(t)
	if len(onlyPictures) == 0 {
		t.Fatalf("no module is needed by %v alone; the test would check nothing", pictures)
	}
	libs := libraryPackages(t)
	tests := []struct {
		name    string
		imports []string
		check   func(mods []string) bool
		want    string
	}{
		{"onnx", []string{"dialect/onnx", "tensor"},
			func(mods []string) bool {
				return slices.Equal(mods, []string{"github.com/x448/float16", "golang.org/x/sys"})
			}, "github.com/x448/float16 and golang.org/x/sys"},
		{"every library package", libs,
			func(mods []string) bool {
				return !slices.ContainsFunc(mods, func(m string) bool { return slices.Contains(onlyPictures, m) })
			}, "none of " + strings.Join(onlyPictures, ", ")},
	}
	for _, tt := range tests {
		mods := tidySums(t, root, tt.imports)
		if !tt.check(mods) {
			t.Errorf("a module importing %s: go.sum holds %v, want %s", tt.name, mods, tt.want)
		}
	}
}

// goCmd runs the go command in dir with the extra environment env and
// returns its standard output.
func goCmd(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out)
}

// moduleDeps returns the modules other than this one that the packages
// need to build, sorted.
func moduleDeps(t *testing.T, packages ...string) []string {
	out := goCmd(t, ".", nil, append([]string{"list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}"}, packages...)...)
	var mods []string
	for _, m := range strings.Fields(out) {
		if m != module && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	slices.Sort(mods)
	return mods
}

// picturesOnlyModules returns the modules that the picture packages need
// and no other package of the module does.
func picturesOnlyModules(t *testing.T) []string {
	var rest []string
	for _, p := range libraryPackages(t) {
		rest = append(rest, "./"+p)
	}
	rest = moduleDeps(t, rest...)
	var only []string
	for _, m := range moduleDeps(t, pictures...) {
		if !slices.Contains(rest, m) {
			only = append(only, m)
		}
	}
	return only
}

// libraryPackages returns the module's packages but the command, the
// pictures and the test kits, relative to the module: what a user imports.
func libraryPackages(t *testing.T) []string {
	var libs []string
	for _, p := range strings.Fields(goCmd(t, ".", nil, "list", "./...")) {
		rel := strings.TrimPrefix(strings.TrimPrefix(p, module), "/")
		if rel == "" || strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "testkit/") || strings.Contains(rel, "internal") ||
			slices.Contains(pictures, "./"+rel) {
			continue
		}
		libs = append(libs, rel)
	}
	return libs
}

// tidySums makes a module in a temporary directory whose program imports
// the given packages of this one (found at root), runs go mod tidy, and
// returns the modules its go.sum lists.
func tidySums(t *testing.T, root string, imports []string) []string {
	t.Helper()
	dir := t.TempDir()
	gomod := "module example.com/consumer\n\ngo 1.24\n\nrequire " + module + " v0.0.0\n\nreplace " + module + " => " + root + "\n"
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n")
	for _, p := range imports {
		src.WriteString("\t_ \"" + module + "/" + p + "\"\n")
	}
	src.WriteString(")\n\nfunc main() {}\n")
	for name, text := range map[string]string{"go.mod": gomod, "main.go": src.String()} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// From the module cache alone where it holds every go.mod the graph
	// needs, as after this module's own build; else through the proxy.
	env := []string{"GOFLAGS=-mod=mod", "GOWORK=off"}
	offline := exec.Command("go", "mod", "tidy")
	offline.Dir, offline.Env = dir, append(os.Environ(), append(env, "GOPROXY=off")...)
	if offline.Run() != nil {
		goCmd(t, dir, env, "mod", "tidy")
	}
	f, err := os.Open(filepath.Join(dir, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var mods []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m, _, ok := strings.Cut(sc.Text(), " "); ok && !slices.Contains(mods, m) {
			mods = append(mods, m)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	slices.Sort(mods)
	return mods
}
