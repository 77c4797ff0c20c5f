package openvino_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The reductions of ScatterElementsUpdate-12, with use_init_val both ways,
// and of ScatterNDUpdate-15, on one set of updates: element 1 receives
// 4, -6 and 2 in that order, element 2 (index -2) receives 5, elements 0
// and 3 nothing.
func TestReductions(t *testing.T) {
	data := tensortest.I32(tensor.Shape{4}, 10, -7, 3, 8)
	idx := []int{1, 1, -2, 1}
	upd := tensortest.I32(tensor.Shape{4}, 4, -6, 5, 2)
	tests := []struct {
		reduction openvino.Reduction
		init      bool
		want      []int32 // nil: the reduction is not allowed
		wantND    []int32 // ScatterNDUpdate-15, which has no use_init_val; nil: not allowed
	}{
		{"none", true, []int32{10, 2, 5, 8}, []int32{10, 2, 5, 8}}, // the last update wins
		{"none", false, []int32{10, 2, 5, 8}, nil},                 // use_init_val has no effect
		{"", true, []int32{10, 2, 5, 8}, []int32{10, 2, 5, 8}},     // the default
		{"sum", true, []int32{10, -7, 8, 8}, []int32{10, -7, 8, 8}},
		{"sum", false, []int32{10, 0, 5, 8}, nil},
		{"sub", true, nil, []int32{10, -7, -2, 8}},
		{"prod", true, []int32{10, 336, 15, 8}, []int32{10, 336, 15, 8}},
		{"prod", false, []int32{10, -48, 5, 8}, nil},
		{"min", true, []int32{10, -7, 3, 8}, []int32{10, -7, 3, 8}},
		{"min", false, []int32{10, -6, 5, 8}, nil},
		{"max", true, []int32{10, 4, 5, 8}, []int32{10, 4, 5, 8}},
		{"max", false, []int32{10, 4, 5, 8}, nil},
		{"mean", true, []int32{10, -2, 4, 8}, nil}, // -7/4 = -1.75 rounds down to -2; (3+5)/2 = 4
		{"mean", false, []int32{10, 0, 5, 8}, nil},
		{"add", true, nil, nil}, // ONNX's spelling
		{"mul", true, nil, nil},
		{"Sum", true, nil, nil},
	}
	for _, tt := range tests {
		out, err := openvino.Opset(12).ScatterElementsUpdate(data, ints(tensor.Int64, tensor.Shape{4}, idx...), upd, 0, tt.reduction, tt.init)
		switch {
		case tt.want == nil && !errors.Is(err, dialect.ErrAttribute):
			t.Errorf("ScatterElementsUpdate %q: got %v, %v; want ErrAttribute", tt.reduction, out, err)
		case tt.want != nil && (err != nil || !tensor.Equal(out, tensortest.I32(tensor.Shape{4}, tt.want...))):
			t.Errorf("ScatterElementsUpdate %q use_init_val %v: got %v, %v; want %v", tt.reduction, tt.init, out, err, tt.want)
		}
		if !tt.init {
			continue
		}
		out, err = openvino.Opset(15).ScatterNDUpdate(data, ints(tensor.Int32, tensor.Shape{4, 1}, idx...), upd, tt.reduction)
		switch {
		case tt.wantND == nil && !errors.Is(err, dialect.ErrAttribute):
			t.Errorf("ScatterNDUpdate %q: got %v, %v; want ErrAttribute", tt.reduction, out, err)
		case tt.wantND != nil && (err != nil || !tensor.Equal(out, tensortest.I32(tensor.Shape{4}, tt.wantND...))):
			t.Errorf("ScatterNDUpdate %q: got %v, %v; want %v", tt.reduction, out, err, tt.wantND)
		}
	}
}

// Integer mean rounds toward negative infinity; float mean does not round.
func TestMean(t *testing.T) {
	tests := []struct {
		data    int
		updates []int
		init    bool
		want    int
	}{
		{0, []int{-1, -2}, false, -2}, // -1.5
		{0, []int{-1, -2}, true, -1},  // -3/3
		{1, []int{-4}, true, -2},      // -1.5
		{1, []int{4}, true, 2},        // 2.5
		{5, []int{-1, -2, -2}, false, -2},
		{7, nil, false, 7}, // no update: data is kept
	}
	for _, tt := range tests {
		for _, d := range []tensor.DType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64} {
			n := len(tt.updates)
			out, err := openvino.Latest.ScatterElementsUpdate(ints(d, tensor.Shape{1}, tt.data),
				ints(tensor.Int32, tensor.Shape{n}, make([]int, n)...), ints(d, tensor.Shape{n}, tt.updates...), 0, "mean", tt.init)
			if want := ints(d, tensor.Shape{1}, tt.want); err != nil || !tensor.Equal(out, want) {
				t.Errorf("%v mean of %d and %v (use_init_val %v): got %v, %v; want %d", d, tt.data, tt.updates, tt.init, out, err, tt.want)
			}
		}
	}
	out, err := openvino.Latest.ScatterElementsUpdate(tensortest.F32(tensor.Shape{2}, 1, 1), tensortest.I64(tensor.Shape{3}, 0, 0, 1),
		tensortest.F32(tensor.Shape{3}, -4, 0, 2), 0, "mean", true)
	if want := tensortest.F32(tensor.Shape{2}, -1, 1.5); err != nil || !tensor.Equal(out, want) {
		t.Errorf("float32 mean: got %v, %v", out, err)
	}
}

// bool: sum and max are OR, prod and min AND, sub XOR; mean is an error.
func TestBoolReductions(t *testing.T) {
	data := ints(tensor.Bool, tensor.Shape{4}, 0, 1, 0, 1)
	upd := ints(tensor.Bool, tensor.Shape{4}, 1, 0, 0, 1)
	idx := []int{0, 1, 2, 3}
	tests := []struct {
		reduction    openvino.Reduction
		include      []int // ScatterElementsUpdate-12 with use_init_val true, and ScatterNDUpdate-15
		exclude      []int // use_init_val false
		scatterNDErr bool
	}{
		{"sum", []int{1, 1, 0, 1}, []int{1, 0, 0, 1}, false},
		{"max", []int{1, 1, 0, 1}, []int{1, 0, 0, 1}, false},
		{"prod", []int{0, 0, 0, 1}, []int{1, 0, 0, 1}, false},
		{"min", []int{0, 0, 0, 1}, []int{1, 0, 0, 1}, false},
		{"sub", []int{1, 1, 0, 0}, nil, false},
	}
	for _, tt := range tests {
		if tt.exclude != nil {
			for init, want := range map[bool][]int{true: tt.include, false: tt.exclude} {
				out, err := openvino.Latest.ScatterElementsUpdate(data, ints(tensor.Uint8, tensor.Shape{4}, idx...), upd, 0, tt.reduction, init)
				if err != nil || !tensor.Equal(out, ints(tensor.Bool, tensor.Shape{4}, want...)) {
					t.Errorf("ScatterElementsUpdate %s use_init_val %v: got %v, %v; want %v", tt.reduction, init, out, err, want)
				}
			}
		}
		out, err := openvino.Latest.ScatterNDUpdate(data, ints(tensor.Int64, tensor.Shape{4, 1}, idx...), upd, tt.reduction)
		if err != nil || !tensor.Equal(out, ints(tensor.Bool, tensor.Shape{4}, tt.include...)) {
			t.Errorf("ScatterNDUpdate %s: got %v, %v; want %v", tt.reduction, out, err, tt.include)
		}
	}
	for _, init := range []bool{true, false} {
		_, err := openvino.Latest.ScatterElementsUpdate(data, ints(tensor.Int64, tensor.Shape{4}, idx...), upd, 0, "mean", init)
		if !errors.Is(err, engine.ErrType) {
			t.Errorf("bool mean: got %v, want ErrType", err)
		}
	}
}

// Which index values each version accepts.
func TestIndexRules(t *testing.T) {
	data4 := seq(tensor.Float32, tensor.Shape{4}, 1)
	data22 := seq(tensor.Float32, tensor.Shape{2, 2}, 1)
	seu := func(opset openvino.Opset, i int) (tensor.Tensor, error) {
		return opset.ScatterElementsUpdate(data4, ints(tensor.Int64, tensor.Shape{1}, i), tensortest.F32(tensor.Shape{1}, 9), 0, "", true)
	}
	snd := func(opset openvino.Opset, i int) (tensor.Tensor, error) {
		return opset.ScatterNDUpdate(data4, ints(tensor.Int64, tensor.Shape{1, 1}, i), tensortest.F32(tensor.Shape{1}, 9), "")
	}
	gnd := func(opset openvino.Opset, i int) (tensor.Tensor, error) {
		return opset.GatherND(data22, ints(tensor.Int64, tensor.Shape{1, 1}, i), 0)
	}
	ge := func(opset openvino.Opset, i int) (tensor.Tensor, error) {
		return opset.GatherElements(data22, ints(tensor.Int32, tensor.Shape{1, 2}, i, 0), 0)
	}
	type call func(openvino.Opset, int) (tensor.Tensor, error)
	tests := []struct {
		name   string
		f      call
		opset  openvino.Opset
		index  int
		want   []float32 // nil: an index error
		lo, hi int64     // the allowed range the error reports
	}{
		{"ScatterElementsUpdate-3 last", seu, 3, 3, []float32{1, 2, 3, 9}, 0, 0},
		{"ScatterElementsUpdate-3 -1", seu, 3, -1, nil, 0, 3},
		{"ScatterElementsUpdate-3 size", seu, 3, 4, nil, 0, 3},
		{"ScatterElementsUpdate-12 -1", seu, 12, -1, []float32{1, 2, 3, 9}, 0, 0},
		{"ScatterElementsUpdate-12 -size", seu, 12, -4, []float32{9, 2, 3, 4}, 0, 0},
		{"ScatterElementsUpdate-12 -size-1", seu, 12, -5, nil, -4, 3},
		{"ScatterElementsUpdate-12 size", seu, 12, 4, nil, -4, 3},
		{"ScatterNDUpdate-3 -1", snd, 3, -1, nil, 0, 3},
		{"ScatterNDUpdate-3 size", snd, 3, 4, nil, 0, 3},
		{"ScatterNDUpdate-15 -1", snd, 15, -1, []float32{1, 2, 3, 9}, 0, 0},
		{"ScatterNDUpdate-15 -size-1", snd, 15, -5, nil, -4, 3},
		{"ScatterNDUpdate-15 size", snd, 15, 4, nil, -4, 3},
		{"GatherND-5 1", gnd, 5, 1, []float32{3, 4}, 0, 0},
		// As OpenVINO's reference implementation and its GatherND-5 tests.
		{"GatherND-5 -1", gnd, 5, -1, []float32{3, 4}, 0, 0},
		{"GatherND-5 -2", gnd, 5, -2, []float32{1, 2}, 0, 0},
		{"GatherND-5 -3", gnd, 5, -3, nil, -2, 1},
		{"GatherND-8 -1", gnd, 8, -1, []float32{3, 4}, 0, 0},
		{"GatherND-8 -2", gnd, 8, -2, []float32{1, 2}, 0, 0},
		{"GatherND-8 -3", gnd, 8, -3, nil, -2, 1},
		{"GatherND-8 size", gnd, 8, 2, nil, -2, 1},
		{"GatherElements-6 1", ge, 6, 1, []float32{3, 2}, 0, 0},
		{"GatherElements-6 -1", ge, 6, -1, nil, 0, 1},
		{"GatherElements-6 size", ge, 6, 2, nil, 0, 1},
	}
	for _, tt := range tests {
		out, err := tt.f(tt.opset, tt.index)
		if tt.want != nil {
			if err != nil || !slices.Equal(out.Data().([]float32), tt.want) {
				t.Errorf("%s: got %v, %v; want %v", tt.name, out, err, tt.want)
			}
			continue
		}
		var ie *engine.IndexError
		if !errors.As(err, &ie) {
			t.Errorf("%s: got %v, %v; want an index error", tt.name, out, err)
			continue
		}
		if ie.Min != tt.lo || ie.Max != tt.hi || ie.Value != int64(tt.index) {
			t.Errorf("%s: error reports %d in [%d, %d], want %d in [%d, %d]", tt.name, ie.Value, ie.Min, ie.Max, tt.index, tt.lo, tt.hi)
		}
	}
}

// All indices are checked before anything is written: a bad index after
// good ones leaves an in-place destination untouched.
func TestNothingWrittenOnError(t *testing.T) {
	buf := []float32{1, 2, 3, 4}
	data := tensortest.F32(tensor.Shape{4}, buf...)
	dst := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	err := openvino.Latest.ScatterElementsUpdateInto(dst, dst, tensortest.I64(tensor.Shape{3}, 0, 1, 4), tensortest.F32(tensor.Shape{3}, 7, 8, 9), 0, "sum", true)
	if !errors.Is(err, engine.ErrIndex) || !tensor.Equal(dst, data) {
		t.Errorf("got %v, %v", buf, err)
	}
	err = openvino.Opset(3).ScatterNDUpdateInto(dst, dst, tensortest.I64(tensor.Shape{3, 1}, 0, 1, -1), tensortest.F32(tensor.Shape{3}, 7, 8, 9), "")
	if !errors.Is(err, engine.ErrIndex) || !tensor.Equal(dst, data) {
		t.Errorf("got %v, %v", buf, err)
	}
}

// Duplicate indices with reduction none: the last update in row-major
// index order wins, at every version.
func TestDuplicates(t *testing.T) {
	data := filled(tensor.Int64, tensor.Shape{2, 3}, 0)
	for _, opset := range []openvino.Opset{3, 12} {
		out, err := opset.ScatterElementsUpdate(data, tensortest.I64(tensor.Shape{3, 2}, 1, 0, 1, 1, 1, 0),
			tensortest.I64(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6), 0, "none", true)
		if want := tensortest.I64(tensor.Shape{2, 3}, 0, 6, 0, 5, 4, 0); err != nil || !tensor.Equal(out, want) {
			t.Errorf("ScatterElementsUpdate opset %d: got %v, %v; want %v", opset, out, err, want)
		}
	}
	for _, opset := range []openvino.Opset{3, 15} {
		// Slices: row 1 is written twice, then element [1, 2] once more.
		out, err := opset.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{2, 1}, 1, 1), tensortest.I64(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6), "")
		if want := tensortest.I64(tensor.Shape{2, 3}, 0, 0, 0, 4, 5, 6); err != nil || !tensor.Equal(out, want) {
			t.Errorf("ScatterNDUpdate opset %d: got %v, %v", opset, out, err)
		}
		out, err = opset.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{3, 2}, 1, 2, 0, 0, 1, 2), tensortest.I64(tensor.Shape{3}, 7, 8, 9), "")
		if want := tensortest.I64(tensor.Shape{2, 3}, 8, 0, 0, 0, 0, 9); err != nil || !tensor.Equal(out, want) {
			t.Errorf("ScatterNDUpdate opset %d elements: got %v, %v", opset, out, err)
		}
	}
}

// Empty indices change nothing (scatters) or give an empty output
// (gathers); index tuples of length 0 address the whole data.
func TestEmptyIndices(t *testing.T) {
	data := seq(tensor.Float32, tensor.Shape{2, 3}, 1)
	for _, opset := range []openvino.Opset{3, 12} {
		out, err := opset.ScatterElementsUpdate(data, tensortest.I64(tensor.Shape{0, 3}), tensortest.F32(tensor.Shape{0, 3}), 0, "", true)
		if err != nil || !tensor.Equal(out, data) {
			t.Errorf("ScatterElementsUpdate opset %d: got %v, %v", opset, out, err)
		}
	}
	for _, opset := range []openvino.Opset{3, 15} {
		out, err := opset.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{0, 2}), tensortest.F32(tensor.Shape{0}), "")
		if err != nil || !tensor.Equal(out, data) {
			t.Errorf("ScatterNDUpdate opset %d: got %v, %v", opset, out, err)
		}
		// Two tuples of length 0 each replace all of data; the second wins.
		out, err = opset.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{2, 0}), seq(tensor.Float32, tensor.Shape{2, 2, 3}, 10), "")
		if want := seq(tensor.Float32, tensor.Shape{2, 3}, 16); err != nil || !tensor.Equal(out, want) {
			t.Errorf("ScatterNDUpdate opset %d, k = 0: got %v, %v", opset, out, err)
		}
	}
	for _, opset := range []openvino.Opset{5, 8} {
		out, err := opset.GatherND(data, tensortest.I64(tensor.Shape{0, 1}), 0)
		if err != nil || !out.Shape().Equal(tensor.Shape{0, 3}) {
			t.Errorf("GatherND opset %d: got %v, %v", opset, out, err)
		}
		// Two tuples of length 0 each take all of data.
		out, err = opset.GatherND(data, tensortest.I64(tensor.Shape{2, 0}), 0)
		want := tensortest.F32(tensor.Shape{2, 2, 3}, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6)
		if err != nil || !tensor.Equal(out, want) {
			t.Errorf("GatherND opset %d, k = 0: got %v, %v", opset, out, err)
		}
	}
	out, err := openvino.Latest.GatherElements(data, tensortest.I32(tensor.Shape{0, 3}), 0)
	if err != nil || !out.Shape().Equal(tensor.Shape{0, 3}) {
		t.Errorf("GatherElements: got %v, %v", out, err)
	}
}

// GatherND-5 flattens the batch dimensions into one; GatherND-8 keeps
// them. The elements are the same, in the same order.
func TestGatherNDBatchDims(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	tests := []struct {
		batchDims     int
		data, indices tensor.Shape
		want5, want8  tensor.Shape
	}{
		{0, tensor.Shape{2, 3, 4}, tensor.Shape{5, 2}, tensor.Shape{5, 4}, tensor.Shape{5, 4}},
		{1, tensor.Shape{2, 3, 4}, tensor.Shape{2, 5, 1}, tensor.Shape{2, 5, 4}, tensor.Shape{2, 5, 4}},
		{2, tensor.Shape{2, 3, 4}, tensor.Shape{2, 3, 1}, tensor.Shape{6}, tensor.Shape{2, 3}},
		{2, tensor.Shape{2, 3, 4, 5}, tensor.Shape{2, 3, 7, 1}, tensor.Shape{6, 7, 5}, tensor.Shape{2, 3, 7, 5}},
		{2, tensor.Shape{2, 3, 4, 5}, tensor.Shape{2, 3, 2}, tensor.Shape{6}, tensor.Shape{2, 3}},
		{3, tensor.Shape{2, 3, 1, 4}, tensor.Shape{2, 3, 1, 2, 1}, tensor.Shape{6, 2}, tensor.Shape{2, 3, 1, 2}},
		{2, tensor.Shape{0, 3, 4}, tensor.Shape{0, 3, 1}, tensor.Shape{0}, tensor.Shape{0, 3}},
	}
	for _, tt := range tests {
		data := seq(tensor.Int16, tt.data, 0)
		k := tt.indices[len(tt.indices)-1]
		m, _ := tt.indices.NumElements()
		idx := make([]int, m)
		for i := range idx {
			idx[i] = rng.IntN(tt.data[tt.batchDims+i%k])
		}
		indices := ints(tensor.Uint16, tt.indices, idx...)
		out5, err5 := openvino.Opset(5).GatherND(data, indices, tt.batchDims)
		out8, err8 := openvino.Opset(8).GatherND(data, indices, tt.batchDims)
		if err5 != nil || err8 != nil || !out5.Shape().Equal(tt.want5) || !out8.Shape().Equal(tt.want8) {
			t.Errorf("batch_dims %d, data %v, indices %v: got %v %v and %v %v", tt.batchDims, tt.data, tt.indices,
				out5.Shape(), err5, out8.Shape(), err8)
			continue
		}
		if !tensor.Equal(out5, tensor.Must(out8.Reshape(out5.Shape()))) {
			t.Errorf("batch_dims %d: version 5 and 8 elements differ: %v and %v", tt.batchDims, out5, out8)
		}
		dst := tensor.Must(tensor.New(tensor.Int16, tt.want5))
		if err := openvino.Opset(7).GatherNDInto(dst, data, indices, tt.batchDims); err != nil || !tensor.Equal(dst, out5) {
			t.Errorf("batch_dims %d: GatherNDInto: %v %v", tt.batchDims, dst, err)
		}
	}
}

func TestGatherNDErrors(t *testing.T) {
	data := seq(tensor.Float32, tensor.Shape{2, 3}, 0)
	tests := []struct {
		name      string
		opset     openvino.Opset
		indices   tensor.Tensor
		batchDims int
		want      error
	}{
		{"batch_dims negative", 8, tensortest.I64(tensor.Shape{2, 1}, 0, 1), -1, dialect.ErrAttribute},
		{"batch_dims = rank of indices", 8, tensortest.I64(tensor.Shape{2}, 0, 1), 1, dialect.ErrAttribute},
		{"batch_dims = rank of data", 8, ints(tensor.Int64, tensor.Shape{2, 3, 1}, 0, 0, 0, 0, 0, 0), 2, dialect.ErrAttribute},
		{"batch dimensions differ", 5, tensortest.I64(tensor.Shape{3, 1}, 0, 0, 0), 1, engine.ErrShape},
		{"tuple too long", 8, tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0), 0, engine.ErrShape},
		{"tuple too long for batch_dims", 8, tensortest.I64(tensor.Shape{2, 2}, 0, 0, 0, 0), 1, engine.ErrShape},
		{"scalar indices", 8, tensor.Scalar(int64(0)), 0, engine.ErrShape},
		{"float indices", 8, tensortest.F32(tensor.Shape{1, 1}, 0), 0, dialect.ErrInput},
		{"bool indices", 8, ints(tensor.Bool, tensor.Shape{1, 1}, 0), 0, dialect.ErrInput},
		{"before version 5", 4, tensortest.I64(tensor.Shape{1, 1}, 0), 0, dialect.ErrVersion},
	}
	for _, tt := range tests {
		if _, err := tt.opset.GatherND(data, tt.indices, tt.batchDims); !errors.Is(err, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, err, tt.want)
		}
	}
	if _, err := openvino.Latest.GatherND(tensor.Scalar(float32(1)), tensortest.I64(tensor.Shape{1, 0}), 0); !errors.Is(err, engine.ErrShape) {
		t.Errorf("scalar data: %v", err)
	}
}

func TestVersionRules(t *testing.T) {
	data := seq(tensor.Float32, tensor.Shape{2, 2}, 1)
	idx := tensortest.I64(tensor.Shape{1, 1}, 0)
	upd := tensortest.F32(tensor.Shape{1, 1}, 9)
	nd := func(opset openvino.Opset, indices, updates tensor.Tensor, red openvino.Reduction) error {
		_, err := opset.ScatterNDUpdate(data, indices, updates, red)
		return err
	}
	se := func(opset openvino.Opset, indices, updates tensor.Tensor, axis int, red openvino.Reduction) error {
		_, err := opset.ScatterElementsUpdate(data, indices, updates, axis, red, true)
		return err
	}
	ge := func(opset openvino.Opset, indices tensor.Tensor, axis int) error {
		_, err := opset.GatherElements(data, indices, axis)
		return err
	}
	tests := []struct {
		name string
		err  error
		want error // nil: success
	}{
		{"ScatterElementsUpdate before 3", se(2, idx, upd, 0, ""), dialect.ErrVersion},
		{"ScatterElementsUpdate 3", se(3, idx, upd, 0, "none"), nil},
		{"ScatterElementsUpdate 11 is 3: no sum", se(11, idx, upd, 0, "sum"), dialect.ErrAttribute},
		{"ScatterElementsUpdate 12: sum", se(12, idx, upd, 0, "sum"), nil},
		{"ScatterElementsUpdate 12: no sub", se(12, idx, upd, 0, "sub"), dialect.ErrAttribute},
		{"ScatterElementsUpdate negative opset", se(-1, idx, upd, 0, ""), dialect.ErrVersion},
		{"ScatterNDUpdate before 3", nd(1, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), ""), dialect.ErrVersion},
		{"ScatterNDUpdate 14 is 3: no sum", nd(14, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "sum"), dialect.ErrAttribute},
		{"ScatterNDUpdate 15: sub", nd(15, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "sub"), nil},
		{"ScatterNDUpdate 15: no mean", nd(15, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "mean"), dialect.ErrAttribute},
		{"ScatterNDUpdate int16 indices", nd(15, ints(tensor.Int16, tensor.Shape{1, 1}, 0), tensortest.F32(tensor.Shape{1, 2}, 1, 2), ""), dialect.ErrInput},
		{"ScatterNDUpdate uint32 indices", nd(3, ints(tensor.Uint32, tensor.Shape{1, 1}, 0), tensortest.F32(tensor.Shape{1, 2}, 1, 2), ""), dialect.ErrInput},
		{"ScatterNDUpdate updates shape", nd(15, idx, tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3), ""), engine.ErrShape},
		{"ScatterNDUpdate tuple too long", nd(15, tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0), tensortest.F32(tensor.Shape{1}, 1), ""), engine.ErrShape},
		{"ScatterNDUpdate scalar indices", nd(15, tensor.Scalar(int64(0)), tensortest.F32(tensor.Shape{2}, 1, 2), ""), engine.ErrShape},
		{"ScatterNDUpdate updates type", nd(15, idx, tensortest.I32(tensor.Shape{1, 2}, 1, 2), ""), engine.ErrType},
		{"ScatterElementsUpdate updates shape", se(12, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), 0, ""), engine.ErrShape},
		{"ScatterElementsUpdate indices rank", se(12, tensortest.I64(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1}, 1), 0, ""), engine.ErrShape},
		{"ScatterElementsUpdate indices wider than data", se(12, tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0), tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3), 0, ""), engine.ErrShape},
		{"ScatterElementsUpdate indices longer along axis", se(12, tensortest.I64(tensor.Shape{3, 1}, 0, 0, 0), tensortest.F32(tensor.Shape{3, 1}, 1, 2, 3), 0, ""), nil},
		{"ScatterElementsUpdate axis -2", se(12, idx, upd, -2, ""), nil},
		{"ScatterElementsUpdate axis 2", se(12, idx, upd, 2, ""), dialect.ErrInput},
		{"ScatterElementsUpdate axis -3", se(3, idx, upd, -3, ""), dialect.ErrInput},
		{"ScatterElementsUpdate float indices", se(12, tensortest.F32(tensor.Shape{1, 1}, 0), upd, 0, ""), dialect.ErrInput},
		{"GatherElements before 6", ge(5, tensortest.I32(tensor.Shape{1, 2}, 0, 0), 0), dialect.ErrVersion},
		{"GatherElements int64", ge(6, tensortest.I64(tensor.Shape{1, 2}, 0, 0), 0), nil},
		{"GatherElements int8 indices", ge(6, ints(tensor.Int8, tensor.Shape{1, 2}, 0, 0), 0), dialect.ErrInput},
		{"GatherElements smaller off axis", ge(6, tensortest.I32(tensor.Shape{1, 1}, 0), 0), engine.ErrShape},
		{"GatherElements larger off axis", ge(6, tensortest.I32(tensor.Shape{2, 3}, 0, 0, 0, 0, 0, 0), 0), engine.ErrShape},
		{"GatherElements larger along axis", ge(6, tensortest.I32(tensor.Shape{2, 3}, 0, 0, 0, 0, 0, 0), 1), nil},
		{"GatherElements rank", ge(6, tensortest.I32(tensor.Shape{2}, 0, 0), 0), engine.ErrShape},
		{"GatherElements axis 2", ge(6, tensortest.I32(tensor.Shape{2, 2}, 0, 0, 0, 0), 2), dialect.ErrAttribute},
		{"GatherElements axis -3", ge(6, tensortest.I32(tensor.Shape{2, 2}, 0, 0, 0, 0), -3), dialect.ErrAttribute},
	}
	for _, tt := range tests {
		switch {
		case tt.want == nil && tt.err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, tt.err)
		case tt.want != nil && !errors.Is(tt.err, tt.want):
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		case tt.err != nil:
			var oe *dialect.OpError
			if !errors.As(tt.err, &oe) || !strings.HasPrefix(tt.err.Error(), "openvino.") {
				t.Errorf("%s: %v does not name the operation", tt.name, tt.err)
			}
		}
	}
}

// ScatterNDUpdate: where updates would be a scalar, any tensor of one
// element will do.
func TestScatterNDUpdateSingleElementUpdates(t *testing.T) {
	data := seq(tensor.Int32, tensor.Shape{2, 2}, 1)
	want := tensortest.I32(tensor.Shape{2, 2}, 1, 2, 9, 4)
	for _, updates := range []tensor.Tensor{tensor.Scalar(int32(9)), tensortest.I32(tensor.Shape{1}, 9), tensortest.I32(tensor.Shape{1, 1, 1}, 9)} {
		for _, opset := range []openvino.Opset{3, 15} {
			out, err := opset.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{2}, 1, 0), updates, "")
			if err != nil || !tensor.Equal(out, want) {
				t.Errorf("updates %v opset %d: got %v, %v", updates.Shape(), opset, out, err)
			}
		}
	}
	if _, err := openvino.Latest.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{2}, 1, 0), tensortest.I32(tensor.Shape{2}, 9, 9), ""); !errors.Is(err, engine.ErrShape) {
		t.Errorf("two-element updates: %v", err)
	}
	// Elsewhere the shape must be exact.
	if _, err := openvino.Latest.ScatterNDUpdate(data, tensortest.I64(tensor.Shape{1, 2}, 1, 0), tensortest.I32(tensor.Shape{1, 1}, 9), ""); !errors.Is(err, engine.ErrShape) {
		t.Errorf("[1, 1] updates for shape [1]: %v", err)
	}
}

// The index types each version takes, and that the Behavior tables say
// so: the comparison document is generated from them.
func TestBehaviorMatchesEval(t *testing.T) {
	all := []tensor.DType{tensor.Int8, tensor.Int16, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16,
		tensor.Uint32, tensor.Uint64, tensor.Bool, tensor.Float32}
	reductions := []string{"none", "sum", "sub", "prod", "min", "max", "mean", "add", "mul"}
	for _, o := range openvino.Ops() {
		for _, v := range o.Versions {
			b := o.Behavior(v)
			run := func(indices tensor.Tensor, red string) error {
				data := seq(tensor.Float32, tensor.Shape{2, 2}, 1)
				c := dialect.Call{Opset: v, Attrs: map[string]dialect.Value{}}
				switch o.Name {
				case "openvino.ScatterElementsUpdate":
					c.Inputs = inputs("data", data, "indices", indices, "updates", tensortest.F32(indices.Shape(), 7, 8), "axis", tensor.Scalar(int8(0)))
				case "openvino.ScatterNDUpdate":
					c.Inputs = inputs("data", data, "indices", indices, "updates", tensortest.F32(tensor.Shape{1}, 7))
				case "openvino.GatherND":
					c.Inputs = inputs("data", data, "indices", indices)
				case "openvino.GatherElements":
					c.Inputs = inputs("data", data, "indices", indices)
					c.Attrs["axis"] = iAttr(0)
				}
				if red != "" {
					c.Attrs["reduction"] = sAttr(red)
				}
				_, err := o.Run(c)
				return err
			}
			shape := tensor.Shape{1, 2}
			for _, d := range all {
				err := run(ints(d, shape, 1, 0), "")
				if ok := b.IndexTypes.Has(d); ok != (err == nil) {
					t.Errorf("%s-%d indices %v: Behavior says %v, Run gives %v", o.Name, v, d, ok, err)
				}
			}
			err := run(ints(tensor.Int32, shape, 1, -1), "")
			if ok := b.Index.Negative == engine.NegativeFromEnd; ok != (err == nil) {
				t.Errorf("%s-%d negative index: Behavior says %v, Run gives %v", o.Name, v, ok, err)
			}
			if len(b.Reductions) > 1 {
				for _, red := range reductions {
					err := run(ints(tensor.Int32, shape, 1, 0), red)
					if _, ok := b.Reductions[red]; ok != (err == nil) {
						t.Errorf("%s-%d reduction %s: Behavior says %v, Run gives %v", o.Name, v, red, ok, err)
					}
				}
			}
		}
	}
}

// Every element type through every operation at every version: complex is
// refused everywhere (OpenVINO has no complex type), strings where the
// specification says "any numeric type"; the rest give the same answers.
func TestEveryVersionAndElementType(t *testing.T) {
	for _, d := range tensor.DTypes() {
		data := ints(d, tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
		want := func(shape tensor.Shape, v ...int) tensor.Tensor { return ints(d, shape, v...) }
		type result struct {
			op          string
			numericOnly bool
			out, want   tensor.Tensor
			err         error
		}
		var rs []result
		for _, opset := range []openvino.Opset{3, 12} {
			out, err := opset.ScatterElementsUpdate(data, ints(tensor.Uint8, tensor.Shape{1, 1}, 1), want(tensor.Shape{1, 1}, 0), 0, "", true)
			rs = append(rs, result{"ScatterElementsUpdate-" + opsetName(opset), opset < 12, out, want(tensor.Shape{2, 3}, 1, 2, 3, 0, 5, 6), err})
		}
		for _, opset := range []openvino.Opset{3, 15} {
			out, err := opset.ScatterNDUpdate(data, tensortest.I32(tensor.Shape{1, 2}, 1, 2), want(tensor.Shape{1}, 7), "")
			rs = append(rs, result{"ScatterNDUpdate-" + opsetName(opset), true, out, want(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 7), err})
		}
		for _, opset := range []openvino.Opset{5, 8} {
			out, err := opset.GatherND(data, ints(tensor.Uint64, tensor.Shape{1, 1}, 1), 0)
			rs = append(rs, result{"GatherND-" + opsetName(opset), false, out, want(tensor.Shape{1, 3}, 4, 5, 6), err})
		}
		out, err := openvino.Opset(6).GatherElements(data, tensortest.I64(tensor.Shape{2, 1}, 2, 0), 1)
		rs = append(rs, result{"GatherElements-6", false, out, want(tensor.Shape{2, 1}, 3, 4), err})
		for _, r := range rs {
			switch {
			case d.IsComplex() || d == tensor.String && r.numericOnly:
				if !errors.Is(r.err, dialect.ErrInput) {
					t.Errorf("%s %v: got %v, %v; want ErrInput", r.op, d, r.out, r.err)
				}
			case r.err != nil || !tensor.Equal(r.out, r.want):
				t.Errorf("%s %v: got %v, %v; want %v", r.op, d, r.out, r.err, r.want)
			}
		}
	}
	// Strings take reduction none only.
	s := tensortest.Str(tensor.Shape{2}, "a", "b")
	out, err := openvino.Latest.ScatterElementsUpdate(s, tensortest.I64(tensor.Shape{1}, -1), tensortest.Str(tensor.Shape{1}, "c"), 0, "none", false)
	if err != nil || !tensor.Equal(out, tensortest.Str(tensor.Shape{2}, "a", "c")) {
		t.Errorf("string none: %v %v", out, err)
	}
	if _, err := openvino.Latest.ScatterElementsUpdate(s, tensortest.I64(tensor.Shape{1}, 0), tensortest.Str(tensor.Shape{1}, "c"), 0, "sum", true); !errors.Is(err, engine.ErrType) {
		t.Errorf("string sum: %v", err)
	}
}

func opsetName(o openvino.Opset) string { return strconv.Itoa(int(o)) }

// axis of ScatterElementsUpdate is an input: a scalar or a one-element
// 1-D tensor of any integer type, or an attribute that Run turns into one.
func TestAxisInput(t *testing.T) {
	seu := op("openvino.ScatterElementsUpdate")
	data := seq(tensor.Float32, tensor.Shape{2, 2}, 1)
	idx := tensortest.I64(tensor.Shape{1, 1}, 0)
	upd := tensortest.F32(tensor.Shape{1, 1}, 9)
	first := tensortest.F32(tensor.Shape{2, 2}, 9, 2, 3, 4) // index 0 at position [0, 0], along either axis
	lastCol := tensortest.I64(tensor.Shape{1, 1}, 1)
	tests := []struct {
		name  string
		axis  tensor.Tensor // the input, or zero for none
		attr  *dialect.Value
		index tensor.Tensor
		want  tensor.Tensor // zero: want wantErr
		err   error
	}{
		{"int64 scalar", tensor.Scalar(int64(0)), nil, idx, first, nil},
		{"int32 [1]", tensortest.I32(tensor.Shape{1}, 1), nil, idx, first, nil},
		{"int8 -1", tensor.Scalar(int8(-1)), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 9, 3, 4), nil},
		{"int16 -2", ints(tensor.Int16, tensor.Shape{1}, -2), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 2, 9, 4), nil},
		{"uint8 1", ints(tensor.Uint8, tensor.Shape{1}, 1), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 9, 3, 4), nil},
		{"uint16", tensor.Scalar(uint16(0)), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 2, 9, 4), nil},
		{"uint32", tensor.Scalar(uint32(1)), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 9, 3, 4), nil},
		{"uint64", tensor.Scalar(uint64(1)), nil, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 9, 3, 4), nil},
		{"attribute -1", tensor.Tensor{}, &dialect.Value{Kind: dialect.Int, Int: -1}, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 9, 3, 4), nil},
		{"attribute 0", tensor.Tensor{}, &dialect.Value{Kind: dialect.Int, Int: 0}, lastCol, tensortest.F32(tensor.Shape{2, 2}, 1, 2, 9, 4), nil},
		{"both", tensor.Scalar(int64(0)), &dialect.Value{Kind: dialect.Int, Int: 0}, idx, tensor.Tensor{}, dialect.ErrInput},
		{"attribute of the wrong kind", tensor.Tensor{}, &dialect.Value{Kind: dialect.String, Str: "0"}, idx, tensor.Tensor{}, dialect.ErrAttribute},
		{"missing", tensor.Tensor{}, nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"two elements", tensortest.I64(tensor.Shape{2}, 0, 0), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"empty", tensortest.I64(tensor.Shape{0}), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"rank 2", tensortest.I64(tensor.Shape{1, 1}, 0), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"rank 2 uint8", ints(tensor.Uint8, tensor.Shape{1, 1}, 0), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"float", tensor.Scalar(float32(0)), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"bool", tensor.Scalar(false), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"out of range", tensor.Scalar(int32(2)), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"uint64 beyond int64", tensor.Scalar(uint64(math.MaxUint64)), nil, idx, tensor.Tensor{}, dialect.ErrInput},
		{"attribute out of range", tensor.Tensor{}, &dialect.Value{Kind: dialect.Int, Int: -3}, idx, tensor.Tensor{}, dialect.ErrInput},
	}
	for _, tt := range tests {
		for _, opset := range []int{3, 12} {
			c := dialect.Call{Opset: opset, Inputs: inputs("data", data, "indices", tt.index, "updates", upd), Attrs: map[string]dialect.Value{}}
			if !tt.axis.IsZero() {
				c.Inputs["axis"] = tt.axis
			}
			if tt.attr != nil {
				c.Attrs["axis"] = *tt.attr
			}
			out, err := seu.Run(c)
			if tt.err != nil {
				var oe *dialect.OpError
				if !errors.Is(err, tt.err) || !errors.As(err, &oe) || oe.Op != "openvino.ScatterElementsUpdate" {
					t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.err)
				}
				continue
			}
			if err != nil || !tensor.Equal(out, tt.want) {
				t.Errorf("%s opset %d: got %v, %v; want %v", tt.name, opset, out, err, tt.want)
			}
		}
	}
}

func TestOpTable(t *testing.T) {
	versions := map[string][][2]int{ // opset -> version; version 0: not defined
		"openvino.ScatterElementsUpdate": {{1, 0}, {2, 0}, {3, 3}, {11, 3}, {12, 12}, {15, 12}, {0, 12}},
		"openvino.ScatterNDUpdate":       {{2, 0}, {3, 3}, {14, 3}, {15, 15}, {20, 15}, {0, 15}},
		"openvino.GatherND":              {{4, 0}, {5, 5}, {7, 5}, {8, 8}, {15, 8}, {0, 8}},
		"openvino.GatherElements":        {{5, 0}, {6, 6}, {15, 6}, {0, 6}},
	}
	families := map[string]string{"openvino.ScatterElementsUpdate": "scatter_elements", "openvino.ScatterNDUpdate": "scatter_nd",
		"openvino.GatherND": "gather_nd", "openvino.GatherElements": "gather_elements"}
	for _, o := range openvino.Ops() {
		for _, ov := range versions[o.Name] {
			v, err := o.Version(ov[0])
			if ov[1] == 0 && !errors.Is(err, dialect.ErrVersion) || ov[1] != 0 && (err != nil || v != ov[1]) {
				t.Errorf("%s opset %d: got version %d, %v; want %d", o.Name, ov[0], v, err, ov[1])
			}
		}
		delete(versions, o.Name)
		if o.Family != families[o.Name] || !slices.Contains(dialect.Families, o.Family) {
			t.Errorf("%s: family %q", o.Name, o.Family)
		}
		if o.Behavior == nil || o.Eval == nil || o.Summary == "" || o.Output == "" {
			t.Errorf("%s: incomplete table entry", o.Name)
		}
		if o.Versions[len(o.Versions)-1] > int(openvino.Latest) {
			t.Errorf("%s: version %d is newer than Latest", o.Name, o.Versions[len(o.Versions)-1])
		}
	}
	if len(versions) != 0 {
		t.Errorf("operations missing from the table: %v", versions)
	}
	seu := op("openvino.ScatterElementsUpdate")
	if a, _ := seu.Attr("reduction"); a.Since != 12 || a.Default != "none" {
		t.Errorf("ScatterElementsUpdate reduction: %+v", a)
	}
	if a, _ := seu.Attr("use_init_val"); a.Since != 12 || a.Default != "true" || a.Kind != dialect.Bool {
		t.Errorf("ScatterElementsUpdate use_init_val: %+v", a)
	}
	if k, ok := seu.AttrKind("axis"); !ok || k != dialect.Int {
		t.Errorf("ScatterElementsUpdate axis as attribute: %v %v", k, ok)
	}
	if seu.Behavior(3).IncludeSelf != "" || seu.Behavior(12).IncludeSelf != "use_init_val" {
		t.Error("ScatterElementsUpdate IncludeSelf")
	}
	if a, _ := op("openvino.ScatterNDUpdate").Attr("reduction"); a.Since != 15 {
		t.Errorf("ScatterNDUpdate reduction: %+v", a)
	}
	if a, _ := op("openvino.GatherND").Attr("batch_dims"); a.Since != 0 || a.Default != "0" {
		t.Errorf("GatherND batch_dims: %+v", a)
	}
	if a, _ := op("openvino.GatherElements").Attr("axis"); a.Default != "" || a.Kind != dialect.Int {
		t.Errorf("GatherElements axis: %+v", a)
	}
}

func TestOpRun(t *testing.T) {
	data := seq(tensor.Float32, tensor.Shape{2, 2}, 1)
	seu, snd := op("openvino.ScatterElementsUpdate"), op("openvino.ScatterNDUpdate")
	gnd, ge := op("openvino.GatherND"), op("openvino.GatherElements")
	seIn := inputs("data", data, "indices", tensortest.I64(tensor.Shape{1, 1}, 0), "updates", tensortest.F32(tensor.Shape{1, 1}, 5), "axis", tensor.Scalar(int64(0)))
	ndIn := inputs("data", data, "indices", tensortest.I64(tensor.Shape{1, 1}, 1), "updates", tensortest.F32(tensor.Shape{1, 2}, 5, 6))
	tests := []struct {
		name string
		op   *dialect.Op
		call dialect.Call
		want tensor.Tensor
		err  error
	}{
		{"ScatterElementsUpdate defaults", seu, dialect.Call{Inputs: seIn}, tensortest.F32(tensor.Shape{2, 2}, 5, 2, 3, 4), nil},
		{"ScatterElementsUpdate sum", seu, dialect.Call{Opset: 12, Inputs: seIn,
			Attrs: map[string]dialect.Value{"reduction": sAttr("sum")}}, tensortest.F32(tensor.Shape{2, 2}, 6, 2, 3, 4), nil},
		{"ScatterElementsUpdate prod without init", seu, dialect.Call{Opset: 12, Inputs: seIn,
			Attrs: map[string]dialect.Value{"reduction": sAttr("prod"), "use_init_val": bAttr(false)}}, tensortest.F32(tensor.Shape{2, 2}, 5, 2, 3, 4), nil},
		{"ScatterElementsUpdate-3 defaults", seu, dialect.Call{Opset: 3, Inputs: seIn}, tensortest.F32(tensor.Shape{2, 2}, 5, 2, 3, 4), nil},
		{"reduction at version 3", seu, dialect.Call{Opset: 11, Inputs: seIn,
			Attrs: map[string]dialect.Value{"reduction": sAttr("none")}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"use_init_val at version 3", seu, dialect.Call{Opset: 3, Inputs: seIn,
			Attrs: map[string]dialect.Value{"use_init_val": bAttr(true)}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"use_init_val of the wrong kind", seu, dialect.Call{Inputs: seIn,
			Attrs: map[string]dialect.Value{"use_init_val": sAttr("true")}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"unknown attribute", seu, dialect.Call{Inputs: seIn,
			Attrs: map[string]dialect.Value{"batch_dims": iAttr(0)}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"ScatterNDUpdate defaults", snd, dialect.Call{Inputs: ndIn}, tensortest.F32(tensor.Shape{2, 2}, 1, 2, 5, 6), nil},
		{"ScatterNDUpdate sub", snd, dialect.Call{Opset: 15, Inputs: ndIn,
			Attrs: map[string]dialect.Value{"reduction": sAttr("sub")}}, tensortest.F32(tensor.Shape{2, 2}, 1, 2, -2, -2), nil},
		{"ScatterNDUpdate reduction at version 3", snd, dialect.Call{Opset: 14, Inputs: ndIn,
			Attrs: map[string]dialect.Value{"reduction": sAttr("none")}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"ScatterNDUpdate missing updates", snd, dialect.Call{Inputs: inputs("data", data, "indices", ndIn["indices"])},
			tensor.Tensor{}, dialect.ErrInput},
		{"ScatterNDUpdate axis", snd, dialect.Call{Inputs: ndIn,
			Attrs: map[string]dialect.Value{"axis": iAttr(0)}}, tensor.Tensor{}, dialect.ErrAttribute},
		{"GatherND batch_dims", gnd, dialect.Call{Opset: 8, Inputs: inputs("data", data, "indices", tensortest.I64(tensor.Shape{2, 1}, 1, 0)),
			Attrs: map[string]dialect.Value{"batch_dims": iAttr(1)}}, tensortest.F32(tensor.Shape{2}, 2, 3), nil},
		{"GatherND default", gnd, dialect.Call{Inputs: inputs("data", data, "indices", tensortest.I64(tensor.Shape{1}, -1))},
			tensortest.F32(tensor.Shape{2}, 3, 4), nil},
		{"GatherND-5 negative", gnd, dialect.Call{Opset: 5, Inputs: inputs("data", data, "indices", tensortest.I64(tensor.Shape{1}, -1))},
			tensortest.F32(tensor.Shape{2}, 3, 4), nil},
		{"GatherND-5 below -size", gnd, dialect.Call{Opset: 5, Inputs: inputs("data", data, "indices", tensortest.I64(tensor.Shape{1}, -3))},
			tensor.Tensor{}, engine.ErrIndex},
		{"GatherElements", ge, dialect.Call{Inputs: inputs("data", data, "indices", tensortest.I32(tensor.Shape{2, 1}, 1, 0)),
			Attrs: map[string]dialect.Value{"axis": iAttr(-1)}}, tensortest.F32(tensor.Shape{2, 1}, 2, 3), nil},
		{"GatherElements without axis", ge, dialect.Call{Inputs: inputs("data", data, "indices", tensortest.I32(tensor.Shape{2, 1}, 1, 0))},
			tensor.Tensor{}, dialect.ErrAttribute},
		{"GatherElements before 6", ge, dialect.Call{Opset: 5, Inputs: inputs("data", data, "indices", tensortest.I32(tensor.Shape{2, 1}, 1, 0)),
			Attrs: map[string]dialect.Value{"axis": iAttr(0)}}, tensor.Tensor{}, dialect.ErrVersion},
	}
	for _, tt := range tests {
		out, err := tt.op.Run(tt.call)
		if tt.err != nil {
			var oe *dialect.OpError
			if !errors.Is(err, tt.err) || !errors.As(err, &oe) || oe.Op != tt.op.Name {
				t.Errorf("%s: got %v, %v; want %v", tt.name, out, err, tt.err)
			}
			continue
		}
		if err != nil || !tensor.Equal(out, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, out, err, tt.want)
		}
	}
}

func TestErrorMessages(t *testing.T) {
	data := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4}))
	tests := []struct {
		err  func() error
		want string
	}{
		{func() error {
			_, err := openvino.Opset(3).ScatterNDUpdate(data, tensortest.I64(tensor.Shape{2, 1}, 0, -1), tensortest.F32(tensor.Shape{2}, 1, 2), "")
			return err
		}, "openvino.ScatterNDUpdate: index out of range: indices[1] = [-1]: component 0 is -1, allowed range [0, 3] for dimension 0 of data [4]"},
		{func() error {
			_, err := openvino.Opset(12).ScatterElementsUpdate(data, tensortest.I64(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1}, 1), 0, "add", true)
			return err
		}, `openvino.ScatterElementsUpdate: invalid attribute: reduction "add" is not allowed in version 12 (allowed: none, sum, prod, max, min, mean)`},
		{func() error {
			_, err := openvino.Opset(3).ScatterElementsUpdate(data, tensortest.I64(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1}, 1), 0, "sum", true)
			return err
		}, `openvino.ScatterElementsUpdate: invalid attribute: reduction "sum": version 3 has no reduction (the attribute is defined from version 12)`},
		{func() error {
			_, err := openvino.Latest.ScatterNDUpdate(tensor.Scalar(complex64(1)), tensortest.I64(tensor.Shape{1, 0}), tensor.Scalar(complex64(1)), "")
			return err
		}, "openvino.ScatterNDUpdate: invalid input: data of type complex64 is refused: OpenVINO has no complex element type"},
		{func() error {
			_, err := openvino.Latest.GatherElements(data, ints(tensor.Uint8, tensor.Shape{1}, 0), 0)
			return err
		}, "openvino.GatherElements: invalid input: indices must be int32 or int64, got uint8"},
		{func() error {
			_, err := openvino.Opset(4).GatherND(data, tensortest.I64(tensor.Shape{1}, 0), 0)
			return err
		}, "openvino.GatherND: not defined at this version: the operator is defined from opset 5, requested 4"},
	}
	for _, tt := range tests {
		if err := tt.err(); err == nil || err.Error() != tt.want {
			t.Errorf("got  %v\nwant %s", err, tt.want)
		}
	}
}

func TestInto(t *testing.T) {
	buf := []int64{1, 2, 3, 4}
	data := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	if err := openvino.Latest.ScatterElementsUpdateInto(data, data, tensortest.I64(tensor.Shape{2}, 3, -1), tensortest.I64(tensor.Shape{2}, 5, 6), 0, "max", true); err != nil {
		t.Fatal(err)
	}
	if err := openvino.Latest.ScatterNDUpdateInto(data, data, tensortest.I32(tensor.Shape{1, 1}, 0), tensortest.I64(tensor.Shape{1}, 10), "sub"); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(buf, []int64{-9, 2, 3, 6}) {
		t.Errorf("in place: %v", buf)
	}
	// A destination shaped for version 8 is wrong for version 5.
	cube := seq(tensor.Float64, tensor.Shape{2, 2, 3}, 0)
	idx := tensortest.I64(tensor.Shape{2, 2, 1}, 2, 0, 1, 1)
	dst5 := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{4}))
	dst8 := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{2, 2}))
	if err := openvino.Opset(5).GatherNDInto(dst5, cube, idx, 2); err != nil || !slices.Equal(dst5.Data().([]float64), []float64{2, 3, 7, 10}) {
		t.Errorf("GatherNDInto version 5: %v %v", dst5, err)
	}
	if err := openvino.Opset(8).GatherNDInto(dst8, cube, idx, 2); err != nil || !slices.Equal(dst8.Data().([]float64), []float64{2, 3, 7, 10}) {
		t.Errorf("GatherNDInto version 8: %v %v", dst8, err)
	}
	if err := openvino.Opset(5).GatherNDInto(dst8, cube, idx, 2); !errors.Is(err, engine.ErrShape) {
		t.Errorf("version 8 shape at version 5: %v", err)
	}
	if err := openvino.Opset(8).GatherNDInto(tensor.Tensor{}, cube, idx, 2); !errors.Is(err, engine.ErrArgument) {
		t.Errorf("no dst: %v", err)
	}
	if err := openvino.Opset(8).GatherNDInto(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 2})), cube, idx, 2); !errors.Is(err, engine.ErrType) {
		t.Errorf("dst of another type: %v", err)
	}
	out := tensor.Must(tensor.New(tensor.Float64, tensor.Shape{1, 2, 3}))
	if err := openvino.Latest.GatherElementsInto(out, cube, tensortest.I32(tensor.Shape{1, 2, 3}, 1, 0, 1, 0, 1, 0), 0); err != nil ||
		!slices.Equal(out.Data().([]float64), []float64{6, 1, 8, 3, 10, 5}) {
		t.Errorf("GatherElementsInto: %v %v", out, err)
	}
	if err := openvino.Latest.GatherElementsInto(cube, cube, tensortest.I32(tensor.Shape{2, 2, 3}, make([]int32, 12)...), 0); !errors.Is(err, engine.ErrArgument) {
		t.Errorf("GatherElementsInto its own data: %v", err)
	}
	if _, err := openvino.Latest.ScatterNDUpdate(tensor.Tensor{}, idx, cube, ""); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("missing data: %v", err)
	}
	if _, err := openvino.Latest.GatherND(cube, tensor.Tensor{}, 0); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("missing indices: %v", err)
	}
}

// TestGatherAfterScatter: for unique random indices, gathering at the
// scattered positions gives back the updates, with the negative indices of
// the newer versions and the non-negative ones of the older.
func TestGatherAfterScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 15))
	for iter := 0; iter < 300; iter++ {
		shape := tensor.Shape{1 + rng.IntN(4), 1 + rng.IntN(4), 1 + rng.IntN(3)}
		data := seq(tensor.Float32, shape, -100)
		k := 1 + rng.IntN(3)
		rows, _ := shape[:k].NumElements()
		m := 1 + rng.IntN(rows)
		negative := iter%2 == 0
		idx := make([]int, 0, m*k)
		for _, p := range rng.Perm(rows)[:m] {
			c := make([]int, k)
			for d := k - 1; d >= 0; d-- {
				c[d] = p % shape[d]
				if negative && rng.IntN(2) == 0 {
					c[d] -= shape[d]
				}
				p /= shape[d]
			}
			idx = append(idx, c...)
		}
		indices := ints(tensor.Int32, tensor.Shape{m, k}, idx...)
		updates := seq(tensor.Float32, append(tensor.Shape{m}, shape[k:]...), 1)
		scatter, gather := openvino.Opset(15), openvino.Opset(8)
		if !negative {
			scatter, gather = 3, 5
		}
		out, err := scatter.ScatterNDUpdate(data, indices, updates, "")
		if err != nil {
			t.Fatal(err)
		}
		back, err := gather.GatherND(out, indices, 0)
		if err != nil || !tensor.Equal(back, updates) {
			t.Fatalf("GatherND(ScatterNDUpdate): %v %v, want %v", back, err, updates)
		}
	}
}

// Which NaN max and min keep, bit for bit, as the shared rule says: a NaN
// already in data stays (unless use_init_val is false); otherwise the
// first NaN update wins.
func TestNaNBits(t *testing.T) {
	for _, reduction := range []openvino.Reduction{openvino.ReductionMax, openvino.ReductionMin} {
		for _, tt := range optest.NaNCases() {
			n := len(tt.Updates)
			data, upd := tensortest.F32(tensor.Shape{1}, tt.Data), tensortest.F32(tensor.Shape{n}, tt.Updates...)
			got, err := openvino.Opset(12).ScatterElementsUpdate(data, tensortest.I64(tensor.Shape{n}, make([]int64, n)...), upd, 0,
				reduction, !tt.ExcludeSelf)
			if err != nil || math.Float32bits(got.Data().([]float32)[0]) != tt.Want {
				t.Errorf("ScatterElementsUpdate-12 %s %s: got %v, %v; want %#x", reduction, tt.Name, got, err, tt.Want)
			}
			if tt.ExcludeSelf {
				continue // ScatterNDUpdate has no use_init_val
			}
			got, err = openvino.Opset(15).ScatterNDUpdate(data, tensortest.I64(tensor.Shape{n, 1}, make([]int64, n)...), upd, reduction)
			if err != nil || math.Float32bits(got.Data().([]float32)[0]) != tt.Want {
				t.Errorf("ScatterNDUpdate-15 %s %s: got %v, %v; want %#x", reduction, tt.Name, got, err, tt.Want)
			}
		}
	}
}
