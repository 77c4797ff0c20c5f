package dialect_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func echoOp() *dialect.Op {
	return &dialect.Op{
		Name:     "test.Echo",
		Versions: []int{1, 5},
		Inputs: []dialect.Param{{Name: "x"}, {Name: "shape", AttrKind: dialect.Ints},
			{Name: "axis", AttrKind: dialect.Int, Optional: true}},
		Attrs: []dialect.Attr{{Name: "mode", Kind: dialect.String, Default: "a"},
			{Name: "late", Kind: dialect.Int, Default: "7", Since: 5}},
		Output: "y",
		Eval: func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			v := b.Version
			shape, err := dialect.IntsOf(c.Inputs["shape"], "shape")
			if err != nil {
				return tensor.Tensor{}, err
			}
			if c.Attrs["mode"].Str != "a" || (v == 5) != (c.Attrs["late"].Int == 7) {
				return tensor.Tensor{}, errors.New("defaults not filled")
			}
			return c.Inputs["x"].Reshape(tensor.Shape(shape))
		},
	}
}

func TestRunWithAttributeInput(t *testing.T) {
	op := echoOp()
	x := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
	attrs := map[string]dialect.Value{"shape": {Kind: dialect.Ints, Ints: []int64{2, 2}}}
	for _, opset := range []int{0, 1, 4, 5, 9} {
		out, err := op.Run(dialect.Call{Opset: opset, Inputs: map[string]tensor.Tensor{"x": x}, Attrs: attrs})
		if err != nil || !out.Shape().Equal(tensor.Shape{2, 2}) {
			t.Errorf("opset %d: %v %v", opset, out, err)
		}
	}
	// The same as an input tensor.
	in := map[string]tensor.Tensor{"x": x, "shape": tensor.Must(tensor.From(tensor.Shape{2}, []int32{4, 1}))}
	if out, err := op.Run(dialect.Call{Inputs: in}); err != nil || !out.Shape().Equal(tensor.Shape{4, 1}) {
		t.Errorf("as input: %v %v", out, err)
	}
	tests := []struct {
		call dialect.Call
		want error
	}{
		{dialect.Call{Inputs: in, Attrs: attrs}, dialect.ErrInput}, // both
		{dialect.Call{Inputs: map[string]tensor.Tensor{"x": x}, Attrs: map[string]dialect.Value{"shape": {Kind: dialect.Int, Int: 4}}}, dialect.ErrAttribute},
		{dialect.Call{Inputs: map[string]tensor.Tensor{"x": x}}, dialect.ErrInput}, // missing shape
		{dialect.Call{Opset: 4, Inputs: in, Attrs: map[string]dialect.Value{"late": {Kind: dialect.Int}}}, dialect.ErrAttribute},
		{dialect.Call{Opset: -1, Inputs: in}, dialect.ErrVersion},
	}
	for i, tt := range tests {
		_, err := op.Run(tt.call)
		var oe *dialect.OpError
		if !errors.Is(err, tt.want) || !errors.As(err, &oe) || oe.Op != "test.Echo" {
			t.Errorf("case %d: got %v, want %v", i, err, tt.want)
		}
	}
	// Of several bad attributes, the first by name is reported, every time.
	bad := map[string]dialect.Value{"zeta": {Kind: dialect.Int}, "late": {Kind: dialect.Int}, "alpha": {Kind: dialect.Int}}
	for range 20 {
		_, err := op.Run(dialect.Call{Opset: 4, Inputs: in, Attrs: bad})
		if err == nil || !strings.Contains(err.Error(), `unknown attribute "alpha"`) {
			t.Fatalf("several bad attributes: %v", err)
		}
	}
	if k, ok := op.AttrKind("axis"); !ok || k != dialect.Int {
		t.Errorf("AttrKind(axis) = %v %v", k, ok)
	}
	if _, ok := op.AttrKind("x"); ok {
		t.Error("a plain input has an attribute kind")
	}
}

func TestParseValue(t *testing.T) {
	tests := []struct {
		kind dialect.Kind
		text string
		want string
		err  bool
	}{
		{dialect.Int, " -3 ", "-3", false},
		{dialect.Float, "2.5", "2.5", false},
		{dialect.Bool, "true", "true", false},
		{dialect.Bool, "1", "", true},
		{dialect.Ints, "4,4,4", "4,4,4", false},
		{dialect.Ints, "[2, 3]", "2,3", false},
		{dialect.Ints, "", "", false},
		{dialect.Ints, "1,x", "", true},
		{dialect.String, "add", "add", false},
		{dialect.Int, "1.5", "", true},
	}
	for _, tt := range tests {
		v, err := dialect.ParseValue(tt.kind, tt.text)
		if (err != nil) != tt.err || (err == nil && v.String() != tt.want) {
			t.Errorf("ParseValue(%v, %q) = %v, %v", tt.kind, tt.text, v, err)
		}
	}
}

func TestResolve(t *testing.T) {
	op := echoOp()
	op.Removed = 9
	op.Behavior = func(v int) dialect.Behavior {
		return dialect.Behavior{IndexTypes: dialect.Types(tensor.Int64), Notes: []string{strconv.Itoa(v)}}
	}
	tests := []struct {
		opset, want int
		err         error
	}{
		{0, 5, nil},
		{1, 1, nil},
		{4, 1, nil},
		{5, 5, nil},
		{8, 5, nil},
		{9, 0, dialect.ErrVersion},  // removed
		{-1, 0, dialect.ErrVersion}, // negative
	}
	for _, tt := range tests {
		v, b, err := op.Resolve(tt.opset)
		var oe *dialect.OpError
		switch {
		case tt.err != nil && (!errors.Is(err, tt.err) || !errors.As(err, &oe) || oe.Op != "test.Echo"):
			t.Errorf("opset %d: got %v, want an *OpError wrapping %v", tt.opset, err, tt.err)
		case tt.err == nil && (err != nil || v != tt.want || len(b.Notes) != 1 || b.Notes[0] != strconv.Itoa(tt.want)):
			t.Errorf("opset %d: got version %d, behavior %v, %v; want version %d and its behavior", tt.opset, v, b, err, tt.want)
		}
	}
	// Behavior is built once per version, not on every call.
	calls := 0
	counted := echoOp()
	counted.Behavior = func(v int) dialect.Behavior { calls++; return dialect.Behavior{Notes: []string{strconv.Itoa(v)}} }
	for _, opset := range []int{0, 1, 5, 7, 1, 0} {
		if _, b, err := counted.Resolve(opset); err != nil || len(b.Notes) != 1 {
			t.Fatalf("opset %d: %v %v", opset, b, err)
		}
	}
	if calls != len(counted.Versions) {
		t.Errorf("Behavior called %d times for %d versions", calls, len(counted.Versions))
	}
	// Shared hands out the one Behavior of a version, the same on every
	// call, and Resolve a copy of it.
	for _, opset := range []int{1, 5} {
		v, p, err := counted.Shared(opset)
		_, q, _ := counted.Shared(opset)
		_, b, _ := counted.Resolve(opset)
		if err != nil || p != q || len(p.Notes) != 1 || p.Notes[0] != strconv.Itoa(v) || b.Notes[0] != p.Notes[0] || p.Version != v {
			t.Errorf("Shared(%d): %d %p %p %v; Resolve's %v", opset, v, p, q, err, b)
		}
	}
	if _, p, err := op.Shared(9); !errors.Is(err, dialect.ErrVersion) || p != nil {
		t.Errorf("Shared(9) of a removed version: %v %v", p, err)
	}
	// An operator without a Behavior gets one that holds only its version.
	bare := echoOp()
	if v, b, err := bare.Resolve(0); err != nil || v != 5 || b.IndexTypes != 0 || b.Version != 5 {
		t.Errorf("without Behavior: %d %v %v", v, b, err)
	}
	if v, p, err := bare.Shared(1); err != nil || v != 1 || p == nil || p.IndexTypes != 0 || p.Version != 1 {
		t.Errorf("Shared without Behavior: %d %v %v", v, p, err)
	}
	early := echoOp()
	early.Versions = []int{3}
	if _, _, err := early.Resolve(2); !errors.Is(err, dialect.ErrVersion) {
		t.Errorf("opset before the first version: %v", err)
	}
}

func TestFind(t *testing.T) {
	a, b := echoOp(), echoOp()
	b.Name = "test.Other"
	ops := []*dialect.Op{a, b}
	if got := dialect.Find(ops, "test.Other"); got != b {
		t.Errorf("Find(test.Other) = %v", got)
	}
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), `"test.Missing"`) {
			t.Errorf("Find of a missing name: recovered %v, want a panic naming it", r)
		}
	}()
	dialect.Find(ops, "test.Missing")
}

// TestArithRules holds ArithRules to one rule per knob that differs from
// the zero Arith, the rule of that knob's own function, in field order.
func TestArithRules(t *testing.T) {
	if r := dialect.ArithRules(engine.Arith{}); len(r) != 0 {
		t.Errorf("ArithRules of the zero Arith = %q, want none", r)
	}
	knobs := []struct {
		a    engine.Arith
		rule string
	}{
		{engine.Arith{Complex: engine.ComplexC10}, dialect.ComplexRule(engine.ComplexC10)},
		{engine.Arith{ConcatStrings: true}, dialect.StringsRule(true)},
		{engine.Arith{MinMax: engine.MinMaxIEEE}, dialect.MinMaxRule(engine.MinMaxIEEE)},
		{engine.Arith{HalfOnce: true}, dialect.HalfRule(true)},
		{engine.Arith{ZeroStart: true}, dialect.ZeroStartRule(true)},
		{engine.Arith{CountInType: true}, dialect.MeanRule(true)},
		{engine.Arith{DivideAll: true}, dialect.DivideRule(true)},
		{engine.Arith{NumbersOnly: true}, dialect.BoolRule(true)},
		{engine.Arith{MeanTowardZero: true}, dialect.TowardZeroRule(true)},
	}
	var want []string
	for _, k := range knobs {
		if got := dialect.ArithRules(k.a); !slices.Equal(got, []string{k.rule}) {
			t.Errorf("ArithRules(%+v) = %q, want %q", k.a, got, k.rule)
		}
		want = append(want, k.rule)
	}
	all := engine.Arith{Complex: engine.ComplexC10, ConcatStrings: true, MinMax: engine.MinMaxIEEE, HalfOnce: true,
		ZeroStart: true, CountInType: true, DivideAll: true, NumbersOnly: true}
	want = want[:len(want)-1] // CountInType takes precedence over MeanTowardZero
	if got := dialect.ArithRules(all); !slices.Equal(got, want) {
		t.Errorf("ArithRules(%+v) = %q, want %q", all, got, want)
	}
	for _, on := range []bool{false, true} {
		for _, f := range []func(bool) string{dialect.StringsRule, dialect.ZeroStartRule, dialect.DivideRule, dialect.BoolRule, dialect.TowardZeroRule} {
			if f(on) == f(!on) || f(on) == "" {
				t.Errorf("a rule says the same of %v and %v: %q", on, !on, f(on))
			}
		}
	}
}

// TestErrorsNameTheOperatorOnce holds every error of Run and PlanOf, from
// each stage (the version, the attributes and inputs, Eval or Plan with
// an error of its own or one that already names the operator), to one
// *OpError naming the operator once.
func TestErrorsNameTheOperatorOnce(t *testing.T) {
	named := &dialect.OpError{Op: "test.Echo", Err: dialect.ErrInput}
	plain := fmt.Errorf("%w: bad x", dialect.ErrInput)
	x := tensor.Scalar(float32(1))
	good := map[string]tensor.Tensor{"x": x, "shape": tensor.Must(tensor.From(tensor.Shape{0}, []int64{}))}
	withEval := func(err error) *dialect.Op {
		op := echoOp()
		op.Eval = func(*dialect.Behavior, dialect.Call) (tensor.Tensor, error) { return tensor.Tensor{}, err }
		op.Plan = func(*dialect.Behavior, dialect.Call) (dialect.Plan, error) { return dialect.Plan{}, err }
		return op
	}
	cases := []struct {
		name string
		op   *dialect.Op
		call dialect.Call
	}{
		{"negative opset", echoOp(), dialect.Call{Opset: -1, Inputs: good}},
		{"unknown attribute", echoOp(), dialect.Call{Inputs: good, Attrs: map[string]dialect.Value{"nope": {Kind: dialect.Int}}}},
		{"missing input", echoOp(), dialect.Call{Inputs: map[string]tensor.Tensor{"x": x}}},
		{"plain error", withEval(plain), dialect.Call{Inputs: good}},
		{"error naming the operator", withEval(named), dialect.Call{Inputs: good}},
	}
	for _, c := range cases {
		if c.op.Plan == nil {
			c.op.Plan = func(*dialect.Behavior, dialect.Call) (dialect.Plan, error) { return dialect.Plan{}, nil }
		}
		_, runErr := c.op.Run(c.call)
		_, planErr := c.op.PlanOf(c.call)
		for form, err := range map[string]error{"Run": runErr, "PlanOf": planErr} {
			var oe *dialect.OpError
			if !errors.As(err, &oe) || oe.Op != "test.Echo" || strings.Count(err.Error(), "test.Echo") != 1 {
				t.Errorf("%s %s: error %v, want one *OpError naming test.Echo once", form, c.name, err)
			}
		}
	}
	if _, err := withEval(plain).Run(dialect.Call{Inputs: good}); err == nil || err.Error() != "test.Echo: invalid input: bad x" {
		t.Errorf("Run: error %v, want test.Echo: invalid input: bad x", err)
	}
	noPlan := echoOp()
	if _, err := noPlan.PlanOf(dialect.Call{}); !errors.Is(err, dialect.ErrUnknownOp) || strings.Count(err.Error(), "test.Echo") != 1 {
		t.Errorf("PlanOf without a plan: %v", err)
	}
}

// TestVersionSelects: an opset selects the newest version not newer than
// itself (the newest by the shortcut, the others by a search); 0 the
// newest; an opset older than the first version, negative, or from the
// one that removed the operator, none.
func TestVersionSelects(t *testing.T) {
	op := &dialect.Op{Name: "test.Versions", Versions: []int{3, 7, 11}, Removed: 20}
	for _, tt := range []struct{ opset, want int }{
		{3, 3}, {5, 3}, {7, 7}, {10, 7}, {11, 11}, {19, 11}, {0, 11},
		{2, -1}, {-1, -1}, {20, -1}, {25, -1},
	} {
		v, err := op.Version(tt.opset)
		switch {
		case tt.want < 0 && !errors.Is(err, dialect.ErrVersion):
			t.Errorf("opset %d: got version %d, %v; want an ErrVersion", tt.opset, v, err)
		case tt.want >= 0 && (err != nil || v != tt.want):
			t.Errorf("opset %d: got version %d, %v; want %d", tt.opset, v, err, tt.want)
		}
	}
}
