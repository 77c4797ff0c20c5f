package torch

import (
	"fmt"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// rules are PyTorch's index rules for every operator: an index must lie in
// [0, size-1].
var rules = engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}

// reductionMeaning maps every reduce value of PyTorch's scatters and
// index operators to the engine's reduction.
var reductionMeaning = map[string]engine.Reduction{
	"add": engine.Add, "multiply": engine.Mul,
	"sum": engine.Add, "prod": engine.Mul, "mean": engine.Mean, "amax": engine.Max, "amin": engine.Min,
}

// kernelTypes are the element types PyTorch's CPU scatter and gather
// kernels are built for.
var kernelTypes = dialect.AnyType.Without(tensor.Uint16, tensor.Uint32, tensor.Uint64, tensor.String)

// typeRefusals word the refusal of an element type as PyTorch does.
var typeRefusals = []dialect.Refusal{opcall.StringsRefusal(framework),
	{Text: "{type} input is not supported (PyTorch's CPU kernels are not built for {type})"}}

// Notes shared by the operators' Behavior tables.
var (
	noteTypes  = "uint16-64 input is accepted only with an empty index."
	noteEmpty  = "An empty index is accepted with any rank and element type and returns input unchanged (scatter_reduce mean still divides every element by 1, which turns a complex value with a NaN or infinite part into NaN, as PyTorch does)."
	noteRank   = "A 0-d tensor counts as 1-D of size 1; index.size(d) <= src.size(d) for every d, and <= input.size(d) for d != dim."
	noteValue  = "value is cast to input's type as PyTorch casts a Python number: out of the type's range is an error, a float truncates toward zero into an integer type."
	noteSource = "src or value, not both."
	// noteComplex names the source of Arith.Complex.
	noteComplex = "That is c10::complex's arithmetic (c10/util/complex.h, operator*= and operator/=; " +
		"the vectorised CPU division in aten/src/ATen/cpu/vec/vec256/vec256_complex_float.h calls it element by element), " +
		"not Go's, which computes a complex64 product or quotient in float64 and rounds once."
)

// arith is PyTorch's arithmetic on the CPU: c10::complex's products and
// quotients; amax and amin keep the last NaN update; float16 and bfloat16
// sums and products accumulate in float32; with include_self false an
// updated position starts from +0 (sum, mean); a mean counts in the
// element type and divides the whole output.
var arith = engine.Arith{Complex: engine.ComplexC10, MinMax: engine.MinMaxLastNaN, HalfOnce: true, ZeroStart: true,
	CountInType: true, DivideAll: true}

// longIndex is the index type PyTorch documents for its scatters and
// gather: a LongTensor.
var longIndex = dialect.Types(tensor.Int64)

// reducing is behavior with the reduce values names, in PyTorch's order,
// as its reductions: a value outside them is refused with PyTorch's
// wording, which lists them as list does ("" for names joined by commas),
// and include names the attribute by which input's own values take part
// or not ("" when they always do).
func reducing(behavior func(int) dialect.Behavior, include, list string, names ...string) func(int) dialect.Behavior {
	if list == "" {
		list = strings.Join(names, ", ")
	}
	return func(v int) dialect.Behavior {
		b := behavior(v)
		b.Reductions = map[string]engine.Reduction{}
		for _, n := range names {
			b.Reductions[n] = reductionMeaning[n]
		}
		b.ReductionRefusal = "reduce {name} is not one of " + list
		b.MissingReduction = "reduce is required (" + list + ")"
		b.IncludeSelf = include
		return b
	}
}

var (
	inputParam = dialect.Param{Name: "input", Role: dialect.RoleData, Doc: "the tensor to read or update"}
	srcParam   = dialect.Param{Name: "src", Role: dialect.RoleUpdates, Types: "input's type", Doc: "the values to scatter, at least as large as index"}
	dimAttr    = dialect.Attr{Name: "dim", Role: dialect.RoleAxis, Kind: dialect.Int, Required: true, Doc: "the dimension to index, in [-rank, rank-1]"}
	// includeSelfAttr is the include_self of scatter_reduce and
	// index_reduce.
	includeSelfAttr = dialect.Attr{Name: "include_self", Role: dialect.RoleIncludeSelf, Kind: dialect.Bool, Default: "true",
		Doc: "whether input's own values take part"}
)

// reduceAttr is the required reduce attribute of scatter_reduce and
// index_reduce, whose values names lists.
func reduceAttr(names string) dialect.Attr {
	return dialect.Attr{Name: "reduce", Role: dialect.RoleReduction, Kind: dialect.String, Required: true, Doc: names}
}

func scatterIndex(what string) dialect.Param {
	return dialect.Param{Name: "index", Role: dialect.RoleIndices, Doc: "positions along dim to " + what + ", of input's rank; may be empty"}
}

// gatherOp returns the table entry of a gather named name, of the given
// family, summary and behavior, that f runs on the inputs input and index
// (whose Doc is indexDoc) and the attribute dim.
func gatherOp(name, family, summary, indexDoc string, f func(input tensor.Tensor, dim int, index tensor.Tensor) (tensor.Tensor, error),
	behavior func(int) dialect.Behavior) *dialect.Op {
	return &dialect.Op{
		Name:     name,
		Family:   family,
		Summary:  summary,
		Inputs:   []dialect.Param{inputParam, {Name: "index", Role: dialect.RoleIndices, Doc: indexDoc}},
		Attrs:    []dialect.Attr{dimAttr},
		Eval:     gatherEval(f),
		Behavior: behavior,
	}
}

// gatherEval is the Eval of a gather that f runs on the inputs input and
// index and the attribute dim.
func gatherEval(f func(input tensor.Tensor, dim int, index tensor.Tensor) (tensor.Tensor, error)) opcall.Eval {
	return func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
		return f(c.Inputs["input"], int(c.Attrs["dim"].Int), c.Inputs["index"])
	}
}

// ops is filled by init, which gives every operator the single version 1,
// the output out and its Behavior.
var ops []*dialect.Op

// The operators' Behaviors, which init sets from ops and the functions of
// this package follow: read through these variables, a call looks nothing
// up and copies no Behavior.
var scatterBehavior, scatterAddBehavior, scatterReduceBehavior, gatherBehavior, indexSelectBehavior *dialect.Behavior

// The Behaviors of the index operators along a dimension (index.go).
var indexAddBehavior, indexCopyBehavior, indexFillBehavior, indexReduceBehavior *dialect.Behavior

// The Behaviors of the flat operators (take.go).
var takeBehavior, takeAlongDimBehavior, putBehavior *dialect.Behavior

// The Behaviors of index_put and masked_scatter (masked.go).
var indexPutBehavior, maskedScatterBehavior *dialect.Behavior

func init() {
	ops = []*dialect.Op{
		{
			Name:    opScatter,
			Family:  "scatter_elements",
			Summary: "write src (or value) into input at positions along dim, optionally adding or multiplying",
			Inputs: []dialect.Param{inputParam, scatterIndex("write"),
				{Name: "src", Role: dialect.RoleUpdates, Types: "input's type", Doc: "the values to write, at least as large as index; or give value", Optional: true},
				{Name: "value", Role: dialect.RoleValue, Types: "a 0-d bool, integer, floating-point or complex tensor",
					Doc: "one value to write everywhere, cast to input's type; or give src", Optional: true, AttrKind: dialect.Float}},
			Attrs: []dialect.Attr{dimAttr,
				{Name: "reduce", Role: dialect.RoleReduction, Kind: dialect.String, Doc: "add or multiply; leave out for a plain write"}},
			Behavior: func(v int) dialect.Behavior {
				b := reducing(kernelBehavior(rules, longIndex, arith, noteComplex, noteSource,
					"Without reduce, the last duplicate in index order wins.", noteValue, noteRank, noteEmpty, noteTypes),
					"", "", "add", "multiply")(v)
				b.ReductionRefusal += "; leave reduce out for a plain write"
				return b
			},
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				dim := int(c.Attrs["dim"].Int)
				src, value := c.Inputs["src"], c.Inputs["value"]
				reduce := Reduce(c.Attrs["reduce"].Str)
				switch {
				case !src.IsZero() && !value.IsZero():
					return tensor.Tensor{}, fmt.Errorf("%w: give src or value, not both", dialect.ErrInput)
				case !value.IsZero():
					v, err := ScalarOf(value)
					if err != nil {
						return tensor.Tensor{}, err
					}
					return ScatterValue(c.Inputs["input"], dim, c.Inputs["index"], v, reduce)
				case src.IsZero():
					return tensor.Tensor{}, fmt.Errorf("%w: missing input \"src\" or \"value\"", dialect.ErrInput)
				}
				return Scatter(c.Inputs["input"], dim, c.Inputs["index"], src, reduce)
			},
		},
		{
			Name:    opScatterAdd,
			Family:  "scatter_elements",
			Summary: "add src into input at positions along dim",
			Inputs:  []dialect.Param{inputParam, scatterIndex("add to"), srcParam},
			Attrs:   []dialect.Attr{dimAttr},
			Behavior: reducing(kernelBehavior(rules, longIndex, arith, noteComplex, "Duplicate indices are summed.",
				noteRank, noteEmpty, noteTypes), "", "", "add"),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				dim := int(c.Attrs["dim"].Int)
				return ScatterAdd(c.Inputs["input"], dim, c.Inputs["index"], c.Inputs["src"])
			},
		},
		{
			Name:    opScatterReduce,
			Family:  "scatter_elements",
			Summary: "reduce src into input at positions along dim with sum, prod, mean, amax or amin",
			Inputs:  []dialect.Param{inputParam, scatterIndex("reduce into"), srcParam},
			Attrs:   []dialect.Attr{dimAttr, reduceAttr("sum, prod, mean, amax or amin"), includeSelfAttr},
			Behavior: reducing(kernelBehavior(rules, longIndex, arith, noteComplex,
				"With include_self false, updated positions start from the reduction's start value (+0, 1, or the type's lowest or highest value); others keep theirs.",
				"mean is refused for bool, amax and amin for complex input.", noteRank, noteEmpty, noteTypes),
				includeSelfAttr.Name, "", "sum", "prod", "mean", "amax", "amin"),
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				dim := int(c.Attrs["dim"].Int)
				return ScatterReduce(c.Inputs["input"], dim, c.Inputs["index"], c.Inputs["src"],
					Reduce(c.Attrs["reduce"].Str), c.Attrs["include_self"].Bool)
			},
		},
		gatherOp(opGather, "gather_elements", "take elements of input at positions along dim",
			"positions along dim, of input's rank; may be empty", Gather,
			kernelBehavior(rules, longIndex, engine.Arith{},
				"A 0-d tensor counts as 1-D of size 1; index.size(d) <= input.size(d) for d != dim.",
				"An empty index gives an empty result shaped like index, whatever its rank and type.",
				noteTypes)),
		gatherOp(opIndexSelect, "gather", "take slices of input along dim",
			"positions along dim, 0-d or 1-D", IndexSelect,
			opcall.Fixed(dialect.Behavior{Index: rules, IndexTypes: dialect.Types(tensor.Int32, tensor.Int64),
				DataTypes: dialect.AnyType.Without(tensor.String), TypeRefusals: typeRefusals, Notes: []string{
					"index is 0-d or 1-D, and int32 or int64 even when empty.",
					"A 0-d input takes exactly one index value and gives a 0-d result.",
					"uint16-64 input is refused at rank 0 and 1 and copied by bytes from rank 2."}})),
	}
	ops = append(ops, indexOps()...)
	ops = append(ops, takeOps()...)
	ops = append(ops, maskedOps()...)
	opcall.Unversioned("out", ops)
	scatterBehavior, scatterAddBehavior = opcall.SharedOf(ops, opScatter), opcall.SharedOf(ops, opScatterAdd)
	scatterReduceBehavior, gatherBehavior = opcall.SharedOf(ops, opScatterReduce), opcall.SharedOf(ops, opGather)
	indexSelectBehavior = opcall.SharedOf(ops, opIndexSelect)
	indexAddBehavior, indexCopyBehavior = opcall.SharedOf(ops, opIndexAdd), opcall.SharedOf(ops, opIndexCopy)
	indexFillBehavior, indexReduceBehavior = opcall.SharedOf(ops, opIndexFill), opcall.SharedOf(ops, opIndexReduce)
	takeBehavior, takeAlongDimBehavior = opcall.SharedOf(ops, opTake), opcall.SharedOf(ops, opTakeAlongDim)
	putBehavior = opcall.SharedOf(ops, opPut)
	indexPutBehavior, maskedScatterBehavior = opcall.SharedOf(ops, opIndexPut), opcall.SharedOf(ops, opMaskedScatter)
}

// Ops returns the dialect's operators, for generic callers such as the
// command line. Each has the single version 1; dim is a required
// attribute.
func Ops() []*dialect.Op { return ops }
