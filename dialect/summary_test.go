package dialect_test

import (
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"regexp"
	"strings"
	"testing"
)

// summaryWidth is where go doc's package summary cuts a parameter list
// short with "...": once the parameter groups, each counted with the ", "
// after it, pass 80 characters (cmd/go/internal/doc's joinStrings).
const summaryWidth = 80

// hiddenParams returns the names of the parameters of fn that go doc's
// package summary leaves out of its signature.
func hiddenParams(fset *token.FileSet, fn *ast.FuncDecl) []string {
	var hidden []string
	n := 0
	for _, group := range fn.Type.Params.List {
		var b strings.Builder
		for i, name := range group.Names {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(name.Name)
		}
		b.WriteString(" ")
		printer.Fprint(&b, fset, group.Type)
		n += b.Len() + len(", ")
		if n > summaryWidth {
			for _, name := range group.Names {
				hidden = append(hidden, name.Name)
			}
		}
	}
	return hidden
}

// TestSummaryNamesHiddenParams: `go doc` of a dialect package prints its
// package doc comment in full and each function (methods are not listed)
// on one line, cutting a long parameter list short; a parameter it hides
// (torch.ScatterReduce's includeSelf) is named in the package doc comment.
func TestSummaryNamesHiddenParams(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		dir := e.Name()
		if !e.IsDir() || dir == "internal" {
			continue
		}
		fset := token.NewFileSet()
		pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") },
			parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, pkg := range pkgs {
			var doc string
			for _, f := range pkg.Files {
				if f.Doc != nil {
					doc += f.Doc.Text()
				}
			}
			for _, f := range pkg.Files {
				for _, d := range f.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok || fn.Recv != nil || !fn.Name.IsExported() {
						continue
					}
					for _, p := range hiddenParams(fset, fn) {
						checked++
						if !regexp.MustCompile(`\b` + p + `\b`).MatchString(doc) {
							t.Errorf("%s.%s: go doc hides parameter %s, which the package doc does not name", pkg.Name, fn.Name.Name, p)
						}
					}
				}
			}
		}
	}
	if checked == 0 {
		t.Error("no parameter hidden anywhere: is the test looking at the dialects?")
	}
}
