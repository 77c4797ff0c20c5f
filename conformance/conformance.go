// Package conformance runs ONNX backend node tests against the operators
// of this module, and bundles the official node tests of the
// scatter/gather family.
//
// A node test is a directory holding model.onnx (a graph of ONNX nodes)
// and one or more test_data_set_N directories with input_K.pb and
// output_K.pb TensorProto files: the K-th graph input and the K-th graph
// output. A test passes when every data set's outputs equal the expected
// ones exactly: same type, same shape, same bits.
package conformance

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// bundled holds both suites, the ONNX node tests and the StableHLO tests.
//
//go:embed testdata/onnx-node testdata/stablehlo
var bundled embed.FS

// Suite returns the bundled official ONNX node tests (26 directories;
// see testdata/onnx-node/README.md), rooted so that Run(Suite(), ".")
// runs them all.
func Suite() fs.FS { return embedded("testdata/onnx-node") }

// embedded returns directory dir of the bundled files.
func embedded(dir string) fs.FS {
	sub, err := fs.Sub(bundled, dir)
	if err != nil {
		panic(err) // unreachable: the directory is embedded at build time
	}
	return sub
}

// readFile reads file name of fsys whole, once its size is held to the
// size limit (tensor.SetMaxBytes), so that a file too large or a device
// that never ends is refused before it is read.
func readFile(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	if err := tensor.CheckBytes(name, info.Size(), 1); err != nil {
		return nil, err
	}
	return fs.ReadFile(fsys, name)
}

// ErrMismatch is matched (with errors.Is) by the error of a test whose
// outputs differ from the expected ones.
var ErrMismatch = errors.New("output differs from the expected one")

// Result is the outcome of one test.
type Result struct {
	Name  string // the test directory's name, or the .mlir file's (and its module's)
	Suite string // "onnx" or "stablehlo"
	Err   error  // nil when the test passed
}

// Find returns the node-test directories at root in fsys: root itself when
// it holds a model.onnx, otherwise those of its subdirectories that do, in
// name order.
func Find(fsys fs.FS, root string) ([]string, error) {
	if isTest(fsys, root) {
		return []string{root}, nil
	}
	if info, err := fs.Stat(fsys, root); err == nil && !info.IsDir() {
		return nil, &noTests{root, "no node test (it is a file)"}
	}
	entries, err := fs.ReadDir(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("conformance: %w", err)
	}
	var dirs []string
	for _, e := range entries {
		if dir := path.Join(root, e.Name()); e.IsDir() && isTest(fsys, dir) {
			dirs = append(dirs, dir)
		}
	}
	if len(dirs) == 0 {
		return nil, &noTests{root, "no node test (no model.onnx in it or in its subdirectories)"}
	}
	return dirs, nil
}

func isTest(fsys fs.FS, dir string) bool {
	fi, err := fs.Stat(fsys, path.Join(dir, "model.onnx"))
	return err == nil && fi.Mode().IsRegular()
}

// Run runs every node test that Find returns.
func Run(fsys fs.FS, root string) ([]Result, error) {
	dirs, err := Find(fsys, root)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(dirs))
	for i, dir := range dirs {
		results[i] = Result{Name: path.Base(dir), Suite: "onnx", Err: RunTest(fsys, dir)}
	}
	return results, nil
}

// maxNodes bounds the nodes of a node test's model.
const maxNodes = 1000

// RunTest runs the node test in directory dir of fsys. Its model may have
// at most 1000 nodes; each data set may make tensors (its inputs and the
// nodes' outputs) of at most 8 times the limit of tensor.SetMaxBytes in
// all, and its nodes may read and write elements of at most 8 times that
// limit in all; a data set stops at the first node that starts after the
// timeout SetTimeout sets.
func RunTest(fsys fs.FS, dir string) error {
	b, err := readFile(fsys, path.Join(dir, "model.onnx"))
	if err != nil {
		return err
	}
	// The nodes are counted before the model is decoded, which takes
	// several times the file's size for a file of many small nodes.
	if n := onnxpb.CountNodes(b); n > maxNodes {
		return fmt.Errorf("model.onnx: %w: %d nodes, more than a node test may have (%d)", tensor.ErrTooLarge, n, maxNodes)
	}
	m, err := onnxpb.DecodeModel(b)
	if err != nil {
		return fmt.Errorf("model.onnx: %w", err)
	}
	sets, err := fs.Glob(fsys, path.Join(dir, "test_data_set_*"))
	if err != nil {
		return err
	}
	if len(sets) == 0 {
		return errors.New("no test_data_set_* directory")
	}
	for _, set := range sets {
		if err := runDataSet(fsys, set, m); err != nil {
			return fmt.Errorf("%s: %w", path.Base(set), err)
		}
	}
	return nil
}

func readTensor(fsys fs.FS, name string) (tensor.Tensor, error) {
	b, err := readFile(fsys, name)
	if err != nil {
		return tensor.Tensor{}, err
	}
	t, _, err := onnxpb.DecodeTensor(b)
	if err != nil {
		return tensor.Tensor{}, fmt.Errorf("%s: %w", path.Base(name), err)
	}
	return t, nil
}

func runDataSet(fsys fs.FS, set string, m *onnxpb.Model) error {
	opset, ok := m.Opsets[""]
	if !ok {
		return errors.New("the model imports no ai.onnx opset")
	}
	b := newBudget()
	values := map[string]tensor.Tensor{}
	for _, init := range m.Graph.Initializers {
		values[init.Name] = init.Tensor
	}
	k := 0
	for _, in := range m.Graph.Inputs {
		if _, isInit := values[in.Name]; isInit {
			continue
		}
		t, err := readTensor(fsys, path.Join(set, fmt.Sprintf("input_%d.pb", k)))
		if err == nil {
			err = b.spend(nil, []tensor.Tensor{t})
		}
		if err != nil {
			return fmt.Errorf("graph input %q: %w", in.Name, err)
		}
		values[in.Name] = t
		k++
	}
	for i, n := range m.Graph.Nodes {
		if err := b.due(); err != nil {
			return fmt.Errorf("node %d (%s): %w", i, n.OpType, err)
		}
		if err := evalNode(n, int(opset), values, b); err != nil {
			return fmt.Errorf("node %d: %w", i, err)
		}
	}
	for k, out := range m.Graph.Outputs {
		want, err := readTensor(fsys, path.Join(set, fmt.Sprintf("output_%d.pb", k)))
		if err != nil {
			return fmt.Errorf("graph output %q: %w", out.Name, err)
		}
		got, ok := values[out.Name]
		if !ok {
			return fmt.Errorf("no node produces graph output %q", out.Name)
		}
		if err := compare(got, want); err != nil {
			return fmt.Errorf("graph output %q: %w", out.Name, err)
		}
	}
	return nil
}

// evalNode runs one ONNX node, reading its inputs from values and storing
// its output there, and counts what it reads and makes in b.
func evalNode(n onnxpb.Node, opset int, values map[string]tensor.Tensor, b *budget) error {
	if n.Domain != "" {
		return fmt.Errorf("node %q: domain %q is not supported (only ai.onnx)", n.OpType, n.Domain)
	}
	op, err := registry.Lookup("onnx." + n.OpType)
	if err != nil {
		return fmt.Errorf("node %q: %w", n.OpType, err)
	}
	if len(n.Inputs) > len(op.Inputs) {
		return fmt.Errorf("%s: node has %d inputs, the operator takes %d", op.Name, len(n.Inputs), len(op.Inputs))
	}
	if len(n.Outputs) != 1 {
		return fmt.Errorf("%s: node has %d outputs, the operator has 1", op.Name, len(n.Outputs))
	}
	call := dialect.Call{Opset: opset, Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	for i, name := range n.Inputs {
		if name == "" { // an omitted optional input
			continue
		}
		t, ok := values[name]
		if !ok {
			return fmt.Errorf("%s: input %q has no value", op.Name, name)
		}
		call.Inputs[op.Inputs[i].Name] = t
	}
	for _, a := range n.Attributes {
		v, err := attrValue(a)
		if err != nil {
			return fmt.Errorf("%s: %w", op.Name, err)
		}
		call.Attrs[a.Name] = v
	}
	out, err := op.Run(call)
	if err != nil {
		return err
	}
	in := make([]tensor.Tensor, 0, len(call.Inputs))
	for _, t := range call.Inputs {
		in = append(in, t)
	}
	if err := b.spend(in, []tensor.Tensor{out}); err != nil {
		return fmt.Errorf("%s: %w", op.Name, err)
	}
	values[n.Outputs[0]] = out
	return nil
}

// attrValue converts an ONNX attribute to a dialect value.
func attrValue(a onnxpb.Attribute) (dialect.Value, error) {
	switch a.Type {
	case onnxpb.AttrInt:
		return dialect.Value{Kind: dialect.Int, Int: a.Int}, nil
	case onnxpb.AttrFloat:
		return dialect.Value{Kind: dialect.Float, Float: float64(a.Float)}, nil
	case onnxpb.AttrString:
		return dialect.Value{Kind: dialect.String, Str: a.String}, nil
	case onnxpb.AttrInts:
		return dialect.Value{Kind: dialect.Ints, Ints: slices.Clone(a.Ints)}, nil
	}
	return dialect.Value{}, fmt.Errorf("%w: attribute %q has type %v, which no operator here takes",
		dialect.ErrAttribute, a.Name, a.Type)
}

// compare returns nil when got equals want bit for bit, and otherwise an
// error naming the first difference.
func compare(got, want tensor.Tensor) error {
	if got.DType() != want.DType() || !got.SameShape(want) {
		return fmt.Errorf("%w: got %v%v, want %v%v", ErrMismatch, got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	if i := tensor.FirstDiff(got, want); i >= 0 {
		return fmt.Errorf("%w: element %d (of %d) is %s, want %s", ErrMismatch, i, got.Len(),
			tensor.FormatElem(got.At(i)), tensor.FormatElem(want.At(i)))
	}
	return nil
}

// Summary returns "N passed, M failed" for results, followed, for each
// suite, by how many of its tests passed: "1072 passed, 0 failed (onnx 26
// of 26, stablehlo 1046 of 1046)".
func Summary(results []Result) string {
	failed := 0
	var suites []string
	total, passed := map[string]int{}, map[string]int{}
	for _, r := range results {
		if total[r.Suite] == 0 {
			suites = append(suites, r.Suite)
		}
		total[r.Suite]++
		if r.Err != nil {
			failed++
		} else {
			passed[r.Suite]++
		}
	}
	parts := make([]string, len(suites))
	for i, s := range suites {
		parts[i] = fmt.Sprintf("%s %d of %d", s, passed[s], total[s])
	}
	return fmt.Sprintf("%d passed, %d failed (%s)", len(results)-failed, failed, strings.Join(parts, ", "))
}

// RunAll runs the tests under root in fsys: the ONNX node tests that Find
// returns, and the StableHLO tests of every .mlir file, their scatters
// and gathers run by Exec. It fails when root holds neither, or when
// reading it fails.
func RunAll(fsys fs.FS, root string) ([]Result, error) {
	onnx, errONNX := Run(fsys, root)
	hlo, errHLO := RunStableHLO(fsys, root, Exec)
	var none *noTests
	switch {
	case errONNX != nil && !errors.As(errONNX, &none):
		return nil, errONNX
	case errHLO != nil && !errors.As(errHLO, &none):
		return nil, errHLO
	case errONNX != nil && errHLO != nil:
		return nil, &noTests{root, "no test (no model.onnx in it or in its subdirectories, and no .mlir file)"}
	}
	return append(onnx, hlo...), nil
}

// noTests is the error of a directory that holds no test of a suite.
type noTests struct{ root, what string }

func (e *noTests) Error() string { return fmt.Sprintf("conformance: %s holds %s", e.root, e.what) }

// Exec is the ExecFunc of the registry's operators: it runs the
// stablehlo dialect's operator of the name asked for.
func Exec(op string, c dialect.Call) (tensor.Tensor, error) {
	o, err := registry.Lookup(op)
	if err != nil {
		return tensor.Tensor{}, err
	}
	return o.Run(c)
}

// Line formats one result as the conform command prints it, on one line
// that holds no control character: a name that has one (a file may be
// called "x\nPASS y" or hold a terminal's escape sequence) is quoted as
// Go quotes strings, and in an error message each is escaped.
func Line(r Result) string {
	name := r.Name
	if strings.IndexFunc(name, notShown) >= 0 || !utf8.ValidString(name) {
		name = strconv.Quote(name)
	}
	if r.Err == nil {
		return "PASS " + name
	}
	return "FAIL " + name + ": " + escape(r.Err.Error())
}

// notShown reports whether r is a rune that Line escapes: one that is
// neither graphic nor a space. (An invalid byte decodes as
// utf8.RuneError, which is graphic: escape finds those itself.)
func notShown(r rune) bool { return r != ' ' && !unicode.IsGraphic(r) }

// escape replaces each rune of s that notShown reports (a control
// character, an invalid byte) with its Go escape ("\n", "\x1b").
func escape(s string) string {
	if strings.IndexFunc(s, notShown) < 0 && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], string(utf8.RuneError)): // an invalid byte
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case notShown(r):
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
