package jax_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// segmentOps are the segment reductions the fuzz target picks from, by
// the part of their names after jax.ops.segment_.
var segmentOps = []string{"sum", "prod", "max", "min"}

// segmentCall is one segment reduction that the fuzz target decodes.
type segmentCall struct {
	op        string
	data, ids tensor.Tensor
	n         int
	auto      bool // num_segments left out: max(ids) + 1
	opt       jax.SegmentOptions
	viaRun    bool
}

func (c *segmentCall) String() string {
	return fmt.Sprintf("%s num_segments %d (auto %v) %+v (via Run %v)\ndata %v\nsegment_ids %v", c.Name(), c.n, c.auto, c.opt, c.viaRun, c.data, c.ids)
}

// readSegmentCall decodes a call: the choices, then data, then 1-D ids as
// long as data's first dimension (one time in eight another shape) with
// values mostly in range.
func readSegmentCall(in *tensortest.Fuzz) *segmentCall {
	c := &segmentCall{op: segmentOps[in.Pick(len(segmentOps))], n: in.Next()%5 + 1, viaRun: in.Pick(4) == 1}
	switch in.Pick(16) {
	case 0:
		c.n = -c.n
	case 1:
		c.n = 0
	case 2, 3:
		c.auto = true
	}
	c.opt.Mode = modes[in.Pick(len(modes))]
	c.opt.BucketSize = in.Pick(4)
	c.opt.IndicesAreSorted, c.opt.UniqueIndices = in.Bool(), in.Bool()
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := indexTypes[in.Pick(len(indexTypes))]
	ds := in.Shape()
	c.data = in.Elements(dt, ds)
	is := tensor.Shape{0}
	if len(ds) > 0 {
		is[0] = ds[0]
	}
	if in.Pick(8) == 0 {
		is = in.Shape()
	}
	c.ids = in.IndicesFor(it, is, []int{max(c.n, 0)})
	if c.auto {
		// An unsigned type holds negative ids as large ones, which ask
		// for more segments than a test holds: num_segments is given then.
		n, err := jax.NumSegments(c.ids)
		switch {
		case err == nil && n <= 64:
			c.n = n
		case err == nil:
			c.auto = false
		}
	}
	return c
}

var segmentReductions = map[string]engine.Reduction{"sum": engine.Add, "prod": engine.Mul, "max": engine.Max, "min": engine.Min}

// Model returns what JAX does with the call: its refusals, then the
// reference's reduction onto the identity, ids outside [0, num_segments)
// dropped or, with mode clip, clamped.
func (c *segmentCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	d, ds, is := c.data.DType(), c.data.Shape(), c.ids.Shape()
	n := c.n
	if c.auto && viaRun {
		if !c.ids.DType().IsInteger() {
			return want, nil, optest.Refuse(engine.ErrType, "index type")
		}
		if c.ids.Len() == 0 {
			return want, nil, optest.Refuse(dialect.ErrInput, "no ids for num_segments=None")
		}
		top := int64(math.MinInt64)
		for i := range c.ids.Len() {
			v, _ := c.ids.IntAt(i)
			if v < 0 && c.ids.DType() == tensor.Uint64 {
				return want, nil, optest.Refuse(dialect.ErrInput, "an id beyond int")
			}
			top = max(top, v)
		}
		n = int(top) + 1
	}
	if len(ds) > 0 && n >= 0 {
		shape = tensortest.Join(tensor.Shape{n}, ds[1:])
	}
	r := segmentReductions[c.op]
	numbers := r == engine.Add || r == engine.Mul
	// In the order the dialect checks: the types of the inputs, the
	// shapes, num_segments, bucket_size.
	switch {
	case d == tensor.Bool && numbers, d.IsComplex() && !numbers:
		return want, shape, optest.Refuse(engine.ErrType, "data type")
	case !c.ids.DType().IsInteger():
		return want, shape, optest.Refuse(engine.ErrType, "index type")
	case len(ds) == 0 || len(is) != 1 || is[0] != ds[0]:
		return want, nil, optest.Refuse(engine.ErrShape, "segment_ids is not an id per row")
	case n < 0:
		return want, nil, optest.Refuse(dialect.ErrInput, "negative num_segments")
	case c.opt.BucketSize > 0 && numbers && !d.IsInteger():
		return want, shape, optest.Refuse(dialect.ErrAttribute, "bucket_size on a floating-point sum")
	}
	opt := engine.ScatterOptions{Reduction: r, Rules: engine.IndexRules{OutOfRange: engine.OutOfRangeSkip}, Arith: engine.Arith{MinMax: engine.MinMaxIEEE}}
	want, err = reftest.SegmentReduce(c.data, c.ids, n, segmentIdentity(c.op, d), c.opt.Mode == jax.Clip, opt)
	return want, shape, err
}

// segmentIdentity returns the identity of op in type d, as a Go value of
// the type: 0, 1, -inf (the lowest integer, false) for max, +inf (the
// highest integer, true) for min.
func segmentIdentity(op string, d tensor.DType) any {
	t := tensortest.FromInts(d, tensor.Shape{}, 0)
	switch op {
	case "prod":
		t = tensortest.FromInts(d, tensor.Shape{}, 1)
	case "max", "min":
		lo := op == "max"
		inf := math.Inf(1)
		if lo {
			inf = math.Inf(-1)
		}
		switch {
		case d == tensor.Float16:
			return float16.Fromfloat32(float32(inf))
		case d == tensor.BFloat16:
			return bfloat16.FromFloat32(float32(inf))
		case d.IsFloat():
			t.SetFloatAt(0, inf)
		case d == tensor.Bool:
			return !lo
		case d.IsSigned() && lo:
			t.SetIntAt(0, -1<<(8*d.Size()-1))
		case d.IsSigned():
			t.SetIntAt(0, 1<<(8*d.Size()-1)-1)
		case !lo:
			t.SetIntAt(0, -1) // every bit of an unsigned type
		}
	}
	return t.At(0)
}

// Call runs the allocating form of the typed API.
func (c *segmentCall) Call() (tensor.Tensor, error) {
	f := map[string]func(data, ids tensor.Tensor, n int, opt jax.SegmentOptions) (tensor.Tensor, error){
		"sum": jax.SegmentSum, "prod": jax.SegmentProd, "max": jax.SegmentMax, "min": jax.SegmentMin}[c.op]
	return f(c.data, c.ids, c.n, c.opt)
}

// Args returns the call for the operator's dialect.Op: num_segments an
// attribute unless left out, bucket_size 0 as None.
func (c *segmentCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"data": c.data, "segment_ids": c.ids}, Attrs: map[string]dialect.Value{
		"mode":               {Kind: dialect.String, Str: string(c.opt.Mode)},
		"indices_are_sorted": {Kind: dialect.Bool, Bool: c.opt.IndicesAreSorted},
		"unique_indices":     {Kind: dialect.Bool, Bool: c.opt.UniqueIndices},
	}}
	if !c.auto {
		call.Attrs["num_segments"] = dialect.Value{Kind: dialect.Int, Int: int64(c.n)}
	}
	if c.opt.BucketSize > 0 {
		call.Attrs["bucket_size"] = dialect.Value{Kind: dialect.Int, Int: int64(c.opt.BucketSize)}
	}
	return call
}

// Into runs the Into form, whose dst gives num_segments.
func (c *segmentCall) Into(dst, _ tensor.Tensor) error {
	f := map[string]func(dst, data, ids tensor.Tensor, opt jax.SegmentOptions) error{
		"sum": jax.SegmentSumInto, "prod": jax.SegmentProdInto, "max": jax.SegmentMaxInto, "min": jax.SegmentMinInto}[c.op]
	return f(dst, c.data, c.ids, c.opt)
}

// Check is optest.Check; JAX drops what is out of range, so an index
// error is never right.
func (c *segmentCall) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	if errors.Is(err, engine.ErrIndex) {
		t.Fatalf("%s: an index error %v\n%v", form, err, c)
	}
}

// Name, ViaRun, Input, Scatter and Zeros make segmentCall an optest.Call
// and optest.ZeroScatter.
func (c *segmentCall) Name() string { return "jax.ops.segment_" + c.op }

func (c *segmentCall) ViaRun() bool { return c.viaRun }

func (c *segmentCall) Input() tensor.Tensor { return c.data }

func (c *segmentCall) Scatter() bool { return false }

func (c *segmentCall) Zeros() (tensor.DType, tensor.Shape, bool) {
	ds := c.data.Shape()
	if len(ds) == 0 || c.n < 0 {
		return c.data.DType(), tensor.Shape{-1}, true // no dst of the output's shape
	}
	return c.data.DType(), tensortest.Join(tensor.Shape{c.n}, ds[1:]), true
}

// FuzzSegment runs the segment reductions (through the typed API and
// through their dialect.Op, num_segments given or left out, every mode,
// bucket_size and the hints) on fuzzer-chosen element types, index types,
// shapes and values, and compares the outcome with the reference's
// segment reduction onto JAX's identities (testkit/reftest
// SegmentReduce): the same refusal or not, the same values bit for bit
// but for NaN payloads, and the Into form alike.
func FuzzSegment(f *testing.F) {
	// A seed is an operator, a head (num_segments, path, how it is given,
	// mode, bucket_size, the hints, element type, index type) and a tail:
	// data's shape and values, the ids' values.
	tails := [][]byte{
		{2, 3, 2, 1, 2, 3, 4, 5, 6, 0, 8, 16},
		{2, 2, 2, 0x80, 127, 0, 0x81, 15, 7},
		{1, 3, 9, 9, 9, 0, 7, 23},
		{2, 3, 0, 0, 8, 16},
		{1, 4, 0x7f, 0x7f, 1, 5, 5, 5, 13, 15},
	}
	heads := map[string][][]byte{
		"sum":  {{3, 0, 4, 0, 0, 0, 0, 0, 2}, {2, 1, 2, 1, 2, 1, 1, 4, 1}, {3, 0, 4, 0, 1, 0, 0, 5, 5}},
		"prod": {{3, 0, 4, 0, 0, 0, 0, 1, 2}, {2, 0, 4, 1, 3, 0, 0, 5, 0}},
		"max":  {{3, 0, 4, 0, 0, 0, 0, 0, 2}, {2, 1, 3, 1, 2, 1, 1, 8, 1}, {3, 0, 4, 0, 0, 0, 0, 3, 3}},
		"min":  {{3, 0, 4, 0, 0, 0, 0, 2, 2}, {2, 1, 2, 1, 1, 0, 1, 8, 0}},
	}
	optest.Fuzz(f, jax.Ops(), segmentOps, heads, func(string) [][]byte { return tails }, readSegmentCall)
}
