package openvino

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

var (
	// anyInteger: "any integer type" of the specifications.
	anyInteger = dialect.IntegerTypes
	int32or64  = dialect.Types(tensor.Int32, tensor.Int64)

	// inRange accepts indices in [0, size-1] only; fromEnd also counts
	// negative indices from the end. Anything else is an error.
	inRange = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}
	fromEnd = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeError}
)

// numericOnly reports whether version v of the named operation takes
// numeric data only (its specification says "any numeric type"), so no
// strings.
func numericOnly(name string, v int) bool {
	return name == nameScatterND || name == nameScatterElements && v < 12
}

// withTypes returns b, of version v of the named operation, with the data
// types it accepts, refused in OpenVINO's words: no complex type, and no
// strings where the specification says "any numeric type".
func withTypes(b dialect.Behavior, name string, v int) dialect.Behavior {
	b.DataTypes = dialect.AnyType.Without(tensor.Complex64, tensor.Complex128)
	b.TypeRefusals = []dialect.Refusal{{Types: dialect.ComplexTypes, Text: "data of type {type} is refused: OpenVINO has no complex element type"}}
	if numericOnly(name, v) {
		b.DataTypes = b.DataTypes.Without(tensor.String)
		b.TypeRefusals = append(b.TypeRefusals, dialect.Refusal{Text: fmt.Sprintf("data of type {type} is refused: version %d takes numeric types only", v)})
	}
	return b
}

// scatterBehavior is the Behavior of version v of the named scatter,
// whose version since added the reduction attribute, with the reductions
// red, and counted negative indices from the end; before it, none is the
// only reduction and indices lie in [0, size-1].
func scatterBehavior(name string, v, since int, types dialect.TypeSet, red map[string]engine.Reduction, notes ...string) dialect.Behavior {
	b := dialect.Behavior{
		Index:            fromEnd,
		IndexTypes:       types,
		Reductions:       red,
		ReductionRefusal: fmt.Sprintf("reduction {name} is not allowed in version %d (allowed: {allowed})", v),
		Notes:            notes,
	}
	if v < since {
		b.Index, b.Reductions = inRange, map[string]engine.Reduction{"none": engine.None}
		b.ReductionRefusal = fmt.Sprintf("reduction {name}: version %d has no reduction (the attribute is defined from version %d)", v, since)
	}
	return withTypes(b, name, v)
}

func scatterElementsBehavior(v int) dialect.Behavior {
	b := scatterBehavior(nameScatterElements, v, 12, anyInteger,
		map[string]engine.Reduction{"none": engine.None, "sum": engine.Add, "prod": engine.Mul,
			"min": engine.Min, "max": engine.Max, "mean": engine.Mean},
		"axis is an input: a scalar or a one-element 1-D tensor of any integer type.",
		"updates has the shape of indices, which may exceed data only along axis.")
	if v >= 12 {
		b.IncludeSelf = "use_init_val"
		b.Notes = append(b.Notes, "Reduction mean is an error for bool data.")
	}
	return b
}

func scatterNDBehavior(v int) dialect.Behavior {
	return scatterBehavior(nameScatterND, v, 15, int32or64,
		map[string]engine.Reduction{"none": engine.None, "sum": engine.Add, "sub": engine.Sub,
			"prod": engine.Mul, "min": engine.Min, "max": engine.Max},
		"Where updates would be a scalar, any tensor of one element is accepted.")
}

func gatherNDBehavior(v int) dialect.Behavior {
	// Both versions run one reference implementation, which counts a
	// negative index from the end.
	b := withTypes(dialect.Behavior{
		Index:      fromEnd,
		IndexTypes: anyInteger,
		Notes:      []string{"Batch dimensions of data and indices must be equal.", noteGatherNDNegative},
	}, nameGatherND, v)
	if v >= 8 {
		b.Notes = append(b.Notes, "Batch dimensions are kept in the output.")
	} else {
		b.Notes = append(b.Notes, "With batch_dims > 1 the batch dimensions are flattened into one output dimension.")
	}
	return b
}

// noteGatherNDNegative names the source of GatherND's negative indices,
// which GatherND-5's specification does not allow.
const noteGatherNDNegative = "Negative indices count from the end in both versions, as OpenVINO's reference implementation " +
	"(src/core/reference/include/openvino/reference/gather_nd.hpp) does and its GatherND-5 tests " +
	"(src/plugins/template/tests/functional/op_reference/gather_nd.cpp, gather_nd_single_negative_indices) expect, " +
	"although the GatherND-5 specification asks for [0, size-1]."

func gatherElementsBehavior(v int) dialect.Behavior {
	return withTypes(dialect.Behavior{
		Index:      inRange,
		IndexTypes: int32or64,
		Notes:      []string{"indices has the shape of data except along axis."},
	}, nameGatherElements, v)
}

// ops is filled by init: its Eval functions run the package's functions
// at the version whose Behavior Run hands them, and the Opset methods
// look versions up in ops.
var ops []*dialect.Op

// scatterNDOp is the ScatterND entry of ops, which init finds once for
// the typed functions.
var scatterNDOp *dialect.Op

func init() {
	data := dialect.Param{Name: "data", Role: dialect.RoleData, Doc: "the tensor to read or update, of rank >= 1"}
	numericData := dialect.Param{Name: "data", Role: dialect.RoleData, Doc: "the tensor to update, of rank >= 1"}
	updates := dialect.Param{Name: "updates", Role: dialect.RoleUpdates, Types: "data's type", Doc: "the values to write"}
	ops = []*dialect.Op{
		{
			Name:     nameScatterElements,
			Family:   "scatter_elements",
			Behavior: scatterElementsBehavior,
			Summary:  "update elements of data at positions along an axis",
			Versions: []int{3, 12},
			Inputs: []dialect.Param{
				numericData,
				opcall.AxisIndices("of data's rank"),
				updates,
				{Name: "axis", Role: dialect.RoleAxis, Types: "any integer type", AttrKind: dialect.Int,
					Doc: "the axis, in [-rank, rank-1]: a scalar or a one-element 1-D tensor"}},
			Output: "output",
			Attrs: []dialect.Attr{
				{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Since: 12,
					Doc: "none, sum, prod, min, max or mean"},
				{Name: "use_init_val", Role: dialect.RoleIncludeSelf, Kind: dialect.Bool, Default: "true", Since: 12,
					Doc: "whether data's value takes part in the reduction"}},
			Eval: func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				axis, err := axisOf(c.Inputs["axis"])
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(nameScatterElements, err)
				}
				// use_init_val has its default from version 12, which
				// introduced it; before, there is no reduction for it to
				// change.
				return newScatterElements(b, c.Inputs["data"], c.Inputs["indices"], c.Inputs["updates"],
					axis, c.Attrs["reduction"].Str, c.Attrs["use_init_val"].Bool)
			},
		},
		{
			Name:     nameScatterND,
			Family:   "scatter_nd",
			Behavior: scatterNDBehavior,
			Summary:  "update elements or slices of data at index tuples",
			Versions: []int{3, 15},
			Inputs:   []dialect.Param{numericData, opcall.TupleIndices(), updates},
			Output:   "output",
			Attrs: []dialect.Attr{{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Since: 15,
				Doc: "none, sum, sub, prod, min or max"}},
			Eval: opcall.ScatterNDEval(nameScatterND, scatterND),
		},
		{
			Name:     nameGatherND,
			Family:   "gather_nd",
			Behavior: gatherNDBehavior,
			Summary:  "take elements or slices of data at index tuples",
			Versions: []int{5, 8},
			Inputs:   []dialect.Param{data, opcall.TupleIndices()},
			Output:   "output",
			Attrs: []dialect.Attr{{Name: "batch_dims", Role: dialect.RoleBatchDims, Kind: dialect.Int, Default: "0",
				Doc: "the number of leading batch dimensions shared by data and indices"}},
			Eval: opcall.GatherEval(gatherND, "batch_dims"),
		},
		{
			Name:     nameGatherElements,
			Family:   "gather_elements",
			Behavior: gatherElementsBehavior,
			Summary:  "take elements of data at positions along an axis",
			Versions: []int{6},
			Inputs: []dialect.Param{data,
				opcall.AxisIndices("of data's rank")},
			Output: "output",
			Attrs: []dialect.Attr{{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Required: true,
				Doc: "the axis, in [-rank, rank-1]"}},
			Eval: opcall.GatherEval(gatherElements, "axis"),
		},
	}
	scatterNDOp = dialect.Find(ops, nameScatterND)
}

// Ops returns the dialect's operations, for generic callers such as the
// command line. Their Eval functions see attributes with defaults filled
// in by Run; ScatterElementsUpdate's axis input may be given as an
// attribute, which Run turns into a tensor.
func Ops() []*dialect.Op { return ops }
