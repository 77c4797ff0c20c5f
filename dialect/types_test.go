package dialect_test

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func TestTypeSet(t *testing.T) {
	for _, d := range tensor.DTypes() {
		if !dialect.AnyType.Has(d) || dialect.AnyType.Without(d).Has(d) || dialect.Types(d).Has(d) != true {
			t.Errorf("%v: Has, Without or Types is wrong", d)
		}
		if dialect.IntegerTypes.Has(d) != d.IsInteger() || dialect.ComplexTypes.Has(d) != d.IsComplex() {
			t.Errorf("%v: IntegerTypes or ComplexTypes is wrong", d)
		}
	}
	if dialect.AnyType.Has(tensor.DType(0)) || dialect.AnyType.Has(tensor.DType(200)) {
		t.Error("AnyType holds a type that does not exist")
	}
	tests := []struct {
		set         dialect.TypeSet
		names, text string
	}{
		{dialect.AnyType, "", "any type"},
		{dialect.AnyType.Without(tensor.BFloat16), "", "any type but bfloat16"},
		{dialect.AnyType.Without(tensor.String, tensor.Bool), "", "any type but bool, string"},
		{dialect.IntegerTypes, "int8, int16, int32, int64, uint8, uint16, uint32, uint64", "any integer type"},
		{dialect.Types(tensor.Int64, tensor.Int32), "int32, int64", "int32 or int64"},
		{dialect.Types(tensor.Int64), "int64", "int64"},
		{dialect.FloatTypes | dialect.Types(tensor.Bool), "float16, bfloat16, float32, float64, bool", "float16, bfloat16, float32, float64 or bool"},
	}
	for _, tt := range tests {
		if tt.names != "" && tt.set.Names() != tt.names {
			t.Errorf("Names() = %q, want %q", tt.set.Names(), tt.names)
		}
		if tt.set.String() != tt.text {
			t.Errorf("String() = %q, want %q", tt.set.String(), tt.text)
		}
	}
}

// TestCheckData: a missing input, an accepted type, and a refused one
// worded by the first refusal that holds it, or by the shared wording.
func TestCheckData(t *testing.T) {
	b := &dialect.Behavior{
		DataTypes: dialect.Types(tensor.Float32, tensor.Int64),
		TypeRefusals: []dialect.Refusal{
			{Types: dialect.ComplexTypes, Text: "{input} is complex ({type}); take {accepted}"},
			{Types: dialect.Types(tensor.String), Text: "no strings for {input}"},
		},
	}
	tests := []struct {
		t    tensor.Tensor
		want string // "" for no error
	}{
		{tensor.Scalar(float32(1)), ""},
		{tensor.Scalar(int64(1)), ""},
		{tensor.Tensor{}, `invalid input: missing input "x"`},
		{tensor.Scalar(complex64(1)), "invalid input: x is complex (complex64); take int64, float32"},
		{tensor.Scalar("s"), "invalid input: no strings for x"},
		{tensor.Scalar(true), "invalid input: x of type bool is not accepted (accepted: int64, float32)"},
	}
	for _, tt := range tests {
		err := b.CheckData("x", tt.t)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.t.DType(), err)
		case tt.want != "" && (err == nil || err.Error() != tt.want || !errors.Is(err, dialect.ErrInput)):
			t.Errorf("%v: got %v, want %s", tt.t.DType(), err, tt.want)
		}
	}
}

// TestParseReduction: "" stands for the reduction attribute's default (or
// the single reduction of an operator without the attribute), a name
// Reductions lacks is refused in the Behavior's words, "" without a
// default in MissingReduction's, and "" for an optional attribute without
// a default is a plain write, a name Reductions need not have.
func TestParseReduction(t *testing.T) {
	red := map[string]engine.Reduction{"none": engine.None, "sum": engine.Add}
	withDefault := &dialect.Op{Name: "x.a", Versions: []int{1},
		Attrs: []dialect.Attr{{Name: "r", Role: dialect.RoleReduction, Kind: dialect.String, Default: "sum"}},
		Behavior: func(int) dialect.Behavior {
			return dialect.Behavior{Reductions: red, ReductionRefusal: "r {name} is not one of {allowed}"}
		}}
	single := &dialect.Op{Name: "x.b", Versions: []int{1}, Behavior: func(int) dialect.Behavior {
		return dialect.Behavior{Reductions: map[string]engine.Reduction{"mul": engine.Mul}}
	}}
	required := &dialect.Op{Name: "x.c", Versions: []int{1},
		Attrs: []dialect.Attr{{Name: "r", Role: dialect.RoleReduction, Kind: dialect.String, Required: true}},
		Behavior: func(int) dialect.Behavior {
			return dialect.Behavior{Reductions: red, MissingReduction: "r is required ({allowed})"}
		}}
	optional := &dialect.Op{Name: "x.d", Versions: []int{1},
		Attrs: []dialect.Attr{{Name: "r", Role: dialect.RoleReduction, Kind: dialect.String}},
		Behavior: func(int) dialect.Behavior {
			return dialect.Behavior{Reductions: map[string]engine.Reduction{"add": engine.Add}, MissingReduction: "r is required"}
		}}
	tests := []struct {
		op   *dialect.Op
		name string
		want engine.Reduction
		err  string
	}{
		{withDefault, "", engine.Add, ""},
		{withDefault, "none", engine.None, ""},
		{withDefault, "max", 0, `invalid attribute: r "max" is not one of none, sum`},
		{single, "", engine.Mul, ""},
		{single, "add", 0, `invalid attribute: reduction "add" is not allowed (allowed: mul)`},
		{required, "sum", engine.Add, ""},
		{required, "", 0, "invalid attribute: r is required (none, sum)"},
		{optional, "", engine.None, ""},
		{optional, "add", engine.Add, ""},
		{optional, "none", 0, `invalid attribute: reduction "none" is not allowed (allowed: add)`},
	}
	for _, tt := range tests {
		_, b, err := tt.op.Shared(1)
		if err != nil {
			t.Fatal(err)
		}
		got, err := b.ParseReduction(tt.name)
		switch {
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s %q: got %v, %v; want %v", tt.op.Name, tt.name, got, err, tt.want)
		case tt.err != "" && (err == nil || err.Error() != tt.err || !errors.Is(err, dialect.ErrAttribute)):
			t.Errorf("%s %q: got %v, want %s", tt.op.Name, tt.name, err, tt.err)
		}
	}
}
