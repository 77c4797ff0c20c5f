package onnx_test

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The operators, element types, index types and reduction names the fuzz
// target picks from; each list also holds values that must be refused.
var (
	fuzzOps       = []string{"ScatterND", "ScatterElements", "Scatter", "GatherND", "GatherElements", "Gather"}
	fuzzTypes     = []tensor.DType{tensor.Float32, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Uint8, tensor.Int32, tensor.Int64, tensor.Bool, tensor.Float64, tensor.Complex64, tensor.String, tensor.Uint64}
	fuzzIndex     = []tensor.DType{tensor.Int64, tensor.Int64, tensor.Int64, tensor.Int32, tensor.Int32, tensor.Int16}
	fuzzReduction = []string{"", "none", "add", "mul", "max", "min", "mean", "sum"}
)

// fuzzCall is one operator call that the fuzz target decodes.
type fuzzCall struct {
	op                     string
	opset                  onnx.Opset
	data, indices, updates tensor.Tensor
	axis, batchDims        int
	reduction              string
	// viaRun makes the call through the operator's dialect.Op; attrs then
	// says which attributes are given (bit 0 axis, bit 1 reduction, bit 2
	// batch_dims), the others taking their defaults.
	viaRun bool
	attrs  int
}

func (c *fuzzCall) String() string {
	return fmt.Sprintf("onnx.%s opset %d axis %d batch_dims %d reduction %q (via Run %v, attrs %b)\ndata %v\nindices %v\nupdates %v",
		c.op, c.opset, c.axis, c.batchDims, c.reduction, c.viaRun, c.attrs, c.data, c.indices, c.updates)
}

func (c *fuzzCall) Scatter() bool {
	return c.op == "ScatterND" || c.op == "ScatterElements" || c.op == "Scatter"
}

// readCall decodes a call: the choices first, then data, then indices and
// updates shaped to fit data most of the time.
func readCall(in *tensortest.Fuzz) *fuzzCall {
	c := &fuzzCall{
		op:        fuzzOps[in.Pick(len(fuzzOps))],
		opset:     onnx.Opset(in.Pick(20)),
		reduction: fuzzReduction[in.Pick(len(fuzzReduction))],
		axis:      in.Next() % 4,
		batchDims: in.Next() % 3,
		viaRun:    in.Pick(4) == 1,
		attrs:     in.Next() & 7,
	}
	dt := fuzzTypes[in.Pick(len(fuzzTypes))]
	it := fuzzIndex[in.Pick(len(fuzzIndex))]
	ds := in.Shape()
	c.data = in.Elements(dt, ds)
	a := tensortest.AxisOf(c.axis, len(ds))
	switch c.op {
	case "ScatterND", "GatherND":
		b := 0
		if c.op == "GatherND" {
			b = min(max(c.batchDims, 0), len(ds))
		}
		var us tensor.Shape
		c.indices, us = in.ND(it, ds, b, c.op == "ScatterND")
		if c.op == "ScatterND" {
			c.updates = in.Elements(in.Mostly(dt, fuzzTypes), us)
		}
	case "Gather":
		c.indices = in.IndicesFor(it, in.Shape(), tensortest.Sizes(ds, a, 1))
	default: // the Elements operators
		c.indices = in.Along(it, ds, a)
		if c.op != "GatherElements" {
			c.updates = in.Elements(in.Mostly(dt, fuzzTypes), in.Fit(c.indices.Shape()))
		}
	}
	return c
}

// versions are the versions of each operator, and removedIn the opset
// from which Scatter no longer exists.
var versions = map[string][]int{
	"Scatter": {9}, "ScatterElements": {11, 13, 16, 18}, "ScatterND": {11, 13, 16, 18},
	"GatherND": {11, 12, 13}, "GatherElements": {11, 13}, "Gather": {1, 11, 13},
}

const removedIn = 11

// attrSince holds the attributes of each operator, with the first version
// that has each.
var attrSince = map[string]map[string]int{
	"ScatterND":       {"reduction": 16},
	"ScatterElements": {"axis": 0, "reduction": 16},
	"Scatter":         {"axis": 0},
	"GatherND":        {"batch_dims": 12},
	"GatherElements":  {"axis": 0},
	"Gather":          {"axis": 0},
}

// version returns the version that opset selects (optest.Version), with
// none for Scatter from removedIn on.
func version(op string, opset int) (int, bool) {
	if op == "Scatter" && opset >= removedIn {
		return 0, false
	}
	return optest.Version(versions[op], opset)
}

// reduction returns the reduction named name at version v of the scatters:
// none always, add and mul from 16, max and min from 18.
func reduction(v int, name string) (engine.Reduction, bool) {
	switch name {
	case "", "none":
		return engine.None, true
	case "add":
		return engine.Add, v >= 16
	case "mul":
		return engine.Mul, v >= 16
	case "max":
		return engine.Max, v >= 18
	case "min":
		return engine.Min, v >= 18
	}
	return 0, false
}

// fromEnd are ONNX's index rules: negative values count from the end, and
// anything outside [-size, size-1] is an error.
var fromEnd = engine.IndexRules{Negative: engine.NegativeFromEnd}

// Model returns what ONNX defines for the call, made through the typed API
// or (viaRun) the operator's dialect.Op: the output, or an error. shape is
// the output's shape whenever the shapes fit (also for an index error).
func (c *fuzzCall) Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error) {
	// The checks come in the order the dialect makes them, so that of
	// several faults the model names the one the operator reports.
	v, ok := version(c.op, int(c.opset))
	if !ok {
		return want, nil, optest.Refuse(dialect.ErrVersion, "no version at this opset")
	}
	if viaRun {
		for bit, name := range []string{"axis", "reduction", "batch_dims"} {
			since, ok := attrSince[c.op][name]
			if c.attrs&(1<<bit) != 0 && (!ok || v < since) {
				return want, nil, optest.Refuse(dialect.ErrAttribute, "attribute "+name)
			}
		}
	}
	dt, it := c.data.DType(), c.indices.DType()
	ds, is := c.data.Shape(), c.indices.Shape()
	var red engine.Reduction
	if c.Scatter() {
		name := c.reduction
		if c.op == "Scatter" || viaRun && c.attrs&2 == 0 {
			name = ""
		}
		if red, ok = reduction(v, name); !ok {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "reduction "+name)
		}
	}
	if dt == tensor.BFloat16 && v < 13 {
		return want, nil, optest.Refuse(dialect.ErrInput, "bfloat16 before version 13")
	}
	if it != tensor.Int64 && (c.op == "ScatterND" || c.op == "GatherND" || it != tensor.Int32) {
		return want, nil, optest.Refuse(dialect.ErrInput, "index type")
	}
	axis := c.axis
	if viaRun && c.attrs&1 == 0 {
		axis = 0
	}
	a := tensortest.AxisOf(axis, len(ds))
	// Strings add by concatenation and take no other reduction, which
	// the reference refuses as the engine does.
	opt := engine.ScatterOptions{Rules: fromEnd, Reduction: red, Arith: engine.Arith{ConcatStrings: true}}
	switch c.op {
	case "ScatterND":
		if len(ds) < 1 {
			return want, nil, optest.Refuse(engine.ErrShape, "scalar data")
		}
		want, err = reftest.ScatterND(c.data, c.indices, c.updates, opt)
		return want, ds, err
	case "ScatterElements", "Scatter":
		if !is.Equal(c.updates.Shape()) {
			return want, nil, optest.Refuse(engine.ErrShape, "updates not shaped like indices")
		}
		if a < 0 {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
		}
		want, err = reftest.ScatterElements(c.data, c.indices, c.updates, a, opt)
		return want, ds, err
	case "GatherND":
		b := c.batchDims
		if viaRun && c.attrs&4 == 0 {
			b = 0
		}
		switch {
		case v < 12 && b != 0 || b < 0:
			return want, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims")
		case len(ds) < 1 || len(is) < 1:
			return want, nil, optest.Refuse(engine.ErrShape, "scalar data or indices")
		case b >= min(len(ds), len(is)):
			return want, nil, optest.Refuse(dialect.ErrAttribute, "batch_dims not below the ranks")
		}
		k := is[len(is)-1]
		if k < 1 || k > len(ds)-b {
			return want, nil, optest.Refuse(engine.ErrShape, "indices.shape[-1] out of [1, rank-batch_dims]")
		}
		want, err = reftest.GatherND(c.data, c.indices, b, fromEnd)
		return want, tensortest.Join(is[:len(is)-1], ds[b+k:]), err
	case "GatherElements":
		if a < 0 {
			return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
		}
		want, err = reftest.GatherElements(c.data, c.indices, a, fromEnd)
		return want, is, err
	}
	if a < 0 { // Gather
		return want, nil, optest.Refuse(dialect.ErrAttribute, "axis")
	}
	want, err = reftest.Gather(c.data, c.indices, a, 0, fromEnd)
	return want, tensortest.Join(ds[:a], is, ds[a+1:]), err
}

// Call runs the allocating form of the typed API.
func (c *fuzzCall) Call() (tensor.Tensor, error) {
	o := c.opset
	switch c.op {
	case "ScatterND":
		return o.ScatterND(c.data, c.indices, c.updates, onnx.Reduction(c.reduction))
	case "ScatterElements":
		return o.ScatterElements(c.data, c.indices, c.updates, c.axis, onnx.Reduction(c.reduction))
	case "Scatter":
		return o.Scatter(c.data, c.indices, c.updates, c.axis)
	case "GatherND":
		return o.GatherND(c.data, c.indices, c.batchDims)
	case "GatherElements":
		return o.GatherElements(c.data, c.indices, c.axis)
	}
	return o.Gather(c.data, c.indices, c.axis)
}

// Args returns the call's inputs and attributes for the operator's
// dialect.Op.
func (c *fuzzCall) Args() dialect.Call {
	call := dialect.Call{Opset: int(c.opset), Inputs: map[string]tensor.Tensor{"data": c.data, "indices": c.indices},
		Attrs: map[string]dialect.Value{}}
	if c.updates.DType() != tensor.Undefined {
		call.Inputs["updates"] = c.updates
	}
	if c.attrs&1 != 0 {
		call.Attrs["axis"] = dialect.Value{Kind: dialect.Int, Int: int64(c.axis)}
	}
	if c.attrs&2 != 0 {
		call.Attrs["reduction"] = dialect.Value{Kind: dialect.String, Str: c.reduction}
	}
	if c.attrs&4 != 0 {
		call.Attrs["batch_dims"] = dialect.Value{Kind: dialect.Int, Int: int64(c.batchDims)}
	}
	return call
}

// Into runs the Into form with data as given (dst itself, for in place).
func (c *fuzzCall) Into(dst, data tensor.Tensor) error {
	o := c.opset
	switch c.op {
	case "ScatterND":
		return o.ScatterNDInto(dst, data, c.indices, c.updates, onnx.Reduction(c.reduction))
	case "ScatterElements":
		return o.ScatterElementsInto(dst, data, c.indices, c.updates, c.axis, onnx.Reduction(c.reduction))
	case "Scatter":
		return o.ScatterInto(dst, data, c.indices, c.updates, c.axis)
	case "GatherND":
		return o.GatherNDInto(dst, data, c.indices, c.batchDims)
	case "GatherElements":
		return o.GatherElementsInto(dst, data, c.indices, c.axis)
	}
	return o.GatherInto(dst, data, c.indices, c.axis)
}

// FuzzOps runs every ONNX operator (every version the opset picks, every
// attribute, through the typed API and through its dialect.Op) on
// fuzzer-chosen element types, index types, shapes and values, and
// compares the outcome with the reference implementation under ONNX's
// rules: the same error or not (an index error where ONNX has one), and
// the same values, bit for bit but for NaN payloads. The Into forms must
// agree with the allocating one, into a dirty dst and in place for the
// scatters, which must leave data alone when they fail.
func FuzzOps(f *testing.F) {
	// A seed is an operator, a head of choices (opset, reduction, axis,
	// batch_dims, path: 1 through Run, attributes given, element type,
	// index type; see readCall) and a tail of shapes and values that fit
	// (plain values, or NaN, -0 and duplicate indices).
	tails := map[string][][]byte{
		"nd": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 1, 1, 2, 1, 8, 0, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 1, 1, 3, 1, 8, 8, 13, 1, 1, 124, 0x80, 127},
		},
		"elements": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 2, 3, 1, 8, 0, 16, 13, 1, 2, 1, 1, 7, 8, 9, 10, 11, 12},
			{1, 3, 127, 0x80, 5, 3, 1, 8, 8, 13, 1, 1, 124, 0x80, 127},
		},
		"gather": {
			{2, 2, 3, 1, 2, 3, 4, 5, 6, 2, 2, 2, 8, 0, 16, 13},
			{2, 3, 1, 127, 0x80, 5, 0, 13},
		},
	}
	family := map[string]string{"ScatterND": "nd", "GatherND": "nd", "Scatter": "elements", "ScatterElements": "elements",
		"GatherElements": "elements", "Gather": "gather"}
	heads := map[string][][]byte{
		"ScatterND": {
			{18, 0, 0, 0, 0, 0, 0, 0},  // float32
			{16, 2, 0, 0, 0, 0, 1, 0},  // float16 add
			{18, 3, 0, 0, 0, 0, 3, 0},  // int8 mul
			{18, 4, 0, 0, 1, 2, 0, 0},  // max through Run
			{18, 5, 0, 0, 0, 0, 2, 1},  // bfloat16 min
			{13, 1, 0, 0, 1, 0, 10, 0}, // strings through Run
			{11, 0, 0, 0, 0, 0, 7, 0},  // bool
			{16, 2, 0, 0, 0, 0, 9, 0},  // complex64 add
			{16, 4, 0, 0, 0, 0, 0, 0},  // max refused at 16
			{18, 0, 0, 0, 0, 0, 0, 3},  // int32 indices refused
		},
		"ScatterElements": {
			{18, 2, 0, 0, 0, 0, 0, 3},   // add, int32 indices
			{16, 3, 1, 0, 1, 3, 6, 0},   // mul on axis 1 through Run
			{18, 4, 255, 0, 0, 0, 1, 0}, // float16 max on axis -1
			{18, 5, 0, 0, 0, 0, 8, 4},   // float64 min
			{13, 0, 1, 0, 0, 0, 10, 0},  // strings
			{11, 1, 0, 0, 0, 0, 2, 0},   // bfloat16 refused at 11
		},
		"Scatter": {
			{9, 0, 0, 0, 0, 0, 0, 0},
			{10, 0, 1, 0, 1, 1, 5, 3}, // axis 1 through Run
			{11, 0, 0, 0, 0, 0, 0, 0}, // removed
		},
		"GatherND": {
			{12, 0, 0, 1, 0, 0, 0, 0}, // batch_dims 1
			{13, 0, 0, 0, 1, 4, 7, 0}, // through Run
			{11, 0, 0, 0, 0, 0, 4, 0},
			{11, 0, 0, 1, 0, 0, 0, 0}, // batch_dims refused at 11
		},
		"GatherElements": {
			{13, 0, 0, 0, 0, 0, 0, 3},
			{11, 0, 1, 0, 1, 1, 3, 0},
			{13, 0, 255, 0, 0, 0, 10, 0},
		},
		"Gather": {
			{1, 0, 0, 0, 0, 0, 0, 0},
			{11, 0, 1, 0, 1, 1, 8, 4},
			{13, 0, 255, 0, 0, 0, 2, 0},
			{10, 0, 0, 0, 0, 0, 2, 0}, // bfloat16 refused at 10
		},
	}
	optest.Fuzz(f, onnx.Ops(), fuzzOps, heads,
		func(op string) [][]byte { return tails[family[op]] }, readCall)
}

// Name, ViaRun and Input make fuzzCall an optest.Call.
func (c *fuzzCall) Name() string { return "onnx." + c.op }

func (c *fuzzCall) ViaRun() bool { return c.viaRun }

func (c *fuzzCall) Input() tensor.Tensor { return c.data }
