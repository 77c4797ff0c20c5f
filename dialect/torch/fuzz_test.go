package torch_test

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// The operators (scatter with src and with value count as two), element
// types, index types and reduce names the fuzz target picks from; the
// lists also hold values that must be refused.
var (
	fuzzOps   = []string{"scatter", "scatter value", "scatter_add", "scatter_reduce", "gather", "index_select"}
	fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int16,
		tensor.Int64, tensor.Bool, tensor.Complex64, tensor.Float64, tensor.Uint16, tensor.String}
	fuzzIndex  = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int16, tensor.Float32}
	fuzzReduce = []string{"", "add", "multiply", "sum", "prod", "mean", "amax", "amin", "max"}
)

// number is a Python number for torch.scatter's value, of the kinds and
// sizes the fuzz target makes: ints in [-384, 381]; floats that are NaN,
// +Inf, -Inf or multiples of 1/4 in [-32, 31.25]; bools; and complex
// numbers with such a real part and an imaginary part of 0 or 1.
type number struct {
	kind string // "int", "float", "bool" or "complex"
	i    int64
	f    float64 // the float, or the complex number's real part
	im   float64
}

func (n number) scalar() torch.Scalar {
	switch n.kind {
	case "float":
		return torch.Float(n.f)
	case "bool":
		return torch.Bool(n.i != 0)
	case "complex":
		return torch.Complex(complex(n.f, n.im))
	}
	return torch.Int(n.i)
}

// tensor returns the number as the 0-d tensor a generic call passes.
func (n number) tensor() tensor.Tensor {
	switch n.kind {
	case "float":
		return tensor.Scalar(n.f)
	case "bool":
		return tensor.Scalar(n.i != 0)
	case "complex":
		return tensor.Scalar(complex(n.f, n.im))
	}
	return tensor.Scalar(n.i)
}

// fuzzCall is one operator call that the fuzz target decodes.
type fuzzCall struct {
	op                string
	input, index, src tensor.Tensor
	value             number
	dim               int
	reduce            string
	includeSelf       bool
	// viaRun makes the call through the operator's dialect.Op; attrs then
	// says which optional attributes are given (bit 0 include_self, bit 1
	// reduce), where the operator has them.
	viaRun bool
	attrs  int
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("torch.%s dim %d reduce %q include_self %v value %+v (via Run %v, attrs %b)\ninput %v\nindex %v\nsrc %v",
		c.op, c.dim, c.reduce, c.includeSelf, c.value, c.viaRun, c.attrs, c.input, c.index, c.src)
}

func (c *fuzzCall) Scatter() bool { return c.op != "gather" && c.op != "index_select" }

// readCall decodes a call: the choices first, then input, then index and
// src shaped to fit most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{
		op:          fuzzOps[in.Pick(len(fuzzOps))],
		dim:         in.Next() % 4,
		reduce:      fuzzReduce[in.Pick(len(fuzzReduce))],
		includeSelf: in.Pick(2) == 0,
		viaRun:      in.Pick(4) == 1,
		attrs:       in.Next() & 3,
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.input = in.Elements(dt, ds)
	base := ds // torch takes a 0-d tensor for a 1-D one of size 1
	if len(base) == 0 {
		base = tensor.Shape{1}
	}
	d := tensortest.AxisOf(c.dim, len(base))
	if c.op == "index_select" {
		is := tensor.Shape{}
		if n := in.Pick(5); n < 4 {
			is = tensor.Shape{n}
		}
		c.index = in.IndicesFor(it, in.Fit(is), tensortest.Sizes(base, d, 1))
		return c
	}
	c.index = in.Along(it, base, d)
	is := c.index.Shape()
	switch c.op {
	case "scatter value":
		c.value = readNumber(in)
	case "scatter", "scatter_add", "scatter_reduce":
		ss := make(tensor.Shape, len(is))
		for i := range is {
			ss[i] = is[i] + in.Pick(2) // src may be larger than index
		}
		c.src = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(ss))
	}
	return c
}

func readNumber(in *tensortest.Fuzz) number {
	switch in.Pick(4) {
	case 1:
		return number{kind: "float", f: readFloat(in)}
	case 2:
		return number{kind: "bool", i: int64(in.Next() & 1)}
	case 3:
		return number{kind: "complex", f: readFloat(in), im: float64(in.Pick(2))}
	}
	return number{kind: "int", i: int64(in.Next()) * 3}
}

// readFloat reads NaN, +Inf or -Inf for the bytes 127, 126 and -127, and
// otherwise the byte divided by 4.
func readFloat(in *tensortest.Fuzz) float64 {
	switch v := in.Next(); v {
	case 127:
		return math.NaN()
	case 126:
		return math.Inf(1)
	case -127:
		return math.Inf(-1)
	default:
		return float64(v) / 4
	}
}

// inRange are PyTorch's index rules: an index must lie in [0, size-1].
var inRange = engine.IndexRules{}

// kernelType reports whether PyTorch's CPU kernels for scatter and gather
// are built for elements of type d: all of torch's types but uint16,
// uint32 and uint64 (and torch has no strings).
func kernelType(d tensor.DType) bool {
	return d != tensor.Uint16 && d != tensor.Uint32 && d != tensor.Uint64 && d != tensor.String
}

// view1 returns t, or for a 0-d t the 1-D tensor of its one element: torch
// takes a 0-d tensor for a 1-D one of size 1.
func view1(t tensor.Tensor) tensor.Tensor {
	if t.Rank() == 0 {
		return tensor.Must(t.Reshape(tensor.Shape{1}))
	}
	return t
}

func rank1(t tensor.Tensor) int { return max(t.Rank(), 1) }

// Model returns what PyTorch does with the call, made through the typed
// API or (viaRun) the operator's dialect.Op: the output, or an error.
// shape is the output's shape whenever the shapes fit (also for an index
// error).
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	// The checks come in the order the dialect makes them, so that of
	// several faults the model names the one the operator reports.
	reduce, includeSelf := c.reduce, c.includeSelf
	if viaRun && c.attrs&2 == 0 {
		if c.op == "scatter_reduce" {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "missing reduce")
		}
		reduce = ""
	}
	if viaRun && c.attrs&1 == 0 {
		includeSelf = true
	}
	r := rank1(c.input)
	if c.dim < -r || c.dim >= r {
		return want, nil, optest.Refuse(dialect.ErrAttribute, "dim")
	}
	d := c.dim
	if d < 0 {
		d += r
	}
	switch c.op {
	case "gather":
		return c.gather(d)
	case "index_select":
		return c.indexSelect(d)
	}
	dt := c.input.DType()
	if dt == tensor.String {
		return want, nil, optest.Refuse(dialect.ErrInput, "strings")
	}
	empty := c.index.Len() == 0
	if !empty && c.index.DType() != tensor.Int64 {
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	if c.op != "scatter value" && c.src.DType() != dt {
		return want, nil, optest.Refuse(engine.ErrType, "src of another type")
	}
	if !empty {
		if err := c.checkShapes(d); err != nil {
			return want, nil, err
		}
	}
	var red engine.Reduction
	switch c.op {
	case "scatter", "scatter value":
		reds := map[string]engine.Reduction{"": engine.None, "add": engine.Add, "multiply": engine.Mul}
		var ok bool
		if red, ok = reds[reduce]; !ok {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "reduce")
		}
		includeSelf = true
	case "scatter_add":
		red, includeSelf = engine.Add, true
	default:
		var ok bool
		if red, ok = torchReduce[reduce]; !ok {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "reduce")
		}
	}
	if red == engine.Mean && (dt == tensor.Bool || !kernelType(dt)) {
		return want, nil, optest.Refuse(dialect.ErrInput, "mean of bool or uint16-64")
	}
	if empty && red != engine.Mean {
		return c.input.Clone(), c.input.Shape(), nil
	}
	var index, src tensor.Tensor
	switch {
	case empty:
		// PyTorch divides the whole output by the counts even so: as a
		// scatter of nothing, through an empty index of input's rank.
		none := make(tensor.Shape, view1(c.input).Rank())
		index, src, d = tensor.Must(tensor.New(tensor.Int64, none)), tensor.Must(tensor.New(dt, none)), 0
	case !kernelType(dt):
		return want, nil, optest.Refuse(dialect.ErrInput, "element type")
	case (red == engine.Max || red == engine.Min) && dt.IsComplex():
		return want, nil, optest.Refuse(dialect.ErrInput, "amax or amin of complex")
	case c.op == "scatter value":
		v, err := cast(c.value, dt)
		if err != nil {
			// Refused once the shapes are known, after a dst has been
			// checked against them.
			return want, c.input.Shape(), err
		}
		index = view1(c.index)
		src = filled(dt, index.Shape(), v)
	default:
		index, src = view1(c.index), view1(c.src)
	}
	opt := engine.ScatterOptions{Rules: inRange, Reduction: red, ExcludeSelf: !includeSelf,
		Arith: engine.Arith{ZeroStart: true, HalfOnce: true, DivideAll: true, CountInType: true, Complex: engine.ComplexC10}}
	want, err = reftest.ScatterElements(view1(c.input), index, src, d, opt)
	if err != nil {
		return want, c.input.Shape(), err
	}
	return tensor.Must(want.Reshape(c.input.Shape())), c.input.Shape(), nil
}

// checkShapes checks a non-empty index against input and src (for the
// operators that have it): the same rank (0-d counting as 1-D),
// index.size(i) <= input.size(i) for i != d, and index.size(i) <=
// src.size(i) for every i.
func (c *fuzzCall) checkShapes(d int) error {
	is, ds := view1(c.index).Shape(), view1(c.input).Shape()
	if len(is) != len(ds) {
		return optest.Refuse(engine.ErrShape, "ranks of index and input")
	}
	for i := range is {
		if i != d && is[i] > ds[i] {
			return optest.Refuse(engine.ErrShape, "index larger than input")
		}
	}
	if c.op == "scatter value" || c.op == "gather" {
		return nil
	}
	ss := view1(c.src).Shape()
	if len(ss) != len(is) {
		return optest.Refuse(engine.ErrShape, "ranks of index and src")
	}
	for i := range is {
		if is[i] > ss[i] {
			return optest.Refuse(engine.ErrShape, "index larger than src")
		}
	}
	return nil
}

// gather is torch.gather: an empty index gives an empty result whatever
// the rest; otherwise as the scatters check their index.
func (c *fuzzCall) gather(d int) (tensor.Tensor, tensor.Shape, error) {
	dt, shape := c.input.DType(), c.index.Shape()
	if c.index.Len() == 0 {
		return tensor.Must(tensor.New(dt, shape)), shape, nil
	}
	if c.index.DType() != tensor.Int64 {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	if err := c.checkShapes(d); err != nil {
		return tensor.Tensor{}, nil, err
	}
	if !kernelType(dt) {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "element type")
	}
	want, err := reftest.GatherElements(view1(c.input), view1(c.index), d, inRange)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

// indexSelect is torch.index_select: index is 0-d or 1-D, int32 or int64;
// a 0-d input takes exactly one index value; uint16-64 input only from
// rank 2.
func (c *fuzzCall) indexSelect(d int) (tensor.Tensor, tensor.Shape, error) {
	dt, n := c.input.DType(), c.index.Len()
	switch it := c.index.DType(); {
	case c.index.Rank() > 1:
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "index rank")
	case c.input.Rank() == 0 && n != 1:
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "not one index for a 0-d input")
	case it != tensor.Int32 && it != tensor.Int64:
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "index type")
	case dt == tensor.String:
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "strings")
	case c.input.Rank() <= 1 && !kernelType(dt):
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrInput, "element type at rank 0 or 1")
	}
	shape := c.input.Shape()
	if len(shape) > 0 {
		shape[d] = n
	}
	want, err := reftest.Gather(view1(c.input), tensor.Must(c.index.Reshape(tensor.Shape{n})), d, 0, inRange)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

// cast returns n, one of the numbers the fuzz target makes, as an element
// of type d, as PyTorch casts a Python number: to bool, anything nonzero,
// NaN included, is true (a complex number by its real part); from complex
// to a real type, a nonzero imaginary part is an error; to an integer
// type, a float truncates toward zero and NaN, the infinities and any
// value outside the type's range are errors, except that an int of
// magnitude up to the largest value of an unsigned type wraps into it; to
// a floating-point type, the value rounds (float16 and bfloat16 through
// float32), NaN and the infinities pass, and a finite value beyond the
// largest finite value of the type is an error (only float16's is within
// reach of these numbers).
func cast(n number, d tensor.DType) (any, error) {
	overflow := optest.Refuse(dialect.ErrInput, fmt.Sprintf("value %+v overflows %v", n, d))
	isInt := n.kind == "int" || n.kind == "bool"
	x := n.f
	if isInt {
		x = float64(n.i)
	}
	switch {
	case d == tensor.Bool:
		return x != 0, nil
	case d == tensor.Complex64:
		return complex(float32(x), float32(n.im)), nil
	case d == tensor.Complex128:
		return complex(x, n.im), nil
	case n.im != 0:
		return nil, overflow
	}
	finite := !math.IsNaN(x) && !math.IsInf(x, 0)
	switch d {
	case tensor.Float16:
		if finite && math.Abs(x) > 65504 {
			return nil, overflow
		}
		return float16.Fromfloat32(float32(x)), nil
	case tensor.BFloat16:
		return bfloat16.FromFloat32(float32(x)), nil
	case tensor.Float32:
		return float32(x), nil
	case tensor.Float64:
		return x, nil
	}
	lo, hi := intRange(d)
	switch {
	case isInt && d.IsUnsigned() && math.Abs(x) <= hi:
		return castInt(d, n.i), nil
	case !finite || x < lo || x > hi:
		return nil, overflow
	}
	return castInt(d, int64(math.Trunc(x))), nil
}

// intRange returns the range of integer type d.
func intRange(d tensor.DType) (lo, hi float64) {
	if d.IsUnsigned() {
		return 0, math.Exp2(float64(8*d.Size())) - 1
	}
	return -math.Exp2(float64(8*d.Size() - 1)), math.Exp2(float64(8*d.Size()-1)) - 1
}

// castInt converts v to integer type d as Go converts, wrapping.
func castInt(d tensor.DType, v int64) any {
	switch d {
	case tensor.Int8:
		return int8(v)
	case tensor.Int16:
		return int16(v)
	case tensor.Int32:
		return int32(v)
	case tensor.Int64:
		return v
	case tensor.Uint8:
		return uint8(v)
	case tensor.Uint16:
		return uint16(v)
	case tensor.Uint32:
		return uint32(v)
	}
	return uint64(v)
}

// filled returns a tensor of type d and the given shape with every element
// v.
func filled(d tensor.DType, shape tensor.Shape, v any) tensor.Tensor {
	t := tensor.Must(tensor.New(d, shape))
	s := reflect.ValueOf(t.Data())
	for i := 0; i < t.Len(); i++ {
		s.Index(i).Set(reflect.ValueOf(v))
	}
	return t
}

// Call runs the allocating form of the typed API.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	switch c.op {
	case "scatter":
		return torch.Scatter(c.input, c.dim, c.index, c.src, torch.Reduce(c.reduce))
	case "scatter value":
		return torch.ScatterValue(c.input, c.dim, c.index, c.value.scalar(), torch.Reduce(c.reduce))
	case "scatter_add":
		return torch.ScatterAdd(c.input, c.dim, c.index, c.src)
	case "scatter_reduce":
		return torch.ScatterReduce(c.input, c.dim, c.index, c.src, torch.Reduce(c.reduce), c.includeSelf)
	case "gather":
		return torch.Gather(c.input, c.dim, c.index)
	}
	return torch.IndexSelect(c.input, c.dim, c.index)
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"input": c.input, "index": c.index},
		Attrs: map[string]dialect.Value{"dim": {Kind: dialect.Int, Int: int64(c.dim)}}}
	switch c.op {
	case "scatter value":
		call.Inputs["value"] = c.value.tensor()
	case "scatter", "scatter_add", "scatter_reduce":
		call.Inputs["src"] = c.src
	}
	if c.attrs&2 != 0 && (c.op == "scatter" || c.op == "scatter value" || c.op == "scatter_reduce") {
		call.Attrs["reduce"] = dialect.Value{Kind: dialect.String, Str: c.reduce}
	}
	if c.attrs&1 != 0 && c.op == "scatter_reduce" {
		call.Attrs["include_self"] = dialect.Value{Kind: dialect.Bool, Bool: c.includeSelf}
	}
	return call
}

// Into runs the Into form with input as given (dst itself, for in place).
func (c *fuzzCall) Into(dst, input tensor.Tensor) error {
	switch c.op {
	case "scatter":
		return torch.ScatterInto(dst, input, c.dim, c.index, c.src, torch.Reduce(c.reduce))
	case "scatter value":
		return torch.ScatterValueInto(dst, input, c.dim, c.index, c.value.scalar(), torch.Reduce(c.reduce))
	case "scatter_add":
		return torch.ScatterAddInto(dst, input, c.dim, c.index, c.src)
	case "scatter_reduce":
		return torch.ScatterReduceInto(dst, input, c.dim, c.index, c.src, torch.Reduce(c.reduce), c.includeSelf)
	case "gather":
		return torch.GatherInto(dst, input, c.dim, c.index)
	}
	return torch.IndexSelectInto(dst, input, c.dim, c.index)
}

// FuzzOps runs every PyTorch operator (scatter with src and with value,
// scatter_add, scatter_reduce with every reduce and include_self, gather,
// index_select; through the typed API and through its dialect.Op) on
// fuzzer-chosen element types, index types, shapes (0-d and empty ones
// included) and values, and compares the outcome with the reference
// implementation under PyTorch's rules: the same error or not (an index
// error where PyTorch has one), and the same values, bit for bit but for
// NaN payloads, with float16 and bfloat16 sums and products rounded once.
// The Into forms must agree with the allocating one, into a dirty dst and
// in place for the scatters, which must leave input alone when they fail.
func FuzzOps(f *testing.F) {
	// A seed is an operator, a head of choices (dim, reduce, include_self:
	// 0 true, path: 1 through Run, attributes, element type, index type;
	// see readCall) and a tail of shapes and values that fit (plain values,
	// or NaN, -0 and duplicate indices).
	tails := map[bool][][]byte{
		false: {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 2, 3, 1, 8, 0, 16, 8, 1, 2, 0, 0, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 3, 1, 8, 8, 16, 0, 1, 1, 124, 0x80, 127},
		},
		true: { // index_select
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 3, 1, 8, 0, 16},
			{0, 124, 4, 1, 0},
		},
	}
	heads := map[string][][]byte{
		"scatter": {
			{0, 0, 0, 0, 0, 0, 0},
			{1, 1, 0, 0, 0, 1, 0}, // add, float16, dim 1
			{0, 2, 0, 1, 2, 3, 0}, // multiply, int8, through Run
			{0, 0, 0, 0, 0, 0, 4}, // int32 index refused
		},
		"scatter value": {
			{0, 0, 0, 0, 0, 4, 0}, // uint8
			{1, 1, 0, 1, 2, 2, 0}, // add, bfloat16, through Run
			{0, 2, 0, 0, 0, 7, 0}, // multiply, bool
		},
		"scatter_add": {
			{0, 0, 0, 0, 0, 1, 0},
			{255, 0, 0, 1, 0, 8, 0}, // dim -1, complex64, through Run
		},
		"scatter_reduce": {
			{0, 3, 0, 0, 0, 0, 0}, // sum
			{0, 3, 1, 0, 0, 1, 0}, // sum without self, float16
			{1, 4, 1, 0, 0, 6, 0}, // prod without self, int64
			{0, 5, 0, 0, 0, 3, 0}, // mean, int8
			{0, 5, 1, 1, 3, 2, 0}, // mean without self, bfloat16, through Run
			{0, 6, 1, 0, 0, 0, 0}, // amax without self
			{0, 7, 0, 0, 0, 9, 0}, // amin, float64
			{0, 5, 0, 0, 0, 7, 0}, // mean of bool refused
			{0, 0, 0, 1, 0, 0, 0}, // reduce missing through Run
		},
		"gather": {
			{0, 0, 0, 0, 0, 0, 0},
			{1, 0, 0, 1, 0, 11, 0}, // strings
			{0, 0, 0, 0, 0, 10, 0}, // uint16
		},
		"index_select": {
			{0, 0, 0, 0, 0, 0, 0},
			{1, 0, 0, 1, 0, 10, 4}, // uint16 from rank 2, int32 index
			{0, 0, 0, 0, 0, 5, 0},
		},
	}
	optest.Fuzz(f, torch.Ops(), fuzzOps, heads,
		func(op string) [][]byte { return tails[op == "index_select"] }, readCall)
}

// Name, ViaRun and Input make fuzzCall an optest.Call.
func (c *fuzzCall) Name() string {
	if c.op == "scatter value" {
		return "torch.scatter"
	}
	return "torch." + c.op
}

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.input }
