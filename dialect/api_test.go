package dialect_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"slices"
	"strings"
	"testing"
)

// TestExportsOnlyTheOperatorAPI holds package dialect to what a user of
// the operators reads: the description of operators (Op, Param, Attr,
// Behavior, TypeSet and Types, Plan, Role, Call, Value), their errors and the sentences that
// describe a Behavior, and the reading of arguments as every dialect reads
// them (integer lists and scalars given as tensors, tuples of tensors, axes counting from the
// end), which compare and explain use too. The helpers the dialects share
// in running a call (checking dst, allocating the output) live in
// dialect/internal/opcall, where users do not trip over them.
func TestExportsOnlyTheOperatorAPI(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	var funcs []string
	for _, f := range pkgs["dialect"].Files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.IsExported() {
				funcs = append(funcs, fd.Name.Name)
			}
		}
	}
	slices.Sort(funcs)
	want := []string{"ArithRules", "BoolRule", "ComplexRule", "DivideRule", "FillValue", "Find", "HalfRule", "IndexRule", "IndexRuleWords", "IntOf", "IntsOf",
		"IsScatter", "MeanRule", "MinMaxRule", "NormAxis", "NormAxisInput", "ParseValue", "ReductionNames", "ReportRule",
		"StringsRule", "TowardZeroRule", "TupleInputs", "TypeError", "Types", "ZeroStartRule"}
	if !slices.Equal(funcs, want) {
		t.Errorf("package dialect exports the functions %v, want %v", funcs, want)
	}
}
