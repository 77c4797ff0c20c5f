package tf_test

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// v1FuzzOps are the tf.compat.v1 scatters, by the last part of their
// names.
var v1FuzzOps = []string{"scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min", "scatter_max"}

// v1Call is one call of a tf.compat.v1 scatter that the fuzz target
// decodes.
type v1Call struct {
	op                    string
	ref, indices, updates tensor.Tensor
	viaRun                bool
}

func (c *v1Call) String() string {
	return fmt.Sprintf("%s (via Run %v)\nref %v\nindices %v\nupdates %v", c.Name(), c.viaRun, c.ref, c.indices, c.updates)
}

// readV1Call decodes a call: the operator, the path, the element and
// index types, then ref, indices of any shape with values mostly in
// [0, ref.shape[0]), and updates shaped indices.shape + ref.shape[1:]
// (one time in eight a scalar, one in eight any shape).
func readV1Call(in *tensortest.Fuzz) *v1Call {
	c := &v1Call{op: v1FuzzOps[in.Pick(len(v1FuzzOps))], viaRun: in.Pick(4) == 1}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	rs := in.Shape()
	c.ref = in.Elements(dt, rs)
	is := in.Shape()
	c.indices = in.IndicesFor(it, is, tensortest.Sizes(rs, 0, 1))
	var us tensor.Shape
	switch in.Pick(8) {
	case 0:
		us = tensor.Shape{}
	case 1:
		us = in.Shape()
	default:
		us = is
		if len(rs) > 0 {
			us = tensortest.Join(is, rs[1:])
		}
	}
	c.updates = in.Elements(in.Mostly(dt, fuzzTypes), us)
	return c
}

// Model is what TensorFlow's CPU kernel does with the call, but that a
// bad index leaves ref as it was: the reference's ScatterND of each index
// as a tuple of one, a scalar update spread over every index.
func (c *v1Call) Model(bool) (tensor.Tensor, tensor.Shape, error) {
	dt := c.ref.DType()
	opt := engine.ScatterOptions{Rules: inRange}
	switch c.op {
	case "scatter_add", "scatter_sub", "scatter_mul", "scatter_div":
		if dt == tensor.Bool || dt == tensor.String {
			return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "element type")
		}
		opt.Reduction = map[string]engine.Reduction{"scatter_add": engine.Add, "scatter_sub": engine.Sub,
			"scatter_mul": engine.Mul, "scatter_div": engine.Div}[c.op]
	case "scatter_min", "scatter_max":
		if dt == tensor.Bool || dt == tensor.String || dt.IsComplex() {
			return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "element type")
		}
		opt.Reduction, opt.Arith.MinMax = engine.Min, engine.MinMaxStd
		if c.op == "scatter_max" {
			opt.Reduction = engine.Max
		}
	}
	if it := c.indices.DType(); it != tensor.Int32 && it != tensor.Int64 {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	if c.updates.DType() != dt {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrType, "updates of another type")
	}
	rs, is, us := c.ref.Shape(), c.indices.Shape(), c.updates.Shape()
	if len(rs) == 0 {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "scalar ref")
	}
	full := tensortest.Join(is, rs[1:])
	if len(us) != 0 && !us.Equal(full) {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "updates shape")
	}
	if c.indices.Len() == 0 {
		return c.ref.Clone(), rs, nil
	}
	updates := c.updates
	if len(us) == 0 {
		updates = tensor.Must(tensor.New(dt, full))
		v := reflect.ValueOf(updates.Data())
		for i := range v.Len() {
			v.Index(i).Set(reflect.ValueOf(c.updates.Data()).Index(0))
		}
	}
	tuples := tensor.Must(c.indices.Reshape(tensortest.Join(is, tensor.Shape{1})))
	want, err := reftest.ScatterND(c.ref, tuples, updates, opt)
	return want, rs, err
}

// Check is optest.Check, and an index error must name the first bad
// index, as TensorFlow's CPU kernel does, by its position in indices.
func (c *v1Call) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	var ie *engine.IndexError
	var re *reftest.IndexError
	if !errors.As(err, &ie) || !errors.As(wantErr, &re) {
		return
	}
	if at := c.indices.Shape().Offset(ie.Pos); len(ie.Pos) != c.indices.Rank() || at != re.Bad[0] {
		t.Fatalf("%s: error %v names indices%v, want flat position %d\n%v", form, err, ie.Pos, re.Bad[0], c)
	}
}

// scatter returns the typed function of the call's operator.
func (c *v1Call) scatter() func(ref, indices, updates tensor.Tensor) error {
	for _, s := range v1Scatters {
		if "scatter_"+s.name == c.op {
			return s.f
		}
	}
	panic("no operator " + c.op)
}

// Call updates a copy of ref, as the operator's dialect.Op does.
func (c *v1Call) Call() (tensor.Tensor, error) {
	out := c.ref.Clone()
	if err := c.scatter()(out, c.indices, c.updates); err != nil {
		return tensor.Tensor{}, err
	}
	return out, nil
}

// Into copies input into dst, unless dst is input or has another shape,
// and updates dst in place.
func (c *v1Call) Into(dst, input tensor.Tensor) error {
	if dst.SameShape(input) && dst.Len() > 0 &&
		reflect.ValueOf(dst.Data()).Pointer() != reflect.ValueOf(input.Data()).Pointer() {
		reflect.Copy(reflect.ValueOf(dst.Data()), reflect.ValueOf(input.Data()))
	}
	return c.scatter()(dst, c.indices, c.updates)
}

func (c *v1Call) Args() dialect.Call {
	return dialect.Call{Inputs: map[string]tensor.Tensor{"ref": c.ref, "indices": c.indices, "updates": c.updates}}
}

// Name, ViaRun, Input and Scatter make v1Call an optest.Call.
func (c *v1Call) Name() string { return "tf.compat.v1." + c.op }

func (c *v1Call) ViaRun() bool { return c.viaRun }

func (c *v1Call) Input() tensor.Tensor { return c.ref }

func (c *v1Call) Scatter() bool { return true }

// FuzzScatterV1 runs the tf.compat.v1 scatters (through the typed API and
// through their dialect.Op) on fuzzer-chosen element types, index types,
// shapes and values, and compares the outcome with the reference under
// TensorFlow's rules: the same error or not (an index error naming the
// first bad index), the same values bit for bit but for NaN payloads, and
// ref as it was after a refused call.
func FuzzScatterV1(f *testing.F) {
	// A head is the path (1 through Run), the element type and the index
	// type (see readV1Call); a tail is ref, indices and updates: rows 2, 0
	// and 2 of a [3,2] ref; a scalar update of corner values; an index
	// out of range.
	tails := [][]byte{
		{2, 3, 2, 1, 2, 3, 4, 5, 6, 1, 3, 16, 0, 16, 2, 7, 8, 9, 10, 11, 12},
		{1, 3, 127, 0x80, 5, 1, 2, 8, 0, 0, 124},
		{1, 3, 1, 2, 3, 1, 2, 8, 7, 2, 9, 9},
	}
	heads := map[string][][]byte{
		"scatter_update": {{0, 0, 0}, {1, 10, 2}, {0, 7, 1}},
		"scatter_add":    {{0, 0, 0}, {0, 7, 0}}, // bools refused
		"scatter_sub":    {{1, 9, 2}},
		"scatter_mul":    {{0, 5, 0}, {0, 1, 3}},
		"scatter_div":    {{0, 3, 0}, {0, 8, 2}, {1, 9, 0}},
		"scatter_min":    {{0, 0, 0}, {0, 9, 0}}, // complex refused
		"scatter_max":    {{0, 2, 0}, {0, 0, 4}}, // int16 indices refused
	}
	optest.Fuzz(f, tf.Ops(), v1FuzzOps, heads, func(string) [][]byte { return tails }, readV1Call)
}
