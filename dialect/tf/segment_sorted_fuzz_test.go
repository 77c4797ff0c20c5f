package tf_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// sortedSegmentOps are the sorted segment reductions the fuzz target picks
// from, with the reference's reduction of each.
var (
	sortedSegmentOps = []string{"segment_sum", "segment_prod", "segment_min", "segment_max", "segment_mean"}
	segmentRef       = map[string]engine.Reduction{
		"segment_sum": engine.Add, "segment_prod": engine.Mul, "segment_min": engine.Min,
		"segment_max": engine.Max, "segment_mean": engine.Mean,
	}
)

// segCall is one call of a sorted segment reduction that the fuzz target
// decodes.
type segCall struct {
	op        string
	data, ids tensor.Tensor
	viaRun    bool
}

func (c *segCall) String() string {
	return fmt.Sprintf("tf.math.%s (via Run %v)\ndata %v\nsegment_ids %v", c.op, c.viaRun, c.data, c.ids)
}

// readSegCall decodes a call: the operator, the path, the element and
// index types, data's shape and values, then ids as long as data has rows
// (one time in eight another length), sorted from a start in [-1, 1] by
// steps of 0, 1 or 2, one step in eight a decrease.
func readSegCall(in *tensortest.Fuzz) *segCall {
	c := &segCall{op: sortedSegmentOps[in.Pick(len(sortedSegmentOps))], viaRun: in.Pick(4) == 1}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.data = in.Elements(dt, ds)
	n := 0
	if len(ds) > 0 {
		n = ds[0]
	}
	is := in.Fit(tensor.Shape{n})
	v := make([]int, tensortest.Count(is))
	id := in.Next()%2 + in.Pick(2)
	for i := range v {
		v[i] = id
		switch step := in.Pick(8); step {
		case 7:
			id--
		default:
			id += step % 3
		}
	}
	c.ids = tensortest.FromInts(it, is, v...)
	return c
}

// Model returns what TensorFlow's CPU kernel does with the call.
func (c *segCall) Model(bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	d := c.data.DType()
	switch {
	case d == tensor.Bool || d == tensor.String:
		return want, nil, optest.Refuse(dialect.ErrInput, "element type")
	case d.IsComplex() && (c.op == "segment_min" || c.op == "segment_max"):
		return want, nil, optest.Refuse(dialect.ErrInput, "complex min or max")
	}
	if it := c.ids.DType(); it != tensor.Int32 && it != tensor.Int64 {
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	switch {
	case c.data.Rank() == 0:
		return want, nil, optest.Refuse(engine.ErrShape, "scalar data")
	case c.ids.Rank() != 1 || c.ids.Len() != c.data.Dim(0):
		return want, nil, optest.Refuse(engine.ErrShape, "segment_ids' shape")
	}
	red := segmentRef[c.op]
	rules := engine.RunRules{Index: engine.RunIDs, EigenStart: true}
	if red == engine.Mul {
		rules.Empty = engine.EmptyIdentity
	}
	want, err = reftest.ReduceRuns(c.data, c.ids, 0, engine.RunOptions{Reduction: red, Rules: rules, Arith: engine.Arith{MeanTowardZero: true}}, false)
	if err != nil {
		// Ids out of order still give an output shape, from the last id,
		// unless that is negative.
		if n := c.ids.Len(); errors.Is(err, engine.ErrIndex) && n > 0 {
			if last, _ := c.ids.IntAt(n - 1); last >= 0 {
				shape = append(tensor.Shape{int(last) + 1}, c.data.Shape()[1:]...)
			}
		}
		return tensor.Tensor{}, shape, err
	}
	return want, want.Shape(), nil
}

// Check checks the outcome as optest.Check does, and that a refusal of
// the ids names the position the reference names, in TensorFlow's words.
func (c *segCall) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	var rse *reftest.SegmentError
	if !errors.As(wantErr, &rse) {
		return
	}
	var se *engine.SegmentError
	if !errors.As(err, &se) || se.Pos != rse.Pos || !strings.Contains(strings.ToLower(err.Error()), "segment id") ||
		!strings.Contains(err.Error(), fmt.Sprintf("segment_ids[%d] = ", se.Pos)) {
		t.Fatalf("%s: error %v, want a segment id error at %d (%s)\n%v", form, err, rse.Pos, rse.Kind, c)
	}
}

func (c *segCall) Name() string         { return "tf.math." + c.op }
func (c *segCall) ViaRun() bool         { return c.viaRun }
func (c *segCall) Input() tensor.Tensor { return c.data }
func (c *segCall) Scatter() bool        { return false }

func (c *segCall) Call() (tensor.Tensor, error) { return segmentFuncs[c.op].call(c.data, c.ids) }

func (c *segCall) Args() dialect.Call {
	return dialect.Call{Inputs: map[string]tensor.Tensor{"data": c.data, "segment_ids": c.ids}}
}

func (c *segCall) Into(dst, data tensor.Tensor) error {
	return segmentFuncs[c.op].into(dst, data, c.ids)
}

// FuzzSortedSegments checks tf.math.segment_* against the reference's
// loop, allocating, through Run and Into a dirty dst.
func FuzzSortedSegments(f *testing.F) {
	// A seed: the operator, then the path (1: Run), the element and
	// index types, data's shape and values, and the ids' steps (see
	// readSegCall).
	tails := [][]byte{
		{0, 0, 0, 2, 3, 2, 1, 2, 3, 4, 5, 6, 0, 0, 0, 1, 0, 1},            // [3,2] float32, ids 0 0 1 (a step of 1)
		{1, 0, 8, 0, 2, 3, 1, 127, 0x80, 124, 0x81, 125, 126, 1, 0, 2, 7}, // int32 ids, float64 NaN and -0, a gap
		{0, 0, 5, 0, 1, 3, 9, 8, 7, 0, 7, 0, 1},                           // int32 data, a decrease
		{0, 0, 0, 4, 2, 2, 2, 1, 2, 3, 4, 0xff, 0, 0, 0},                  // int16 ids refused
	}
	heads := map[string][][]byte{}
	for _, op := range sortedSegmentOps {
		heads[op] = [][]byte{{}}
	}
	optest.Fuzz(f, tf.Ops(), sortedSegmentOps, heads, func(string) [][]byte { return tails }, readSegCall)
}
