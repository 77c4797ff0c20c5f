package numpy_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The operators, element types and index types the fuzz target picks
// from; the lists also hold types that must be refused.
var (
	fuzzOps   = []string{"take", "put", "take_along_axis", "put_along_axis", "add.at", "subtract.at", "multiply.at", "maximum.at", "minimum.at"}
	fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int32,
		tensor.Int64, tensor.Bool, tensor.Complex64, tensor.Float64, tensor.String, tensor.Uint64}
	fuzzIndex = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Uint8, tensor.Int16, tensor.Bool, tensor.Uint64}
	fuzzModes = []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip}
)

// fuzzCall is one operator call that the fuzz target decodes.
type fuzzCall struct {
	op string
	a  tensor.Tensor // a or arr
	// indices holds the one index array, or for ufunc.at a tuple of them
	// (tuple set).
	indices numpy.Indices
	tuple   bool
	v       tensor.Tensor // v, values or b
	axis    numpy.Axis
	mode    numpy.Mode
	viaRun  bool
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("numpy.%s axis %v mode %v (via Run %v, tuple %v)\na %v\nindices %v\nv %v",
		c.op, c.axis, c.mode, c.viaRun, c.tuple, c.a, c.indices, c.v)
}

// readCall decodes a call: the choices first, then a, then the indices
// and values shaped to fit most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{op: fuzzOps[in.Pick(len(fuzzOps))], mode: fuzzModes[in.Pick(3)], viaRun: in.Pick(4) == 1}
	if ax := in.Next() % 5; ax != 4 || c.op == "put_along_axis" && c.viaRun {
		c.axis = numpy.AxisAt(ax % 4)
	}
	if c.viaRun && c.op == "take_along_axis" && c.axis == numpy.Flat {
		c.axis = numpy.AxisAt(-1) // the table's default
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	as := in.Shape()
	c.a = in.Elements(dt, as)
	size := c.a.Len()
	switch c.op {
	case "take", "put":
		sizes := []int{size}
		if ax := axisOf(c.axis, len(as)); c.op == "take" && ax >= 0 && ax < len(as) {
			sizes = []int{as[ax]}
		}
		c.indices = numpy.Indices{in.IndicesFor(it, in.Shape(), sizes)}
		if c.op == "put" {
			c.v = in.Elements(in.Mostly(dt, fuzzTypes), tensor.Shape{in.Pick(4)})
		}
	case "take_along_axis", "put_along_axis":
		ax := axisOf(c.axis, len(as))
		is := in.Fit(in.Within(as, ax))
		if c.axis == numpy.Flat {
			is = in.Fit(tensor.Shape{in.Pick(4)})
		}
		for d := range is {
			if d != ax && in.Pick(4) == 0 {
				is[d] = 1 // broadcast
			}
		}
		sz := size
		if ax >= 0 && ax < len(as) {
			sz = as[ax]
		}
		c.indices = numpy.Indices{in.IndicesFor(it, is, []int{sz})}
		if c.op == "put_along_axis" {
			c.v = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(is))
		}
	default:
		k := in.Pick(3)
		c.tuple = k != 1 || in.Bool()
		lead := in.Shape()
		for j := range k {
			s := lead
			if in.Pick(4) == 0 {
				s = tensor.Shape{}
			}
			c.indices = append(c.indices, in.IndicesFor(it, s, tensortest.Sizes(as, j, 1)))
		}
		target := tensortest.Join(lead, as[min(k, len(as)):])
		if in.Bool() && len(target) > 0 {
			target = target[1:] // b broadcasts
		}
		c.v = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(target))
	}
	return c
}

// axisOf returns axis in [0, rank) for AxisAt, -1 for Flat, or a value
// out of range.
func axisOf(a numpy.Axis, rank int) int {
	if a == numpy.Flat {
		return -1
	}
	var n int
	fmt.Sscan(a.String(), &n)
	if n < 0 {
		n += rank
	}
	return n
}

// The rules of each mode, and of integer-array indexing.
var (
	refModes = map[numpy.Mode]engine.IndexRules{
		numpy.ModeRaise: {Negative: engine.NegativeFromEnd},
		numpy.ModeWrap:  {OutOfRange: engine.OutOfRangeWrap},
		numpy.ModeClip:  {OutOfRange: engine.OutOfRangeClamp},
	}
	refIndexing = refModes[numpy.ModeRaise]
)

// Model returns what NumPy defines for the call (with the dialect's
// refusals of mixed types and bool indices), from the reference loops.
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	dt, as := c.a.DType(), c.a.Shape()
	if viaRun && len(c.indices) == 0 {
		return want, nil, optest.Refuse(dialect.ErrInput, "the empty tuple has no names")
	}
	ok := dt != tensor.String
	switch c.op {
	case "subtract.at":
		ok = ok && dt != tensor.Bool
	case "maximum.at", "minimum.at":
		ok = ok && !dt.IsComplex()
	}
	if !ok {
		return want, nil, optest.Refuse(dialect.ErrInput, "element type")
	}
	for _, ix := range c.indices {
		if !ix.DType().IsInteger() {
			return want, nil, optest.Refuse(engine.ErrType, "index type")
		}
	}
	flat := tensor.Must(c.a.Reshape(tensor.Shape{c.a.Len()}))
	switch c.op {
	case "take":
		ind := c.indices[0]
		src, ax := c.a, axisOf(c.axis, len(as))
		if c.axis == numpy.Flat {
			src, ax = flat, 0
		} else if ax < 0 || ax >= len(as) {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
		}
		ss := src.Shape()
		shape = tensortest.Join(ss[:ax], ind.Shape(), ss[ax+1:])
		if tensortest.Count(shape) == 0 && c.mode != numpy.ModeRaise {
			// Nothing to read: NumPy's wrap loop would not end on an
			// empty axis, its clip reads nothing; this dialect returns
			// the empty result.
			return tensor.Must(tensor.New(dt, shape)), shape, nil
		}
		want, err = reftest.Gather(src, ind, ax, 0, refModes[c.mode])
		return want, shape, err
	case "put":
		if c.v.DType() != dt {
			return want, nil, optest.Refuse(engine.ErrType, "v's type")
		}
		ind := c.indices[0]
		n := ind.Len()
		if c.v.Len() == 0 {
			return c.a.Clone(), as, nil
		}
		vals := pick(c.v, tensor.Shape{n}, func(i int) int { return i % c.v.Len() })
		want, err = reftest.ScatterND(flat, tensor.Must(ind.Reshape(tensor.Shape{n, 1})), vals,
			engine.ScatterOptions{Rules: refModes[c.mode]})
		if err != nil {
			return want, as, err
		}
		return tensor.Must(want.Reshape(as)), as, nil
	case "take_along_axis", "put_along_axis":
		return c.along(flat)
	}
	return c.at()
}

// along models the along-axis pair as NumPy builds them: a fancy index of
// aranges along every other dimension and indices along axis, broadcast
// together, here the full index tuples of a gather_nd or scatter_nd.
func (c *fuzzCall) along(flat tensor.Tensor) (tensor.Tensor, tensor.Shape, error) {
	arr, ind := c.a, c.indices[0]
	ax := axisOf(c.axis, arr.Rank())
	if c.axis == numpy.Flat {
		if ind.Rank() != 1 {
			return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "axis None, indices not 1-D")
		}
		arr, ax = flat, 0
	} else if ax < 0 || ax >= arr.Rank() {
		return tensor.Tensor{}, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	as, is := arr.Shape(), ind.Shape()
	if len(as) != len(is) {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "ranks")
	}
	out := make(tensor.Shape, len(as))
	for d := range out {
		switch {
		case d == ax || as[d] == is[d] || as[d] == 1:
			out[d] = is[d]
		case is[d] == 1:
			out[d] = as[d]
		default:
			return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "no broadcast")
		}
	}
	n := tensortest.Count(out)
	tuples := make([]int, 0, n*len(out))
	for i := range n {
		p := out.Coords(i)
		for d := range out {
			switch {
			case d == ax:
				q := make([]int, len(p))
				for e := range p {
					if is[e] != 1 {
						q[e] = p[e]
					}
				}
				v, _ := ind.IntAt(is.Offset(q))
				if v < 0 && ind.DType() == tensor.Uint64 {
					v = 1 << 62
				}
				tuples = append(tuples, int(v))
			case as[d] == 1:
				tuples = append(tuples, 0)
			default:
				tuples = append(tuples, p[d])
			}
		}
	}
	idx := tensortest.FromInts(tensor.Int64, tensortest.Join(out, tensor.Shape{len(out)}), tuples...)
	if c.op == "take_along_axis" {
		want, err := reftest.GatherND(arr, idx, 0, refIndexing)
		return want, out, err
	}
	if c.v.DType() != arr.DType() {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrType, "values' type")
	}
	vals, ok := bcast(c.v, out)
	if !ok {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "values do not broadcast")
	}
	want, err := reftest.ScatterND(arr, idx, vals, engine.ScatterOptions{Rules: refIndexing})
	if err != nil {
		return want, c.a.Shape(), err
	}
	return tensor.Must(want.Reshape(c.a.Shape())), c.a.Shape(), nil
}

// at models ufunc.at: the index arrays broadcast and stacked into tuples,
// b broadcast to the indexed shape, a scatter_nd with the reduction.
func (c *fuzzCall) at() (tensor.Tensor, tensor.Shape, error) {
	as, k := c.a.Shape(), len(c.indices)
	if c.v.DType() != c.a.DType() {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrType, "b's type")
	}
	if k > len(as) {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "too many indices")
	}
	var lead tensor.Shape
	for _, ix := range c.indices {
		var ok bool
		if lead, ok = broadcastShape(lead, ix.Shape()); !ok {
			return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "indices do not broadcast")
		}
	}
	tuples := []int{}
	for i := range tensortest.Count(lead) {
		p := lead.Coords(i)
		for _, ix := range c.indices {
			s := ix.Shape()
			q := make([]int, len(s))
			for e := range s {
				if s[e] != 1 {
					q[e] = p[len(p)-len(s)+e]
				}
			}
			v, _ := ix.IntAt(s.Offset(q))
			if v < 0 && ix.DType() == tensor.Uint64 {
				v = 1 << 62
			}
			tuples = append(tuples, int(v))
		}
	}
	idx := tensortest.FromInts(tensor.Int64, tensortest.Join(lead, tensor.Shape{k}), tuples...)
	b, ok := bcast(c.v, tensortest.Join(lead, as[k:]))
	if !ok {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "b does not broadcast")
	}
	red := map[string]engine.Reduction{"add.at": engine.Add, "subtract.at": engine.Sub, "multiply.at": engine.Mul,
		"maximum.at": engine.Max, "minimum.at": engine.Min}[c.op]
	want, err := reftest.ScatterND(c.a, idx, b, engine.ScatterOptions{Rules: refIndexing, Reduction: red, Arith: engine.Arith{Complex: engine.ComplexC10}})
	return want, as, err
}

// broadcastShape broadcasts two shapes as NumPy does: both padded with
// leading ones to one rank, each dimension the one that is not 1.
func broadcastShape(a, b tensor.Shape) (tensor.Shape, bool) {
	n := max(len(a), len(b))
	pad := func(s tensor.Shape) tensor.Shape { return tensortest.Join(slices.Repeat(tensor.Shape{1}, n-len(s)), s) }
	a, b = pad(a), pad(b)
	for d := range n {
		if a[d] == 1 {
			a[d] = b[d]
		} else if b[d] != 1 && b[d] != a[d] {
			return nil, false
		}
	}
	return a, true
}

// bcast returns t broadcast to shape, or false when it does not
// broadcast to it.
func bcast(t tensor.Tensor, shape tensor.Shape) (tensor.Tensor, bool) {
	s := t.Shape()
	if b, ok := broadcastShape(s, shape); !ok || !b.Equal(shape) {
		return tensor.Tensor{}, false
	}
	return pick(t, shape, func(i int) int {
		p := shape.Coords(i)
		q := make([]int, len(s))
		for e := range s {
			if s[e] != 1 {
				q[e] = p[len(p)-len(s)+e]
			}
		}
		return s.Offset(q)
	}), true
}

// pick returns a tensor of shape s whose element i is t's element at(i).
func pick(t tensor.Tensor, s tensor.Shape, at func(i int) int) tensor.Tensor {
	src := reflect.ValueOf(t.Data())
	n := tensortest.Count(s)
	out := reflect.MakeSlice(src.Type(), n, n)
	for i := range n {
		out.Index(i).Set(src.Index(at(i)))
	}
	return tensor.Must(tensor.Wrap(s.Clone(), out.Interface()))
}

// Call runs the allocating form of the typed API: a copy updated in place
// for the operators that update.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	switch c.op {
	case "take":
		return numpy.Take(c.a, c.indices[0], c.axis, c.mode)
	case "take_along_axis":
		return numpy.TakeAlongAxis(c.a, c.indices[0], c.axis)
	}
	x := c.a.Clone()
	if err := c.Into(x, x); err != nil {
		return tensor.Tensor{}, err
	}
	return x, nil
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	data, ind, upd := "a", "indices", "b"
	switch c.op {
	case "take", "put":
		call.Attrs["mode"] = dialect.Value{Kind: dialect.String, Str: c.mode.String()}
		if c.op == "put" {
			ind, upd = "ind", "v"
		}
	case "take_along_axis", "put_along_axis":
		data, upd = "arr", "values"
	}
	if c.axis != numpy.Flat && (c.op == "take" || data == "arr") {
		call.Attrs["axis"] = dialect.Value{Kind: dialect.Int, Int: int64(axisOf(c.axis, 0))}
	}
	call.Inputs[data] = c.a
	if c.tuple {
		for j, ix := range c.indices {
			call.Inputs[fmt.Sprintf("%s.%d", ind, j)] = ix
		}
	} else {
		call.Inputs[ind] = c.indices[0]
	}
	if !c.v.IsZero() {
		call.Inputs[upd] = c.v
	}
	return call
}

// Into runs the Into form with dst and a (dst itself, in place).
func (c *fuzzCall) Into(dst, a tensor.Tensor) error {
	switch c.op {
	case "take":
		return numpy.TakeInto(dst, a, c.indices[0], c.axis, c.mode)
	case "put":
		return numpy.PutInto(dst, a, c.indices[0], c.v, c.mode)
	case "take_along_axis":
		return numpy.TakeAlongAxisInto(dst, a, c.indices[0], c.axis)
	case "put_along_axis":
		return numpy.PutAlongAxisInto(dst, a, c.indices[0], c.v, c.axis)
	}
	f := map[string]func(dst, a tensor.Tensor, indices numpy.Indices, b tensor.Tensor) error{
		"add.at": numpy.AddAtInto, "subtract.at": numpy.SubtractAtInto, "multiply.at": numpy.MultiplyAtInto,
		"maximum.at": numpy.MaximumAtInto, "minimum.at": numpy.MinimumAtInto,
	}[c.op]
	return f(dst, a, c.indices, c.v)
}

// FuzzOps runs every NumPy operator (through the typed API and through
// its dialect.Op, tuples of index arrays as indices.0, indices.1, ...) on
// fuzzer-chosen element types, index types, modes, shapes and values, and
// compares the outcome with the reference loops under NumPy's rules: the
// same error or not, and the same values, bit for bit but for NaN
// payloads. The Into forms must agree with the allocating one, and the
// operators that update must leave a alone when they fail in place.
func FuzzOps(f *testing.F) {
	// A seed is an operator, a head of choices (mode, path: 1 through
	// Run, axis: 4 for None, element type, index type; see readCall) and
	// a tail of shapes and values.
	tails := [][]byte{
		{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 2, 8, 200, 1, 2, 1, 0, 1, 7, 8, 9},
		{1, 3, 127, 0x80, 5, 1, 3, 255, 7, 15, 1, 1, 124, 0x80, 127, 3, 1, 2},
	}
	heads := map[string][][]byte{}
	for _, op := range fuzzOps {
		heads[op] = [][]byte{{0, 0, 0, 0, 0}, {1, 1, 1, 1, 2}, {2, 0, 4, 3, 3}, {0, 1, 4, 9, 1}, {2, 0, 1, 7, 5}}
	}
	optest.Fuzz(f, numpy.Ops(), fuzzOps, heads, func(string) [][]byte { return tails }, readCall)
}

// Name, ViaRun, Input and Scatter make fuzzCall an optest.Call.
func (c *fuzzCall) Name() string { return "numpy." + c.op }

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.a }

func (c *fuzzCall) Scatter() bool { return c.op != "take" && c.op != "take_along_axis" }
