package jax

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func gatherBehavior(int) dialect.Behavior {
	return opcall.HLOBehavior(framework, clampRules,
		"mode clip, promise_in_bounds and the default clamp a start index so that the slice lies within operand; a negative one becomes 0.",
		"mode fill and drop fill a slice that does not lie wholly within operand with fill_value (by default NaN, the lowest signed or highest unsigned integer, or true).",
		"The index vector is the last dimension of start_indices.")
}

// scatterBehavior returns the Behavior of the scatter that applies r.
func scatterBehavior(r engine.Reduction, name string) func(int) dialect.Behavior {
	return func(int) dialect.Behavior {
		b := opcall.HLOBehavior(framework, skipRules,
			"mode fill, drop, promise_in_bounds and the default skip a window that does not lie wholly within operand; mode clip clamps its start index.",
			"The index vector is the last dimension of scatter_indices.")
		b.Arith, b.Reductions = arithOf(r), map[string]engine.Reduction{name: r}
		return b
	}
}

func dynamicSliceBehavior(int) dialect.Behavior {
	return opcall.HLOBehavior(framework, sliceRules(true),
		"A negative start counts from the end of its dimension unless allow_negative_indices is false; the start is then clamped so that the slice lies within operand.",
		"start_indices is one 1-D tensor here, holding the scalar start indices in order.")
}

// ops is filled by init: its Eval functions call the package's functions.
var ops []*dialect.Op

func init() {
	hints := []dialect.Attr{opcall.Hint("indices_are_sorted"), opcall.Hint("unique_indices")}
	mode := dialect.Attr{Name: "mode", Kind: dialect.String,
		Doc: "clip, fill, drop or promise_in_bounds; left out, JAX's default"}
	operand := dialect.Param{Name: "operand", Role: dialect.RoleData, Doc: "the array to read or update"}
	scatterAttrs := append(append(opcall.ScatterDimsAttrs("operand", batching), mode), hints...)
	scatterOp := func(name string, r engine.Reduction, reduction, summary string) *dialect.Op {
		return &dialect.Op{
			Name:     name,
			Family:   "general_scatter",
			Behavior: scatterBehavior(r, reduction),
			Summary:  summary,
			Inputs: []dialect.Param{operand,
				{Name: "scatter_indices", Role: dialect.RoleIndices, Doc: "the start indices, in the last dimension"},
				{Name: "updates", Role: dialect.RoleUpdates, Types: "operand's type", Doc: "the windows"}},
			Attrs: scatterAttrs,
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return scatterAlloc(name, r, c.Inputs["operand"], c.Inputs["scatter_indices"], c.Inputs["updates"], scatterDimsOf(c),
					Mode(c.Attrs["mode"].Str))
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				opt, err := scatterOptions(r, Mode(c.Attrs["mode"].Str))
				if err != nil {
					return dialect.Plan{}, err
				}
				d := scatterDimsOf(c)
				return dialect.Plan{Scatter: &d, Rules: opt.Rules}, nil
			},
		}
	}
	allowNegative := dialect.Attr{Name: "allow_negative_indices", Kind: dialect.Bool, Default: "true",
		Doc: "whether a negative start counts from the end"}
	slices := opcall.Slices{
		Framework:   framework,
		Slice:       opDynamicSlice,
		UpdateSlice: opDynamicUpdateSlice,
		Behavior:    dynamicSliceBehavior,
		Read:        operand,
		Write:       operand,
		Starts: dialect.Param{Name: "start_indices", Role: dialect.RoleIndices,
			Doc: "a 1-D array of one start index per dimension of operand"},
		Attrs: []dialect.Attr{allowNegative},
		Rules: func(c dialect.Call) engine.IndexRules { return sliceRules(c.Attrs["allow_negative_indices"].Bool) },
	}
	ops = opcall.Unversioned("result", append([]*dialect.Op{
		{
			Name:     opGather,
			Family:   "general_gather",
			Behavior: gatherBehavior,
			Summary:  "take slices of operand at start indices, by dimension numbers",
			Inputs: []dialect.Param{operand,
				{Name: "start_indices", Role: dialect.RoleIndices, Doc: "the start indices, in the last dimension"},
				{Name: "fill_value", Role: dialect.RoleFill, Types: "operand's type", Optional: true, AttrKind: dialect.Float,
					Doc: "what fills an out-of-bounds slice with mode fill; as an attribute, a number converted to operand's type"}},
			Attrs: append(append(opcall.GatherDimsAttrs(), mode), hints...),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				operand := c.Inputs["operand"]
				fill, err := fillOf(c.Inputs["fill_value"], operand.DType())
				if err != nil {
					return tensor.Tensor{}, opcall.Wrap(opGather, err)
				}
				return gather(operand, c.Inputs["start_indices"], gatherDimsOf(c), Mode(c.Attrs["mode"].Str), fill)
			},
			Plan: func(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
				opt, err := gatherOptions(c.Inputs["operand"], c.Inputs["start_indices"], Mode(c.Attrs["mode"].Str), tensor.Tensor{})
				d := gatherDimsOf(c)
				return dialect.Plan{Gather: &d, Rules: opt.Rules}, err
			},
		},
		scatterOp(opScatter, engine.None, "replace", "write windows of updates into operand at start indices"),
		scatterOp(opScatterAdd, engine.Add, "add", "add windows of updates into operand at start indices"),
		scatterOp(opScatterSub, engine.Sub, "sub", "subtract windows of updates from operand at start indices"),
		scatterOp(opScatterMul, engine.Mul, "mul", "multiply operand by windows of updates at start indices"),
		scatterOp(opScatterMin, engine.Min, "min", "keep the smaller of operand and windows of updates at start indices"),
		scatterOp(opScatterMax, engine.Max, "max", "keep the larger of operand and windows of updates at start indices"),
	}, append(slices.Ops(), segmentTable(mode, hints)...)...))
	gatherB, scatterB = opcall.SharedOf(ops, opGather), opcall.SharedOf(ops, opScatter)
	for _, op := range segOps {
		op.b = opcall.SharedOf(ops, op.name)
	}
}

// batching is the attribute of the scatters' operand's batching
// dimensions.
const batching = "operand_batching_dims"

// Ops returns the dialect's operators, for generic callers such as the
// command line. Gather's fill_value may be given as a number attribute,
// and the segment reductions' num_segments as an integer attribute (left
// out, max(segment_ids) + 1).
func Ops() []*dialect.Op { return ops }

// fillOf returns the fill value a generic call gives: the zero Tensor
// (JAX's default) when there is none, the tensor as it is when it has
// operand's type d, and a number attribute (a float64 scalar) converted
// to d where d holds it exactly or, for the floating-point types, rounded.
func fillOf(v tensor.Tensor, d tensor.DType) (tensor.Tensor, error) {
	if v.IsZero() || v.DType() == d {
		return v, nil
	}
	f, ok := v.Data().([]float64)
	if !ok || len(f) != 1 {
		return v, nil // GatherInto names the mismatch
	}
	x := f[0]
	switch {
	case d.IsFloat():
		// Rounded once: through a float32, float16 and bfloat16 would
		// round twice.
		t, err := tensor.New(d, tensor.Shape{})
		if err == nil {
			t.SetFloatAt(0, x)
		}
		return t, err
	case d == tensor.Complex64:
		return tensor.Scalar(complex(float32(x), 0)), nil
	case d == tensor.Complex128:
		return tensor.Scalar(complex(x, 0)), nil
	case d == tensor.Bool && (x == 0 || x == 1):
		return tensor.Scalar(x == 1), nil
	case d.IsInteger() && x == math.Trunc(x):
		t, err := tensor.New(d, tensor.Shape{})
		if err == nil && setInt(t, x) {
			return t, nil
		}
	}
	return tensor.Tensor{}, fmt.Errorf("%w: fill_value %v cannot be represented as %v", dialect.ErrAttribute, x, d)
}

// setInt sets the one element of the integer tensor t to x, and reports
// whether the type holds x, an integer, exactly.
func setInt(t tensor.Tensor, x float64) bool {
	lo, hi, _ := opcall.IntRange(t.DType())
	// float64(hi)+1 is 2^bits (or 2^(bits-1)), exact, where float64(hi)
	// alone rounds up for the 64-bit types.
	if x < float64(lo) || x >= float64(hi)+1 {
		return false
	}
	if x >= 1<<63 {
		return t.SetIntAt(0, int64(uint64(x))) // a uint64 beyond int64, by its bits
	}
	return t.SetIntAt(0, int64(x))
}

// gatherDimsOf returns the engine's dimension numbers of a generic gather
// call, whose index vectors are the last dimension of start_indices.
func gatherDimsOf(c dialect.Call) engine.GatherDims {
	d := opcall.GatherDimsOf(c)
	d.IndexVectorDim = c.Inputs["start_indices"].Rank() - 1
	return d
}

// scatterDimsOf returns the engine's dimension numbers of a generic
// scatter call, whose index vectors are the last dimension of
// scatter_indices.
func scatterDimsOf(c dialect.Call) engine.ScatterDims {
	d := opcall.ScatterDimsOf(c, batching)
	d.IndexVectorDim = c.Inputs["scatter_indices"].Rank() - 1
	return d
}
