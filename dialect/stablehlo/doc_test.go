package stablehlo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// aliasFields are the package's aliases of struct types, whose doc
// comments go doc prints without the fields.
var aliasFields = map[string]reflect.Type{
	"GatherDims":  reflect.TypeFor[GatherDims](),
	"ScatterDims": reflect.TypeFor[ScatterDims](),
}

// TestAliasDocListsFields: go doc prints an alias's own doc comment and
// not the fields of the type it names, so the doc comment of each alias of
// a struct type lists every exported field of that struct ("- Name (").
func TestAliasDocListsFields(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "stablehlo.go", nil, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.TYPE {
			continue
		}
		for _, s := range g.Specs {
			ts := s.(*ast.TypeSpec)
			if ts.Assign.IsValid() && ts.Name.IsExported() {
				docs[ts.Name.Name] = g.Doc.Text()
			}
		}
	}
	if got, want := slices.Sorted(maps.Keys(docs)), slices.Sorted(maps.Keys(aliasFields)); !slices.Equal(got, want) {
		t.Fatalf("stablehlo.go declares the aliases %v; the test knows %v", got, want)
	}
	for name, typ := range aliasFields {
		for i := range typ.NumField() {
			field := typ.Field(i)
			if field.IsExported() && !strings.Contains(docs[name], "- "+field.Name+" (") {
				t.Errorf("the doc comment of %s does not list its field %s", name, field.Name)
			}
		}
	}
}
