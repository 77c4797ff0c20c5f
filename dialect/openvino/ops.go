package openvino

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

var (
	// anyInteger: "any integer type" of the specifications.
	anyInteger = tensor.IntegerTypes()
	int32or64  = []tensor.DType{tensor.Int32, tensor.Int64}

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

// typeNote is the Behavior note on the data types version v of the named
// operation takes.
func typeNote(name string, v int) string {
	if numericOnly(name, v) {
		return "String and complex data are refused (numeric types only; OpenVINO has no complex type)."
	}
	return "Complex data is refused (OpenVINO has no complex type)."
}

// scatterBehavior is the Behavior of version v of the named scatter,
// whose version since added the reduction attribute, with the reductions
// red, and counted negative indices from the end; before it, none is the
// only reduction and indices lie in [0, size-1]. Its notes are the type
// note and notes.
func scatterBehavior(name string, v, since int, types []tensor.DType, red map[string]engine.Reduction, notes ...string) dialect.Behavior {
	b := dialect.Behavior{
		Index:      fromEnd,
		IndexTypes: types,
		Reductions: red,
		Notes:      append([]string{typeNote(name, v)}, notes...),
	}
	if v < since {
		b.Index, b.Reductions = inRange, map[string]engine.Reduction{"none": engine.None}
	}
	return b
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
	b := dialect.Behavior{
		Index:      fromEnd,
		IndexTypes: anyInteger,
		Notes: []string{typeNote(nameGatherND, v),
			"Batch dimensions of data and indices must be equal.", noteGatherNDNegative},
	}
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
	return dialect.Behavior{
		Index:      inRange,
		IndexTypes: int32or64,
		Notes: []string{typeNote(nameGatherElements, v),
			"indices has the shape of data except along axis."},
	}
}

// ops is filled by init: its Eval functions call the Opset methods, which
// look versions up in ops.
var ops []*dialect.Op

func init() {
	data := dialect.Param{Name: "data", Role: dialect.RoleData, Types: "any type but complex", Doc: "the tensor to read or update, of rank >= 1"}
	numericData := dialect.Param{Name: "data", Role: dialect.RoleData, Types: "any numeric type",
		Doc: "the tensor to update, of rank >= 1"}
	updates := dialect.Param{Name: "updates", Role: dialect.RoleUpdates, Types: "data's type", Doc: "the values to write"}
	ops = []*dialect.Op{
		{
			Name:     nameScatterElements,
			Family:   "scatter_elements",
			Behavior: scatterElementsBehavior,
			Summary:  "update elements of data at positions along an axis",
			Versions: []int{3, 12},
			Inputs: []dialect.Param{
				{Name: "data", Role: dialect.RoleData, Types: "any numeric type; any type but complex from version 12",
					Doc: "the tensor to update, of rank >= 1"},
				opcall.AxisIndices("any integer type", "of data's rank"),
				updates,
				{Name: "axis", Role: dialect.RoleAxis, Types: "any integer type", AttrKind: dialect.Int,
					Doc: "the axis, in [-rank, rank-1]: a scalar or a one-element 1-D tensor"}},
			Output: "output",
			Attrs: []dialect.Attr{
				{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Since: 12,
					Doc: "none, sum, prod, min, max or mean"},
				{Name: "use_init_val", Role: dialect.RoleIncludeSelf, Kind: dialect.Bool, Default: "true", Since: 12,
					Doc: "whether data's value takes part in the reduction"}},
			Eval: func(v int, c dialect.Call) (tensor.Tensor, error) {
				axis, err := axisOf(c.Inputs["axis"])
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(nameScatterElements, err)
				}
				useInitVal := true
				if a, ok := c.Attrs["use_init_val"]; ok {
					useInitVal = a.Bool
				}
				return Opset(v).ScatterElementsUpdate(c.Inputs["data"], c.Inputs["indices"], c.Inputs["updates"],
					axis, c.Attrs["reduction"].Str, useInitVal)
			},
		},
		{
			Name:     nameScatterND,
			Family:   "scatter_nd",
			Behavior: scatterNDBehavior,
			Summary:  "update elements or slices of data at index tuples",
			Versions: []int{3, 15},
			Inputs: []dialect.Param{numericData,
				opcall.TupleIndices("int32 or int64"),
				updates},
			Output: "output",
			Attrs: []dialect.Attr{{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Since: 15,
				Doc: "none, sum, sub, prod, min or max"}},
			Eval: opcall.ScatterNDEval(Opset.ScatterNDUpdate),
		},
		{
			Name:     nameGatherND,
			Family:   "gather_nd",
			Behavior: gatherNDBehavior,
			Summary:  "take elements or slices of data at index tuples",
			Versions: []int{5, 8},
			Inputs: []dialect.Param{data,
				opcall.TupleIndices("any integer type")},
			Output: "output",
			Attrs: []dialect.Attr{{Name: "batch_dims", Role: dialect.RoleBatchDims, Kind: dialect.Int, Default: "0",
				Doc: "the number of leading batch dimensions shared by data and indices"}},
			Eval: opcall.GatherEval(Opset.GatherND, "batch_dims"),
		},
		{
			Name:     nameGatherElements,
			Family:   "gather_elements",
			Behavior: gatherElementsBehavior,
			Summary:  "take elements of data at positions along an axis",
			Versions: []int{6},
			Inputs: []dialect.Param{data,
				opcall.AxisIndices("int32 or int64", "of data's rank")},
			Output: "output",
			Attrs: []dialect.Attr{{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Required: true,
				Doc: "the axis, in [-rank, rank-1]"}},
			Eval: opcall.GatherEval(Opset.GatherElements, "axis"),
		},
	}
}

// Ops returns the dialect's operations, for generic callers such as the
// command line. Their Eval functions see attributes with defaults filled
// in by Run; ScatterElementsUpdate's axis input may be given as an
// attribute, which Run turns into a tensor.
func Ops() []*dialect.Op { return ops }
