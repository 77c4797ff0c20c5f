package tf_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The operators, element types and index types the fuzz target picks
// from; the lists also hold values that must be refused.
var (
	fuzzOps = []string{"gather_nd", "gather", "scatter_nd", "tensor_scatter_nd_update", "tensor_scatter_nd_add",
		"tensor_scatter_nd_sub", "tensor_scatter_nd_min", "tensor_scatter_nd_max"}
	fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int32,
		tensor.Int64, tensor.Bool, tensor.Float64, tensor.Complex64, tensor.String, tensor.Uint16}
	fuzzIndex = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int32, tensor.Int16}
)

// fuzzCall is one operator call that the fuzz target decodes.
type fuzzCall struct {
	op string
	// params (gather_nd, gather) or tensor (the tensor scatters); for
	// scatter_nd, a tensor of the output shape standing for the shape.
	params           tensor.Tensor
	shape            tensor.Shape // scatter_nd's shape
	indices, updates tensor.Tensor
	axis, batchDims  int
	// viaRun makes the call through the operator's dialect.Op. attrs then
	// says which attributes are given (bit 0 axis, bit 1 batch_dims), or
	// for scatter_nd how shape is given: bit 0 as an attribute, else as an
	// int64 tensor, or with bit 1 an int32 one.
	viaRun bool
	attrs  int
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("tf.%s axis %d batch_dims %d shape %v (via Run %v, attrs %b)\nparams %v\nindices %v\nupdates %v",
		c.op, c.axis, c.batchDims, c.shape, c.viaRun, c.attrs, c.params, c.indices, c.updates)
}

// Scatter reports whether the operator is one of the
// tensor_scatter_nd_* operators, which may run in place.
func (c *fuzzCall) Scatter() bool {
	return c.op != "gather_nd" && c.op != "gather" && c.op != "scatter_nd"
}

// readCall decodes a call: the choices first, then params (or the shape),
// then indices and updates shaped to fit most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{
		op:        fuzzOps[in.Pick(len(fuzzOps))],
		axis:      in.Next() % 5,
		batchDims: in.Next() % 4,
		viaRun:    in.Pick(4) == 1,
		attrs:     in.Next() & 3,
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ps := in.Shape()
	c.params = in.Elements(dt, ps)
	b := min(max(c.batchDims, 0), len(ps))
	switch c.op {
	case "gather":
		a := tensortest.AxisOf(c.axis, len(ps))
		c.indices = in.IndicesFor(it, in.Fit(tensortest.Join(ps[:b], in.Shape())), tensortest.Sizes(ps, a, 1))
		return c
	case "gather_nd":
		c.indices, _ = in.ND(it, ps, b, false)
		return c
	}
	var us tensor.Shape
	c.indices, us = in.ND(it, ps, 0, true)
	c.updates = in.Elements(in.Mostly(dt, fuzzTypes), us)
	if c.op == "scatter_nd" {
		c.shape = in.MaybeNegative(ps) // the shape of params
	}
	return c
}

// inRange are TensorFlow's index rules on the CPU: an index must lie in
// [0, size-1].
var inRange = engine.IndexRules{}

// Model returns what TensorFlow does with the call, made through the typed
// API or (viaRun) the operator's dialect.Op: the output, or an error.
// shape is the output's shape whenever the shapes fit (also for an index
// error).
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	if it := c.indices.DType(); it != tensor.Int32 && it != tensor.Int64 {
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	switch c.op {
	case "gather_nd":
		b := c.batchDims
		if viaRun && c.attrs&2 == 0 {
			b = 0
		}
		return c.gatherND(b)
	case "gather":
		b := c.batchDims
		if viaRun && c.attrs&2 == 0 {
			b = 0
		}
		axis := c.axis
		if viaRun && c.attrs&1 == 0 {
			axis = b // TensorFlow's axis=None
		}
		return c.gather(axis, b)
	}
	dt := c.updates.DType()
	opt := engine.ScatterOptions{Rules: inRange}
	data := c.params
	switch c.op {
	case "scatter_nd":
		for _, d := range c.shape {
			if d < 0 {
				return want, nil, optest.Refuse(engine.ErrShape, "negative dimension")
			}
		}
		data = tensor.Must(tensor.New(dt, c.shape))
		opt.Reduction, opt.Arith.ConcatStrings = engine.Add, true
	case "tensor_scatter_nd_add", "tensor_scatter_nd_sub":
		if data.DType() == tensor.Bool || data.DType() == tensor.String {
			return want, nil, optest.Refuse(dialect.ErrInput, "element type")
		}
		opt.Reduction = engine.Add
		if c.op == "tensor_scatter_nd_sub" {
			opt.Reduction = engine.Sub
		}
	case "tensor_scatter_nd_min", "tensor_scatter_nd_max":
		if d := data.DType(); d == tensor.Bool || d == tensor.String || d.IsComplex() {
			return want, nil, optest.Refuse(dialect.ErrInput, "element type")
		}
		opt.Reduction, opt.Arith.MinMax = engine.Min, engine.MinMaxStd
		if c.op == "tensor_scatter_nd_max" {
			opt.Reduction = engine.Max
		}
	}
	if data.DType() != dt {
		return want, nil, optest.Refuse(engine.ErrType, "updates of another type")
	}
	empty, err := scatterShapes(c.indices.Shape(), c.updates.Shape(), data.Shape())
	switch {
	case err != nil:
		return want, nil, err
	case empty:
		return data.Clone(), data.Shape(), nil
	}
	want, err = reftest.ScatterND(data, c.indices, c.updates, opt)
	return want, data.Shape(), err
}

// scatterShapes checks the shapes of a scatter as TensorFlow's kernels do;
// empty is true when the output has no elements and there is nothing to
// do. indices has rank >= 2 and updates the shape indices.shape[:-1] +
// shape[k:] with k = indices.shape[-1], except that the kernels also read
// 1-D indices as a list of 1-tuples and so take them only for an empty
// output and empty updates shaped like it. indices and updates are both
// empty, or both not empty with an output that is not empty. Then, unless
// the output is empty, 1 <= k <= 7.
func scatterShapes(is, us, shape tensor.Shape) (empty bool, err error) {
	if len(is) < 1 || len(us) < 1 || len(shape) < 1 {
		return false, optest.Refuse(engine.ErrShape, "a scalar indices, updates or output")
	}
	ni, nu, out := tensortest.Count(is), tensortest.Count(us), tensortest.Count(shape)
	if !(ni == 0 && nu == 0 || out > 0 && ni > 0 && nu > 0) {
		return false, optest.Refuse(engine.ErrShape, "indices and updates for an empty output, or one of them empty")
	}
	q, k := len(is), is[len(is)-1]
	switch {
	case q == 1:
		if k != 0 || !us.Equal(shape) || shape[0] != 0 {
			return false, optest.Refuse(engine.ErrShape, "1-D indices")
		}
	case k > len(shape) || !us.Equal(tensortest.Join(is[:q-1], shape[k:])):
		return false, optest.Refuse(engine.ErrShape, "updates shape")
	}
	if out == 0 {
		return true, nil
	}
	if k < 1 || k > 7 {
		return false, optest.Refuse(engine.ErrShape, "indices.shape[-1] out of [1, 7]")
	}
	return false, nil
}

// gatherND is tf.gather_nd: with batch_dims b > 0 the batch dimensions of
// indices need only hold as many elements as params' (TensorFlow reshapes
// them); the index tuples are checked only when there are some.
func (c *fuzzCall) gatherND(b int) (tensor.Tensor, tensor.Shape, error) {
	ps, is := c.params.Shape(), c.indices.Shape()
	indices := c.indices
	if b != 0 {
		if b < 0 || b >= len(is) || b >= len(ps) {
			return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims")
		}
		want := tensortest.Join(ps[:b], is[b:])
		if tensortest.Count(want) != tensortest.Count(is) {
			return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "batch dimensions of another size")
		}
		indices = tensor.Must(indices.Reshape(want))
		is = want
	}
	if len(ps) < 1 || len(is) < 1 {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "scalar params or indices")
	}
	k := is[len(is)-1]
	if b+k > len(ps) {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "indices.shape[-1] larger than the rank")
	}
	shape := tensortest.Join(is[:len(is)-1], ps[b+k:])
	if tuples := tensortest.Count(is[:len(is)-1]); tuples == 0 {
		return tensor.Must(tensor.New(c.params.DType(), shape)), shape, nil
	} else if tensortest.Count(ps) == 0 {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "tuples into empty params")
	}
	want, err := reftest.GatherND(c.params, indices, b, inRange)
	return want, shape, err
}

// gather is tf.gather: axis 0 ignores batch_dims; axis and batch_dims
// count from the end when negative; indices are checked only when the
// output has elements.
func (c *fuzzCall) gather(axis, b int) (tensor.Tensor, tensor.Shape, error) {
	ps, is := c.params.Shape(), c.indices.Shape()
	if axis == 0 {
		b = 0
	}
	switch {
	case len(ps) < 1:
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "scalar params")
	case axis < -len(ps) || axis >= len(ps):
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	if axis < 0 {
		axis += len(ps)
	}
	if b != 0 {
		if b < -len(is) || b > len(is) {
			return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims out of [-rank, rank] of indices")
		}
		if b < 0 {
			b += len(is)
		}
		switch {
		case b >= len(ps) || axis < b:
			return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims")
		case !ps[:b].Equal(is[:b]):
			return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "batch dimensions differ")
		}
	}
	shape := tensortest.Join(ps[:axis], is[b:], ps[axis+1:])
	if tensortest.Count(shape) == 0 {
		return tensor.Must(tensor.New(c.params.DType(), shape)), shape, nil
	}
	want, err := reftest.Gather(c.params, c.indices, axis, b, inRange)
	return want, shape, err
}

// Call runs the allocating form of the typed API.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	switch c.op {
	case "gather_nd":
		return tf.GatherND(c.params, c.indices, c.batchDims)
	case "gather":
		return tf.Gather(c.params, c.indices, c.axis, c.batchDims)
	case "scatter_nd":
		return tf.ScatterND(c.indices, c.updates, c.shape)
	case "tensor_scatter_nd_update":
		return tf.TensorScatterUpdate(c.params, c.indices, c.updates)
	case "tensor_scatter_nd_add":
		return tf.TensorScatterAdd(c.params, c.indices, c.updates)
	case "tensor_scatter_nd_sub":
		return tf.TensorScatterSub(c.params, c.indices, c.updates)
	case "tensor_scatter_nd_min":
		return tf.TensorScatterMin(c.params, c.indices, c.updates)
	}
	return tf.TensorScatterMax(c.params, c.indices, c.updates)
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"indices": c.indices}, Attrs: map[string]dialect.Value{}}
	switch {
	case c.op == "scatter_nd":
		call.Inputs["updates"] = c.updates
		optest.GiveShape(call, c.shape, c.attrs)
	case c.Scatter():
		call.Inputs["tensor"], call.Inputs["updates"] = c.params, c.updates
	default:
		call.Inputs["params"] = c.params
		if c.attrs&1 != 0 && c.op == "gather" {
			call.Attrs["axis"] = dialect.Value{Kind: dialect.Int, Int: int64(c.axis)}
		}
		if c.attrs&2 != 0 {
			call.Attrs["batch_dims"] = dialect.Value{Kind: dialect.Int, Int: int64(c.batchDims)}
		}
	}
	return call
}

// Into runs the Into form; data stands for tensor (dst itself, for in
// place) and is unused by the others.
func (c *fuzzCall) Into(dst, data tensor.Tensor) error {
	switch c.op {
	case "gather_nd":
		return tf.GatherNDInto(dst, c.params, c.indices, c.batchDims)
	case "gather":
		return tf.GatherInto(dst, c.params, c.indices, c.axis, c.batchDims)
	case "scatter_nd":
		return tf.ScatterNDInto(dst, c.indices, c.updates)
	case "tensor_scatter_nd_update":
		return tf.TensorScatterUpdateInto(dst, data, c.indices, c.updates)
	case "tensor_scatter_nd_add":
		return tf.TensorScatterAddInto(dst, data, c.indices, c.updates)
	case "tensor_scatter_nd_sub":
		return tf.TensorScatterSubInto(dst, data, c.indices, c.updates)
	case "tensor_scatter_nd_min":
		return tf.TensorScatterMinInto(dst, data, c.indices, c.updates)
	}
	return tf.TensorScatterMaxInto(dst, data, c.indices, c.updates)
}

// Check fails t unless the outcome (got, err) agrees with the model's. An
// error must be an *OpError naming the operator, and an index error an
// *engine.IndexError that names what TensorFlow names: the first bad index
// for gather, and for the others the last bad index tuple (by its first
// bad component).
func (c *fuzzCall) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	var ie *engine.IndexError
	var re *reftest.IndexError
	if !errors.As(err, &ie) || !errors.As(wantErr, &re) {
		return
	}
	named := re.Bad[0]
	if c.op != "gather" {
		k := c.indices.Dim(c.indices.Rank() - 1)
		last := re.Bad[len(re.Bad)-1] / k // the last bad tuple
		named = re.Bad[slices.IndexFunc(re.Bad, func(p int) bool { return p/k == last })]
	}
	if at := c.indices.Shape().Offset(ie.Pos); at != named {
		t.Fatalf("%s: error %v names indices%v (flat %d), want flat position %d\n%v", form, err, ie.Pos, at, named, c)
	}
}

// FuzzOps runs every TensorFlow operator (through the typed API and
// through its dialect.Op, with every attribute and every way of giving
// scatter_nd's shape) on fuzzer-chosen element types, index types, shapes
// and values, and compares the outcome with the reference implementation
// under TensorFlow's rules: the same error or not (an index error naming
// the index TensorFlow names, where TensorFlow has one), and the same
// values, bit for bit but for NaN payloads. The Into forms must agree
// with the allocating one, into a dirty dst and in place for the tensor
// scatters; a failed scatter leaves its dst alone.
func FuzzOps(f *testing.F) {
	// A seed is an operator, a head of choices (axis, batch_dims, path: 1
	// through Run, attributes, element type, index type; see readCall) and
	// a tail of shapes and values that fit (plain values, or NaN, -0 and
	// duplicate indices).
	tails := map[bool][][]byte{
		false: { // the ND operators
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 1, 2, 1, 8, 0, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 1, 1, 3, 1, 8, 8, 16, 1, 1, 124, 0x80, 127},
		},
		true: { // gather
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 2, 2, 2, 8, 0, 16, 13},
			{2, 3, 1, 127, 0x80, 5, 0, 1, 8},
		},
	}
	heads := map[string][][]byte{
		"gather_nd": {
			{0, 0, 0, 0, 0, 0},
			{0, 1, 0, 0, 3, 2},  // batch_dims 1, int8, int32 indices
			{0, 1, 1, 2, 10, 0}, // strings through Run with batch_dims
			{0, 0, 0, 0, 0, 4},  // int16 indices refused
		},
		"gather": {
			{1, 0, 0, 0, 0, 0},
			{1, 1, 0, 0, 1, 2},   // axis 1, batch_dims 1
			{0, 1, 0, 0, 7, 0},   // axis 0 ignores batch_dims
			{255, 0, 1, 1, 9, 0}, // axis -1 through Run
			{0, 1, 1, 2, 2, 0},   // axis defaults to batch_dims
		},
		"scatter_nd": {
			{0, 0, 0, 0, 0, 0},
			{0, 0, 1, 1, 10, 0}, // strings, shape as an attribute
			{0, 0, 1, 2, 7, 2},  // bools, shape as an int32 tensor
			{0, 0, 1, 0, 1, 3},  // float16, shape as an int64 tensor
		},
		"tensor_scatter_nd_update": {
			{0, 0, 0, 0, 0, 0},
			{0, 0, 1, 0, 10, 2},
		},
		"tensor_scatter_nd_add": {
			{0, 0, 0, 0, 3, 0},
			{0, 0, 0, 0, 7, 0}, // bools refused
		},
		"tensor_scatter_nd_sub": {
			{0, 0, 0, 0, 4, 2},
			{0, 0, 1, 0, 9, 0},
		},
		"tensor_scatter_nd_min": {
			{0, 0, 0, 0, 0, 0},
			{0, 0, 0, 0, 2, 0},
		},
		"tensor_scatter_nd_max": {
			{0, 0, 0, 0, 1, 3},
			{0, 0, 0, 0, 9, 0}, // complex refused
		},
	}
	optest.Fuzz(f, tf.Ops(), fuzzOps, heads,
		func(op string) [][]byte { return tails[op == "gather"] }, readCall)
}

// Name, ViaRun, Input and Zeros make fuzzCall an optest.Call and
// optest.ZeroScatter.
func (c *fuzzCall) Name() string { return "tf." + c.op }

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.params }

func (c *fuzzCall) Zeros() (tensor.DType, tensor.Shape, bool) {
	return c.updates.DType(), c.shape, c.op == "scatter_nd"
}
