package torch

import (
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The tables of the index operators along a dimension (index.go).

// stepArith is PyTorch's arithmetic in the index kernels that add,
// multiply or compare slice by slice (index_add, index_reduce): every
// float16 and bfloat16 step rounded; amax and amin keep the last NaN; a
// mean counts in the element type and divides the whole output.
var stepArith = engine.Arith{Complex: engine.ComplexC10, MinMax: engine.MinMaxLastNaN, ZeroStart: true,
	CountInType: true, DivideAll: true}

// indexAddRowsArith is stepArith but that float16 and bfloat16 sums
// accumulate in float32, as PyTorch's scatter_add over an expanded index
// does, which index_add takes along dim 0 with alpha 1, an int64 index and
// rows of 16 elements or more (see indexCall.rowsPath).
var indexAddRowsArith = func() engine.Arith { a := stepArith; a.HalfOnce = true; return a }()

// alongTypes are the index types of index_add and index_reduce.
var alongTypes = dialect.Types(tensor.Int32, tensor.Int64)

// noteAlongIndex is the rule of index and source of the index operators
// with a source.
const noteAlongIndex = "index is 0-d or 1-D; source has input's shape but for dimension dim, which holds one slice per index value."

var sourceParam = dialect.Param{Name: "source", Role: dialect.RoleUpdates, Types: "input's type",
	Doc: "the slices, input's shape but for dim, which has one per index value"}

func alongIndex(what string) dialect.Param {
	return dialect.Param{Name: "index", Role: dialect.RoleIndices, Doc: "0-d or 1-D: the slices along dim to " + what}
}

// alongOp returns the table entry of an index operator that does to the
// slices of input along dim what summary says with the slices of source,
// which index's Doc names (what), as behavior says, planned as the
// general scatter (alongPlan), its attributes dim and attrs.
func alongOp(name, family, summary, what string, behavior func(int) dialect.Behavior, eval opcall.Eval, attrs ...dialect.Attr) *dialect.Op {
	return &dialect.Op{Name: name, Family: family, Summary: summary, Plan: alongPlan, Behavior: behavior,
		Inputs: []dialect.Param{inputParam, alongIndex(what), sourceParam},
		Attrs:  append([]dialect.Attr{dimAttr}, attrs...), Eval: eval}
}

// indexOps are the tables of the index operators along a dimension.
func indexOps() []*dialect.Op {
	return []*dialect.Op{
		alongOp(opIndexAdd, "segment_sum", "add alpha times slices of source into slices of input along dim", "add to",
			reducing(kernelBehavior(rules, alongTypes, stepArith, noteComplex, "Duplicate indices are summed, in index order.",
				"alpha is cast to input's type as PyTorch casts a Python number; each update added is alpha*source rounded to the element type "+
					"(PyTorch's vectorised loop fuses alpha*source + self for float32 and float64 when alpha is not 1: the last bit may differ); "+
					"float16 and bfloat16 add alpha*source in float32 and round once a step, as PyTorch does.",
				"Along dim 0 with alpha 1 and an int64 index on a floating-point input of rank 2 or more whose rows hold 16 elements or more, "+
					"PyTorch goes through scatter_add's expanded-index kernel, which accumulates float16 and bfloat16 in float32 and rounds once; "+
					"otherwise every step rounds.",
				noteAlongIndex), "", "", "add"),
			func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return IndexAdd(c.Inputs["input"], int(c.Attrs["dim"].Int), c.Inputs["index"], c.Inputs["source"],
					attrScalar(c.Attrs["alpha"]))
			},
			dialect.Attr{Name: "alpha", Kind: dialect.Float, Default: "1", Doc: "the factor of source, cast to input's type"}),
		alongOp(opIndexCopy, "index_copy", "copy slices of source into slices of input along dim", "write",
			kernelBehavior(rules, longIndex, engine.Arith{}, "Of duplicate indices the last in index order wins (PyTorch leaves it undefined).",
				"A 0-d source goes into an input of rank 0 or 1 and takes exactly one index value.", noteAlongIndex),
			func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return IndexCopy(c.Inputs["input"], int(c.Attrs["dim"].Int), c.Inputs["index"], c.Inputs["source"])
			}),
		{
			Name:    opIndexFill,
			Family:  "index_fill",
			Summary: "fill slices of input along dim with value",
			Inputs: []dialect.Param{inputParam, alongIndex("fill"),
				{Name: "value", Role: dialect.RoleValue, Types: "a 0-d bool, integer, floating-point or complex tensor",
					Doc: "the value, cast to input's type", AttrKind: dialect.Float}},
			Attrs: []dialect.Attr{dimAttr},
			Behavior: kernelBehavior(engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeError}, longIndex,
				engine.Arith{}, noteValue, "A complex value into a real input is an error.", "index is 0-d or 1-D."),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				v, err := ScalarOf(c.Inputs["value"])
				if err != nil {
					return tensor.Tensor{}, err
				}
				return IndexFill(c.Inputs["input"], int(c.Attrs["dim"].Int), c.Inputs["index"], v)
			},
		},
		alongOp(opIndexReduce, "segment_max", "reduce slices of source into slices of input along dim with prod, mean, amax or amin",
			"reduce into", func(v int) dialect.Behavior {
				b := reducing(kernelBehavior(rules, alongTypes, stepArith,
					"With include_self false, the slices index names start from 1, +0, -Inf (the lowest integer) or +Inf (the highest); others keep theirs.",
					"float16 and bfloat16 round after every step.", "An empty index returns input unchanged.", noteAlongIndex),
					includeSelfAttr.Name, "prod, mean, amax or amin", "prod", "mean", "amax", "amin")(v)
				b.DataTypes = kernelTypes.Without(tensor.Bool, tensor.Complex64, tensor.Complex128)
				return b
			},
			func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				return IndexReduce(c.Inputs["input"], int(c.Attrs["dim"].Int), c.Inputs["index"], c.Inputs["source"],
					Reduce(c.Attrs["reduce"].Str), c.Attrs["include_self"].Bool)
			},
			reduceAttr("prod, mean, amax or amin"), includeSelfAttr),
	}
}

// attrScalar reads a Float attribute as a Scalar: an int where it is a
// whole number that an int64 holds, so that an integer input takes it
// exactly, else a float.
func attrScalar(v dialect.Value) Scalar {
	f := v.Float
	if f == float64(int64(f)) && f >= -(1<<63) && f < 1<<63 {
		return Int(int64(f))
	}
	return Float(f)
}

// alongPlan is the Plan of an index operator along dim with a source: the
// general scatter of source's slices, every dimension but dim a window
// dimension, the 0-d or 1-D index holding one start index per slice
// (index_vector_dim is its rank).
func alongPlan(b *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
	input, index := c.Inputs["input"], c.Inputs["index"]
	r := max(input.Rank(), 1)
	d, err := wrapDim(int(c.Attrs["dim"].Int), input.Rank())
	if err != nil {
		return dialect.Plan{}, err
	}
	dims := engine.ScatterDims{UpdateWindowDims: []int{}, InsertedWindowDims: []int{d}, ScatterDimsToOperandDims: []int{d},
		IndexVectorDim: index.Rank()}
	for i := range r {
		if i != d {
			dims.UpdateWindowDims = append(dims.UpdateWindowDims, i)
		}
	}
	return dialect.Plan{Scatter: &dims, Rules: b.Index}, nil
}
