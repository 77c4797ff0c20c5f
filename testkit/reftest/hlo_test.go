package reftest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

func lit(s string) tensor.Tensor { return tensor.Must(tensor.Parse(s)) }

func zeros(d tensor.DType, s shape) tensor.Tensor { return tensor.Must(tensor.New(d, s)) }

// counting returns the int64 values 1, 2, ... in shape s.
func counting(s shape) tensor.Tensor {
	t := tensor.Must(tensor.New(tensor.Int64, s))
	for i, v := range t.Data().([]int64) {
		t.Data().([]int64)[i] = v + int64(i) + 1
	}
	return t
}

// The examples of the spec's gather and scatter sections (the operand
// holds 1...48, the start indices are shared).
var specIndices = lit(`int64:[[[[0, 0], [1, 0], [2, 1]], [[0, 1], [1, 1], [0, 9]]],
                                [[[0, 0], [2, 1], [2, 2]], [[1, 2], [0, 1], [1, 0]]]]`)

func TestHLOSpecExamples(t *testing.T) {
	gdims := engine.GatherDims{OffsetDims: []int{3, 4}, CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0},
		StartIndicesBatchingDims: []int{1}, StartIndexMap: []int{2, 1}, IndexVectorDim: 3, SliceSizes: []int{1, 1, 2, 2}}
	sdims := engine.ScatterDims{UpdateWindowDims: []int{3, 4}, InsertedWindowDims: []int{1}, InputBatchingDims: []int{0},
		ScatterIndicesBatchingDims: []int{1}, ScatterDimsToOperandDims: []int{2, 1}, IndexVectorDim: 3}
	ones := tensor.Must(tensor.New(tensor.Int64, shape{2, 2, 3, 2, 2}))
	for i := range ones.Data().([]int64) {
		ones.Data().([]int64)[i] = 1
	}
	runCases(t, []refCase{
		{name: "gather", run: func() (tensor.Tensor, error) {
			return HLOGather(counting(shape{2, 3, 4, 2}), specIndices, gdims, GatherClamp, nil)
		}, want: lit(`int64:[[[[[1, 2], [3, 4]], [[3, 4], [5, 6]], [[13, 14], [15, 16]]],
		                      [[[33, 34], [35, 36]], [[35, 36], [37, 38]], [[41, 42], [43, 44]]]],
		                     [[[[1, 2], [3, 4]], [[13, 14], [15, 16]], [[21, 22], [23, 24]]],
		                      [[[43, 44], [45, 46]], [[33, 34], [35, 36]], [[27, 28], [29, 30]]]]]`)},
		{name: "scatter", run: func() (tensor.Tensor, error) {
			return HLOScatter(counting(shape{2, 3, 4, 2}), specIndices, ones, sdims, ComputeAdd, ScatterSkipWindow)
		}, want: lit(`int64:[[[[3, 4], [6, 7], [6, 7], [7, 8]], [[9, 10], [11, 12], [15, 16], [17, 18]],
		                      [[17, 18], [19, 20], [22, 23], [24, 25]]],
		                     [[[25, 26], [28, 29], [30, 31], [31, 32]], [[35, 36], [38, 39], [38, 39], [39, 40]],
		                      [[41, 42], [44, 45], [46, 47], [47, 48]]]]`)},
	})
}

// A gather of slices of 2 from [10 20 30 40 50], starting at -1, 1, 4
// (the slice [4, 6) sticks out) and 9.
var (
	gather1D = engine.GatherDims{OffsetDims: []int{1}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{2}}
	gatherOp = tensortest.F32(shape{5}, 10, 20, 30, 40, 50)
	starts   = tensortest.I64(shape{4, 1}, -1, 1, 4, 9)
)

func TestHLOGatherModes(t *testing.T) {
	runCases(t, []refCase{
		{name: "clamp", run: func() (tensor.Tensor, error) { return HLOGather(gatherOp, starts, gather1D, GatherClamp, nil) },
			want: tensortest.F32(shape{4, 2}, 10, 20, 20, 30, 40, 50, 40, 50)},
		{name: "fill", run: func() (tensor.Tensor, error) { return HLOGather(gatherOp, starts, gather1D, GatherFill, float32(-1)) },
			want: tensortest.F32(shape{4, 2}, -1, -1, 20, 30, -1, -1, -1, -1)},
		{name: "fill with JAX's default", run: func() (tensor.Tensor, error) { return HLOGather(gatherOp, starts, gather1D, GatherFill, nil) },
			want: tensortest.F32(shape{4, 2}, float32(nan), float32(nan), 20, 30, float32(nan), float32(nan), float32(nan), float32(nan))},
		{name: "fill of another type", run: func() (tensor.Tensor, error) { return HLOGather(gatherOp, starts, gather1D, GatherFill, -1.0) },
			wantErr: engine.ErrType},
		{name: "index_vector_dim past the last dim", run: func() (tensor.Tensor, error) {
			d := engine.GatherDims{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1}}
			return HLOGather(gatherOp, ints(tensor.Uint64, shape{3}, 4, 0, 2), d, GatherClamp, nil)
		}, want: tensortest.F32(shape{3}, 50, 10, 30)},
		{name: "uint64 beyond int64 clamps to the end", run: func() (tensor.Tensor, error) {
			d := engine.GatherDims{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1}}
			return HLOGather(gatherOp, tensor.Must(tensor.From(shape{1}, []uint64{math.MaxUint64})), d, GatherClamp, nil)
		}, want: tensortest.F32(shape{1}, 50)},
		{name: "empty slice of a collapsed dim takes one element", run: func() (tensor.Tensor, error) {
			d := engine.GatherDims{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{0}}
			return HLOGather(gatherOp, tensortest.I64(shape{2, 1}, 5, 1), d, GatherClamp, nil)
		}, want: tensortest.F32(shape{2}, 50, 20)},
		{name: "a collapsed empty dim fits no start", run: func() (tensor.Tensor, error) {
			d := engine.GatherDims{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{0}}
			return HLOGather(tensortest.F32(shape{0}), tensortest.I64(shape{1, 1}, 0), d, GatherClamp, nil)
		}, wantErr: engine.ErrIndex},
		{name: "empty slice of a collapsed dim, empty result", run: func() (tensor.Tensor, error) {
			d := engine.GatherDims{CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{0}}
			return HLOGather(gatherOp, tensortest.I64(shape{0, 1}), d, GatherClamp, nil)
		}, want: tensortest.F32(shape{0})},
	})
	for d, want := range map[tensor.DType]string{tensor.Bool: "true", tensor.Int8: "-128", tensor.Uint16: "65535",
		tensor.Int64: "-9223372036854775808", tensor.Float16: "NaN", tensor.BFloat16: "NaN", tensor.Complex64: "(NaN+0i)"} {
		if got := tensor.FormatElem(JAXFill(d)); got != want {
			t.Errorf("JAXFill(%v) = %s, want %s", d, got, want)
		}
	}
}

// A scatter of windows of 2 into [0 0 0 0 0] at -1, 1 and 4: the first
// and last stick out by one element.
func TestHLOScatterModes(t *testing.T) {
	dims := engine.ScatterDims{UpdateWindowDims: []int{1}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	in, idx, upd := zeros(tensor.Int32, shape{5}), tensortest.I64(shape{3, 1}, -1, 1, 4), ints(tensor.Int32, shape{3, 2}, 1, 2, 3, 4, 5, 6)
	run := func(m ScatterMode) func() (tensor.Tensor, error) {
		return func() (tensor.Tensor, error) { return HLOScatter(in, idx, upd, dims, ComputeAdd, m) }
	}
	runCases(t, []refCase{
		{name: "skip window", run: run(ScatterSkipWindow), want: ints(tensor.Int32, shape{5}, 0, 3, 4, 0, 0)},
		{name: "skip element", run: run(ScatterSkipElement), want: ints(tensor.Int32, shape{5}, 2, 3, 4, 0, 5)},
		{name: "clamp", run: run(ScatterClamp), want: ints(tensor.Int32, shape{5}, 1, 5, 4, 5, 6)},
		{name: "unknown mode", run: run(ScatterClamp + 1), wantErr: engine.ErrArgument},
	})
	// The input is left as it was.
	if d := Diff(in, zeros(tensor.Int32, shape{5})); d != "" {
		t.Errorf("input changed: %s", d)
	}
}

// TestHLOComputations scatters two updates onto one element, which
// starts as v: each computation on each kind of element type.
func TestHLOComputations(t *testing.T) {
	dims := engine.ScatterDims{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	twice := tensortest.I64(shape{2, 1}, 0, 0)
	c := func(name string, comp Computation, v, u tensor.Tensor, want tensor.Tensor) refCase {
		return refCase{name: name, run: func() (tensor.Tensor, error) {
			return HLOScatter(v, twice, u, dims, comp, ScatterSkipWindow)
		}, want: want}
	}
	e := func(name string, comp Computation, v, u tensor.Tensor, err error) refCase {
		return refCase{name: name, run: func() (tensor.Tensor, error) {
			return HLOScatter(v, twice, u, dims, comp, ScatterSkipWindow)
		}, wantErr: err}
	}
	u64 := func(v ...uint64) tensor.Tensor { return tensor.Must(tensor.From(shape{len(v)}, v)) }
	f := func(v ...float32) tensor.Tensor { return tensortest.F32(shape{len(v)}, v...) }
	nan32, neg0 := float32(nan), float32(negZero)
	runCases(t, []refCase{
		c("replace keeps the last", ComputeReplace, ints(tensor.Int8, shape{1}, 1), ints(tensor.Int8, shape{2}, 3, 4), ints(tensor.Int8, shape{1}, 4)),
		c("replace strings", ComputeReplace, tensortest.Str(shape{1}, "a"), tensortest.Str(shape{2}, "b", "c"), tensortest.Str(shape{1}, "c")),
		c("int8 add wraps", ComputeAdd, ints(tensor.Int8, shape{1}, 100), ints(tensor.Int8, shape{2}, 100, 100), ints(tensor.Int8, shape{1}, 44)),
		c("uint8 multiply wraps", ComputeMultiply, ints(tensor.Uint8, shape{1}, 2), ints(tensor.Uint8, shape{2}, 16, 8), ints(tensor.Uint8, shape{1}, 0)),
		c("int32 maximum is signed", ComputeMaximum, ints(tensor.Int32, shape{1}, -5), ints(tensor.Int32, shape{2}, -7, -6), ints(tensor.Int32, shape{1}, -5)),
		c("uint64 minimum is unsigned", ComputeMinimum, u64(math.MaxUint64), u64(1<<63, math.MaxUint64-1), u64(1<<63)),
		c("int16 and", ComputeAnd, ints(tensor.Int16, shape{1}, 0b1110), ints(tensor.Int16, shape{2}, 0b0111, 0b1101), ints(tensor.Int16, shape{1}, 0b0100)),
		c("int16 or", ComputeOr, ints(tensor.Int16, shape{1}, 0b0001), ints(tensor.Int16, shape{2}, 0b0100, -32768), ints(tensor.Int16, shape{1}, -32763)),
		c("uint32 xor", ComputeXor, ints(tensor.Uint32, shape{1}, 0b1100), ints(tensor.Uint32, shape{2}, 0b1010, 0b0001), ints(tensor.Uint32, shape{1}, 0b0111)),
		c("int8 subtract wraps", ComputeSubtract, ints(tensor.Int8, shape{1}, -100), ints(tensor.Int8, shape{2}, 100, 3), ints(tensor.Int8, shape{1}, 53)),
		c("uint16 subtract wraps", ComputeSubtract, ints(tensor.Uint16, shape{1}, 1), ints(tensor.Uint16, shape{2}, 2, 3), ints(tensor.Uint16, shape{1}, 65532)),
		c("float32 subtract in order", ComputeSubtract, f(1), f(0.5, 2), f(-1.5)),
		// 2050 - 1 is halfway between the float16 values 2048 and 2050 and
		// rounds to even, 2048; minus 1 is 2047 (2048 if rounded once).
		c("float16 subtract rounds each step", ComputeSubtract, half(shape{1}, 2050), half(shape{2}, 1, 1), half(shape{1}, 2047)),
		c("complex subtract", ComputeSubtract, c64(shape{1}, 1+1i), c64(shape{2}, 2, 3i), c64(shape{1}, -1-2i)),
		c("bool add is or", ComputeAdd, bools(shape{1}, false), bools(shape{2}, false, true), bools(shape{1}, true)),
		c("bool multiply is and", ComputeMultiply, bools(shape{1}, true), bools(shape{2}, true, false), bools(shape{1}, false)),
		c("bool maximum is or", ComputeMaximum, bools(shape{1}, false), bools(shape{2}, true, false), bools(shape{1}, true)),
		c("bool minimum is and", ComputeMinimum, bools(shape{1}, true), bools(shape{2}, true, false), bools(shape{1}, false)),
		c("bool xor", ComputeXor, bools(shape{1}, true), bools(shape{2}, true, true), bools(shape{1}, true)),
		c("float32 maximum propagates NaN", ComputeMaximum, f(1), f(nan32, 2), f(nan32)),
		c("float32 minimum propagates NaN", ComputeMinimum, f(nan32), f(-1, -2), f(nan32)),
		c("float32 maximum of -0 and +0 is +0", ComputeMaximum, f(neg0), f(0, neg0), f(0)),
		c("float32 minimum of +0 and -0 is -0", ComputeMinimum, f(0), f(neg0, 0), f(neg0)),
		c("float32 add", ComputeAdd, f(1), f(2, 0.5), f(3.5)),
		// 2048 + 1 is halfway between the float16 values 2048 and 2050; each
		// step rounds to even, so the sum stays 2048 (2050 if rounded once).
		c("float16 add rounds each step", ComputeAdd, half(shape{1}, 2048), half(shape{2}, 1, 1), half(shape{1}, 2048)),
		c("bfloat16 multiply", ComputeMultiply, bf16(shape{1}, 1.0078125), bf16(shape{2}, 1.0078125, 1.0078125), bf16(shape{1}, 1.0234375)),
		c("complex maximum: imaginary parts break a tie", ComputeMaximum, c64(shape{1}, 1+5i), c64(shape{2}, 1+7i, 0+9i), c64(shape{1}, 1+7i)),
		c("complex minimum: real parts first", ComputeMinimum, c64(shape{1}, 1+5i), c64(shape{2}, 1+7i, 0+9i), c64(shape{1}, 0+9i)),
		c("complex multiply", ComputeMultiply, c64(shape{1}, 1+1i), c64(shape{2}, 1+1i, 2), c64(shape{1}, 4i)),
		e("float and", ComputeAnd, f(1), f(1, 2), engine.ErrType),
		e("complex xor", ComputeXor, c64(shape{1}, 1), c64(shape{2}, 1, 2), engine.ErrType),
		e("string add", ComputeAdd, tensortest.Str(shape{1}, "a"), tensortest.Str(shape{2}, "b", "c"), engine.ErrType),
		e("unknown computation", ComputeSubtract+1, f(1), f(1, 2), engine.ErrArgument),
		e("bool subtract", ComputeSubtract, bools(shape{1}, true), bools(shape{2}, true, false), engine.ErrType),
		e("string subtract", ComputeSubtract, tensortest.Str(shape{1}, "a"), tensortest.Str(shape{2}, "b", "c"), engine.ErrType),
		e("updates of another type", ComputeAdd, f(1), tensortest.F64(shape{2}, 1, 2), engine.ErrType),
		{name: "float indices", run: func() (tensor.Tensor, error) {
			return HLOScatter(f(1), f(0, 0), f(1, 2), engine.ScatterDims{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1},
				ComputeAdd, ScatterSkipWindow)
		}, wantErr: engine.ErrType},
	})
	for i, name := range computationNames {
		if c, err := ParseComputation(name); err != nil || c != Computation(i) || c.String() != name {
			t.Errorf("ParseComputation(%q) = %v, %v", name, c, err)
		}
	}
	if _, err := ParseComputation("divide"); !errors.Is(err, engine.ErrArgument) {
		t.Errorf("ParseComputation(divide): %v", err)
	}
}

// TestHLOGatherConstraints breaks each constraint of the spec's gather in
// turn, starting from valid dimension numbers.
func TestHLOGatherConstraints(t *testing.T) {
	// A 3x4 operand, two start indices into dimension 0, whole rows.
	rows := func() engine.GatherDims {
		return engine.GatherDims{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{1, 4}}
	}
	// A 2x3 operand batched along dimension 0 with the start indices'.
	batched := func() engine.GatherDims {
		return engine.GatherDims{CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
			StartIndexMap: []int{1}, IndexVectorDim: 1, SliceSizes: []int{1, 1}}
	}
	cases := []struct {
		label  string
		class  error
		base   func() engine.GatherDims
		change func(*engine.GatherDims)
		shape  shape // the operand's, if not the base's
	}{
		{"", nil, rows, func(*engine.GatherDims) {}, nil},
		{"", nil, batched, func(*engine.GatherDims) {}, nil},
		{"C1", engine.ErrShape, rows, func(d *engine.GatherDims) { d.OffsetDims = nil }, nil},
		{"C2", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.IndexVectorDim = 3 }, nil},
		{"C3", engine.ErrShape, rows, func(d *engine.GatherDims) { d.StartIndexMap = []int{0, 1} }, nil},
		{"C4", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.OffsetDims, d.CollapsedSliceDims = []int{1, 0}, nil }, nil},
		{"C5", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.OffsetDims = []int{2} }, nil},
		{"C6", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.OffsetDims, d.OperandBatchingDims = nil, []int{0} }, nil},
		{"C7", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.OffsetDims, d.CollapsedSliceDims = nil, []int{1, 0} }, nil},
		{"C8", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.CollapsedSliceDims = []int{2} }, nil},
		{"C9", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.SliceSizes = []int{2, 4} }, nil},
		{"C10", engine.ErrArgument, batched, func(d *engine.GatherDims) {
			d.CollapsedSliceDims, d.OperandBatchingDims, d.StartIndicesBatchingDims = nil, []int{1, 0}, []int{0, 2}
		}, nil},
		{"C11", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.OperandBatchingDims = []int{5} }, nil},
		{"C12", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.SliceSizes = []int{2, 1} }, nil},
		{"C13", engine.ErrArgument, batched, func(d *engine.GatherDims) {
			d.CollapsedSliceDims, d.OperandBatchingDims, d.StartIndicesBatchingDims = nil, []int{0, 1}, []int{0, 0}
		}, nil},
		{"C14", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.StartIndicesBatchingDims = []int{3} }, nil},
		{"C15", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.StartIndicesBatchingDims = []int{1} }, nil},
		{"C16", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.StartIndicesBatchingDims = nil }, nil},
		{"C17", engine.ErrShape, batched, func(*engine.GatherDims) {}, shape{3, 3}},
		{"C18", engine.ErrArgument, batched, func(d *engine.GatherDims) { d.StartIndexMap = []int{0} }, nil},
		{"C19", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.StartIndexMap = []int{2} }, nil},
		{"C20", engine.ErrShape, rows, func(d *engine.GatherDims) { d.SliceSizes = []int{1} }, nil},
		{"C21", engine.ErrShape, rows, func(d *engine.GatherDims) { d.SliceSizes = []int{1, 5} }, nil},
		{"C21", engine.ErrArgument, rows, func(d *engine.GatherDims) { d.SliceSizes = []int{1, -1} }, nil},
	}
	for _, c := range cases {
		d := c.base()
		c.change(&d)
		s := c.shape
		if s == nil {
			s = shape{3, 4}
			if d.OperandBatchingDims != nil || c.label == "C10" || c.label == "C13" {
				s = shape{2, 3}
			}
		}
		indices := tensortest.I64(shape{2, 1}, 0, 1)
		if c.label == "C10" || c.label == "C13" {
			indices = tensortest.I64(shape{2, 1, 3}, 0, 0, 0, 1, 1, 1)
			d.IndexVectorDim = 1
		}
		_, err := HLOGather(zeros(tensor.Float32, s), indices, d, GatherClamp, nil)
		checkConstraint(t, "gather "+c.label, err, c.class, c.label)
	}
	_, err := HLOGather(gatherOp, tensortest.F32(shape{1, 1}, 0), gather1D, GatherClamp, nil)
	checkConstraint(t, "gather of float indices", err, engine.ErrType, "")
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 10))
	_, err = HLOGather(gatherOp, zeros(tensor.Int8, shape{200, 1}), gather1D, GatherClamp, nil)
	checkConstraint(t, "gather beyond the size limit", err, engine.ErrShape, "")
}

// TestHLOScatterConstraints breaks each constraint of the spec's scatter
// in turn.
func TestHLOScatterConstraints(t *testing.T) {
	// Rows of a 3x4 input, two of them.
	rows := func() engine.ScatterDims {
		return engine.ScatterDims{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	}
	// A 2x3 input batched along dimension 0 with the indices'.
	batched := func() engine.ScatterDims {
		return engine.ScatterDims{InsertedWindowDims: []int{1}, InputBatchingDims: []int{0}, ScatterIndicesBatchingDims: []int{0},
			ScatterDimsToOperandDims: []int{1}, IndexVectorDim: 1}
	}
	cases := []struct {
		label          string
		class          error
		base           func() engine.ScatterDims
		change         func(*engine.ScatterDims)
		input, updates shape
	}{
		{"", nil, rows, func(*engine.ScatterDims) {}, nil, nil},
		{"", nil, batched, func(*engine.ScatterDims) {}, nil, nil},
		{"C2", engine.ErrShape, rows, func(d *engine.ScatterDims) { d.InsertedWindowDims = nil }, nil, nil},
		{"C4", engine.ErrShape, rows, func(*engine.ScatterDims) {}, nil, shape{2, 4, 1}},
		{"C4", engine.ErrShape, rows, func(*engine.ScatterDims) {}, nil, shape{3, 4}},
		{"C4", engine.ErrShape, rows, func(*engine.ScatterDims) {}, nil, shape{2, 5}},
		{"C7", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.UpdateWindowDims, d.InsertedWindowDims = []int{1, 0}, nil }, nil, nil},
		{"C8", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.UpdateWindowDims = []int{5} }, nil, nil},
		{"C9", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.UpdateWindowDims, d.InputBatchingDims = nil, []int{0} }, nil, nil},
		{"C10", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.UpdateWindowDims, d.InsertedWindowDims = nil, []int{1, 0} }, nil, nil},
		{"C11", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.InsertedWindowDims = []int{2} }, nil, nil},
		{"C12", engine.ErrArgument, batched, func(d *engine.ScatterDims) {
			d.InsertedWindowDims, d.InputBatchingDims, d.ScatterIndicesBatchingDims = nil, []int{1, 0}, []int{0, 2}
		}, nil, nil},
		{"C13", engine.ErrArgument, batched, func(d *engine.ScatterDims) { d.InputBatchingDims = []int{5} }, nil, nil},
		{"C14", engine.ErrArgument, batched, func(d *engine.ScatterDims) {
			d.InsertedWindowDims, d.InputBatchingDims, d.ScatterIndicesBatchingDims = nil, []int{0, 1}, []int{0, 0}
		}, nil, nil},
		{"C15", engine.ErrArgument, batched, func(d *engine.ScatterDims) { d.ScatterIndicesBatchingDims = []int{3} }, nil, nil},
		{"C16", engine.ErrArgument, batched, func(d *engine.ScatterDims) { d.ScatterIndicesBatchingDims = []int{1} }, nil, nil},
		{"C17", engine.ErrArgument, batched, func(d *engine.ScatterDims) { d.ScatterIndicesBatchingDims = nil }, nil, nil},
		{"C18", engine.ErrShape, batched, func(*engine.ScatterDims) {}, shape{3, 3}, nil},
		{"C19", engine.ErrShape, rows, func(d *engine.ScatterDims) { d.ScatterDimsToOperandDims = []int{0, 1} }, nil, nil},
		{"C20", engine.ErrArgument, batched, func(d *engine.ScatterDims) { d.ScatterDimsToOperandDims = []int{0} }, nil, nil},
		{"C21", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.ScatterDimsToOperandDims = []int{2} }, nil, nil},
		{"C22", engine.ErrArgument, rows, func(d *engine.ScatterDims) { d.IndexVectorDim = 3 }, nil, nil},
	}
	for _, c := range cases {
		d := c.base()
		c.change(&d)
		in, up := c.input, c.updates
		indices := tensortest.I64(shape{2, 1}, 0, 1)
		batchedCase := d.InputBatchingDims != nil || c.label == "C12" || c.label == "C14" || c.label == "C17"
		if in == nil {
			in = shape{3, 4}
			if batchedCase {
				in = shape{2, 3}
			}
		}
		if up == nil {
			up = shape{2, 4}
			if batchedCase || c.label == "C9" || c.label == "C10" {
				up = shape{2}
			}
		}
		if c.label == "C12" || c.label == "C14" {
			indices = tensortest.I64(shape{2, 1, 3}, 0, 0, 0, 1, 1, 1)
			up = shape{2, 3}
		}
		_, err := HLOScatter(zeros(tensor.Int32, in), indices, zeros(tensor.Int32, up), d, ComputeAdd, ScatterSkipWindow)
		checkConstraint(t, "scatter "+c.label, err, c.class, c.label)
	}
}

// checkConstraint checks that err is of class (nil: no error) and names
// the constraint label, if there is one.
func checkConstraint(t *testing.T, what string, err, class error, label string) {
	t.Helper()
	switch {
	case class == nil && err != nil:
		t.Errorf("%s: %v", what, err)
	case class != nil && (!errors.Is(err, class) || label != "" && !strings.Contains(err.Error(), "("+label+")")):
		t.Errorf("%s: error %v, want %v naming (%s)", what, err, class, label)
	}
}

// TestHLODynamicSlices: the spec's examples of dynamic_slice and
// dynamic_update_slice, and what they refuse.
func TestHLODynamicSlices(t *testing.T) {
	starts := func(v ...int64) []tensor.Tensor {
		out := make([]tensor.Tensor, len(v))
		for i, x := range v {
			out[i] = tensor.Scalar(x)
		}
		return out
	}
	operand := ints(tensor.Int32, shape{4, 4}, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0)
	target := ints(tensor.Int32, shape{4, 4}, 1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1)
	ones := ints(tensor.Int32, shape{2, 2}, 1, 1, 1, 1)
	runCases(t, []refCase{
		{name: "slice: the spec's example", run: func() (tensor.Tensor, error) {
			return HLODynamicSlice(operand, starts(-1, 3), []int{2, 2})
		}, want: ones},
		{name: "slice: inside", run: func() (tensor.Tensor, error) {
			return HLODynamicSlice(counting(shape{3, 4}), starts(1, 1), []int{2, 3})
		}, want: lit("int64:[[6, 7, 8], [10, 11, 12]]")},
		{name: "slice: uint64 beyond int64", run: func() (tensor.Tensor, error) {
			return HLODynamicSlice(counting(shape{4}), []tensor.Tensor{tensor.Scalar(uint64(math.MaxUint64))}, []int{1})
		}, want: tensortest.I64(shape{1}, 4)},
		{name: "slice: empty", run: func() (tensor.Tensor, error) {
			return HLODynamicSlice(counting(shape{4}), starts(9), []int{0})
		}, want: tensortest.I64(shape{0})},
		{name: "update: the spec's example", run: func() (tensor.Tensor, error) {
			return HLODynamicUpdateSlice(target, ones, starts(-1, 3))
		}, want: ints(tensor.Int32, shape{4, 4}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1)},
		{name: "update: inside", run: func() (tensor.Tensor, error) {
			return HLODynamicUpdateSlice(counting(shape{2, 3}), tensortest.I64(shape{1, 2}, 0, 0), starts(1, 1))
		}, want: lit("int64:[[1, 2, 3], [4, 0, 0]]")},
	})
	for _, c := range []struct {
		label string
		class error
		err   error
	}{
		{"C2", engine.ErrShape, second(HLODynamicSlice(operand, starts(0), []int{2, 2}))},
		{"C2", engine.ErrShape, second(HLODynamicSlice(operand, starts(0, 0), []int{2}))},
		{"C3", engine.ErrType, second(HLODynamicSlice(operand, []tensor.Tensor{tensor.Scalar(int64(0)), tensor.Scalar(int32(0))}, []int{2, 2}))},
		{"C4", engine.ErrArgument, second(HLODynamicSlice(operand, starts(0, 0), []int{2, -1}))},
		{"C4", engine.ErrShape, second(HLODynamicSlice(operand, starts(0, 0), []int{2, 5}))},
		{"", engine.ErrType, second(HLODynamicSlice(operand, []tensor.Tensor{tensor.Scalar(float32(0)), tensor.Scalar(float32(0))}, []int{2, 2}))},
		{"", engine.ErrShape, second(HLODynamicSlice(operand, []tensor.Tensor{tensortest.I64(shape{1}, 0), tensortest.I64(shape{1}, 0)}, []int{2, 2}))},
		{"C2", engine.ErrType, second(HLODynamicUpdateSlice(operand, tensortest.F32(shape{2, 2}, 1, 1, 1, 1), starts(0, 0)))},
		{"C3", engine.ErrShape, second(HLODynamicUpdateSlice(operand, ints(tensor.Int32, shape{2}, 1, 1), starts(0, 0)))},
		{"C4", engine.ErrShape, second(HLODynamicUpdateSlice(operand, ones, starts(0)))},
		{"C5", engine.ErrType, second(HLODynamicUpdateSlice(operand, ones, []tensor.Tensor{tensor.Scalar(uint8(0)), tensor.Scalar(int8(0))}))},
		{"C6", engine.ErrShape, second(HLODynamicUpdateSlice(operand, ints(tensor.Int32, shape{5, 1}, 1, 1, 1, 1, 1), starts(0, 0)))},
	} {
		checkConstraint(t, "dynamic slices "+c.label, c.err, c.class, c.label)
	}
}

func second(_ tensor.Tensor, err error) error { return err }
