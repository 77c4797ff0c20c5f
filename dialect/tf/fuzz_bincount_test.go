package tf_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// bincountDTypes are the bin types the fuzz target picks from: Undefined
// (int32), TensorFlow's four, and one to refuse.
var bincountDTypes = []tensor.DType{tensor.Undefined, tensor.Int32, tensor.Int64, tensor.Float32, tensor.Float64, tensor.Int8}

// bincountCall is one tf.math.bincount call that the fuzz target decodes.
type bincountCall struct {
	arr    tensor.Tensor
	opts   tf.BincountOptions
	viaRun bool
}

func (c *bincountCall) String() string {
	return fmt.Sprintf("tf.math.bincount (via Run %v) minlength %d maxlength %d (%v) dtype %v axis %d binary %v\narr %v\nweights %v",
		c.viaRun, c.opts.MinLength, c.opts.MaxLength, c.opts.HasMaxLength, c.opts.DType, c.opts.Axis, c.opts.BinaryOutput,
		c.arr, c.opts.Weights)
}

// readBincountCall decodes a call: the operator, the path, the index type, arr's shape
// and values (mostly in [0, 4), some negative or past 4), the weights
// (none, float32 or int64 of arr's shape, or any shape), minlength,
// maxlength, dtype, axis and binary_output.
func readBincountCall(in *tensortest.Fuzz) *bincountCall {
	in.Next() // the operator's byte: tf.math.bincount is the only one
	c := &bincountCall{viaRun: in.Pick(4) == 1}
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	as := in.Shape()
	c.arr = in.IndicesFor(it, as, []int{4})
	switch in.Pick(4) {
	case 1:
		c.opts.Weights = in.Elements(tensor.Float32, as)
	case 2:
		c.opts.Weights = in.Elements(tensor.Int64, as)
	case 3:
		c.opts.Weights = in.Elements(tensor.Float64, in.Shape())
	}
	c.opts.MinLength = in.Next()%8 - 1
	c.opts.HasMaxLength = in.Bool()
	c.opts.MaxLength = in.Next()%8 - 1
	c.opts.DType = bincountDTypes[in.Pick(len(bincountDTypes))]
	c.opts.Axis = [...]int{0, -1, 0, -1, 1}[in.Pick(5)]
	c.opts.BinaryOutput = in.Pick(4) == 0
	return c
}

// dtype is the output's type.
func (c *bincountCall) dtype() tensor.DType {
	switch {
	case !c.opts.Weights.IsZero():
		return c.opts.Weights.DType()
	case c.opts.DType == tensor.Undefined:
		return tensor.Int32
	}
	return c.opts.DType
}

// Model is what TensorFlow 2.15+ does: the Python layer's checks, then
// DenseBincount, as the reference's ScatterElements of the weights (or
// ones) onto zero bins, values past the last bin skipped, after the
// kernel's refusal of a negative value.
func (c *bincountCall) Model(bool) (tensor.Tensor, tensor.Shape, error) {
	w, o := c.opts.Weights, c.opts
	if it := c.arr.DType(); it != tensor.Int32 && it != tensor.Int64 {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	switch {
	case !w.IsZero() && o.BinaryOutput:
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrArgument, "weights and binary_output")
	case o.Axis != 0 && o.Axis != -1:
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	d := c.dtype()
	if d != tensor.Int32 && d != tensor.Int64 && d != tensor.Float32 && d != tensor.Float64 {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "bin type")
	}
	as := c.arr.Shape()
	rows := o.Axis == -1 && len(as) == 2
	if o.Axis == -1 && len(as) > 2 {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "rank")
	}
	counts := w.IsZero() || w.Len() == 0
	switch {
	case counts:
	case rows && !w.Shape().Equal(as):
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "weights shape")
	case w.Len() != c.arr.Len():
		// Both flattened, or 1-D.
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "weights size")
	}
	top, negative := int64(math.MinInt64), false
	for i := range c.arr.Len() {
		v, _ := c.arr.IntAt(i)
		top, negative = max(top, v), negative || v < 0
	}
	size := int64(0)
	if c.arr.Len() > 0 {
		size = top + 1
	}
	size = max(size, int64(o.MinLength))
	if o.HasMaxLength {
		size = min(size, int64(o.MaxLength))
	}
	if size < 0 {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "negative size")
	}
	idxShape, outShape, axis := tensor.Shape{c.arr.Len()}, tensor.Shape{int(size)}, 0
	if rows {
		idxShape, outShape, axis = as, tensor.Shape{as[0], int(size)}, 1
	}
	if negative {
		// The kernel checks the values once it has its size.
		return tensor.Tensor{}, outShape, optest.Refuse(engine.ErrIndex, "negative value")
	}
	bins := tensor.Must(tensor.New(d, outShape))
	if bins.Len() == 0 || c.arr.Len() == 0 {
		return bins, outShape, nil
	}
	upd := w
	if counts {
		upd = tensor.Must(tensor.New(d, as))
		for i := range upd.Len() {
			if !upd.SetIntAt(i, 1) {
				upd.SetFloatAt(i, 1)
			}
		}
	}
	opt := engine.ScatterOptions{Rules: engine.IndexRules{OutOfRange: engine.OutOfRangeSkip}, Reduction: engine.Add}
	if o.BinaryOutput {
		opt.Reduction = engine.None
	}
	want, err := reftest.ScatterElements(bins, tensor.Must(c.arr.Reshape(idxShape)), tensor.Must(upd.Reshape(idxShape)), axis, opt)
	return want, outShape, err
}

func (c *bincountCall) Call() (tensor.Tensor, error) { return tf.Bincount(c.arr, c.opts) }

func (c *bincountCall) Into(dst, _ tensor.Tensor) error { return tf.BincountInto(dst, c.arr, c.opts) }

func (c *bincountCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"arr": c.arr}, Attrs: map[string]dialect.Value{
		"minlength":     {Kind: dialect.Int, Int: int64(c.opts.MinLength)},
		"axis":          {Kind: dialect.Int, Int: int64(c.opts.Axis)},
		"binary_output": {Kind: dialect.Bool, Bool: c.opts.BinaryOutput},
	}}
	if !c.opts.Weights.IsZero() {
		call.Inputs["weights"] = c.opts.Weights
	}
	if c.opts.HasMaxLength {
		call.Attrs["maxlength"] = dialect.Value{Kind: dialect.Int, Int: int64(c.opts.MaxLength)}
	}
	if c.opts.DType != tensor.Undefined {
		call.Attrs["dtype"] = dialect.Value{Kind: dialect.String, Str: c.opts.DType.String()}
	}
	return call
}

// Name, ViaRun, Input, Scatter and Zeros make bincountCall an optest.Call
// and an optest.ZeroScatter: its output is bins of their own type.
func (c *bincountCall) Name() string { return "tf.math.bincount" }

func (c *bincountCall) ViaRun() bool { return c.viaRun }

func (c *bincountCall) Input() tensor.Tensor { return c.arr }

func (c *bincountCall) Scatter() bool { return false }

func (c *bincountCall) Zeros() (tensor.DType, tensor.Shape, bool) {
	_, s, _ := c.Model(false)
	if s == nil {
		s = tensor.Shape{}
	}
	return c.dtype(), s, true
}

// FuzzBincount runs tf.math.bincount (through the typed API and through
// its dialect.Op, with every attribute) on fuzzer-chosen values, weights,
// lengths, types and axes, and compares the outcome with the reference:
// the same error class or not, and the same bins bit for bit; BincountInto
// into a dirty dst agrees, and leaves it alone when it fails.
func FuzzBincount(f *testing.F) {
	// A head is the path, the index type; a tail is arr's shape and
	// values, the weights, minlength, maxlength, dtype, axis and
	// binary_output (see readBincountCall).
	tails := [][]byte{
		{1, 3, 8, 0, 8, 0, 2, 0, 0, 0, 0, 1, 1},                           // [1,0,1], int32 counts
		{2, 2, 3, 8, 0, 16, 7, 24, 1, 1, 2, 3, 4, 5, 6, 3, 1, 4, 3, 1, 1}, // rows, float32 weights
		{1, 2, 5, 8, 0, 2, 0, 1, 1, 0, 4, 1},                              // a negative value
		{1, 3, 24, 7, 0, 0, 0, 1, 3, 3, 0, 0},                             // maxlength 3 skips a 3 and a 4
	}
	heads := map[string][][]byte{"bincount": {{0, 0}, {1, 2}, {0, 4}}}
	optest.Fuzz(f, tf.Ops(), []string{"bincount"}, heads, func(string) [][]byte { return tails },
		func(in *tensortest.Fuzz) *bincountCall { return readBincountCall(in) })
}
