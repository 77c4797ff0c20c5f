package torch_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The index operators the fuzz target picks from; take_along_dim without
// dim counts as its own.
var indexFuzzOps = []string{"index_add", "index_copy", "index_fill", "index_reduce", "take", "take_along_dim",
	"take_along_dim flat", "put", "index_put", "masked_scatter"}

// indexReduces are the reduce names the fuzz target picks for
// index_reduce, one refused.
var indexReduces = []string{"prod", "mean", "amax", "amin", "sum"}

// indexCall is one fuzzer-chosen call of an index operator.
type indexCall struct {
	op                   string
	input, index, source tensor.Tensor
	second               tensor.Tensor // index_put's second index tensor, or none
	value                number        // index_fill's value, index_add's alpha
	dim                  int
	reduce               string
	flag                 bool // include_self, accumulate
	viaRun               bool
}

func (c *indexCall) String() string {
	return fmt.Sprintf("torch.%s dim %d reduce %q flag %v value %+v (via Run %v)\ninput %v\nindex %v\nsecond %v\nsource %v",
		c.op, c.dim, c.reduce, c.flag, c.value, c.viaRun, c.input, c.index, c.second, c.source)
}

// readIndexCall decodes a call: the choices, then input, then the index
// and source shaped to fit most of the time.
func readIndexCall(in *tensortest.Fuzz) *indexCall {
	c := &indexCall{op: indexFuzzOps[in.Pick(len(indexFuzzOps))], dim: in.Next() % 4,
		reduce: indexReduces[in.Pick(len(indexReduces))], flag: in.Pick(2) == 0, viaRun: in.Pick(4) == 1}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.input = in.Elements(dt, ds)
	base := ds
	if len(base) == 0 {
		base = tensor.Shape{1}
	}
	d := max(tensortest.AxisOf(c.dim, len(base)), 0) // a dim out of range is refused whatever the rest
	switch c.op {
	case "index_add", "index_copy", "index_fill", "index_reduce":
		is := tensor.Shape{in.Pick(4)}
		if in.Pick(6) == 0 {
			is = tensor.Shape{}
		}
		c.index = in.IndicesFor(it, in.Fit(is), []int{base[d]})
		ss := base.Clone()
		ss[d] = c.index.Len()
		if len(ds) == 0 && c.index.Len() == 1 && in.Pick(2) == 0 {
			ss = tensor.Shape{}
		}
		c.source = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(ss))
		c.value = readNumber(in)
	case "take", "take_along_dim flat", "put":
		n := max(c.input.Len(), 1)
		c.index = in.IndicesFor(it, in.Shape(), []int{n})
		c.source = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(c.index.Shape()))
	case "take_along_dim":
		is := in.Within(base, d)
		for i := range is {
			if i != d && in.Pick(4) == 0 {
				is[i] = 1 // broadcast indices
			}
		}
		if len(ds) == 0 {
			is = tensor.Shape{}
		}
		c.index = in.IndicesFor(it, in.Fit(is), []int{base[d]})
	case "index_put":
		k := 1 + in.Pick(2)
		lead := tensor.Shape{in.Pick(4)}
		sizes := []int{3}
		if len(ds) > 0 {
			sizes = []int{ds[0]}
		}
		c.index = in.IndicesFor(it, lead, sizes)
		rest := ds
		if len(ds) > 0 {
			rest = ds[1:]
		}
		if k == 2 && len(ds) > 1 {
			c.second = in.IndicesFor(it, in.Fit(tensor.Shape{1}), []int{ds[1]})
			rest = ds[2:]
		}
		c.source = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(tensortest.Join(lead, rest)))
	case "masked_scatter":
		ms := ds
		if len(ds) > 0 && in.Pick(3) == 0 {
			ms = ds[len(ds)-1:] // broadcast over the leading dimensions
		}
		mask := in.Elements(tensor.Bool, in.Fit(ms))
		if in.Pick(8) == 0 {
			mask = in.Indices(tensor.Int64, ms)
		}
		c.index = mask
		c.source = in.Elements(in.Mostly(dt, fuzzTypes), tensor.Shape{in.Pick(4) + c.input.Len()/2})
	}
	return c
}

// Model returns what PyTorch does with the call: the output, or an error
// of the class the dialect reports.
func (c *indexCall) Model(viaRun bool) (tensor.Tensor, tensor.Shape, error) {
	switch c.op {
	case "take", "take_along_dim flat":
		return c.take()
	case "take_along_dim":
		return c.takeAlong()
	case "put":
		return c.put()
	case "index_put":
		return c.indexPut()
	case "masked_scatter":
		return c.maskedScatter()
	}
	return c.along()
}

// refuseType is the model of the checks every operator makes of input's
// element type.
func refuseType(dt tensor.DType, bad ...tensor.DType) error {
	if dt == tensor.String || !kernelType(dt) {
		return optest.Refuse(dialect.ErrInput, "element type")
	}
	for _, b := range bad {
		if dt == b {
			return optest.Refuse(dialect.ErrInput, "element type")
		}
	}
	return nil
}

// along is the model of index_add, index_copy, index_fill and
// index_reduce.
func (c *indexCall) along() (tensor.Tensor, tensor.Shape, error) {
	var none tensor.Tensor
	r := rank1(c.input)
	if c.dim < -r || c.dim >= r {
		return none, nil, optest.Refuse(dialect.ErrAttribute, "dim")
	}
	d := (c.dim + r) % r
	dt, it := c.input.DType(), c.index.DType()
	if dt == tensor.String {
		return none, nil, optest.Refuse(dialect.ErrInput, "strings")
	}
	if c.index.Rank() > 1 {
		return none, nil, optest.Refuse(engine.ErrShape, "index rank")
	}
	long := c.op == "index_copy" || c.op == "index_fill"
	if it != tensor.Int64 && (long || it != tensor.Int32) {
		return none, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	var bad []tensor.DType
	if c.op == "index_reduce" {
		bad = []tensor.DType{tensor.Bool, tensor.Complex64, tensor.Complex128}
	}
	if err := refuseType(dt, bad...); err != nil {
		return none, nil, err
	}
	n := c.index.Len()
	var src tensor.Tensor
	if c.op != "index_fill" {
		if err := c.checkSource(d); err != nil {
			return none, nil, err
		}
		src = view1(c.source)
	}
	shape := c.input.Shape()
	opt := engine.ScatterOptions{Arith: engine.Arith{ZeroStart: true, DivideAll: true, CountInType: true, Complex: engine.ComplexC10}}
	switch c.op {
	case "index_fill":
		if c.value.kind == "complex" && !dt.IsComplex() {
			return none, shape, optest.Refuse(dialect.ErrInput, "complex value")
		}
		v, err := cast(c.value, dt)
		if err != nil {
			return none, shape, err
		}
		ss := view1(c.input).Shape()
		ss[d] = n
		src = filled(dt, ss, v)
		opt.Rules = engine.IndexRules{Negative: engine.NegativeFromEnd}
	case "index_add":
		v, err := cast(c.value, dt)
		if err != nil {
			return none, shape, err
		}
		opt.Reduction, opt.Scale = engine.Add, filled(dt, tensor.Shape{}, v)
		one, _ := cast(number{kind: "int", i: 1}, dt)
		// Rows of 16 elements or more, which the fuzzer's shapes (at most
		// 3 by 3 by 3) never reach: TestIndexAddHalf checks them.
		wide := c.input.Rank() > 1 && c.input.Len() > 0 && c.input.Len() >= 16*c.input.Dim(0)
		opt.Arith.HalfOnce = d == 0 && wide && it == tensor.Int64 && dt.IsFloat() && reflect.DeepEqual(v, one)
	case "index_reduce":
		red, ok := map[string]engine.Reduction{"prod": engine.Mul, "mean": engine.Mean, "amax": engine.Max, "amin": engine.Min}[c.reduce]
		if !ok {
			return none, shape, optest.Refuse(dialect.ErrAttribute, "reduce")
		}
		opt.Reduction, opt.ExcludeSelf = red, !c.flag
	}
	skips := c.op == "index_copy" || c.op == "index_fill" || c.op == "index_add" && c.input.Rank() > 1
	if n == 0 || c.input.Len() == 0 && skips {
		return c.input.Clone(), shape, nil
	}
	if src.Len() == 0 {
		// index_reduce of an empty input: nothing to reduce, but every
		// index value is checked (the reference's loop over source would
		// check none).
		size := view1(c.input).Dim(d)
		for i := range n {
			if v, _ := c.index.IntAt(i); v < 0 || v >= int64(size) {
				return none, shape, optest.Refuse(engine.ErrIndex, "index out of range")
			}
		}
		return c.input.Clone(), shape, nil
	}
	// ScatterElements by the index expanded to src's shape.
	ss := src.Shape()
	full := make([]int, src.Len())
	for i := range full {
		p := ss.Coords(i)
		v, _ := c.index.IntAt(p[d])
		if c.index.DType() == tensor.Int32 {
			v = int64(int32(v))
		}
		full[i] = int(v)
	}
	want, err := reftest.ScatterElements(view1(c.input), tensortest.FromInts(tensor.Int64, ss, full...), src, d, opt)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

// checkSource is the model of the checks of source: both 0-d, or of one
// rank, equal but for dim; index_copy also takes a 0-d source into an
// input of rank 0 or 1, with one index value.
func (c *indexCall) checkSource(d int) error {
	in, src, n := c.input, c.source, c.index.Len()
	if src.DType() != in.DType() {
		return optest.Refuse(engine.ErrType, "source type")
	}
	if c.op == "index_copy" && src.Rank() == 0 && in.Rank() <= 1 {
		if n != 1 {
			return optest.Refuse(engine.ErrShape, "0-d source")
		}
		return nil
	}
	if src.Rank() == 0 && in.Rank() == 0 {
		if n != 1 {
			return optest.Refuse(engine.ErrShape, "0-d source")
		}
		return nil
	}
	if src.Rank() != in.Rank() || src.Dim(d) != n {
		return optest.Refuse(engine.ErrShape, "source shape")
	}
	for i := range in.Rank() {
		if i != d && src.Dim(i) != in.Dim(i) {
			return optest.Refuse(engine.ErrShape, "source shape")
		}
	}
	return nil
}

// flatIndex checks take's, put's and flat take_along_dim's index type and
// input's element type.
func (c *indexCall) flatIndex() error {
	if c.input.DType() == tensor.String {
		return optest.Refuse(dialect.ErrInput, "strings")
	}
	if c.index.DType() != tensor.Int64 {
		return optest.Refuse(dialect.ErrInput, "index type")
	}
	return refuseType(c.input.DType())
}

func (c *indexCall) take() (tensor.Tensor, tensor.Shape, error) {
	if err := c.flatIndex(); err != nil {
		return tensor.Tensor{}, nil, err
	}
	shape, rules := c.index.Shape(), engine.IndexRules{Negative: engine.NegativeFromEnd}
	if c.op == "take_along_dim flat" {
		shape, rules = tensor.Shape{c.index.Len()}, engine.IndexRules{}
	}
	if c.index.Len() == 0 {
		return tensor.Must(tensor.New(c.input.DType(), shape)), shape, nil
	}
	flat := tensor.Must(c.input.Reshape(tensor.Shape{c.input.Len()}))
	want, err := reftest.Gather(flat, tensor.Must(c.index.Reshape(tensor.Shape{c.index.Len()})), 0, 0, rules)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

func (c *indexCall) takeAlong() (tensor.Tensor, tensor.Shape, error) {
	var none tensor.Tensor
	if err := c.flatIndex(); err != nil {
		return none, nil, err
	}
	r := rank1(c.input)
	if c.dim < -r || c.dim >= r {
		return none, nil, optest.Refuse(dialect.ErrAttribute, "dim")
	}
	d := (c.dim + r) % r
	if c.input.Rank() != c.index.Rank() {
		return none, nil, optest.Refuse(engine.ErrShape, "ranks")
	}
	shape := c.index.Shape()
	for i := range shape {
		a, b := c.input.Dim(i), c.index.Dim(i)
		switch {
		case i == d || a == b || a == 1:
		case b == 1:
			shape[i] = a
		default:
			return none, nil, optest.Refuse(engine.ErrShape, "broadcast")
		}
	}
	if n, _ := shape.NumElements(); n == 0 {
		return tensor.Must(tensor.New(c.input.DType(), shape)), shape, nil
	}
	inShape := shape.Clone()
	if len(shape) > 0 {
		inShape[d] = c.input.Dim(d)
	}
	in, idx := view1(bcast(c.input, inShape)), view1(bcast(c.index, shape))
	want, err := reftest.GatherElements(in, idx, d, inRange)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

func (c *indexCall) put() (tensor.Tensor, tensor.Shape, error) {
	if err := c.flatIndex(); err != nil {
		return tensor.Tensor{}, nil, err
	}
	shape := c.input.Shape()
	if c.source.DType() != c.input.DType() {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrType, "source type")
	}
	n := c.index.Len()
	if c.source.Len() != n {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "source size")
	}
	if n == 0 {
		return c.input.Clone(), shape, nil
	}
	opt := engine.ScatterOptions{Rules: engine.IndexRules{Negative: engine.NegativeFromEnd}}
	if c.flag {
		opt.Reduction = engine.Add
	}
	flat := tensor.Must(c.input.Reshape(tensor.Shape{c.input.Len()}))
	want, err := reftest.ScatterND(flat, tensor.Must(c.index.Reshape(tensor.Shape{n, 1})),
		tensor.Must(c.source.Reshape(tensor.Shape{n})), opt)
	if err != nil {
		return want, shape, err
	}
	return tensor.Must(want.Reshape(shape)), shape, nil
}

func (c *indexCall) indices() []tensor.Tensor {
	if c.second.IsZero() {
		return []tensor.Tensor{c.index}
	}
	return []tensor.Tensor{c.index, c.second}
}

func (c *indexCall) indexPut() (tensor.Tensor, tensor.Shape, error) {
	var none tensor.Tensor
	dt := c.input.DType()
	if dt == tensor.String {
		return none, nil, optest.Refuse(dialect.ErrInput, "strings")
	}
	if err := refuseType(dt); err != nil {
		return none, nil, err
	}
	if c.source.DType() != dt {
		return none, nil, optest.Refuse(engine.ErrType, "values type")
	}
	idx := c.indices()
	for _, t := range idx {
		if it := t.DType(); it != tensor.Int64 && it != tensor.Int32 {
			return none, nil, optest.Refuse(dialect.ErrInput, "index type")
		}
	}
	k := len(idx)
	if k > c.input.Rank() {
		return none, nil, optest.Refuse(engine.ErrShape, "too many indices")
	}
	// The index tensors broadcast together to bs.
	bs := idx[0].Shape()
	for _, t := range idx[1:] {
		var ok bool
		if bs, ok = broadcastShapes(bs, t.Shape()); !ok {
			return none, nil, optest.Refuse(engine.ErrShape, "indices broadcast")
		}
	}
	want := tensortest.Join(bs, c.input.Shape()[k:])
	if !broadcastable(c.source.Shape(), want) {
		return none, nil, optest.Refuse(engine.ErrShape, "values broadcast")
	}
	shape := c.input.Shape()
	b, _ := bs.NumElements()
	if b == 0 {
		return c.input.Clone(), shape, nil
	}
	tuples := make([]int, b*k)
	for j, t := range idx {
		full := bcast(t, bs)
		for i := range b {
			v, _ := full.IntAt(i)
			if t.DType() == tensor.Int32 {
				v = int64(int32(v))
			}
			tuples[i*k+j] = int(v)
		}
	}
	opt := engine.ScatterOptions{Rules: engine.IndexRules{Negative: engine.NegativeFromEnd}}
	if c.flag {
		opt.Reduction = engine.Add
	}
	out, err := reftest.ScatterND(c.input, tensortest.FromInts(tensor.Int64, tensortest.Join(bs, tensor.Shape{k}), tuples...), bcast(c.source, want), opt)
	return out, shape, err
}

func (c *indexCall) maskedScatter() (tensor.Tensor, tensor.Shape, error) {
	var none tensor.Tensor
	dt := c.input.DType()
	if dt == tensor.String {
		return none, nil, optest.Refuse(dialect.ErrInput, "strings")
	}
	if c.index.DType() != tensor.Bool {
		return none, nil, optest.Refuse(dialect.ErrInput, "mask type")
	}
	if err := refuseType(dt); err != nil {
		return none, nil, err
	}
	if c.source.DType() != dt {
		return none, nil, optest.Refuse(engine.ErrType, "source type")
	}
	shape, ok := broadcastShapes(c.input.Shape(), c.index.Shape())
	if !ok {
		return none, nil, optest.Refuse(engine.ErrShape, "mask broadcast")
	}
	in, mask := bcast(c.input, shape), bcast(c.index, shape)
	var pos []int
	for i, m := range mask.Data().([]bool) {
		if m {
			pos = append(pos, i)
		}
	}
	if len(pos) > c.source.Len() {
		return none, shape, optest.Refuse(engine.ErrShape, "too few source elements")
	}
	if len(pos) == 0 {
		return in, shape, nil
	}
	vals := make([]any, len(pos))
	for i := range vals {
		vals[i] = c.source.At(i)
	}
	upd := tensor.Must(tensor.New(dt, tensor.Shape{len(pos)}))
	for i, v := range vals {
		reflect.ValueOf(upd.Data()).Index(i).Set(reflect.ValueOf(v))
	}
	flat := tensor.Must(in.Reshape(tensor.Shape{in.Len()}))
	out, err := reftest.ScatterND(flat, tensortest.FromInts(tensor.Int64, tensor.Shape{len(pos), 1}, pos...), upd, engine.ScatterOptions{})
	if err != nil {
		return out, shape, err
	}
	return tensor.Must(out.Reshape(shape)), shape, nil
}

// broadcastShapes returns the broadcast of shapes a and b, or false.
func broadcastShapes(a, b tensor.Shape) (tensor.Shape, bool) {
	r := max(len(a), len(b))
	out := make(tensor.Shape, r)
	for i := range out {
		x, y := 1, 1
		if i < len(a) {
			x = a[len(a)-1-i]
		}
		if i < len(b) {
			y = b[len(b)-1-i]
		}
		switch {
		case x == y || y == 1:
			out[r-1-i] = x
		case x == 1:
			out[r-1-i] = y
		default:
			return nil, false
		}
	}
	return out, true
}

// broadcastable reports whether shape s broadcasts to shape to.
func broadcastable(s, to tensor.Shape) bool {
	if len(s) > len(to) {
		return false
	}
	for i := range s {
		a, b := s[len(s)-1-i], to[len(to)-1-i]
		if a != b && a != 1 {
			return false
		}
	}
	return true
}

// bcast returns t broadcast to shape (of at least t's rank, each of t's
// sizes 1 or shape's), one element at a time.
func bcast(t tensor.Tensor, shape tensor.Shape) tensor.Tensor {
	out := tensor.Must(tensor.New(t.DType(), shape))
	ov, tv := reflect.ValueOf(out.Data()), reflect.ValueOf(t.Data())
	ts := t.Shape()
	for i := range out.Len() {
		p := shape.Coords(i)
		q := make([]int, len(ts))
		for j := range ts {
			if ts[j] != 1 {
				q[j] = p[len(p)-len(ts)+j]
			}
		}
		ov.Index(i).Set(tv.Index(ts.Offset(q)))
	}
	return out
}

// Call runs the allocating form of the typed API.
func (c *indexCall) Call() (tensor.Tensor, error) {
	switch c.op {
	case "index_add":
		return torch.IndexAdd(c.input, c.dim, c.index, c.source, c.value.scalar())
	case "index_copy":
		return torch.IndexCopy(c.input, c.dim, c.index, c.source)
	case "index_fill":
		return torch.IndexFill(c.input, c.dim, c.index, c.value.scalar())
	case "index_reduce":
		return torch.IndexReduce(c.input, c.dim, c.index, c.source, torch.Reduce(c.reduce), c.flag)
	case "take":
		return torch.Take(c.input, c.index)
	case "take_along_dim":
		return torch.TakeAlongDim(c.input, c.index, c.dim)
	case "take_along_dim flat":
		return torch.TakeAlongDimFlat(c.input, c.index)
	case "put":
		return torch.Put(c.input, c.index, c.source, c.flag)
	case "index_put":
		return torch.IndexPut(c.input, c.indices(), c.source, c.flag)
	}
	return torch.MaskedScatter(c.input, c.index, c.source)
}

// Into runs the Into form with input as given (dst itself, for in place).
func (c *indexCall) Into(dst, input tensor.Tensor) error {
	switch c.op {
	case "index_add":
		return torch.IndexAddInto(dst, input, c.dim, c.index, c.source, c.value.scalar())
	case "index_copy":
		return torch.IndexCopyInto(dst, input, c.dim, c.index, c.source)
	case "index_fill":
		return torch.IndexFillInto(dst, input, c.dim, c.index, c.value.scalar())
	case "index_reduce":
		return torch.IndexReduceInto(dst, input, c.dim, c.index, c.source, torch.Reduce(c.reduce), c.flag)
	case "take":
		return torch.TakeInto(dst, input, c.index)
	case "take_along_dim":
		return torch.TakeAlongDimInto(dst, input, c.index, c.dim)
	case "take_along_dim flat":
		return torch.TakeAlongDimFlatInto(dst, input, c.index)
	case "put":
		return torch.PutInto(dst, input, c.index, c.source, c.flag)
	case "index_put":
		return torch.IndexPutInto(dst, input, c.indices(), c.source, c.flag)
	}
	return torch.MaskedScatterInto(dst, input, c.index, c.source)
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *indexCall) Args() dialect.Call {
	call := dialect.Call{Inputs: map[string]tensor.Tensor{"input": c.input}, Attrs: map[string]dialect.Value{}}
	dim := dialect.Value{Kind: dialect.Int, Int: int64(c.dim)}
	flag := dialect.Value{Kind: dialect.Bool, Bool: c.flag}
	switch c.op {
	case "index_add", "index_copy", "index_reduce":
		call.Inputs["index"], call.Inputs["source"], call.Attrs["dim"] = c.index, c.source, dim
		if c.op == "index_reduce" {
			call.Attrs["reduce"], call.Attrs["include_self"] = dialect.Value{Kind: dialect.String, Str: c.reduce}, flag
		}
	case "index_fill":
		call.Inputs["index"], call.Inputs["value"], call.Attrs["dim"] = c.index, c.value.tensor(), dim
	case "take":
		call.Inputs["index"] = c.index
	case "take_along_dim":
		call.Inputs["indices"], call.Attrs["dim"] = c.index, dim
	case "take_along_dim flat":
		call.Inputs["indices"] = c.index
	case "put":
		call.Inputs["index"], call.Inputs["source"], call.Attrs["accumulate"] = c.index, c.source, flag
	case "index_put":
		call.Inputs["indices.0"], call.Inputs["values"], call.Attrs["accumulate"] = c.index, c.source, flag
		if !c.second.IsZero() {
			call.Inputs["indices.1"] = c.second
		}
	case "masked_scatter":
		call.Inputs["mask"], call.Inputs["source"] = c.index, c.source
	}
	return call
}

// Name, ViaRun, Input and Scatter make indexCall an optest.Call.
func (c *indexCall) Name() string {
	if c.op == "take_along_dim flat" {
		return "torch.take_along_dim"
	}
	return "torch." + c.op
}

func (c *indexCall) ViaRun() bool {
	// index_add's alpha and index_fill's value go through Run as a
	// float64 attribute and a 0-d tensor, which the model does not read
	// as the typed Scalar: only the others go through Run.
	return c.viaRun && c.op != "index_add" && c.op != "index_fill"
}

func (c *indexCall) Input() tensor.Tensor { return c.input }

func (c *indexCall) Scatter() bool {
	if c.op == "masked_scatter" {
		// In place only where the mask broadcasts to input's shape (it
		// is refused otherwise: not the model's outcome).
		_, shape, _ := c.Model(false)
		return shape != nil && shape.Equal(c.input.Shape())
	}
	return c.op != "take" && c.op != "take_along_dim" && c.op != "take_along_dim flat"
}

// FuzzIndexOps runs PyTorch's index operators (index_add with alpha,
// index_copy, index_fill, index_reduce with every reduce and include_self,
// take, take_along_dim with and without dim, put, index_put with one or
// two index tensors, masked_scatter), through the typed API and (for
// most) their dialect.Op, on fuzzer-chosen element types, index types,
// shapes and values, against the reference loops of testkit/reftest under
// PyTorch's rules; the Into forms into a dirty dst and, for the scatters,
// in place, which must leave input alone when they fail.
func FuzzIndexOps(f *testing.F) {
	tail := [][]byte{
		{2, 2, 3, 1, 2, 3, 4, 5, 6, 16, 8, 0, 2, 1, 7, 8, 9, 10, 11, 12, 3, 4},
		{1, 3, 127, 0x80, 5, 2, 0x81, 13, 2, 2, 1, 2, 124, 0x80, 127, 1, 1, 1},
	}
	heads := map[string][][]byte{}
	for _, op := range indexFuzzOps {
		heads[op] = [][]byte{
			{0, 0, 0, 0, 0, 0},   // dim 0, prod, include_self, typed, float32, int64
			{1, 1, 1, 1, 1, 0},   // dim 1, mean, via Run, float16
			{0, 2, 0, 0, 2, 4},   // amax, bfloat16, int32 index
			{255, 3, 1, 0, 3, 0}, // dim -1, amin without self, int8
			{0, 0, 0, 0, 7, 0},   // bool
			{0, 0, 0, 0, 8, 0},   // complex64
		}
	}
	optest.Fuzz(f, torch.Ops(), indexFuzzOps, heads, func(string) [][]byte { return tail }, readIndexCall)
}
