package onnx

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// noteStrings names the source of Arith.ConcatStrings, on which the
// specification is silent.
const noteStrings = "So do ONNX Runtime's CPU kernels, where the specification is silent " +
	"(onnxruntime/core/providers/cpu/tensor/scatter_nd.cc and scatter.cc apply std::string's +=); strings take no other reduction."

var (
	dataParam    = dialect.Param{Name: "data", Role: dialect.RoleData, Doc: "the tensor to read or update, of rank >= 1"}
	updatesParam = dialect.Param{Name: "updates", Role: dialect.RoleUpdates, Types: "data's type", Doc: "the values to write"}
	// elemIndices are the indices of the operators along an axis but
	// Gather; tupleIndices those of ScatterND and GatherND.
	elemIndices  = opcall.AxisIndices("of data's rank")
	tupleIndices = opcall.TupleIndices()
	axisAttr     = dialect.Attr{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Default: "0", Doc: "the axis, in [-rank, rank-1]"}
	reduceAttr   = dialect.Attr{Name: "reduction", Role: dialect.RoleReduction, Kind: dialect.String, Default: "none", Since: 16,
		Doc: "none, add or mul; max and min from version 18"}
)

// axisScatter returns the entry of ScatterElements or of Scatter, which
// opset removed replaced (0 for none): the scatters along the attribute
// axis, with the attributes attrs. Scatter has no reduction attribute, so
// its calls read the reduction "", none.
func axisScatter(name, summary string, versions []int, removed int, attrs ...dialect.Attr) *dialect.Op {
	return &dialect.Op{
		Name: name, Family: "scatter_elements", Summary: summary, Versions: versions, Removed: removed,
		Behavior: behavior(true, false),
		Inputs:   []dialect.Param{dataParam, elemIndices, updatesParam},
		Output:   "output",
		Attrs:    attrs,
		Eval: func(b *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			return newScatterElements(name, b, c.Inputs["data"], c.Inputs["indices"], c.Inputs["updates"],
				int(c.Attrs["axis"].Int), c.Attrs["reduction"].Str)
		},
	}
}

// axisGather returns the entry of Gather (slices) or GatherElements, the
// gathers along the attribute axis, whose indices are the input indices.
func axisGather(name, family, summary string, versions []int, indices dialect.Param, slices bool) *dialect.Op {
	return &dialect.Op{
		Name: name, Family: family, Summary: summary, Versions: versions,
		Behavior: behavior(false, false),
		Inputs:   []dialect.Param{dataParam, indices},
		Output:   "output",
		Attrs:    []dialect.Attr{axisAttr},
		Eval:     opcall.GatherEval(gatherAlong(name, slices), "axis"),
	}
}

// behavior returns the corner rules of an ONNX operator at version v.
// scatter says whether it has the reduction attribute, int64Only whether
// its indices must be int64.
func behavior(scatter, int64Only bool) func(v int) dialect.Behavior {
	return func(v int) dialect.Behavior {
		b := dialect.Behavior{
			Index:            rules,
			IndexTypes:       dialect.Types(tensor.Int32, tensor.Int64),
			DataTypes:        dialect.AnyType,
			ReductionRefusal: fmt.Sprintf("reduction {name} is not allowed in version %d (allowed: {allowed})", v),
		}
		if v < 13 {
			b.DataTypes = dialect.AnyType.Without(tensor.BFloat16)
			b.TypeRefusals = []dialect.Refusal{{Text: fmt.Sprintf("data of type {type} is accepted from version 13, this is version %d", v)}}
		}
		if int64Only {
			b.IndexTypes = dialect.Types(tensor.Int64)
		}
		if scatter {
			b.Reductions = reductions(v)
		}
		if scatter && v >= 16 {
			// The specification is silent on strings under a reduction;
			// ONNX Runtime's CPU kernels (ScatterND in
			// onnxruntime/core/providers/cpu/tensor/scatter_nd.cc,
			// ScatterElements in scatter.cc) apply std::string's += for
			// add, in index order, and refuse mul, max and min.
			b.Arith = engine.Arith{ConcatStrings: true}
			b.Notes = append(b.Notes, noteStrings)
		}
		return b
	}
}

// ops is filled by init: its Eval functions run the package's functions
// at the version whose Behavior Run hands them, and the Opset methods
// look versions up in ops.
var ops []*dialect.Op

// scatterNDOp is the ScatterND entry of ops, which init finds once for
// the typed functions.
var scatterNDOp *dialect.Op

func init() {
	ops = []*dialect.Op{
		axisScatter(opScatter, "ScatterElements without reduction, before opset 11 replaced it", []int{9}, 11,
			axisAttr),
		axisScatter(opScatterElements, "update elements of data at positions along an axis", []int{11, 13, 16, 18}, 0,
			axisAttr, reduceAttr),
		{
			Name:     opScatterND,
			Family:   "scatter_nd",
			Behavior: behavior(true, true),
			Summary:  "update elements or slices of data at index tuples",
			Versions: []int{11, 13, 16, 18},
			Inputs:   []dialect.Param{dataParam, tupleIndices, updatesParam},
			Output:   "output",
			Attrs:    []dialect.Attr{reduceAttr},
			Eval:     opcall.ScatterNDEval(opScatterND, scatterND),
		},
		axisGather(opGather, "gather", "take slices of data along an axis", []int{1, 11, 13},
			opcall.AxisIndices("of any rank"), true),
		axisGather(opGatherElements, "gather_elements", "take elements of data at positions along an axis", []int{11, 13},
			elemIndices, false),
		{
			Name:     opGatherND,
			Family:   "gather_nd",
			Behavior: behavior(false, true),
			Summary:  "take elements or slices of data at index tuples",
			Versions: []int{11, 12, 13},
			Inputs:   []dialect.Param{dataParam, tupleIndices},
			Output:   "output",
			Attrs: []dialect.Attr{{Name: "batch_dims", Role: dialect.RoleBatchDims, Kind: dialect.Int, Default: "0", Since: 12,
				Doc: "the number of leading batch dimensions shared by data and indices"}},
			Eval: opcall.GatherEval(gatherND, "batch_dims"),
		},
	}
	scatterNDOp = dialect.Find(ops, opScatterND)
}

// Ops returns the dialect's operators, for generic callers such as the
// command line. Their Eval functions see attributes with defaults filled
// in by Run.
func Ops() []*dialect.Op { return ops }
