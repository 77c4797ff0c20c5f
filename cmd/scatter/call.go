package main

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/compare"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/format"
	"github.com/scatter-dev/scatter/internal/atomicfile"
	"github.com/scatter-dev/scatter/internal/suggest"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// lookupOp returns the operator that the positional arguments pos of
// command cmd name: exactly one, known to the registry.
func lookupOp(cmd string, pos []string) (*dialect.Op, error) {
	switch len(pos) {
	case 0:
		return nil, usagef("%s: missing OP (run 'scatter ops' for the list)", cmd)
	case 1:
	default:
		return nil, usagef("%s: one OP expected, got %s", cmd, strings.Join(pos, " "))
	}
	op, err := registry.Lookup(pos[0])
	if err != nil {
		return nil, usagef("%s: %v", cmd, err)
	}
	return op, nil
}

// callFlags are the flags that describe one operator call, shared by the
// commands that run operators: --opset, --attr and --in.
type callFlags struct {
	opset    opsetFlag
	attrs    pairs
	ins      pairs
	maxBytes byteSize
}

// addCallFlags defines the call flags on fs.
func addCallFlags(fs *flag.FlagSet) *callFlags {
	c := &callFlags{}
	fs.Var(&c.opset, "opset", "the dialect's opset `N` (default: the newest)")
	addAttrsAndInputs(fs, &c.attrs, &c.ins)
	addMaxBytes(fs, &c.maxBytes)
	return c
}

// opsetFlag is the value of --opset. It records whether the flag was
// given: a dialect.Call takes opset 0 for the newest, which the command
// line refuses as an opset.
type opsetFlag struct {
	n   int
	set bool
}

func (o *opsetFlag) String() string {
	if o == nil || !o.set {
		return ""
	}
	return strconv.Itoa(o.n)
}

func (o *opsetFlag) Set(s string) error {
	n, err := parseOpset(s)
	if err != nil {
		return err
	}
	o.n, o.set = n, true
	return nil
}

// parseOpset reads the number of an --opset flag. Its error says "not a
// number", or "out of range" for a number beyond int.
func parseOpset(s string) (int, error) {
	n, err := strconv.Atoi(s)
	switch {
	case errors.Is(err, strconv.ErrRange):
		return 0, errors.New("out of range")
	case err != nil:
		return 0, errors.New("not a number")
	}
	return n, nil
}

// checkOpset returns a usage error unless opset n selects a version of op.
// The error names the versions op has.
func checkOpset(op *dialect.Op, n int) error {
	if _, err := op.Version(n); err == nil && n >= 1 {
		return nil
	}
	switch {
	case n < 1:
		return usagef("--opset %d: an opset is 1 or more, or leave --opset out for the newest (%s's versions: %s)", n, op.Name, versionList(op))
	case n < op.Versions[0]:
		return usagef("--opset %d: %s is defined from opset %d (its versions: %s)", n, op.Name, op.Versions[0], versionList(op))
	default:
		return usagef("--opset %d: %s was removed in opset %d (its versions: %s)", n, op.Name, op.Removed, versionList(op))
	}
}

// versionList lists the versions of op: "11, 13, 16, 18", or "9, for
// opsets 9 to 10" for an operator since removed.
func versionList(op *dialect.Op) string {
	vs := make([]string, len(op.Versions))
	for i, v := range op.Versions {
		vs[i] = strconv.Itoa(v)
	}
	s := strings.Join(vs, ", ")
	if op.Removed != 0 {
		s += fmt.Sprintf(", for opsets %d to %d", op.Versions[0], op.Removed-1)
	}
	return s
}

// addAttrsAndInputs defines --attr and --in on fs, into attrs and ins.
func addAttrsAndInputs(fs *flag.FlagSet, attrs, ins *pairs) {
	fs.Var(attrs, "attr", "an attribute `NAME=VALUE` (repeatable): ints, bools true/false, lists 4,4,4")
	fs.Var(ins, "in", "an input `NAME=FILE|TYPE:VALUES` (repeatable): a .npy or .pb file, or a literal such as int64:[[0],[2]]")
}

// addMaxBytes defines --max-bytes on fs, into size, by default
// defaultMaxBytes.
func addMaxBytes(fs *flag.FlagSet, size *byteSize) {
	*size = byteSize(defaultMaxBytes())
	fs.Var(size, "max-bytes", "refuse any input or output tensor larger than `SIZE` bytes (suffixes KiB, MiB, GiB, TiB, KB, MB, GB, TB)")
}

// defaultMaxBytes is --max-bytes when it is not given: tensor's default
// (16 GiB), or an eighth of the process's address space where that is
// limited (ulimit -v), so that a tensor the limit lets by, the command's
// other tensors and the runtime's own memory fit in it: an input that asks
// for more is then refused with an error rather than ending the process
// when the memory runs out.
func defaultMaxBytes() int64 {
	if as, ok := addressSpaceLimit(); ok {
		return min(tensor.DefaultMaxBytes, as/8)
	}
	return tensor.DefaultMaxBytes
}

// call checks the flags against op's versions, attributes and inputs,
// then reads the inputs. Mistakes in the command line come back as usage
// errors naming cmd; a file that cannot be read is an error about the data.
//
// It sets the tensor size limit (tensor.SetMaxBytes) to --max-bytes.
func (c *callFlags) call(cmd string, op *dialect.Op) (dialect.Call, error) {
	tensor.SetMaxBytes(int64(c.maxBytes))
	call := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	if c.opset.set {
		if err := checkOpset(op, c.opset.n); err != nil {
			return call, err
		}
		call.Opset = c.opset.n
	}
	attrs := attrNames(op)
	for i, name := range c.attrs.names {
		kind, ok := op.AttrKind(name)
		switch {
		case !ok && isInput(op, name):
			return call, usagef("%s: %q is an input of %s: give it with --in", cmd, name, op.Name)
		case !ok && len(attrs) == 0:
			return call, usagef("%s: %s has no attributes, and so no %q", cmd, op.Name, name)
		case !ok:
			return call, usagef("%s: %s has no attribute %q%s (its attributes: %s)", cmd, op.Name, name,
				nameHint(name, attrs), strings.Join(attrs, ", "))
		}
		v, err := dialect.ParseValue(kind, c.attrs.values[i])
		if err != nil {
			return call, usagef("%s: --attr %s: %v", cmd, name, err)
		}
		call.Attrs[name] = v
	}
	literals := map[string]tensor.Tensor{}
	for i, name := range c.ins.names {
		if _, ok := op.Param(name); !ok {
			if _, isAttr := op.Attr(name); isAttr {
				return call, usagef("%s: %q is an attribute of %s: give it with --attr", cmd, name, op.Name)
			}
			inputs := inputList(op)
			return call, usagef("%s: %s has no input %q%s (its inputs: %s)", cmd, op.Name, name,
				nameHint(name, inputs), strings.Join(inputs, ", "))
		}
		p, _ := op.Param(name)
		t, literal, err := parseLiteral(c.ins.values[i], p.Role)
		switch {
		case errors.Is(err, tensor.ErrTooLarge):
			return call, fmt.Errorf("%s: input %q: %w", op.Name, name, err)
		case err != nil:
			return call, usagef("%s: --in %s: %w", cmd, name, err)
		case literal:
			literals[name] = t
		}
	}
	for _, p := range op.Inputs {
		given := slices.Contains(c.ins.names, p.Name) || p.AttrKind != 0 && slices.Contains(c.attrs.names, p.Name) ||
			p.Tuple && slices.ContainsFunc(c.ins.names, func(n string) bool { q, ok := op.Param(n); return ok && q.Name == p.Name })
		if !given && !p.Optional {
			return call, usagef("%s: %s: missing input %q (give it with --in %s=FILE|TYPE:VALUES)", cmd, op.Name, p.Name, p.Name)
		}
	}
	// The command line is sound; what fails from here on is the data.
	for i, name := range c.ins.names {
		if t, ok := literals[name]; ok {
			call.Inputs[name] = t
			continue
		}
		t, err := format.ReadFile(c.ins.values[i])
		if err != nil {
			return call, fmt.Errorf("%s: input %q: %w", op.Name, name, err)
		}
		call.Inputs[name] = t
	}
	return call, nil
}

// readInput reads an --in value for an input of the given role: a tensor
// literal (TYPE:VALUES) or a .npy or .pb file. Its errors wrap those of
// parseLiteral and format.ReadFile (tensor.ErrSyntax, tensor.ErrTooLarge,
// ...).
func readInput(value string, role dialect.Role) (tensor.Tensor, error) {
	t, literal, err := parseLiteral(value, role)
	if err != nil || literal {
		return t, err
	}
	return format.ReadFile(value)
}

// parseLiteral parses an --in value that is a tensor literal (isLiteral)
// for an input of the given role; literal is false for the name of a
// file, which it leaves to format.ReadFile. Its errors are isLiteral's and
// tensor.Parse's, except that a literal without an element type is told
// the type that suits the input's role (literalType).
func parseLiteral(value string, role dialect.Role) (t tensor.Tensor, literal bool, err error) {
	if literal, err = isLiteral(value); err != nil || !literal {
		return tensor.Tensor{}, literal, err
	}
	if !strings.Contains(value, ":") {
		typ := literalType(role)
		example := typ + ":" + literalExamples[typ]
		if v := strings.TrimSpace(value); strings.HasPrefix(v, "[") {
			example = typ + ":" + v
		}
		return tensor.Tensor{}, true, fmt.Errorf("tensor: %w: %q has no element type: want TYPE:VALUES, e.g. %s", tensor.ErrSyntax, value, example)
	}
	t, err = tensor.Parse(value)
	return t, true, err
}

// literalType returns the element type that the hint for a literal
// without one proposes for an input of the given role: float32 for the
// data, updates, value or fill, bool for include_self, and int64 for an
// index or anything else (a shape, an axis, a count of dimensions).
func literalType(role dialect.Role) string {
	switch role {
	case dialect.RoleData, dialect.RoleUpdates, dialect.RoleValue, dialect.RoleFill:
		return "float32"
	case dialect.RoleIncludeSelf:
		return "bool"
	}
	return "int64"
}

// literalExamples are the values of each type of literalType that a hint
// shows when the literal given is not a list.
var literalExamples = map[string]string{"float32": "[1,2]", "int64": "[0,1]", "bool": "[true,false]"}

// isLiteral reports whether an --in value is a tensor literal (TYPE:VALUES)
// rather than the name of a .npy or .pb file. A value that is neither but
// looks like a literal (it has a colon, or starts as a list or a number
// does) counts as a literal, so that tensor.Parse says what is wrong with
// it; any other value is an error.
func isLiteral(value string) (bool, error) {
	name, _, ok := strings.Cut(value, ":")
	if ok {
		if _, err := tensor.ParseDType(name); err == nil {
			return true, nil
		}
	}
	if format.Check(value) == nil {
		return false, nil
	}
	v := strings.TrimSpace(value)
	if ok || v != "" && strings.ContainsRune("[(\"+-0123456789", rune(v[0])) {
		return true, nil
	}
	return false, fmt.Errorf("%q is neither a %s file nor a literal TYPE:VALUES such as float32:[1,2]",
		value, strings.Join(format.Extensions(), " or "))
}

// nameHint suggests which of names, the inputs or attributes of an
// operator, a name that it lacks was meant to be: the one that plays the
// same part (PyTorch's dim for ONNX's axis), or else the nearest by
// spelling. It returns ": did you mean NAME?", or "".
func nameHint(name string, names []string) string {
	if role, ok := compare.RoleOf(name); ok {
		for _, n := range names {
			if r, _ := compare.RoleOf(n); r == role {
				return ": did you mean " + n + "?"
			}
		}
	}
	return suggest.Phrase(name, names)
}

// attrNames returns the names that op takes with --attr: its attributes,
// and the inputs that may be given as one.
func attrNames(op *dialect.Op) []string {
	var names []string
	for _, a := range op.Attrs {
		names = append(names, a.Name)
	}
	for _, p := range op.Inputs {
		if p.AttrKind != 0 {
			names = append(names, p.Name)
		}
	}
	return names
}

// isInput reports whether op has an input called name.
func isInput(op *dialect.Op, name string) bool {
	_, ok := op.Param(name)
	return ok
}

func inputList(op *dialect.Op) []string {
	names := make([]string, len(op.Inputs))
	for i, p := range op.Inputs {
		names[i] = p.Name
	}
	return names
}

// byteSize is a flag value: a number of bytes with an optional unit.
type byteSize int64

var byteUnits = []struct {
	suffix string
	scale  int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"B", 1},
}

// String returns b in the largest binary unit that holds it exactly
// ("16GiB"), as Set reads it back, so that the help states the default
// as the documentation does.
func (b *byteSize) String() string {
	n := int64(*b)
	for i := 3; i >= 0 && n != 0; i-- { // TiB down to KiB
		if u := byteUnits[i]; n%u.scale == 0 {
			return strconv.FormatInt(n/u.scale, 10) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

func (b *byteSize) Set(s string) error {
	num, scale := strings.TrimSpace(s), int64(1)
	for _, u := range byteUnits {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, scale = strings.TrimSpace(rest), u.scale
			break
		}
	}
	n, err := strconv.ParseInt(num, 10, 64)
	if err != nil || n < 0 || n > math.MaxInt64/scale {
		return fmt.Errorf("%q is not a size in bytes, such as 2GiB", s)
	}
	*b = byteSize(n * scale)
	return nil
}

// checkOutput returns an error naming --flag and path when path cannot
// become an output file: its directory does not exist, or path is a
// directory, a symbolic link, a named pipe or a device (which the write
// would replace by a regular file: atomicfile.CheckTarget). Commands check it before their work, so that a bench run or
// an operator call is not done for nothing, and the error says why
// rather than what the rename over path met.
func checkOutput(flag, path string) error {
	if dir := filepath.Dir(path); !isDir(dir) {
		return fmt.Errorf("--%s %s: directory %s does not exist", flag, path, dir)
	}
	if isDir(path) {
		return fmt.Errorf("--%s %s: is a directory", flag, path)
	}
	if err := atomicfile.CheckTarget(path); err != nil {
		return fmt.Errorf("--%s %w", flag, err)
	}
	return nil
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// hasExt reports whether path's extension is ext (".png"), in any case.
func hasExt(path, ext string) bool {
	return strings.EqualFold(filepath.Ext(path), ext)
}
