package dialect

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TypeSet is a set of element types, a bit per tensor.DType: the types an
// operator version's data and indices accept (Behavior.DataTypes,
// Behavior.IndexTypes).
type TypeSet uint32

// Types returns the set holding ds.
func Types(ds ...tensor.DType) TypeSet {
	var s TypeSet
	for _, d := range ds {
		s |= 1 << d
	}
	return s
}

// The sets that the dialects' tables are built from.
var (
	AnyType      = Types(tensor.DTypes()...)                                              // every element type
	IntegerTypes = Types(tensor.IntegerTypes()...)                                        // int8-64 and uint8-64
	FloatTypes   = Types(tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64) // the real floating-point types
	ComplexTypes = Types(tensor.Complex64, tensor.Complex128)                             // the complex types
)

// Has reports whether s holds d.
func (s TypeSet) Has(d tensor.DType) bool { return d < 32 && s&(1<<d) != 0 }

// Without returns s without ds.
func (s TypeSet) Without(ds ...tensor.DType) TypeSet { return s &^ Types(ds...) }

// listOrder is the order in which a set lists its types: the integers,
// signed and then unsigned, the floats, the complex types, bool, string.
var listOrder = append(tensor.IntegerTypes(), tensor.Float16, tensor.BFloat16, tensor.Float32, tensor.Float64,
	tensor.Complex64, tensor.Complex128, tensor.Bool, tensor.String)

// List returns the types of s: the integers, signed and then unsigned,
// each from the narrowest, the floats, the complex types, bool, string.
func (s TypeSet) List() []tensor.DType {
	out := make([]tensor.DType, 0, bits.OnesCount32(uint32(s)))
	for _, d := range listOrder {
		if s.Has(d) {
			out = append(out, d)
		}
	}
	return out
}

// Names returns the names of s's types in List's order, joined by ", ".
func (s TypeSet) Names() string {
	names := make([]string, 0, bits.OnesCount32(uint32(s)))
	for _, d := range s.List() {
		names = append(names, d.String())
	}
	return strings.Join(names, ", ")
}

// String describes s for documents: "any type" for every type, "any
// type but X, Y" for every type but at most four, "any integer type" for
// the integer types, and otherwise its types in List's order ("int32 or
// int64").
func (s TypeSet) String() string {
	switch missing := AnyType &^ s; {
	case missing == 0:
		return "any type"
	case s == IntegerTypes:
		return "any integer type"
	case s&^AnyType == 0 && bits.OnesCount32(uint32(missing)) <= 4:
		return "any type but " + missing.Names()
	}
	names := s.Names()
	if i := strings.LastIndex(names, ", "); i >= 0 {
		names = names[:i] + " or " + names[i+2:]
	}
	return names
}

// Refusal is a framework's wording of the refusal of element types that
// an operator version does not accept. Text may name the refused input
// ({input}), its type ({type}) and the accepted types ({accepted}, as
// TypeSet.Names lists them).
type Refusal struct {
	Types TypeSet // the refused types it words; 0 for all of them
	Text  string
}

// defaultRefusal words a refusal that none of a Behavior's TypeRefusals
// words.
var defaultRefusal = Refusal{Text: "{input} of type {type} is not accepted (accepted: {accepted})"}

// CheckData checks t, the operator's input called input, whose element
// type DataTypes lists: it must be given, and of one of those types. The
// refusal of a type is worded by the first of TypeRefusals that holds it,
// or else as "{input} of type {type} is not accepted (accepted:
// {accepted})". Both errors wrap ErrInput; the refusal of a type is a
// TypeError, which matches engine.ErrType too.
func (b *Behavior) CheckData(input string, t tensor.Tensor) error {
	if t.IsZero() {
		return fmt.Errorf("%w: missing input %q", ErrInput, input)
	}
	return b.CheckType(input, t.DType())
}

// CheckType is CheckData for an input known to be given, of element type
// d.
func (b *Behavior) CheckType(input string, d tensor.DType) error {
	if b.DataTypes.Has(d) {
		return nil
	}
	r := defaultRefusal
	for _, tr := range b.TypeRefusals {
		if tr.Types == 0 || tr.Types.Has(d) {
			r = tr
			break
		}
	}
	text := strings.NewReplacer("{input}", input, "{type}", d.String(), "{accepted}", b.DataTypes.Names()).Replace(r.Text)
	return TypeError(text)
}

// ParseReduction returns the engine's reduction that the framework's name
// stands for, from Reductions. "" stands for the default: the Default of
// the operator's reduction attribute, in the Behaviors that Op.Shared and
// Op.Resolve hand out, or engine.None where that attribute is optional
// and has no Default (torch.scatter without reduce). A name Reductions
// lacks, or "" where there is no default, is an ErrAttribute error worded
// by ReductionRefusal (or MissingReduction), in which {name} is the name
// quoted and {allowed} the names of Reductions as ReductionNames orders
// them.
func (b *Behavior) ParseReduction(name string) (engine.Reduction, error) {
	if name == "" {
		if b.writeByDefault {
			return engine.None, nil
		}
		name = b.defaultReduction
	}
	if r, ok := b.Reduction(name); ok {
		return r, nil
	}
	text := b.ReductionRefusal
	switch {
	case name == "" && b.MissingReduction != "":
		text = b.MissingReduction
	case text == "":
		text = "reduction {name} is not allowed (allowed: {allowed})"
	}
	text = strings.NewReplacer("{name}", strconv.Quote(name),
		"{allowed}", strings.Join(ReductionNames(b.Reductions), ", ")).Replace(text)
	return 0, fmt.Errorf("%w: %s", ErrAttribute, text)
}

// InputTypes describes the element types that op's input p accepts: for
// the input that DataTypes checks (op's data, or its updates where op has
// no data) and for its indices, from each version's Behavior, naming the
// versions where they differ ("any but bfloat16 in version 11; any in
// versions 13, 16"); for the others, p.Types.
func (op *Op) InputTypes(p Param) string {
	var set func(b *Behavior) TypeSet
	switch {
	case p.Role == RoleIndices:
		set = func(b *Behavior) TypeSet { return b.IndexTypes }
	case p.Role == RoleData, p.Role == RoleUpdates && !op.hasInput(RoleData):
		set = func(b *Behavior) TypeSet { return b.DataTypes }
	default:
		return p.Types
	}
	var sets []TypeSet
	var versions [][]string
	for _, v := range op.Versions {
		_, b, err := op.Shared(v)
		if err != nil {
			continue // a version past Removed has no Behavior to describe
		}
		s := set(b)
		if n := len(sets); n > 0 && sets[n-1] == s {
			versions[n-1] = append(versions[n-1], strconv.Itoa(v))
			continue
		}
		sets, versions = append(sets, s), append(versions, []string{strconv.Itoa(v)})
	}
	if len(sets) == 1 {
		return sets[0].String()
	}
	parts := make([]string, len(sets))
	for i, s := range sets {
		word := "version "
		if len(versions[i]) > 1 {
			word = "versions "
		}
		parts[i] = s.String() + " in " + word + strings.Join(versions[i], ", ")
	}
	return strings.Join(parts, "; ")
}

// hasInput reports whether op has an input of role r.
func (op *Op) hasInput(r Role) bool {
	for _, p := range op.Inputs {
		if p.Role == r {
			return true
		}
	}
	return false
}
