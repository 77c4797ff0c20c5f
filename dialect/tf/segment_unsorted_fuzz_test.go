package tf_test

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// unsortedSegmentOps are the unsorted segment reductions the fuzz target picks
// from, by the part of their names after tf.math.unsorted_segment_.
var unsortedSegmentOps = []string{"sum", "prod", "max", "min", "mean", "sqrt_n"}

// segmentCall is one unsorted segment reduction that the fuzz target
// decodes.
type segmentCall struct {
	op        string
	data, ids tensor.Tensor
	n         int
	// viaRun makes the call through the operator's dialect.Op, nForm
	// saying how num_segments is given: 0 an int64 tensor, 1 an int32
	// one, 2 an attribute.
	viaRun bool
	nForm  int
}

func (c *segmentCall) String() string {
	return fmt.Sprintf("%s num_segments %d (via Run %v, form %d)\ndata %v\nsegment_ids %v", c.Name(), c.n, c.viaRun, c.nForm, c.data, c.ids)
}

// readSegmentCall decodes a call: the choices, then data, then ids of a
// prefix of data's shape (one time in eight another shape) whose values
// are mostly in [0, num_segments), with negative ones and ones past the
// end among them.
func readSegmentCall(in *tensortest.Fuzz) *segmentCall {
	c := &segmentCall{op: unsortedSegmentOps[in.Pick(len(unsortedSegmentOps))], n: in.Next()%5 + 1, viaRun: in.Pick(4) == 1, nForm: in.Pick(3)}
	if in.Pick(16) == 0 {
		c.n = -c.n
	}
	if in.Pick(8) == 0 {
		c.n = 0
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.data = in.Elements(dt, ds)
	is := ds[:in.Pick(len(ds)+1)]
	if in.Pick(8) == 0 {
		is = in.Shape()
	}
	c.ids = in.IndicesFor(it, is, []int{max(c.n, 0)})
	return c
}

// segmentOptions are the reference's options of each operator, under
// TensorFlow's CPU rules: a negative id dropped, one past the end an
// error.
var segmentOptions = map[string]engine.ScatterOptions{
	"sum":    {Reduction: engine.Add},
	"prod":   {Reduction: engine.Mul},
	"max":    {Reduction: engine.Max, Arith: engine.Arith{MinMax: engine.MinMaxStdUpdate}},
	"min":    {Reduction: engine.Min, Arith: engine.Arith{MinMax: engine.MinMaxStdUpdate}},
	"mean":   {Reduction: engine.Mean, ExcludeSelf: true, Arith: engine.Arith{ZeroStart: true, CountInType: true}},
	"sqrt_n": {Reduction: engine.Mean, ExcludeSelf: true, Arith: engine.Arith{ZeroStart: true, CountInType: true, SqrtCount: true}},
}

// segmentTypes says which element types each operator takes.
func segmentTypes(op string, d tensor.DType) bool {
	switch op {
	case "sum", "prod":
		return d != tensor.Bool && d != tensor.String
	case "max", "min", "mean":
		return d.IsInteger() || d.IsFloat()
	}
	return d.IsFloat()
}

// Model returns what TensorFlow does with the call: its refusals in the
// kernel's order, then the reference's reduction onto the operator's
// fill. The output's shape is known once num_segments and the shapes
// are.
func (c *segmentCall) Model(bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	d, ds, is := c.data.DType(), c.data.Shape(), c.ids.Shape()
	if len(is) <= len(ds) && c.n >= 0 {
		shape = tensortest.Join(tensor.Shape{c.n}, ds[len(is):])
	}
	switch it := c.ids.DType(); {
	case !segmentTypes(c.op, d):
		return want, shape, optest.Refuse(engine.ErrType, "data type")
	case it != tensor.Int32 && it != tensor.Int64:
		return want, shape, optest.Refuse(dialect.ErrInput, "index type")
	case len(is) > len(ds) || !ds[:len(is)].Equal(is):
		return want, nil, optest.Refuse(engine.ErrShape, "segment_ids is not a prefix of data")
	case c.n < 0:
		return want, nil, optest.Refuse(dialect.ErrInput, "negative num_segments")
	}
	opt := segmentOptions[c.op]
	opt.Rules = engine.IndexRules{Negative: engine.NegativeSkip}
	data, ids := c.data, c.ids
	if data.Len() == 0 {
		// No id is read: the reduction of no rows, of the same shape.
		data = tensortest.FromInts(d, tensortest.Join(tensor.Shape{0}, ds[len(is):]))
		ids = tensortest.FromInts(ids.DType(), tensor.Shape{0})
	}
	if c.op == "mean" && d.IsInteger() {
		sum := segmentOptions["sum"]
		sum.Rules = opt.Rules
		sums, err := reftest.SegmentReduce(data, ids, c.n, segmentFill("sum", d), false, sum)
		if err != nil {
			return want, shape, err
		}
		return trueDivModel(sums, ids, c.n), shape, nil
	}
	want, err = reftest.SegmentReduce(data, ids, c.n, segmentFill(c.op, d), false, opt)
	return want, shape, err
}

// trueDivModel is TensorFlow's composite of an integer mean after the
// sums: N, each segment's count of ids, summed in the sums' type as
// unsorted_segment_sum of ones sums it; then sums / maximum(N, 1) by
// Python's /, which casts both to float32 for 8- and 16-bit integers and
// to float64 otherwise.
func trueDivModel(sums, ids tensor.Tensor, n int) tensor.Tensor {
	d := sums.DType()
	counts := make([]int64, n)
	for i := range ids.Len() {
		if id, _ := ids.IntAt(i); id >= 0 {
			counts[id]++
		}
	}
	out := tensor.Float64
	if d.Size() <= 2 {
		out = tensor.Float32
	}
	got := tensor.Must(tensor.New(out, sums.Shape()))
	inner := 0
	if n > 0 {
		inner = sums.Len() / n
	}
	asFloat := func(t tensor.Tensor, i int) float64 {
		v, _ := t.IntAt(i)
		if d == tensor.Uint64 {
			return float64(uint64(v))
		}
		return float64(v)
	}
	for s, c := range counts {
		nt := tensortest.FromInts(d, tensor.Shape{1}, int(c)) // N as the type holds it
		N := max(asFloat(nt, 0), 1)
		for j := s * inner; j < (s+1)*inner; j++ {
			if out == tensor.Float32 {
				got.SetFloatAt(j, float64(float32(asFloat(sums, j))/float32(N)))
			} else {
				got.SetFloatAt(j, asFloat(sums, j)/N)
			}
		}
	}
	return got
}

// segmentFill returns what an empty segment of op holds in type d, as a
// Go value of the type: 0, 1, numeric_limits<T>::lowest() for max and
// max() for min.
func segmentFill(op string, d tensor.DType) any {
	one := tensortest.FromInts(d, tensor.Shape{}, 1).At(0)
	zero := tensortest.FromInts(d, tensor.Shape{}, 0).At(0)
	switch op {
	case "prod":
		return one
	case "max", "min":
		lo := op == "max"
		switch d {
		case tensor.Float16:
			return map[bool]float16.Float16{true: float16.Frombits(0xfbff), false: float16.Frombits(0x7bff)}[lo]
		case tensor.BFloat16:
			return map[bool]bfloat16.BFloat16{true: 0xff7f, false: 0x7f7f}[lo]
		case tensor.Float32:
			return map[bool]float32{true: -math.MaxFloat32, false: math.MaxFloat32}[lo]
		case tensor.Float64:
			return map[bool]float64{true: -math.MaxFloat64, false: math.MaxFloat64}[lo]
		}
		t := tensortest.FromInts(d, tensor.Shape{}, 0)
		if d.IsInteger() {
			// The lowest of a signed type has only the sign bit; the
			// highest, every other bit. Unsigned: 0 and every bit.
			bits := 8 * d.Size()
			switch {
			case lo && d.IsSigned():
				t.SetIntAt(0, -1<<(bits-1))
			case !lo && d.IsSigned():
				t.SetIntAt(0, 1<<(bits-1)-1)
			case !lo:
				t.SetIntAt(0, -1) // every bit
			}
		}
		return t.At(0)
	}
	return zero
}

// Call runs the allocating form of the typed API.
func (c *segmentCall) Call() (tensor.Tensor, error) {
	f := map[string]segmentFunc{"sum": tf.UnsortedSegmentSum, "prod": tf.UnsortedSegmentProd, "max": tf.UnsortedSegmentMax,
		"min": tf.UnsortedSegmentMin, "mean": tf.UnsortedSegmentMean, "sqrt_n": tf.UnsortedSegmentSqrtN}[c.op]
	return f(c.data, c.ids, c.n)
}

// Args returns the call for the operator's dialect.Op, num_segments given
// as nForm says.
func (c *segmentCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"data": c.data, "segment_ids": c.ids}, Attrs: map[string]dialect.Value{}}
	switch c.nForm {
	case 0:
		call.Inputs["num_segments"] = tensor.Scalar(int64(c.n))
	case 1:
		call.Inputs["num_segments"] = tensor.Scalar(int32(c.n))
	default:
		call.Attrs["num_segments"] = dialect.Value{Kind: dialect.Int, Int: int64(c.n)}
	}
	return call
}

// Into runs the Into form, whose dst gives num_segments.
func (c *segmentCall) Into(dst, _ tensor.Tensor) error {
	f := map[string]func(dst, data, ids tensor.Tensor) error{"sum": tf.UnsortedSegmentSumInto, "prod": tf.UnsortedSegmentProdInto,
		"max": tf.UnsortedSegmentMaxInto, "min": tf.UnsortedSegmentMinInto, "mean": tf.UnsortedSegmentMeanInto,
		"sqrt_n": tf.UnsortedSegmentSqrtNInto}[c.op]
	return f(dst, c.data, c.ids)
}

// Check is optest.Check, and an index error must name the first id past
// the end, by its position in segment_ids.
func (c *segmentCall) Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
	t.Helper()
	optest.Check(t, form, c.Name(), got, err, want, wantErr, c)
	var ie *engine.IndexError
	var re *reftest.IndexError
	if errors.As(err, &ie) && errors.As(wantErr, &re) && c.ids.Shape().Offset(ie.Pos) != re.Bad[0] {
		t.Fatalf("%s: error %v names segment_ids%v, want flat position %d\n%v", form, err, ie.Pos, re.Bad[0], c)
	}
}

// Name, ViaRun, Input, Scatter and Zeros make segmentCall an optest.Call
// and optest.ZeroScatter: its output starts from nothing but the fill.
func (c *segmentCall) Name() string { return "tf.math.unsorted_segment_" + c.op }

func (c *segmentCall) ViaRun() bool { return c.viaRun }

func (c *segmentCall) Input() tensor.Tensor { return c.data }

func (c *segmentCall) Scatter() bool { return false }

func (c *segmentCall) Zeros() (tensor.DType, tensor.Shape, bool) {
	ds, is := c.data.Shape(), c.ids.Shape()
	if len(is) > len(ds) || c.n < 0 {
		return c.data.DType(), tensor.Shape{-1}, true // no dst of the output's shape
	}
	return c.data.DType(), tensortest.Join(tensor.Shape{c.n}, ds[len(is):]), true
}

// FuzzUnsortedSegment runs the unsorted segment reductions (through the
// typed API and through their dialect.Op, num_segments as either tensor
// type or an attribute) on fuzzer-chosen element types, index types,
// shapes and values, and compares the outcome with the reference's
// segment reduction under TensorFlow's CPU rules (testkit/reftest
// SegmentReduce): the same refusal or not, an index error naming the
// first id past the end, the same values bit for bit but for NaN
// payloads; the Into form must agree, and a failed one leave dst alone.
func FuzzUnsortedSegment(f *testing.F) {
	// A seed is an operator, a head (num_segments, path, its form, a
	// rare negative, a rare zero, element type, index type) and a tail:
	// data's shape and values, the ids' rank, their values.
	tails := [][]byte{
		{2, 3, 2, 1, 2, 3, 4, 5, 6, 1, 0, 8, 16},            // [3,2] by 3 ids
		{2, 2, 2, 0x80, 127, 0, 0x81, 2, 0, 15, 7},          // [2,2] by [2,2] ids, corners
		{1, 3, 9, 9, 9, 1, 0, 0, 7},                         // [3], one id past the end
		{2, 3, 0, 1, 0, 1, 1, 2},                            // [3,0]: no elements
		{3, 2, 1, 2, 1, 2, 3, 4, 2, 8, 13},                  // [2,1,2] by [2,1]
		{1, 2, 0x7f, 0x7f, 1, 5, 5},                         // negative ids
		{2, 2, 2, 1, 2, 3, 4, 0},                            // scalar ids
		{2, 2, 2, 1, 2, 3, 4, 1, 3, 0, 8, 8, 8, 1, 1, 1, 2}, // ids of another shape
	}
	heads := map[string][][]byte{
		"sum":    {{3, 0, 0, 1, 1, 0, 0}, {2, 1, 1, 1, 1, 5, 2}, {1, 0, 2, 1, 1, 9, 3}, {3, 1, 0, 0, 1, 0, 4}},
		"prod":   {{3, 0, 0, 1, 1, 6, 0}, {2, 1, 2, 1, 1, 10, 2}},
		"max":    {{3, 0, 0, 1, 1, 0, 0}, {2, 1, 1, 1, 1, 4, 1}, {3, 0, 0, 1, 1, 1, 0}},
		"min":    {{3, 0, 0, 1, 1, 2, 0}, {2, 1, 0, 1, 1, 7, 2}},
		"mean":   {{3, 0, 0, 1, 1, 0, 0}, {2, 1, 1, 1, 1, 1, 2}, {3, 0, 0, 1, 1, 5, 0}},
		"sqrt_n": {{3, 0, 0, 1, 1, 8, 0}, {2, 1, 2, 1, 1, 2, 3}},
	}
	optest.Fuzz(f, tf.Ops(), unsortedSegmentOps, heads, func(string) [][]byte { return tails }, readSegmentCall)
}

// OutType is the output's element type (optest.OutTyped): float64, or
// float32 for 8- and 16-bit integers, for an integer mean (TensorFlow's
// true division), else data's.
func (c *segmentCall) OutType() tensor.DType {
	d := c.data.DType()
	switch {
	case c.op != "mean" || !d.IsInteger():
		return d
	case d.Size() <= 2:
		return tensor.Float32
	}
	return tensor.Float64
}
