// Package scatter_test holds the test that keeps the module's packages in
// the layers ARCHITECTURE.md draws.
package scatter_test

import (
	"errors"
	"fmt"
	"go/build"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/scatter-dev/scatter"

// layers are the module's packages from the bottom up, as ARCHITECTURE.md
// draws them: a package imports only packages of lower layers, so that
// packages on one layer (the dialects, the file formats) never import
// each other. A path ending in "/..." names a folder's packages not
// named on any layer by their own path.
var layers = []struct {
	name     string
	packages []string
}{
	{"huge pages", []string{"internal/hugepage"}},
	{"leaf utilities", []string{"internal/..."}},
	{"code generator", []string{"internal/genvariants"}},
	{"half-precision floats", []string{"bfloat16"}},
	{"tensors", []string{"tensor"}},
	{"engine", []string{"engine"}},
	{"operator model", []string{"dialect"}},
	{"dialect kit", []string{"dialect/internal/opcall"}},
	{"dialects", []string{"dialect/jax", "dialect/mindspore", "dialect/numpy", "dialect/onnx", "dialect/openvino", "dialect/stablehlo", "dialect/tf", "dialect/torch"}},
	{"operators by name", []string{"registry"}},
	{"generated protobuf", []string{"format/onnxpb/internal/pb"}},
	{"file formats", []string{"format/npy", "format/onnxpb", "format/stablehlo"}},
	{"format by extension", []string{"format"}},
	{"tools on the operators", []string{"bench", "compare", "conformance", "explain"}},
	{"charts of the benchmarks", []string{"bench/chart"}},
	{"command", []string{"cmd/scatter"}},
}

// testKits are the packages only tests import. They may import any
// package below the command.
const testKits = "testkit/..."

// pkg is a package of the module and what its non-test files import.
type pkg struct {
	ImportPath string
	Imports    []string
}

// TestLayers fails when a package of the module imports one on its own or
// a higher layer, when a package other than a test imports a test kit,
// or when a package is on no layer (place a new package in layers and in
// ARCHITECTURE.md's drawing).
func TestLayers(t *testing.T) {
	pkgs, err := modulePackages(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 30 {
		t.Fatalf("found %d packages; the module has more", len(pkgs))
	}
	for _, problem := range checkLayers(pkgs) {
		t.Error(problem)
	}
}

// TestCheckLayers feeds checkLayers a module that breaks each rule once,
// and one that breaks none.
func TestCheckLayers(t *testing.T) {
	p := func(path string, imports ...string) pkg {
		for i, imp := range imports {
			imports[i] = module + "/" + imp
		}
		return pkg{module + "/" + path, append(imports, "fmt")}
	}
	tests := []struct {
		name string
		pkgs []pkg
		want []string
	}{
		{"downward", []pkg{p("tensor", "bfloat16", "internal/floatfmt"), p("cmd/scatter", "registry", "format")}, nil},
		{"test kit imported by a test kit", []pkg{p("testkit/optest", "testkit/reftest", "dialect")}, nil},
		{"upward", []pkg{p("tensor", "engine")},
			[]string{`tensor (layer tensors) imports engine (layer engine), on a layer that is not lower`}},
		{"sideways", []pkg{p("dialect/onnx", "dialect/tf")},
			[]string{`dialect/onnx (layer dialects) imports dialect/tf (layer dialects), on a layer that is not lower`}},
		{"test kit in code", []pkg{p("engine", "testkit/reftest")},
			[]string{`engine imports the test kit testkit/reftest; only tests may`}},
		{"test kit importing the command", []pkg{p("testkit/optest", "cmd/scatter")},
			[]string{`the test kit testkit/optest imports cmd/scatter`}},
		{"named above its folder's layer", []pkg{p("internal/genvariants", "internal/atomicfile")}, nil},
		{"folder below a package named in it", []pkg{p("internal/nest", "internal/genvariants")},
			[]string{`internal/nest (layer leaf utilities) imports internal/genvariants (layer code generator), on a layer that is not lower`}},
		{"unplaced", []pkg{p("newthing", "tensor")},
			[]string{`newthing is on no layer`}},
	}
	for _, tt := range tests {
		if got := checkLayers(tt.pkgs); !slices.Equal(got, tt.want) {
			t.Errorf("%s: checkLayers = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// modulePackages reads the imports of every package below root, the
// module's root folder, as the go command would build them here. It
// reads the files itself (rather than running go list), so that the test
// cache knows them.
func modulePackages(root string) ([]pkg, error) {
	var pkgs []pkg
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		bp, err := build.ImportDir(path, 0)
		var none *build.NoGoError
		if errors.As(err, &none) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading the package in %s: %w", path, err)
		}
		rel := filepath.ToSlash(path)
		importPath := module
		if rel != "." {
			importPath += "/" + rel
		}
		if len(bp.GoFiles)+len(bp.CgoFiles) > 0 {
			pkgs = append(pkgs, pkg{importPath, bp.Imports})
		}
		return nil
	})
	return pkgs, err
}

// checkLayers returns one sentence for each import that breaks a rule of
// TestLayers, and for each package on no layer.
func checkLayers(pkgs []pkg) []string {
	var problems []string
	for _, p := range pkgs {
		from, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue
		}
		fromLayer := layerOf(from)
		fromKit := inFolder(from, testKits)
		if fromLayer < 0 && !fromKit {
			problems = append(problems, fmt.Sprintf("%s is on no layer", from))
			continue
		}
		for _, imp := range p.Imports {
			to, ok := strings.CutPrefix(imp, module+"/")
			if !ok {
				continue
			}
			toLayer := layerOf(to)
			switch {
			case inFolder(to, testKits) && !fromKit:
				problems = append(problems, fmt.Sprintf("%s imports the test kit %s; only tests may", from, to))
			case fromKit && toLayer == len(layers)-1:
				problems = append(problems, fmt.Sprintf("the test kit %s imports %s", from, to))
			case !fromKit && toLayer >= fromLayer:
				problems = append(problems, fmt.Sprintf("%s (layer %s) imports %s (layer %s), on a layer that is not lower",
					from, layers[fromLayer].name, to, layerName(toLayer)))
			}
		}
	}
	return problems
}

// layerOf returns the index of the layer that names path, or else of the
// first that holds it in a folder, or -1.
func layerOf(path string) int {
	for i, l := range layers {
		if slices.Contains(l.packages, path) {
			return i
		}
	}
	for i, l := range layers {
		for _, p := range l.packages {
			if inFolder(path, p) {
				return i
			}
		}
	}
	return -1
}

func layerName(i int) string {
	if i < 0 {
		return "none"
	}
	return layers[i].name
}

// inFolder reports whether path is under pattern, a folder ending in "/...".
func inFolder(path, pattern string) bool {
	dir, ok := strings.CutSuffix(pattern, "/...")
	return ok && strings.HasPrefix(path, dir+"/")
}
