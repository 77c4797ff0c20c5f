package openvino_test

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The operations, element types, index types and reduction names the fuzz
// target picks from; the lists also hold values that must be refused.
var (
	fuzzOps   = []string{"ScatterElementsUpdate", "ScatterNDUpdate", "GatherND", "GatherElements"}
	fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int32,
		tensor.Int64, tensor.Bool, tensor.String, tensor.Complex64, tensor.Float64, tensor.Uint64}
	fuzzIndex = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int32, tensor.Int8, tensor.Uint8,
		tensor.Int16, tensor.Uint64, tensor.Uint16, tensor.Uint32, tensor.Float32}
	fuzzReduction = []string{"", "none", "sum", "sub", "prod", "min", "max", "mean", "add"}
)

// fuzzCall is one operation call that the fuzz target decodes.
type fuzzCall struct {
	op                     string
	opset                  openvino.Opset
	data, indices, updates tensor.Tensor
	axis, batchDims        int
	reduction              string
	useInitVal             bool
	// viaRun makes the call through the operation's dialect.Op; attrs then
	// says which optional attributes are given (bit 1 reduction, bit 2
	// use_init_val for ScatterElementsUpdate, batch_dims for GatherND), and
	// axisForm how ScatterElementsUpdate's axis is given: 0 as an
	// attribute, 1 as a scalar and 2 as a 1-D tensor of the index type.
	viaRun   bool
	attrs    int
	axisForm int
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("openvino.%s opset %d axis %d batch_dims %d reduction %q use_init_val %v (via Run %v, attrs %b, axis form %d)\ndata %v\nindices %v\nupdates %v",
		c.op, c.opset, c.axis, c.batchDims, c.reduction, c.useInitVal, c.viaRun, c.attrs, c.axisForm, c.data, c.indices, c.updates)
}

func (c *fuzzCall) Scatter() bool {
	return c.op == "ScatterElementsUpdate" || c.op == "ScatterNDUpdate"
}

// readCall decodes a call: the choices first, then data, then indices and
// updates shaped to fit most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{
		op:         fuzzOps[in.Pick(len(fuzzOps))],
		opset:      openvino.Opset(in.Pick(20)),
		reduction:  fuzzReduction[in.Pick(len(fuzzReduction))],
		axis:       in.Next() % 4,
		batchDims:  in.Next() % 4,
		useInitVal: in.Pick(2) == 0,
		viaRun:     in.Pick(4) == 1,
		attrs:      in.Next() & 7,
		axisForm:   in.Pick(3),
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.data = in.Elements(dt, ds)
	a := tensortest.AxisOf(c.axis, len(ds))
	switch c.op {
	case "ScatterElementsUpdate":
		c.indices = in.Along(it, ds, a)
		c.updates = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(c.indices.Shape()))
	case "GatherElements":
		is := ds.Clone()
		if a >= 0 {
			is[a] = in.Pick(4)
		}
		c.indices = in.IndicesFor(it, in.Fit(is), tensortest.Sizes(ds, a, 1))
	default:
		b := 0
		if c.op == "GatherND" {
			b = min(max(c.batchDims, 0), len(ds))
		}
		var us tensor.Shape
		c.indices, us = in.ND(it, ds, b, c.op == "ScatterNDUpdate")
		if c.op == "ScatterNDUpdate" {
			c.updates = in.Elements(in.Mostly(dt, fuzzTypes), us)
		}
	}
	return c
}

// versions are the versions of each operation.
var versions = map[string][]int{
	"ScatterElementsUpdate": {3, 12}, "ScatterNDUpdate": {3, 15}, "GatherND": {5, 8}, "GatherElements": {6},
}

// The index rules: the first versions of the scatters take [0, size-1];
// ScatterElementsUpdate-12, ScatterNDUpdate-15 and both GatherNDs count
// negative indices from the end.
var (
	inRange = engine.IndexRules{}
	fromEnd = engine.IndexRules{Negative: engine.NegativeFromEnd}
)

// reductions are the reductions of ScatterElementsUpdate-12 and
// ScatterNDUpdate-15 by their OpenVINO names; the first versions have
// none only.
var reductions = map[string]map[string]engine.Reduction{
	"ScatterElementsUpdate": {"none": engine.None, "sum": engine.Add, "prod": engine.Mul, "min": engine.Min,
		"max": engine.Max, "mean": engine.Mean},
	"ScatterNDUpdate": {"none": engine.None, "sum": engine.Add, "sub": engine.Sub, "prod": engine.Mul,
		"min": engine.Min, "max": engine.Max},
}

// Model returns what OpenVINO defines for the call, made through the typed
// API or (viaRun) the operation's dialect.Op: the output, or an error.
// shape is the output's shape whenever the shapes fit (also for an index
// error).
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	// The checks come in the order the dialect makes them, so that of
	// several faults the model names the one the operation reports.
	v, ok := optest.Version(versions[c.op], int(c.opset))
	if !ok {
		return want, nil, optest.Refuse(dialect.ErrVersion, "no version at this opset")
	}
	newer := v >= 12 && c.op == "ScatterElementsUpdate" || v >= 15 || c.op == "GatherND"
	rules := inRange
	if newer {
		rules = fromEnd
	}
	dt, it := c.data.DType(), c.indices.DType()
	ds, is := c.data.Shape(), c.indices.Shape()
	name, useInitVal, b := c.reduction, c.useInitVal, c.batchDims
	wrapped := false // the axis is out of range, whatever the rank
	if viaRun {
		if c.Scatter() && c.attrs&2 != 0 && !newer || c.op == "ScatterElementsUpdate" && c.attrs&4 != 0 && !newer {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "an attribute the version does not have")
		}
		// An axis given as a tensor of the index type is read before
		// anything is checked: a float is refused, and so is a negative
		// value as a uint64; in a narrower unsigned type it wraps to an
		// axis out of range.
		if c.op == "ScatterElementsUpdate" && c.axisForm != 0 {
			switch {
			case !it.IsInteger():
				return want, nil, optest.Refuse(dialect.ErrInput, "an axis tensor of a non-integer type")
			case it == tensor.Uint64 && c.axis < 0:
				return want, nil, optest.Refuse(dialect.ErrInput, "a negative axis in a uint64 tensor")
			case it.IsUnsigned() && c.axis < 0:
				wrapped = true
			}
		}
		if c.attrs&2 == 0 {
			name = ""
		}
		if c.attrs&4 == 0 {
			useInitVal, b = true, 0
		}
	}
	var red engine.Reduction
	if c.Scatter() {
		if name == "" {
			name = "none"
		}
		red, ok = reductions[c.op][name]
		if !ok || !newer && red != engine.None {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "reduction "+name)
		}
	}
	switch {
	case dt.IsComplex():
		return want, nil, optest.Refuse(dialect.ErrInput, "complex data")
	case dt == tensor.String && (c.op == "ScatterNDUpdate" || c.op == "ScatterElementsUpdate" && !newer):
		return want, nil, optest.Refuse(dialect.ErrInput, "strings where numbers only are taken")
	case !it.IsInteger() || (c.op == "ScatterNDUpdate" || c.op == "GatherElements") && it != tensor.Int32 && it != tensor.Int64:
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	a := tensortest.AxisOf(c.axis, len(ds))
	if wrapped {
		a = -1
	}
	switch c.op {
	case "ScatterElementsUpdate", "ScatterNDUpdate":
		// Strings take no reduction but none, which the reference
		// refuses as the engine does.
		opt := engine.ScatterOptions{Rules: rules, Reduction: red, ExcludeSelf: c.op == "ScatterElementsUpdate" && !useInitVal && red != engine.None}
		if c.op == "ScatterNDUpdate" {
			return c.scatterND(opt)
		}
		switch {
		case len(ds) < 1:
			return want, nil, optest.Refuse(engine.ErrShape, "scalar data")
		case !is.Equal(c.updates.Shape()):
			return want, nil, optest.Refuse(engine.ErrShape, "updates not shaped like indices")
		case a < 0:
			return want, nil, optest.Refuse(dialect.ErrInput, "axis")
		}
		want, err = reftest.ScatterElements(c.data, c.indices, c.updates, a, opt)
		return want, ds, err
	case "GatherND":
		switch {
		case b < 0:
			return want, nil, optest.Refuse(dialect.ErrAttribute, "negative batch_dims")
		case len(ds) < 1 || len(is) < 1:
			return want, nil, optest.Refuse(engine.ErrShape, "scalar data or indices")
		case b >= len(ds) || b >= len(is):
			return want, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims not below the ranks")
		}
		want, err = reftest.GatherND(c.data, c.indices, b, rules)
		k := is[len(is)-1]
		shape = tensortest.Join(is[:len(is)-1], ds[min(b+k, len(ds)):])
		if v < 8 && b > 1 {
			// Version 5 flattens the batch dimensions into one.
			shape = tensortest.Join(tensor.Shape{tensortest.Count(is[:b])}, shape[b:])
			if err == nil {
				want = tensor.Must(want.Reshape(shape))
			}
		}
		return want, shape, err
	}
	switch { // GatherElements
	case len(ds) < 1:
		return want, nil, optest.Refuse(engine.ErrShape, "scalar data")
	case a < 0:
		return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	if len(is) == len(ds) {
		for d := range ds {
			if d != a && is[d] != ds[d] {
				return want, nil, optest.Refuse(engine.ErrShape, "indices differ from data off the axis")
			}
		}
	}
	want, err = reftest.GatherElements(c.data, c.indices, a, inRange)
	return want, is, err
}

// scatterND is ScatterNDUpdate: where updates would be a scalar (one index
// tuple of every dimension), any tensor of one element will do.
func (c *fuzzCall) scatterND(opt engine.ScatterOptions) (tensor.Tensor, tensor.Shape, error) {
	if c.data.Rank() < 1 || c.indices.Rank() < 1 {
		return tensor.Tensor{}, nil, optest.Refuse(engine.ErrShape, "scalar data or indices")
	}
	updates := c.updates
	if c.indices.Rank() == 1 && c.indices.Dim(0) == c.data.Rank() && updates.Len() == 1 {
		updates = tensor.Must(updates.Reshape(tensor.Shape{}))
	}
	want, err := reftest.ScatterND(c.data, c.indices, updates, opt)
	return want, c.data.Shape(), err
}

// Call runs the allocating form of the typed API.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	o := c.opset
	switch c.op {
	case "ScatterElementsUpdate":
		return o.ScatterElementsUpdate(c.data, c.indices, c.updates, c.axis, openvino.Reduction(c.reduction), c.useInitVal)
	case "ScatterNDUpdate":
		return o.ScatterNDUpdate(c.data, c.indices, c.updates, openvino.Reduction(c.reduction))
	case "GatherND":
		return o.GatherND(c.data, c.indices, c.batchDims)
	}
	return o.GatherElements(c.data, c.indices, c.axis)
}

// Args returns the call's inputs and attributes for the operation's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Opset: int(c.opset), Inputs: map[string]tensor.Tensor{"data": c.data, "indices": c.indices},
		Attrs: map[string]dialect.Value{}}
	switch c.op {
	case "ScatterElementsUpdate":
		call.Inputs["updates"] = c.updates
		axis := dialect.Value{Kind: dialect.Int, Int: int64(c.axis)}
		switch c.axisForm {
		case 0:
			call.Attrs["axis"] = axis
		case 1:
			call.Inputs["axis"] = tensortest.FromInts(c.indices.DType(), tensor.Shape{}, c.axis)
		default:
			call.Inputs["axis"] = tensortest.FromInts(c.indices.DType(), tensor.Shape{1}, c.axis)
		}
		if c.attrs&4 != 0 {
			call.Attrs["use_init_val"] = dialect.Value{Kind: dialect.Bool, Bool: c.useInitVal}
		}
	case "ScatterNDUpdate":
		call.Inputs["updates"] = c.updates
	case "GatherND":
		if c.attrs&4 != 0 {
			call.Attrs["batch_dims"] = dialect.Value{Kind: dialect.Int, Int: int64(c.batchDims)}
		}
	default:
		call.Attrs["axis"] = dialect.Value{Kind: dialect.Int, Int: int64(c.axis)}
	}
	if c.attrs&2 != 0 && c.Scatter() {
		call.Attrs["reduction"] = dialect.Value{Kind: dialect.String, Str: c.reduction}
	}
	return call
}

// Into runs the Into form with data as given (dst itself, for in place).
func (c *fuzzCall) Into(dst, data tensor.Tensor) error {
	o := c.opset
	switch c.op {
	case "ScatterElementsUpdate":
		return o.ScatterElementsUpdateInto(dst, data, c.indices, c.updates, c.axis, openvino.Reduction(c.reduction), c.useInitVal)
	case "ScatterNDUpdate":
		return o.ScatterNDUpdateInto(dst, data, c.indices, c.updates, openvino.Reduction(c.reduction))
	case "GatherND":
		return o.GatherNDInto(dst, data, c.indices, c.batchDims)
	}
	return o.GatherElementsInto(dst, data, c.indices, c.axis)
}

// FuzzOps runs every OpenVINO operation (every version the opset picks,
// every reduction and use_init_val, through the typed API and through its
// dialect.Op with ScatterElementsUpdate's axis as an attribute or a tensor)
// on fuzzer-chosen element types, index types of every integer type,
// shapes and values, and compares the outcome with the reference
// implementation under OpenVINO's rules: the same error or not (an index
// error where OpenVINO has one), and the same values, bit for bit but for
// NaN payloads. The Into forms must agree with the allocating one, into a
// dirty dst and in place for the scatters, which must leave data alone
// when they fail.
func FuzzOps(f *testing.F) {
	// A seed is an operation, a head of choices (opset, reduction, axis,
	// batch_dims, use_init_val: 0 true, path: 1 through Run, attributes,
	// axis form, element type, index type; see readCall) and a tail of
	// shapes and values that fit (plain values, or NaN, -0 and duplicate
	// indices).
	tails := map[string][][]byte{
		"nd": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 1, 2, 1, 8, 0, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 1, 1, 3, 1, 8, 8, 13, 1, 1, 124, 0x80, 127},
		},
		"GatherND": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 1, 2, 1, 8, 0},
			{3, 2, 2, 2, 1, 2, 3, 4, 5, 6, 7, 8, 1, 0, 1, 8, 0, 8, 0}, // room for two batch dimensions
		},
		"ScatterElementsUpdate": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 2, 3, 1, 8, 0, 16, 13, 1, 2, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 3, 1, 8, 8, 13, 1, 1, 124, 0x80, 127},
		},
		"GatherElements": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 3, 1, 8, 0, 16, 1, 2, 8, 8, 0, 1},
			{1, 3, 127, 0x80, 5, 2, 1, 16, 13},
		},
	}
	family := map[string]string{"ScatterNDUpdate": "nd", "GatherND": "GatherND",
		"ScatterElementsUpdate": "ScatterElementsUpdate", "GatherElements": "GatherElements"}
	heads := map[string][][]byte{
		"ScatterElementsUpdate": {
			{12, 2, 0, 0, 0, 0, 0, 0, 0, 0},   // sum
			{12, 2, 0, 0, 1, 0, 0, 0, 1, 2},   // sum without use_init_val, float16
			{12, 7, 1, 0, 1, 0, 0, 0, 3, 4},   // mean without use_init_val, int8
			{12, 6, 255, 0, 0, 1, 6, 0, 0, 5}, // max through Run, axis attribute
			{12, 5, 0, 0, 1, 1, 6, 1, 2, 6},   // min through Run, axis scalar tensor
			{3, 1, 0, 0, 0, 1, 0, 2, 7, 7},    // version 3 through Run, axis 1-D tensor
			{3, 2, 0, 0, 0, 0, 0, 0, 0, 0},    // sum refused at 3
			{12, 4, 0, 0, 0, 0, 0, 0, 8, 0},   // prod on strings refused
			{12, 7, 0, 0, 0, 0, 0, 0, 7, 0},   // mean of bools refused
		},
		"ScatterNDUpdate": {
			{15, 3, 0, 0, 0, 0, 0, 0, 0, 0}, // sub
			{15, 4, 0, 0, 0, 1, 2, 0, 1, 2}, // prod through Run, float16
			{3, 0, 0, 0, 0, 0, 0, 0, 6, 3},  // version 3, int32 indices
			{0, 6, 0, 0, 0, 0, 0, 0, 2, 0},  // max, bfloat16
			{15, 0, 0, 0, 0, 0, 0, 0, 0, 4}, // int8 indices refused
		},
		"GatherND": {
			{8, 0, 0, 1, 0, 0, 0, 0, 0, 0},  // batch_dims 1
			{5, 0, 0, 0, 0, 1, 4, 0, 8, 5},  // version 5 through Run, uint8 indices
			{5, 0, 0, 2, 0, 0, 0, 0, 10, 7}, // batch_dims 2 flattened, uint64 indices
		},
		"GatherElements": {
			{6, 0, 0, 0, 0, 0, 0, 0, 0, 0},
			{0, 0, 1, 0, 0, 1, 0, 0, 8, 2},   // strings through Run
			{6, 0, 255, 0, 0, 0, 0, 0, 9, 0}, // complex refused
		},
	}
	optest.Fuzz(f, openvino.Ops(), fuzzOps, heads,
		func(op string) [][]byte { return tails[family[op]] }, readCall)
}

// Name, ViaRun and Input make fuzzCall an optest.Call.
func (c *fuzzCall) Name() string { return "openvino." + c.op }

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.data }
