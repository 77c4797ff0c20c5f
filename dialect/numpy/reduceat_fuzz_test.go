package numpy_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The ufuncs, element types and index types the fuzz target picks from;
// the lists also hold types that must be refused.
var (
	reduceatUfuncs = []string{"add", "multiply", "maximum", "minimum"}
	reduceatRef    = map[string]engine.Reduction{"add": engine.Add, "multiply": engine.Mul, "maximum": engine.Max, "minimum": engine.Min}
	reduceatTypes  = []tensor.DType{tensor.Float32, tensor.Float16, tensor.Int8, tensor.Uint8, tensor.Int32, tensor.Int64, tensor.Bool,
		tensor.Float64, tensor.Complex64, tensor.Uint16, tensor.Uint32, tensor.BFloat16, tensor.String, tensor.Complex128}
	reduceatIndex = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int8, tensor.Uint16, tensor.Uint64}
)

// reduceatCall is one reduceat call that the fuzz target decodes.
type reduceatCall struct {
	ufunc          string
	array, indices tensor.Tensor
	axis           int
	viaRun         bool
}

func (c *reduceatCall) String() string {
	return fmt.Sprintf("numpy.%s.reduceat axis %d (via Run %v)\narray %v\nindices %v", c.ufunc, c.axis, c.viaRun, c.array, c.indices)
}

// readReduceatCall decodes a call: the ufunc, the path, the axis (in
// [-4, 3]), the element and index types, array's shape and values, then
// 1-D indices (one time in eight another shape) for the axis.
func readReduceatCall(in *tensortest.Fuzz) *reduceatCall {
	c := &reduceatCall{ufunc: reduceatUfuncs[in.Pick(len(reduceatUfuncs))], viaRun: in.Pick(4) == 1, axis: in.Next() % 4}
	dt := reduceatTypes[in.Pick(len(reduceatTypes))]
	it := reduceatIndex[in.Pick(len(reduceatIndex))]
	as := in.Shape()
	c.array = in.Elements(dt, as)
	size := 3
	if a := tensortest.AxisOf(c.axis, len(as)); a >= 0 && a < len(as) {
		size = as[a]
	}
	c.indices = in.IndicesFor(it, in.Fit(tensor.Shape{in.Pick(6)}), []int{size})
	return c
}

// Model returns what NumPy does with the call.
func (c *reduceatCall) Model(bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	d := c.array.DType()
	switch {
	case d == tensor.BFloat16 || d == tensor.String:
		return want, nil, optest.Refuse(dialect.ErrInput, "element type")
	case d.IsComplex() && (c.ufunc == "maximum" || c.ufunc == "minimum"):
		return want, nil, optest.Refuse(dialect.ErrInput, "complex order")
	}
	if it := c.indices.DType(); !it.IsInteger() || it == tensor.Uint64 {
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	if c.array.Rank() == 0 {
		return want, nil, optest.Refuse(engine.ErrShape, "a scalar array")
	}
	if c.indices.Rank() != 1 {
		return want, nil, optest.Refuse(engine.ErrShape, "indices not 1-D")
	}
	rank := c.array.Rank()
	if c.axis < -rank || c.axis >= rank {
		return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	axis := tensortest.AxisOf(c.axis, rank)
	red := reduceatRef[c.ufunc]
	widen := red == engine.Add || red == engine.Mul
	want, err = reftest.ReduceRuns(c.array, c.indices, axis,
		engine.RunOptions{Reduction: red, Rules: engine.RunRules{PairwiseSum: red == engine.Add}}, widen)
	shape = c.array.Shape()
	shape[axis] = c.indices.Len()
	return want, shape, err
}

// Check checks the outcome as optest.Check does, and that an index error
// is in NumPy's words.
func (c *reduceatCall) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	var rie *reftest.IndexError
	if !errors.As(wantErr, &rie) {
		return
	}
	var ie *engine.IndexError
	if !errors.As(err, &ie) || ie.Pos[0] != rie.Bad[0] || !strings.Contains(err.Error(), "out-of-bounds in "+c.ufunc+".reduceat") {
		t.Fatalf("%s: error %v, want NumPy's index error at %d\n%v", form, err, rie.Bad[0], c)
	}
}

func (c *reduceatCall) Name() string         { return "numpy." + c.ufunc + ".reduceat" }
func (c *reduceatCall) ViaRun() bool         { return c.viaRun }
func (c *reduceatCall) Input() tensor.Tensor { return c.array }
func (c *reduceatCall) Scatter() bool        { return false }

// OutType is the output's type: add and multiply widen bool and the
// narrower integers.
func (c *reduceatCall) OutType() tensor.DType {
	if w := engine.WiderType(c.array.DType()); w != tensor.Undefined && (c.ufunc == "add" || c.ufunc == "multiply") {
		return w
	}
	return c.array.DType()
}

func (c *reduceatCall) Call() (tensor.Tensor, error) {
	return reduceatFuncs[c.ufunc].call(c.array, c.indices, c.axis)
}

func (c *reduceatCall) Args() dialect.Call {
	return dialect.Call{Inputs: map[string]tensor.Tensor{"array": c.array, "indices": c.indices},
		Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: int64(c.axis)}}}
}

func (c *reduceatCall) Into(dst, array tensor.Tensor) error {
	return reduceatFuncs[c.ufunc].into(dst, array, c.indices, c.axis)
}

// FuzzReduceat checks numpy.*.reduceat against the reference's loop,
// allocating, through Run and Into a dirty dst.
func FuzzReduceat(f *testing.F) {
	// A seed: the ufunc, then the path (1: Run), the axis, the element
	// and index types, array's shape and values, and the indices (see
	// readReduceatCall).
	tails := [][]byte{
		{0, 0, 0, 0, 2, 3, 2, 1, 2, 3, 4, 5, 6, 4, 0, 16, 9, 8},      // float32 [3,2], indices 0 2 1 0
		{1, 255, 7, 1, 2, 2, 3, 1, 0, 1, 127, 0x80, 124, 3, 0, 1, 9}, // axis -1 through Run, float64 NaN and -0
		{0, 0, 6, 0, 1, 3, 1, 1, 0, 2, 0, 7},                         // bool, an index past the end
		{0, 0, 5, 5, 1, 3, 9, 8, 7, 1, 0},                            // uint64 indices refused
	}
	heads := map[string][][]byte{}
	for _, u := range reduceatUfuncs {
		heads[u] = [][]byte{{}}
	}
	optest.Fuzz(f, numpy.Ops(), reduceatUfuncs, heads, func(string) [][]byte { return tails }, readReduceatCall)
}
