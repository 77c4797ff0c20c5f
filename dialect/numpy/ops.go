package numpy

import (
	"slices"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// The operator names, as dialect.Op.Name and in errors.
const (
	takeName       = "numpy.take"
	putName        = "numpy.put"
	takeAlongName  = "numpy.take_along_axis"
	putAlongName   = "numpy.put_along_axis"
	addAtName      = "numpy.add.at"
	subtractAtName = "numpy.subtract.at"
	multiplyAtName = "numpy.multiply.at"
	maximumAtName  = "numpy.maximum.at"
	minimumAtName  = "numpy.minimum.at"
)

// The element types: NumPy's numeric types, bool and complex, not
// strings; subtract refuses bool, and this dialect's maximum and minimum
// have no order for complex numbers.
var (
	dataTypes     = dialect.AnyType.Without(tensor.String)
	subtractTypes = dataTypes.Without(tensor.Bool)
	extremumTypes = dataTypes.Without(tensor.Complex64, tensor.Complex128)
	indexTypes    = dialect.IntegerTypes
	// NumPy's arithmetic where it differs from Go's: complex products
	// computed part by part in the parts' precision (multiply's loop);
	// maximum and minimum propagate NaN, the zero value, as np.maximum.
	complexProducts = engine.Arith{Complex: engine.ComplexC10, MinMax: engine.MinMaxNaN}
)

// The operators' shared Behaviors, which init sets and the typed
// functions read.
var takeB, putB, takeAlongB, addAtB, subtractAtB, multiplyAtB, maximumAtB, minimumAtB *dialect.Behavior

func init() {
	ops := indexOps()
	takeB = opcall.SharedOf(ops, takeName)
	putB = opcall.SharedOf(ops, putName)
	takeAlongB = opcall.SharedOf(ops, takeAlongName)
	addAtB = opcall.SharedOf(ops, addAtName)
	subtractAtB = opcall.SharedOf(ops, subtractAtName)
	multiplyAtB = opcall.SharedOf(ops, multiplyAtName)
	maximumAtB = opcall.SharedOf(ops, maximumAtName)
	minimumAtB = opcall.SharedOf(ops, minimumAtName)
}

// behavior is the Behavior of an operator, the same in every NumPy
// version this dialect follows: its index rules (mode raise's for take
// and put, whose other modes modeRules holds), element types, reduction
// and notes.
func behavior(types dialect.TypeSet, red map[string]engine.Reduction, notes ...string) func(int) dialect.Behavior {
	return opcall.Fixed(dialect.Behavior{Index: indexRules, Reductions: red, IndexTypes: indexTypes, DataTypes: types, Notes: notes})
}

// replacing is the reduction of put and put_along_axis, which write over
// the array's values, as the table names it.
var replacing = map[string]engine.Reduction{"replace": engine.None}

// The notes the operators share.
const (
	modeNote = "mode raise (the default) counts a negative index from the end and refuses one outside [-size, size-1]; " +
		"mode wrap takes every index modulo the size, as Python's % does; " +
		"mode clip sends an index below 0 to 0 and one past the end to the last position, counting nothing from the end."
	boolNote = "A bool array is not taken as indices (NumPy reads it as 0 and 1 in take and put, as a mask in ufunc.at): it is refused."
	castNote = "The values written must have the array's element type: NumPy's casting of other types " +
		"(and NumPy 2's NEP 50 rules for Python scalars) are not reproduced."
	axisNote  = "axis left out is -1, NumPy 2.3's default; None (the flattened array) is the Go API's only (numpy.Flat)."
	atNote    = "Unbuffered: each of duplicate indices applies, in row-major index order, every step rounded to a's element type."
	atIdxNote = "indices is one integer array, indexing a's first axis, or a tuple of them (indices.0, indices.1, ...), broadcast together; " +
		"b broadcasts to the indexed shape. Every index is checked before anything is written."
)

// withArithmetic gives op's Behavior the arithmetic a, and returns op.
func withArithmetic(op *dialect.Op, a engine.Arith) *dialect.Op {
	b := op.Behavior
	op.Behavior = func(v int) dialect.Behavior {
		x := b(v)
		x.Arith = a
		return x
	}
	return op
}

// indexOps returns the index operators: take, put, the along-axis pair
// and ufunc.at, in a slice without room to spare, so that appending other
// operators to it (Ops) copies it.
func indexOps() []*dialect.Op { return slices.Clip(indexTable) }

var (
	axisAttr = dialect.Attr{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int,
		Doc: "the axis, counted from the end when negative; left out, None: the flattened array"}
	modeAttr = dialect.Attr{Name: "mode", Kind: dialect.String, Default: "raise", Doc: "raise, wrap or clip"}
)

// readParam is the input name, the array an operator reads.
func readParam(name string) dialect.Param {
	return dialect.Param{Name: name, Role: dialect.RoleData, Doc: "the array to read"}
}

// updateParams are the inputs of an operator that writes values into an
// array: the input array, the array it updates, which a call through the
// table copies (it returns the updated copy); indices; and the input
// values, of array's type, spread over the positions as how says.
func updateParams(array string, indices dialect.Param, values, how string) []dialect.Param {
	return []dialect.Param{
		{Name: array, Role: dialect.RoleData, Doc: "the array to update (the result is the updated copy)"},
		indices,
		{Name: values, Role: dialect.RoleUpdates, Types: array + "'s type", Doc: "the values, " + how},
	}
}

// atOp returns the table entry of ufunc.at of the named ufunc.
func atOp(name, family, summary string, red engine.Reduction, reduction string, types dialect.TypeSet,
	into func(dst, a tensor.Tensor, indices Indices, b tensor.Tensor) error, notes ...string) *dialect.Op {
	return &dialect.Op{
		Name:     name,
		Family:   family,
		Summary:  summary,
		Behavior: behavior(types, map[string]engine.Reduction{reduction: red}, append([]string{atNote, atIdxNote, castNote, boolNote}, notes...)...),
		Inputs: updateParams("a", dialect.Param{Name: "indices", Role: dialect.RoleIndices, Tuple: true,
			Doc: "an integer array indexing a's first axis, or a tuple indices.0, indices.1, ... indexing the first dimensions"},
			"b", "broadcast to the indexed shape"),
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			indices, err := dialect.TupleInputs(c, "indices")
			if err != nil {
				return tensor.Tensor{}, opcall.Wrap(name, err)
			}
			a := c.Inputs["a"]
			return opcall.AllocLike(name, a, "a", func(dst tensor.Tensor) error { return into(dst, a, indices, c.Inputs["b"]) })
		},
	}
}

var indexTable = opcall.Unversioned("out", []*dialect.Op{
	{
		Name:    takeName,
		Family:  "take",
		Summary: "take elements of a at indices along an axis, or of the flattened a",
		Behavior: behavior(dataTypes, nil, modeNote, boolNote,
			"The result has the shape a.shape[:axis] + indices.shape + a.shape[axis+1:]; indices.shape when axis is None.",
			"Taking from an axis of size 0 is an error in every mode, but for a result with no elements in modes wrap and clip, "+
				"which reads nothing (NumPy's wrap loop would not end); mode raise checks every index even then.",
			"Index types: NumPy 1.24 refuses uint64 and NumPy 2 casts with same_kind; this dialect takes every integer type."),
		Inputs: []dialect.Param{
			readParam("a"),
			{Name: "indices", Role: dialect.RoleIndices, Doc: "positions along axis, any shape"},
		},
		Attrs: []dialect.Attr{axisAttr, modeAttr},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			mode, err := ParseMode(c.Attrs["mode"].Str)
			if err != nil {
				return tensor.Tensor{}, opcall.Wrap(takeName, err)
			}
			return Take(c.Inputs["a"], c.Inputs["indices"], axisOf(c), mode)
		},
	},
	{
		Name:    putName,
		Family:  "put",
		Summary: "write v, repeated, at indices of the flattened a",
		Behavior: behavior(dataTypes, replacing, modeNote, boolNote, castNote,
			"The i-th index receives v[i % len(v)], in index order: the last of duplicate indices wins; an empty v writes nothing.",
			"Every index is checked before anything is written: a failed put leaves a as it was (NumPy's raise mode may write the values before a bad index).",
			"Putting into an empty array is an error in every mode."),
		Inputs: updateParams("a", dialect.Param{Name: "ind", Role: dialect.RoleIndices, Doc: "positions in the flattened a, any shape"},
			"v", "repeated as needed"),
		Attrs: []dialect.Attr{modeAttr},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			mode, err := ParseMode(c.Attrs["mode"].Str)
			if err != nil {
				return tensor.Tensor{}, opcall.Wrap(putName, err)
			}
			a := c.Inputs["a"]
			return opcall.AllocLike(putName, a, "a", func(dst tensor.Tensor) error {
				return PutInto(dst, a, c.Inputs["ind"], c.Inputs["v"], mode)
			})
		},
	},
	{
		Name:    takeAlongName,
		Family:  "take_along_axis",
		Summary: "take elements of arr at positions along an axis given per element",
		Behavior: behavior(dataTypes, nil, boolNote, axisNote,
			"A negative index counts from the end; one outside [-size, size-1] is an error.",
			"indices has arr's rank and broadcasts against arr in every dimension but axis; with axis None it is 1-D."),
		Inputs: []dialect.Param{
			readParam("arr"),
			{Name: "indices", Role: dialect.RoleIndices, Doc: "positions along axis, of arr's rank"},
		},
		Attrs: []dialect.Attr{{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Default: "-1",
			Doc: "the axis, counted from the end when negative"}},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			return TakeAlongAxis(c.Inputs["arr"], c.Inputs["indices"], axisOf(c))
		},
	},
	{
		Name:    putAlongName,
		Family:  "scatter_elements",
		Summary: "write values into arr at positions along an axis given per element",
		Behavior: behavior(dataTypes, replacing, boolNote, castNote,
			"axis is required; None (the flattened array) is the Go API's only (numpy.Flat).",
			"A negative index counts from the end; one outside [-size, size-1] is an error, raised before anything is written.",
			"indices broadcasts against arr in every dimension but axis; values broadcasts to the indexed shape.",
			"Of duplicate positions the last in row-major index order wins (NumPy promises no order)."),
		Inputs: updateParams("arr", dialect.Param{Name: "indices", Role: dialect.RoleIndices, Doc: "positions along axis, of arr's rank"},
			"values", "broadcast to the indexed shape"),
		Attrs: []dialect.Attr{{Name: "axis", Role: dialect.RoleAxis, Kind: dialect.Int, Required: true,
			Doc: "the axis, counted from the end when negative"}},
		Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
			arr := c.Inputs["arr"]
			return opcall.AllocLike(putAlongName, arr, "arr", func(dst tensor.Tensor) error {
				return PutAlongAxisInto(dst, arr, c.Inputs["indices"], c.Inputs["values"], axisOf(c))
			})
		},
	},
	atOp(addAtName, "segment_sum", "add b into a at indices, duplicates accumulating", engine.Add, "add", dataTypes, AddAtInto,
		"bool addition is OR; integers wrap."),
	atOp(subtractAtName, "segment_sub", "subtract b from a at indices, duplicates accumulating", engine.Sub, "subtract", subtractTypes,
		SubtractAtInto, "bool is refused, as NumPy's subtract refuses it."),
	withArithmetic(atOp(multiplyAtName, "segment_prod", "multiply a by b at indices, duplicates accumulating", engine.Mul, "multiply",
		dataTypes, MultiplyAtInto, "bool multiplication is AND."), complexProducts),
	atOp(maximumAtName, "segment_max", "keep the larger of a and b at indices, duplicates accumulating", engine.Max, "maximum",
		extremumTypes, MaximumAtInto, "A NaN on either side gives NaN (the one in place if both are); of +0 and -0 the value in place stays.",
		"Complex a is refused (NumPy orders complex numbers lexicographically)."),
	atOp(minimumAtName, "segment_min", "keep the smaller of a and b at indices, duplicates accumulating", engine.Min, "minimum",
		extremumTypes, MinimumAtInto, "A NaN on either side gives NaN (the one in place if both are); of +0 and -0 the value in place stays.",
		"Complex a is refused (NumPy orders complex numbers lexicographically)."),
})

// Ops returns the dialect's operators, for generic callers such as the
// command line: numpy.take, numpy.put, numpy.take_along_axis,
// numpy.put_along_axis and numpy.add.at, subtract.at, multiply.at,
// maximum.at and minimum.at, and numpy.add.reduceat, multiply.reduceat,
// maximum.reduceat and minimum.reduceat, each with the single version 1. The
// operators that NumPy runs in place return the updated copy. Their Eval
// functions see attributes with defaults filled in by Run.
func Ops() []*dialect.Op { return append(indexOps(), reduceatOps()...) }
