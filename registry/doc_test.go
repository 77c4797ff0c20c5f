package registry

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// dialectDoc is what the package documentation of a dialect says: its
// text, the lines of its list items, and the functions and methods
// ("Opset.ScatterND") the package declares.
type dialectDoc struct {
	text  string
	items []string
	funcs []string
}

func readDialectDoc(t *testing.T, dialect string) dialectDoc {
	t.Helper()
	dir := filepath.Join("..", "dialect", dialect)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var d dialectDoc
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc != nil {
			d.text += f.Doc.Text()
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || !fn.Name.IsExported() {
				continue
			}
			name := fn.Name.Name
			if fn.Recv != nil {
				name = types(fn.Recv.List[0].Type) + "." + name
			}
			d.funcs = append(d.funcs, name)
		}
	}
	// A list item and its continuation lines, joined.
	for _, line := range strings.Split(d.text, "\n") {
		switch {
		case strings.HasPrefix(line, "  - "):
			d.items = append(d.items, strings.TrimPrefix(line, "  - "))
		case strings.HasPrefix(line, "    ") && len(d.items) > 0:
			d.items[len(d.items)-1] += " " + strings.TrimSpace(line)
		}
	}
	return d
}

func types(e ast.Expr) string {
	if s, ok := e.(*ast.StarExpr); ok {
		e = s.X
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return "?"
}

var (
	docLink  = regexp.MustCompile(`\[([A-Z][A-Za-z.]*)\]`)
	versions = regexp.MustCompile(`versions? (\d+(?:, \d+)*)`)
)

// TestDialectDocsListOperators checks that the package documentation of
// every dialect has a list item per operator, headed by its name, that
// the item's links name functions the package declares, and that the
// versions it states are the operator's.
func TestDialectDocsListOperators(t *testing.T) {
	docs := map[string]dialectDoc{}
	for _, op := range Ops() {
		dialect, short, _ := strings.Cut(op.Name, ".")
		d, ok := docs[dialect]
		if !ok {
			d = readDialectDoc(t, dialect)
			docs[dialect] = d
		}
		word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(short) + `($|[^A-Za-z0-9_])`)
		i := slices.IndexFunc(d.items, func(item string) bool {
			head, _, _ := strings.Cut(item, ":")
			return word.MatchString(head)
		})
		if i < 0 {
			t.Errorf("%s: the package documentation of %s has no list item for it", op.Name, dialect)
			continue
		}
		item := d.items[i]
		for _, m := range docLink.FindAllStringSubmatch(item, -1) {
			if !slices.Contains(d.funcs, m[1]) && m[1] != "Opset" {
				t.Errorf("%s: item %q links to %s, which package %s does not declare", op.Name, item, m[1], dialect)
			}
		}
		if len(docLink.FindAllString(item, -1)) == 0 {
			t.Errorf("%s: item %q links to no function", op.Name, item)
		}
		if m := versions.FindStringSubmatch(item); m != nil {
			var got []int
			for _, v := range strings.Split(m[1], ", ") {
				n, _ := strconv.Atoi(v)
				got = append(got, n)
			}
			if !slices.Equal(got, op.Versions) {
				t.Errorf("%s: item %q states versions %v, the operator has %v", op.Name, item, got, op.Versions)
			}
		} else if len(op.Versions) > 1 || op.Versions[0] != 1 {
			t.Errorf("%s: item %q states no versions, the operator has %v", op.Name, item, op.Versions)
		}
	}
}

// TestTorchVersionStated checks that docs/dialects.md (Comparison) and
// the torch dialect's package documentation name the same PyTorch
// releases.
func TestTorchVersionStated(t *testing.T) {
	if !strings.Contains(Comparison(), "follow "+torchFollows+" on the CPU") {
		t.Errorf("the comparison does not say that torch follows %s", torchFollows)
	}
	doc := strings.Join(strings.Fields(readDialectDoc(t, "torch").text), " ")
	if !strings.Contains(doc, "as "+torchFollows+" computes them on the CPU") {
		t.Errorf("the torch package documentation does not say that it follows %s:\n%s", torchFollows, doc)
	}
}
