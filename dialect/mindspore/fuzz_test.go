package mindspore_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The operators, element types, index types and reduction names the fuzz
// target picks from; the lists also hold values that must be refused.
var (
	fuzzOps   = []string{"scatter_nd", "gather_nd", "tensor_scatter_elements"}
	fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int32,
		tensor.Int64, tensor.Bool, tensor.Complex64, tensor.Float64, tensor.String, tensor.Uint16}
	fuzzIndex     = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int32, tensor.Int16}
	fuzzReduction = []string{"", "none", "add", "mul"}
)

// fuzzCall is one operator call that the fuzz target decodes.
type fuzzCall struct {
	op string
	// x is input_x (gather_nd, tensor_scatter_elements); for scatter_nd, a
	// tensor of the output shape standing for the shape.
	x                tensor.Tensor
	shape            tensor.Shape // scatter_nd's shape
	indices, updates tensor.Tensor
	axis             int
	reduction        string
	// viaRun makes the call through the operator's dialect.Op. attrs then
	// says which attributes of tensor_scatter_elements are given (bit 0
	// axis, bit 1 reduction), or how scatter_nd's shape is given: bit 0 as
	// an attribute, else as an int64 tensor, or with bit 1 an int32 one.
	viaRun bool
	attrs  int
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("mindspore.%s axis %d reduction %q shape %v (via Run %v, attrs %b)\ninput_x %v\nindices %v\nupdates %v",
		c.op, c.axis, c.reduction, c.shape, c.viaRun, c.attrs, c.x, c.indices, c.updates)
}

// readCall decodes a call: the choices first, then input_x (or the shape),
// then indices and updates shaped to fit most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{
		op:        fuzzOps[in.Pick(len(fuzzOps))],
		axis:      in.Next() % 4,
		reduction: fuzzReduction[in.Pick(len(fuzzReduction))],
		viaRun:    in.Pick(4) == 1,
		attrs:     in.Next() & 3,
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	xs := in.Shape()
	c.x = in.Elements(dt, xs)
	if c.op == "tensor_scatter_elements" {
		c.indices = in.Along(it, xs, tensortest.AxisOf(c.axis, len(xs)))
		c.updates = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(c.indices.Shape()))
		return c
	}
	var us tensor.Shape
	c.indices, us = in.ND(it, xs, 0, c.op == "scatter_nd")
	if c.op == "scatter_nd" {
		c.updates = in.Elements(in.Mostly(dt, fuzzTypes), us)
		c.shape = in.MaybeNegative(xs) // the shape of x
	}
	return c
}

// The index rules: scatter_nd and gather_nd take [0, size-1];
// tensor_scatter_elements counts negative indices from the end and skips
// any outside [-size, size-1].
var (
	inRange  = engine.IndexRules{}
	skipping = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeSkip}
)

// numeric reports whether d is an integer or real floating-point type,
// the types every operator takes.
func numeric(d tensor.DType) bool { return d.IsInteger() || d.IsFloat() }

// Model returns what MindSpore defines for the call, made through the
// typed API or (viaRun) the operator's dialect.Op: the output, or an
// error. shape is the output's shape whenever the shapes fit (also for an
// index error).
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	// The checks come in the order the dialect makes them, so that of
	// several faults the model names the one the operator reports.
	indexType := c.indices.DType() == tensor.Int32 || c.indices.DType() == tensor.Int64
	is := c.indices.Shape()
	switch c.op {
	case "scatter_nd":
		dt := c.updates.DType()
		switch {
		case len(c.shape) == 0 || slices.ContainsFunc(c.shape, func(d int) bool { return d < 1 }):
			return want, nil, optest.Refuse(dialect.ErrInput, "shape empty or with a dimension below 1")
		case !numeric(dt) && !dt.IsComplex():
			return want, nil, optest.Refuse(dialect.ErrInput, "element type")
		case !indexType:
			return want, nil, optest.Refuse(dialect.ErrInput, "index type")
		case len(is) < 2:
			return want, nil, optest.Refuse(engine.ErrShape, "indices of rank below 2")
		}
		zeros := tensor.Must(tensor.New(dt, c.shape))
		want, err = reftest.ScatterND(zeros, c.indices, c.updates, engine.ScatterOptions{Rules: inRange, Reduction: engine.Add})
		return want, c.shape, err
	case "gather_nd":
		dt := c.x.DType()
		switch {
		case !numeric(dt) && !dt.IsComplex() && dt != tensor.Bool:
			return want, nil, optest.Refuse(dialect.ErrInput, "element type")
		case !indexType:
			return want, nil, optest.Refuse(dialect.ErrInput, "index type")
		}
		indices := c.indices
		if len(is) == 0 {
			indices = tensor.Must(indices.Reshape(tensor.Shape{1}))
			is = indices.Shape()
		}
		k, xs := is[len(is)-1], c.x.Shape()
		want, err = reftest.GatherND(c.x, indices, 0, inRange)
		return want, tensortest.Join(is[:len(is)-1], xs[min(k, len(xs)):]), err
	}
	axis, name := c.axis, c.reduction
	if viaRun && c.attrs&1 == 0 {
		axis = 0
	}
	if viaRun && c.attrs&2 == 0 {
		name = ""
	}
	red, ok := map[string]engine.Reduction{"": engine.None, "none": engine.None, "add": engine.Add}[name]
	dt, xs := c.x.DType(), c.x.Shape()
	switch {
	case !ok:
		return want, nil, optest.Refuse(dialect.ErrAttribute, "reduction "+name)
	case !numeric(dt) && dt != tensor.Bool:
		return want, nil, optest.Refuse(dialect.ErrInput, "element type")
	case !indexType:
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	case len(xs) < 1:
		return want, nil, optest.Refuse(engine.ErrShape, "scalar input_x")
	case !is.Equal(c.updates.Shape()):
		return want, nil, optest.Refuse(engine.ErrShape, "updates not shaped like indices")
	case axis < -len(xs) || axis >= len(xs):
		return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	if axis < 0 {
		axis += len(xs)
	}
	want, err = reftest.ScatterElements(c.x, c.indices, c.updates, axis, engine.ScatterOptions{Rules: skipping, Reduction: red})
	return want, xs, err
}

// Call runs the allocating form of the typed API.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	switch c.op {
	case "scatter_nd":
		return mindspore.ScatterND(c.indices, c.updates, c.shape)
	case "gather_nd":
		return mindspore.GatherND(c.x, c.indices)
	}
	return mindspore.TensorScatterElements(c.x, c.indices, c.updates, c.axis, mindspore.Reduction(c.reduction))
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"indices": c.indices}, Attrs: map[string]dialect.Value{}}
	switch c.op {
	case "scatter_nd":
		call.Inputs["updates"] = c.updates
		optest.GiveShape(call, c.shape, c.attrs)
	case "gather_nd":
		call.Inputs["input_x"] = c.x
	default:
		call.Inputs["input_x"], call.Inputs["updates"] = c.x, c.updates
		if c.attrs&1 != 0 {
			call.Attrs["axis"] = dialect.Value{Kind: dialect.Int, Int: int64(c.axis)}
		}
		if c.attrs&2 != 0 {
			call.Attrs["reduction"] = dialect.Value{Kind: dialect.String, Str: c.reduction}
		}
	}
	return call
}

// Into runs the Into form; x stands for input_x (dst itself, for in place)
// and is unused by scatter_nd.
func (c *fuzzCall) Into(dst, x tensor.Tensor) error {
	switch c.op {
	case "scatter_nd":
		return mindspore.ScatterNDInto(dst, c.indices, c.updates)
	case "gather_nd":
		return mindspore.GatherNDInto(dst, x, c.indices)
	}
	return mindspore.TensorScatterElementsInto(dst, x, c.indices, c.updates, c.axis, mindspore.Reduction(c.reduction))
}

// FuzzOps runs every MindSpore operator (through the typed API and
// through its dialect.Op, with every attribute and every way of giving
// scatter_nd's shape) on fuzzer-chosen element types, index types, shapes
// and values, and compares the outcome with the reference implementation
// under MindSpore's rules: the same error or not (an index error where
// MindSpore has one), and the same values, bit for bit but for NaN
// payloads. The Into forms must agree with the allocating one: scatter_nd
// into a dirty dst, which a failure leaves alone, and
// tensor_scatter_elements in place too, which a failure leaves input_x
// alone.
func FuzzOps(f *testing.F) {
	// A seed is an operator, a head of choices (axis, reduction, path: 1
	// through Run, attributes, element type, index type; see readCall) and
	// a tail of shapes and values that fit (plain values, or NaN, -0 and
	// duplicate indices).
	tails := map[bool][][]byte{
		false: { // the ND operators
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 1, 2, 1, 8, 0, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 1, 1, 3, 1, 8, 8, 16, 1, 1, 124, 0x80, 127},
		},
		true: { // tensor_scatter_elements
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 2, 3, 1, 8, 0, 16, 13, 7, 2, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 3, 1, 8, 8, 15, 1, 1, 124, 0x80, 127},
		},
	}
	heads := map[string][][]byte{
		"scatter_nd": {
			{0, 0, 0, 0, 0, 0},
			{0, 0, 1, 1, 1, 2}, // float16, shape as an attribute
			{0, 0, 1, 2, 3, 0}, // int8, shape as an int32 tensor
			{0, 0, 1, 0, 8, 0}, // complex64, shape as an int64 tensor
			{0, 0, 0, 0, 7, 0}, // bools refused
		},
		"gather_nd": {
			{0, 0, 0, 0, 0, 0},
			{0, 0, 1, 0, 7, 2},  // bools through Run
			{0, 0, 0, 0, 10, 0}, // strings refused
		},
		"tensor_scatter_elements": {
			{0, 0, 0, 0, 0, 0},
			{1, 2, 0, 0, 1, 2},   // add on axis 1, float16
			{255, 2, 1, 3, 7, 0}, // add on axis -1, bools, through Run
			{0, 1, 1, 2, 2, 3},   // none, bfloat16, through Run
			{0, 3, 0, 0, 0, 0},   // mul refused
			{0, 0, 0, 0, 8, 0},   // complex refused
		},
	}
	optest.Fuzz(f, mindspore.Ops(), fuzzOps, heads,
		func(op string) [][]byte { return tails[op == "tensor_scatter_elements"] }, readCall)
}

// Name, ViaRun, Input, Scatter and Zeros make fuzzCall an optest.Call and
// optest.ZeroScatter.
func (c *fuzzCall) Name() string { return "mindspore." + c.op }

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.x }

func (c *fuzzCall) Scatter() bool { return c.op == "tensor_scatter_elements" }

func (c *fuzzCall) Zeros() (tensor.DType, tensor.Shape, bool) {
	return c.updates.DType(), c.shape, c.op == "scatter_nd"
}
