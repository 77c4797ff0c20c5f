package dialect_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/registry"
)

// typedReductions are the reduction constants each dialect's Go API
// declares, by the dialect's name.
var typedReductions = map[string][]string{
	"onnx": strs(onnx.ReductionNone, onnx.ReductionAdd, onnx.ReductionMul, onnx.ReductionMax, onnx.ReductionMin),
	"torch": strs(torch.ReduceAdd, torch.ReduceMultiply, torch.ReduceSum, torch.ReduceProd, torch.ReduceMean,
		torch.ReduceAmax, torch.ReduceAmin),
	"openvino": strs(openvino.ReductionNone, openvino.ReductionSum, openvino.ReductionSub, openvino.ReductionProd,
		openvino.ReductionMin, openvino.ReductionMax, openvino.ReductionMean),
	"mindspore": strs(mindspore.ReductionNone, mindspore.ReductionAdd),
	"stablehlo": strs(stablehlo.Replace, stablehlo.Add, stablehlo.Multiply, stablehlo.Maximum, stablehlo.Minimum,
		stablehlo.And, stablehlo.Or, stablehlo.Xor),
}

func strs[S ~string](v ...S) []string {
	out := make([]string, len(v))
	for i, s := range v {
		out[i] = string(s)
	}
	return out
}

// TestTypedReductionsMatchTables: every dialect whose operators take a
// reduction by name (an attribute of RoleReduction) declares one typed
// constant for each name its Behavior tables accept, in any version of
// those operators, and none that no table accepts.
func TestTypedReductionsMatchTables(t *testing.T) {
	tables := map[string]map[string]bool{}
	for _, op := range registry.Ops() {
		if !slices.ContainsFunc(op.Attrs, func(a dialect.Attr) bool { return a.Role == dialect.RoleReduction }) {
			continue
		}
		d, _, _ := strings.Cut(op.Name, ".")
		if tables[d] == nil {
			tables[d] = map[string]bool{}
		}
		for _, v := range op.Versions {
			for name := range op.Behavior(v).Reductions {
				tables[d][name] = true
			}
		}
	}
	for _, d := range slices.Sorted(maps.Keys(tables)) {
		want := slices.Sorted(maps.Keys(tables[d]))
		got := slices.Sorted(slices.Values(typedReductions[d]))
		if !slices.Equal(got, want) {
			t.Errorf("%s: typed reduction constants %q, Behavior tables name %q", d, got, want)
		}
	}
	for d := range typedReductions {
		if tables[d] == nil {
			t.Errorf("%s declares reduction constants but no operator of it has a reduction attribute", d)
		}
	}
}

// reductionTypes are the names of the reduction types, by dialect.
var reductionTypes = map[string]string{
	"onnx": "Reduction", "torch": "Reduce", "openvino": "Reduction", "mindspore": "Reduction", "stablehlo": "Computation",
}

// TestReductionTypeDocsNameConstants: `go doc` of a reduction type prints
// only the first constant of its group, so the type's doc comment names
// every constant of the type.
func TestReductionTypeDocsNameConstants(t *testing.T) {
	for d := range typedReductions {
		typ := reductionTypes[d]
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, d, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") },
			parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		var doc string
		var consts []string
		for _, f := range pkgs[d].Files {
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok {
					continue
				}
				for _, spec := range g.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if s.Name.Name == typ {
							doc = g.Doc.Text()
						}
					case *ast.ValueSpec:
						if id, ok := s.Type.(*ast.Ident); ok && g.Tok == token.CONST && id.Name == typ {
							for _, n := range s.Names {
								consts = append(consts, n.Name)
							}
						}
					}
				}
			}
		}
		if len(consts) != len(typedReductions[d]) {
			t.Errorf("%s.%s: %d constants in the source, %d in the test", d, typ, len(consts), len(typedReductions[d]))
		}
		for _, c := range consts {
			if !regexp.MustCompile(`\b` + c + `\b`).MatchString(doc) {
				t.Errorf("%s.%s: the doc comment does not name the constant %s", d, typ, c)
			}
		}
	}
}
