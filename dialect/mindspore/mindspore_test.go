package mindspore_test

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// repeat returns n copies of v, one after the other.
func repeat[T any](v []T, n int) []T {
	var out []T
	for range n {
		out = append(out, v...)
	}
	return out
}

// op returns the operator of Ops with the given name.
func op(name string) *dialect.Op { return dialect.Find(mindspore.Ops(), name) }

// checkErr checks that err matches want (nil: no error) and, when it is
// an error, that it is an *OpError naming a MindSpore operator.
func checkErr(t *testing.T, name string, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Errorf("%s: unexpected error %v", name, err)
	case want != nil && !errors.Is(err, want):
		t.Errorf("%s: got error %v, want %v", name, err, want)
	case err != nil:
		var oe *dialect.OpError
		if !errors.As(err, &oe) || !strings.HasPrefix(err.Error(), "mindspore.") {
			t.Errorf("%s: %v does not name the operator", name, err)
		}
	}
}

// The two examples of mindspore.ops.scatter_nd's documentation
// (/work/shared/specs/mindspore-scatter_nd.txt).
func TestScatterNDDocExamples(t *testing.T) {
	// Example 1: two 4x4 slices into the first dimension of a rank-3 zero
	// tensor.
	rows := []float32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4}
	zeros := make([]float32, 16)
	indices := tensortest.I32(tensor.Shape{2, 1}, 0, 2)
	updates := tensortest.F32(tensor.Shape{2, 4, 4}, repeat(rows, 2)...)
	want := tensortest.F32(tensor.Shape{4, 4, 4}, slices.Concat(rows, zeros, rows, zeros)...)
	got, err := mindspore.ScatterND(indices, updates, tensor.Shape{4, 4, 4})
	if err != nil || !tensor.Equal(got, want) {
		t.Errorf("example 1: got %v, %v; want %v", got, err, want)
	}

	// Example 2: two elements of a 3x3 zero tensor.
	indices = tensortest.I32(tensor.Shape{2, 2}, 0, 1, 1, 1)
	updates = tensortest.F32(tensor.Shape{2}, 3.2, 1.1)
	want = tensortest.F32(tensor.Shape{3, 3}, 0, 3.2, 0, 0, 1.1, 0, 0, 0, 0)
	got, err = mindspore.ScatterND(indices, updates, tensor.Shape{3, 3})
	if err != nil || !tensor.Equal(got, want) {
		t.Errorf("example 2: got %v, %v; want %v", got, err, want)
	}
}

// The example of mindspore.ops.gather_nd's documentation.
func TestGatherNDDocExample(t *testing.T) {
	inputX := tensortest.F32(tensor.Shape{2, 3}, -0.1, 0.3, 3.6, 0.4, 0.5, -3.2)
	indices := tensortest.I32(tensor.Shape{2, 2}, 0, 0, 1, 1)
	got, err := mindspore.GatherND(inputX, indices)
	if want := tensortest.F32(tensor.Shape{2}, -0.1, 0.5); err != nil || !tensor.Equal(got, want) {
		t.Errorf("got %v, %v; want %v", got, err, want)
	}
}

// The examples of mindspore.ops.tensor_scatter_elements' documentation:
// the first with float32 elements (versions 1.8 to 2.0) and int32 elements
// (later versions), the second (from version 2.1) with reduction add and a
// negative index.
func TestTensorScatterElementsDocExamples(t *testing.T) {
	got, err := mindspore.TensorScatterElements(tensortest.F32(tensor.Shape{1, 5}, 1, 2, 3, 4, 5), tensortest.I32(tensor.Shape{1, 2}, 2, 4),
		tensortest.F32(tensor.Shape{1, 2}, 8, 8), 1, "none")
	if want := tensortest.F32(tensor.Shape{1, 5}, 1, 2, 8, 4, 8); err != nil || !tensor.Equal(got, want) {
		t.Errorf("example 1, float32: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.TensorScatterElements(tensortest.I32(tensor.Shape{1, 5}, 1, 2, 3, 4, 5), tensortest.I32(tensor.Shape{1, 2}, 2, 4),
		tensortest.I32(tensor.Shape{1, 2}, 8, 8), 1, "none")
	if want := tensortest.I32(tensor.Shape{1, 5}, 1, 2, 8, 4, 8); err != nil || !tensor.Equal(got, want) {
		t.Errorf("example 1, int32: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.TensorScatterElements(tensortest.I32(tensor.Shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9),
		tensortest.I32(tensor.Shape{2, 3}, 1, -1, 2, 0, 2, 1), tensortest.I32(tensor.Shape{2, 3}, 1, 2, 2, 4, 5, 8), 0, "add")
	if want := tensortest.I32(tensor.Shape{3, 3}, 5, 2, 3, 5, 5, 14, 7, 15, 11); err != nil || !tensor.Equal(got, want) {
		t.Errorf("example 2: got %v, %v; want %v", got, err, want)
	}
}

// Duplicate indices: scatter_nd adds one update at a time in row-major
// index order, which float32 rounding makes visible.
func TestScatterNDDuplicatesInOrder(t *testing.T) {
	tests := []struct {
		updates []float32
		want    float32
	}{
		{[]float32{1e8, 1, -1e8}, 0}, // 1e8 + 1 rounds to 1e8
		{[]float32{1e8, -1e8, 1}, 1},
		{[]float32{1, 2, 3}, 6},
	}
	for _, tt := range tests {
		got, err := mindspore.ScatterND(tensortest.I64(tensor.Shape{3, 1}, 1, 1, 1), tensortest.F32(tensor.Shape{3}, tt.updates...), tensor.Shape{2})
		if want := tensortest.F32(tensor.Shape{2}, 0, tt.want); err != nil || !tensor.Equal(got, want) {
			t.Errorf("%v: got %v, %v; want %v", tt.updates, got, err, want)
		}
	}
	// Slices accumulate too, and a tuple may repeat with negative-free
	// equivalents only (negative indices are errors).
	got, err := mindspore.ScatterND(tensortest.I32(tensor.Shape{3, 1}, 0, 1, 0), tensortest.F32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6), tensor.Shape{2, 2})
	if want := tensortest.F32(tensor.Shape{2, 2}, 6, 8, 3, 4); err != nil || !tensor.Equal(got, want) {
		t.Errorf("slices: got %v, %v; want %v", got, err, want)
	}
}

// Duplicate indices in tensor_scatter_elements: none keeps the last update
// in index order, add accumulates in that order.
func TestTensorScatterElementsDuplicates(t *testing.T) {
	inputX := tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3)
	indices := tensortest.I64(tensor.Shape{1, 3}, 2, -1, 2) // -1 is 2 as well
	updates := tensortest.F32(tensor.Shape{1, 3}, 7, 8, 9)
	got, err := mindspore.TensorScatterElements(inputX, indices, updates, 1, "none")
	if want := tensortest.F32(tensor.Shape{1, 3}, 1, 2, 9); err != nil || !tensor.Equal(got, want) {
		t.Errorf("none: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.TensorScatterElements(inputX, indices, updates, 1, "add")
	if want := tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3+7+8+9); err != nil || !tensor.Equal(got, want) {
		t.Errorf("add: got %v, %v; want %v", got, err, want)
	}
	// Order shows in float32: (1e8 + 1) - 1e8 is 0.
	got, err = mindspore.TensorScatterElements(tensortest.F32(tensor.Shape{2}, 0, 1e8), tensortest.I64(tensor.Shape{2}, 1, 1),
		tensortest.F32(tensor.Shape{2}, 1, -1e8), 0, "add")
	if want := tensortest.F32(tensor.Shape{2}, 0, 0); err != nil || !tensor.Equal(got, want) {
		t.Errorf("add order: got %v, %v; want %v", got, err, want)
	}
	// "" is the default, none.
	got, err = mindspore.TensorScatterElements(inputX, indices, updates, -1, "")
	if want := tensortest.F32(tensor.Shape{1, 3}, 1, 2, 9); err != nil || !tensor.Equal(got, want) {
		t.Errorf("default reduction: got %v, %v; want %v", got, err, want)
	}
}

// tensor_scatter_elements skips every index outside [-size, size-1],
// below -size included, and counts the others from the end.
func TestTensorScatterElementsSkipsOutOfRange(t *testing.T) {
	inputX := tensortest.F32(tensor.Shape{4}, 1, 2, 3, 4)
	tests := []struct {
		name    string
		indices tensor.Tensor
		want    []float32
	}{
		{"in range", tensortest.I64(tensor.Shape{1}, 3), []float32{1, 2, 3, 9}},
		{"-1", tensortest.I64(tensor.Shape{1}, -1), []float32{1, 2, 3, 9}},
		{"-size", tensortest.I64(tensor.Shape{1}, -4), []float32{9, 2, 3, 4}},
		{"-size-1", tensortest.I64(tensor.Shape{1}, -5), []float32{1, 2, 3, 4}},
		{"size", tensortest.I64(tensor.Shape{1}, 4), []float32{1, 2, 3, 4}},
		{"max int64", tensortest.I64(tensor.Shape{1}, math.MaxInt64), []float32{1, 2, 3, 4}},
		{"min int64", tensortest.I64(tensor.Shape{1}, math.MinInt64), []float32{1, 2, 3, 4}},
		{"max int32", tensortest.I32(tensor.Shape{1}, math.MaxInt32), []float32{1, 2, 3, 4}},
		{"min int32", tensortest.I32(tensor.Shape{1}, math.MinInt32), []float32{1, 2, 3, 4}},
		{"-2 int32", tensortest.I32(tensor.Shape{1}, -2), []float32{1, 2, 9, 4}},
	}
	for _, tt := range tests {
		for _, red := range []mindspore.Reduction{mindspore.ReductionNone, mindspore.ReductionAdd} {
			got, err := mindspore.TensorScatterElements(inputX, tt.indices, tensortest.F32(tensor.Shape{1}, 9), 0, red)
			want := slices.Clone(tt.want)
			if red == "add" {
				for i := range want {
					if want[i] == 9 {
						want[i] = 9 + float32(i+1)
					}
				}
			}
			if err != nil || !tensor.Equal(got, tensortest.F32(tensor.Shape{4}, want...)) {
				t.Errorf("%s %s: got %v, %v; want %v", tt.name, red, got, err, want)
			}
		}
	}
	// Skipped and applied indices mix, along a middle axis.
	got, err := mindspore.TensorScatterElements(tensortest.F32(tensor.Shape{2, 3, 2}, make([]float32, 12)...),
		tensortest.I64(tensor.Shape{2, 2, 2}, 0, 7, -3, 2, -9, 1, 3, -1),
		tensortest.F32(tensor.Shape{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), 1, "none")
	want := tensortest.F32(tensor.Shape{2, 3, 2}, 3, 0, 0, 0, 0, 4, 0, 0, 0, 6, 0, 8) // [0,1,0] = -3 overwrites [0,0,0]
	if err != nil || !tensor.Equal(got, want) {
		t.Errorf("mixed: got %v, %v; want %v", got, err, want)
	}
}

// scatter_nd and gather_nd refuse negative and out-of-range indices.
func TestNDIndexErrors(t *testing.T) {
	shape := tensor.Shape{2, 3}
	inputX := tensortest.F32(shape, 1, 2, 3, 4, 5, 6)
	tests := []struct {
		indices tensor.Tensor
		bad     int64
		dim     int
	}{
		{tensortest.I64(tensor.Shape{1, 2}, -1, 0), -1, 0},
		{tensortest.I64(tensor.Shape{1, 2}, 0, -1), -1, 1},
		{tensortest.I64(tensor.Shape{1, 2}, 2, 0), 2, 0},
		{tensortest.I64(tensor.Shape{1, 2}, 0, 3), 3, 1},
		{tensortest.I32(tensor.Shape{2, 2}, 0, 0, 1, -3), -3, 1},
		{tensortest.I32(tensor.Shape{1, 2}, math.MaxInt32, 0), math.MaxInt32, 0},
		{tensortest.I64(tensor.Shape{1, 2}, math.MinInt64, 0), math.MinInt64, 0},
	}
	for _, tt := range tests {
		n := tt.indices.Len() / 2
		_, err := mindspore.ScatterND(tt.indices, tensortest.F32(tensor.Shape{n}, make([]float32, n)...), shape)
		checkIndexErr(t, "scatter_nd", err, tt.bad, tt.dim)
		_, err = mindspore.GatherND(inputX, tt.indices)
		checkIndexErr(t, "gather_nd", err, tt.bad, tt.dim)
	}
}

func checkIndexErr(t *testing.T, name string, err error, value int64, dim int) {
	t.Helper()
	checkErr(t, name, err, engine.ErrIndex)
	var ie *engine.IndexError
	if !errors.As(err, &ie) {
		return
	}
	if ie.Value != value || ie.Dim != dim || ie.Min != 0 {
		t.Errorf("%s: IndexError %+v, want value %d in dimension %d with minimum 0", name, ie, value, dim)
	}
}

func TestErrorMessages(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{call(mindspore.ScatterND(tensortest.I32(tensor.Shape{2, 2}, 0, 1, 4, 0), tensortest.F32(tensor.Shape{2}, 1, 2), tensor.Shape{4, 4})),
			"mindspore.scatter_nd: index out of range: indices[1] = [4, 0]: component 0 is 4, allowed range [0, 3] for dimension 0 of data [4,4]"},
		{call(mindspore.GatherND(tensortest.F32(tensor.Shape{3}, 1, 2, 3), tensortest.I64(tensor.Shape{1, 1}, -1))),
			"mindspore.gather_nd: index out of range: indices[0] = [-1]: component 0 is -1, allowed range [0, 2] for dimension 0 of data [3]"},
		{call(mindspore.ScatterND(tensortest.I32(tensor.Shape{1, 1}, 0), tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{3, 0})),
			"mindspore.scatter_nd: invalid input: shape [3,0]: every dimension must be >= 1, shape[1] is 0"},
		{call(mindspore.TensorScatterElements(tensortest.F32(tensor.Shape{2}, 1, 2), tensortest.I32(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1}, 1), 0, "mul")),
			"mindspore.tensor_scatter_elements: invalid attribute: reduction \"mul\" is not supported (supported: none, add)"},
	}
	for _, tt := range tests {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("got  %v\nwant %s", tt.err, tt.want)
		}
	}
}

func call(_ tensor.Tensor, err error) error { return err }

// The argument checks of each operator, and the sentinel each failure
// wraps.
func TestArgumentErrors(t *testing.T) {
	x := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	idx := tensortest.I64(tensor.Shape{1, 1}, 0)
	upd := tensortest.F32(tensor.Shape{1, 1}, 9)
	i16 := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int16{0}))
	u64 := tensor.Must(tensor.From(tensor.Shape{1, 1}, []uint64{0}))
	str := tensor.Must(tensor.From(tensor.Shape{2, 2}, []string{"a", "b", "c", "d"}))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"scatter_nd ok", call(mindspore.ScatterND(idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), tensor.Shape{2, 2})), nil},
		{"scatter_nd empty shape", call(mindspore.ScatterND(tensortest.I64(tensor.Shape{1, 0}), tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{})), dialect.ErrInput},
		{"scatter_nd zero dimension", call(mindspore.ScatterND(idx, tensortest.F32(tensor.Shape{1, 0}), tensor.Shape{2, 0})), dialect.ErrInput},
		{"scatter_nd negative dimension", call(mindspore.ScatterND(idx, tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{-2})), dialect.ErrInput},
		{"scatter_nd overflowing shape", call(mindspore.ScatterND(tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{math.MaxInt, math.MaxInt})), dialect.ErrInput},
		{"scatter_nd overflowing shape is a tensor.ErrShape", call(mindspore.ScatterND(tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{math.MaxInt, math.MaxInt})), tensor.ErrShape},
		{"scatter_nd indices rank 1", call(mindspore.ScatterND(tensortest.I64(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1, 2}, 1, 2), tensor.Shape{2, 2})), engine.ErrShape},
		{"scatter_nd indices scalar", call(mindspore.ScatterND(tensor.Scalar(int64(0)), tensortest.F32(tensor.Shape{2}, 1, 2), tensor.Shape{2, 2})), engine.ErrShape},
		{"scatter_nd tuple too long", call(mindspore.ScatterND(tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0), tensortest.F32(tensor.Shape{1}, 1), tensor.Shape{2, 2})), engine.ErrShape},
		{"scatter_nd updates shape", call(mindspore.ScatterND(idx, tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3), tensor.Shape{2, 2})), engine.ErrShape},
		{"scatter_nd int16 indices", call(mindspore.ScatterND(i16, tensortest.F32(tensor.Shape{1, 2}, 1, 2), tensor.Shape{2, 2})), dialect.ErrInput},
		{"scatter_nd uint64 indices", call(mindspore.ScatterND(u64, tensortest.F32(tensor.Shape{1, 2}, 1, 2), tensor.Shape{2, 2})), dialect.ErrInput},
		{"scatter_nd missing updates", call(mindspore.ScatterND(idx, tensor.Tensor{}, tensor.Shape{2, 2})), dialect.ErrInput},
		{"scatter_nd missing indices", call(mindspore.ScatterND(tensor.Tensor{}, tensortest.F32(tensor.Shape{1, 2}, 1, 2), tensor.Shape{2, 2})), dialect.ErrInput},
		{"gather_nd ok", call(mindspore.GatherND(x, idx)), nil},
		{"gather_nd tuple too long", call(mindspore.GatherND(x, tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0))), engine.ErrShape},
		{"gather_nd int16 indices", call(mindspore.GatherND(x, i16)), dialect.ErrInput},
		{"gather_nd string", call(mindspore.GatherND(str, idx)), dialect.ErrInput},
		{"gather_nd missing input_x", call(mindspore.GatherND(tensor.Tensor{}, idx)), dialect.ErrInput},
		{"gather_nd missing indices", call(mindspore.GatherND(x, tensor.Tensor{})), dialect.ErrInput},
		{"tse ok", call(mindspore.TensorScatterElements(x, idx, upd, 0, "add")), nil},
		{"tse axis 2", call(mindspore.TensorScatterElements(x, idx, upd, 2, "none")), dialect.ErrAttribute},
		{"tse axis -3", call(mindspore.TensorScatterElements(x, idx, upd, -3, "none")), dialect.ErrAttribute},
		{"tse axis -2", call(mindspore.TensorScatterElements(x, idx, upd, -2, "none")), nil},
		{"tse reduction mul", call(mindspore.TensorScatterElements(x, idx, upd, 0, "mul")), dialect.ErrAttribute},
		{"tse reduction ADD", call(mindspore.TensorScatterElements(x, idx, upd, 0, "ADD")), dialect.ErrAttribute},
		{"tse updates shape", call(mindspore.TensorScatterElements(x, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), 0, "none")), engine.ErrShape},
		{"tse updates type", call(mindspore.TensorScatterElements(x, idx, tensortest.I64(tensor.Shape{1, 1}, 1), 0, "none")), engine.ErrType},
		{"tse indices rank", call(mindspore.TensorScatterElements(x, tensortest.I64(tensor.Shape{1}, 0), tensortest.F32(tensor.Shape{1}, 1), 0, "none")), engine.ErrShape},
		{"tse indices larger", call(mindspore.TensorScatterElements(x, tensortest.I64(tensor.Shape{1, 3}, 0, 0, 0), tensortest.F32(tensor.Shape{1, 3}, 1, 2, 3), 0, "none")), engine.ErrShape},
		{"tse scalar input_x", call(mindspore.TensorScatterElements(tensor.Scalar(float32(1)), tensor.Scalar(int64(0)), tensor.Scalar(float32(2)), 0, "none")), engine.ErrShape},
		{"tse int16 indices", call(mindspore.TensorScatterElements(x, i16, upd, 0, "none")), dialect.ErrInput},
		{"tse string", call(mindspore.TensorScatterElements(str, idx, tensor.Must(tensor.From(tensor.Shape{1, 1}, []string{"z"})), 0, "none")), dialect.ErrInput},
		{"tse missing input_x", call(mindspore.TensorScatterElements(tensor.Tensor{}, idx, upd, 0, "none")), dialect.ErrInput},
		{"tse missing updates", call(mindspore.TensorScatterElements(x, idx, tensor.Tensor{}, 0, "none")), dialect.ErrInput},
	}
	for _, tt := range tests {
		checkErr(t, tt.name, tt.err, tt.want)
	}
}

// Every element type through every operator: the accepted ones give the
// expected values, the others are refused with ErrInput.
func TestElementTypes(t *testing.T) {
	accepts := map[string]func(tensor.DType) bool{
		"scatter_nd": func(d tensor.DType) bool { return d != tensor.Bool && d != tensor.String },
		"gather_nd":  func(d tensor.DType) bool { return d != tensor.String },
		"tensor_scatter_elements": func(d tensor.DType) bool {
			return d != tensor.String && !d.IsComplex()
		},
	}
	for _, d := range tensor.DTypes() {
		v := func(shape tensor.Shape, vals ...int) tensor.Tensor { return tensortest.FromInts(d, shape, vals...) }
		type result struct {
			op        string
			out, want tensor.Tensor
			err       error
		}
		var rs []result
		add := func(op string, want tensor.Tensor, out tensor.Tensor, err error) {
			rs = append(rs, result{op, out, want, err})
		}
		// Rows 1, 1, 0: row 1 accumulates.
		out, err := mindspore.ScatterND(tensortest.I64(tensor.Shape{3, 1}, 1, 1, 0), v(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6), tensor.Shape{2, 2})
		add("scatter_nd", v(tensor.Shape{2, 2}, 5, 6, 4, 6), out, err)
		out, err = mindspore.GatherND(v(tensor.Shape{2, 3}, 0, 1, 2, 3, 4, 5), tensortest.I32(tensor.Shape{2, 1}, 1, 0))
		add("gather_nd", v(tensor.Shape{2, 3}, 3, 4, 5, 0, 1, 2), out, err)
		x := v(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
		idx := tensortest.I64(tensor.Shape{1, 3}, 1, -1, 5) // 5 is skipped
		out, err = mindspore.TensorScatterElements(x, idx, v(tensor.Shape{1, 3}, 7, 8, 9), 0, "none")
		add("tensor_scatter_elements", v(tensor.Shape{2, 3}, 1, 2, 3, 7, 8, 6), out, err)
		out, err = mindspore.TensorScatterElements(x, idx, v(tensor.Shape{1, 3}, 7, 8, 9), 0, "add")
		add("tensor_scatter_elements", v(tensor.Shape{2, 3}, 1, 2, 3, 11, 13, 6), out, err)
		for _, r := range rs {
			switch {
			case !accepts[r.op](d):
				if !errors.Is(r.err, dialect.ErrInput) {
					t.Errorf("%s %v: got %v, %v; want ErrInput", r.op, d, r.out, r.err)
				}
			case r.err != nil || !tensor.Equal(r.out, r.want):
				t.Errorf("%s %v: got %v, %v; want %v", r.op, d, r.out, r.err, r.want)
			}
		}
	}
}

// Integer additions wrap, float16 rounds after every step.
func TestScatterNDArithmetic(t *testing.T) {
	got, err := mindspore.ScatterND(tensortest.I32(tensor.Shape{3, 1}, 0, 0, 0),
		tensor.Must(tensor.From(tensor.Shape{3}, []int8{100, 100, 27})), tensor.Shape{1})
	if want := tensor.Must(tensor.From(tensor.Shape{1}, []int8{-29})); err != nil || !tensor.Equal(got, want) {
		t.Errorf("int8: got %v, %v; want %v", got, err, want)
	}
	// 2048 + 1 is 2048 in float16; 2048 + 1 + 1 one step at a time stays
	// 2048.
	upd := tensortest.FromInts(tensor.Float16, tensor.Shape{3}, 2048, 1, 1)
	got, err = mindspore.ScatterND(tensortest.I32(tensor.Shape{3, 1}, 0, 0, 0), upd, tensor.Shape{1})
	if want := tensortest.FromInts(tensor.Float16, tensor.Shape{1}, 2048); err != nil || !tensor.Equal(got, want) {
		t.Errorf("float16: got %v, %v; want %v", got, err, want)
	}
}

func TestEmptyIndices(t *testing.T) {
	got, err := mindspore.ScatterND(tensortest.I64(tensor.Shape{0, 1}), tensortest.F32(tensor.Shape{0, 4}), tensor.Shape{3, 4})
	if want := tensortest.F32(tensor.Shape{3, 4}, make([]float32, 12)...); err != nil || !tensor.Equal(got, want) {
		t.Errorf("scatter_nd: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.ScatterND(tensortest.I32(tensor.Shape{2, 0, 2}), tensortest.F32(tensor.Shape{2, 0}), tensor.Shape{3, 4})
	if want := tensortest.F32(tensor.Shape{3, 4}, make([]float32, 12)...); err != nil || !tensor.Equal(got, want) {
		t.Errorf("scatter_nd [2,0,2]: got %v, %v; want %v", got, err, want)
	}
	x := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	got, err = mindspore.GatherND(x, tensortest.I64(tensor.Shape{0, 2}))
	if want := tensortest.F32(tensor.Shape{0}); err != nil || !tensor.Equal(got, want) {
		t.Errorf("gather_nd: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.GatherND(x, tensortest.I32(tensor.Shape{0, 1}))
	if want := tensortest.F32(tensor.Shape{0, 2}); err != nil || !tensor.Equal(got, want) {
		t.Errorf("gather_nd slices: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.TensorScatterElements(x, tensortest.I64(tensor.Shape{0, 2}), tensortest.F32(tensor.Shape{0, 2}), 0, "add")
	if err != nil || !tensor.Equal(got, x) {
		t.Errorf("tensor_scatter_elements: got %v, %v; want %v", got, err, x)
	}
}

// Tuples of length 0 select everything, and gather_nd reads a scalar
// indices tensor as a 1-D one.
func TestNDCorners(t *testing.T) {
	x := tensortest.F32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6)
	got, err := mindspore.GatherND(x, tensor.Scalar(int32(2)))
	if want := tensortest.F32(tensor.Shape{2}, 5, 6); err != nil || !tensor.Equal(got, want) {
		t.Errorf("scalar indices: got %v, %v; want %v", got, err, want)
	}
	_, err = mindspore.GatherND(x, tensor.Scalar(int64(3)))
	checkErr(t, "scalar index out of range", err, engine.ErrIndex)
	got, err = mindspore.GatherND(x, tensortest.I64(tensor.Shape{2, 0}))
	if want := tensortest.F32(tensor.Shape{2, 3, 2}, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6); err != nil || !tensor.Equal(got, want) {
		t.Errorf("empty tuples: got %v, %v; want %v", got, err, want)
	}
	got, err = mindspore.ScatterND(tensortest.I64(tensor.Shape{2, 0}), tensortest.F32(tensor.Shape{2, 3, 2}, 1, 2, 3, 4, 5, 6, 1, 1, 1, 1, 1, 1), tensor.Shape{3, 2})
	if want := tensortest.F32(tensor.Shape{3, 2}, 2, 3, 4, 5, 6, 7); err != nil || !tensor.Equal(got, want) {
		t.Errorf("scatter_nd empty tuples: got %v, %v; want %v", got, err, want)
	}
}

func TestScatterNDInto(t *testing.T) {
	buf := []float32{9, 9, 9, 9}
	dst := tensor.Must(tensor.From(tensor.Shape{2, 2}, buf))
	if err := mindspore.ScatterNDInto(dst, tensortest.I32(tensor.Shape{2, 2}, 1, 0, 1, 0), tensortest.F32(tensor.Shape{2}, 1, 2)); err != nil {
		t.Fatal(err)
	}
	if want := []float32{0, 0, 3, 0}; !slices.Equal(buf, want) {
		t.Errorf("got %v, want %v", buf, want)
	}
	// Errors leave dst alone, and match ScatterND's.
	before := slices.Clone(buf)
	bad := tensortest.I32(tensor.Shape{2, 2}, 1, 0, 2, 0)
	err := mindspore.ScatterNDInto(dst, bad, tensortest.F32(tensor.Shape{2}, 1, 2))
	_, want := mindspore.ScatterND(bad, tensortest.F32(tensor.Shape{2}, 1, 2), tensor.Shape{2, 2})
	if err == nil || want == nil || err.Error() != want.Error() || !errors.Is(err, engine.ErrIndex) {
		t.Errorf("bad index: got %v, want %v", err, want)
	}
	overlapping := tensor.Must(tensor.From(tensor.Shape{1, 2}, buf[1:3]))
	tests := []struct {
		name string
		err  error
		want error
	}{
		{"bad index", err, engine.ErrIndex},
		{"negative index", mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{1, 2}, 0, -1), tensortest.F32(tensor.Shape{1}, 1)), engine.ErrIndex},
		{"dst type", mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensor.Must(tensor.From(tensor.Shape{1}, []float64{1}))), engine.ErrType},
		{"updates shape", mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{2}, 1, 2)), engine.ErrShape},
		{"dst is updates", mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{2, 1}, 0, 1), tensor.Must(tensor.From(tensor.Shape{2, 2}, buf))), engine.ErrArgument},
		{"dst overlaps updates", mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{1, 1}, 0), overlapping), engine.ErrArgument},
		{"missing dst", mindspore.ScatterNDInto(tensor.Tensor{}, tensortest.I64(tensor.Shape{1, 2}, 0, 0), tensortest.F32(tensor.Shape{1}, 1)), engine.ErrArgument},
		{"scalar dst", mindspore.ScatterNDInto(tensor.Scalar(float32(0)), tensortest.I64(tensor.Shape{1, 0}), tensortest.F32(tensor.Shape{1}, 1)), dialect.ErrInput},
	}
	for _, tt := range tests {
		checkErr(t, tt.name, tt.err, tt.want)
	}
	if !slices.Equal(buf, before) {
		t.Errorf("failed calls changed dst: %v, was %v", buf, before)
	}
	ibuf := []int32{0, 1, 2, 3}
	idst := tensor.Must(tensor.From(tensor.Shape{4}, ibuf))
	err = mindspore.ScatterNDInto(idst, tensor.Must(tensor.From(tensor.Shape{1, 1}, ibuf[:1])), tensortest.I32(tensor.Shape{1}, 5))
	checkErr(t, "dst overlaps indices", err, engine.ErrArgument)
	if !slices.Equal(ibuf, []int32{0, 1, 2, 3}) {
		t.Errorf("failed call changed dst: %v", ibuf)
	}
	// Every element type can be cleared and filled.
	for _, d := range tensor.DTypes() {
		if d == tensor.Bool || d == tensor.String {
			continue
		}
		dst := tensortest.FromInts(d, tensor.Shape{3}, 7, 7, 7)
		err := mindspore.ScatterNDInto(dst, tensortest.I64(tensor.Shape{1, 1}, 1), tensortest.FromInts(d, tensor.Shape{1}, 5))
		if want := tensortest.FromInts(d, tensor.Shape{3}, 0, 5, 0); err != nil || !tensor.Equal(dst, want) {
			t.Errorf("%v: got %v, %v; want %v", d, dst, err, want)
		}
	}
}

func TestGatherNDInto(t *testing.T) {
	x := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	if err := mindspore.GatherNDInto(dst, x, tensortest.I64(tensor.Shape{2, 2}, 1, 1, 0, 1)); err != nil {
		t.Fatal(err)
	}
	if want := tensortest.F32(tensor.Shape{2}, 4, 2); !tensor.Equal(dst, want) {
		t.Errorf("got %v, want %v", dst, want)
	}
	scalar := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	if err := mindspore.GatherNDInto(scalar, x, tensor.Scalar(int64(1))); err != nil || !tensor.Equal(scalar, tensortest.F32(tensor.Shape{2}, 3, 4)) {
		t.Errorf("scalar indices: %v %v", scalar, err)
	}
	wrong := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3}))
	checkErr(t, "wrong dst shape", mindspore.GatherNDInto(wrong, x, tensortest.I64(tensor.Shape{2, 2}, 1, 1, 0, 1)), engine.ErrShape)
	checkErr(t, "out of range", mindspore.GatherNDInto(dst, x, tensortest.I64(tensor.Shape{2, 2}, 1, 2, 0, 1)), engine.ErrIndex)
	checkErr(t, "int32 indices", mindspore.GatherNDInto(dst, x, tensortest.I32(tensor.Shape{2, 2}, 1, 1, 0, 1)), nil)
}

func TestTensorScatterElementsInto(t *testing.T) {
	buf := []int64{1, 2, 3, 4}
	x := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	if err := mindspore.TensorScatterElementsInto(x, x, tensortest.I32(tensor.Shape{3}, 0, -1, 4), tensortest.I64(tensor.Shape{3}, 10, 20, 30), 0, "add"); err != nil {
		t.Fatal(err)
	}
	if want := []int64{11, 2, 3, 24}; !slices.Equal(buf, want) {
		t.Errorf("in place: got %v, want %v", buf, want)
	}
	dst := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{4}))
	if err := mindspore.TensorScatterElementsInto(dst, x, tensortest.I32(tensor.Shape{1}, 2), tensortest.I64(tensor.Shape{1}, 0), 0, "none"); err != nil {
		t.Fatal(err)
	}
	if want := tensortest.I64(tensor.Shape{4}, 11, 2, 0, 24); !tensor.Equal(dst, want) {
		t.Errorf("into dst: got %v, want %v", dst, want)
	}
}

func TestOpTable(t *testing.T) {
	want := map[string][]string{ // operator -> inputs
		"mindspore.scatter_nd":              {"indices", "updates", "shape"},
		"mindspore.gather_nd":               {"input_x", "indices"},
		"mindspore.tensor_scatter_elements": {"input_x", "indices", "updates"},
	}
	for _, o := range mindspore.Ops() {
		inputs, ok := want[o.Name]
		if !ok {
			t.Errorf("unexpected operator %s", o.Name)
			continue
		}
		delete(want, o.Name)
		var names []string
		for _, p := range o.Inputs {
			names = append(names, p.Name)
			if p.Doc == "" || o.InputTypes(p) == "" {
				t.Errorf("%s input %s is undocumented", o.Name, p.Name)
			}
		}
		if !slices.Equal(names, inputs) {
			t.Errorf("%s inputs %v, want %v", o.Name, names, inputs)
		}
		if !slices.Equal(o.Versions, []int{1}) || o.Removed != 0 || o.Summary == "" || o.Output == "" {
			t.Errorf("%s: versions %v, removed %d, summary %q, output %q", o.Name, o.Versions, o.Removed, o.Summary, o.Output)
		}
		for _, opset := range []int{0, 1, 7} {
			if v, err := o.Version(opset); err != nil || v != 1 {
				t.Errorf("%s opset %d: version %d, %v", o.Name, opset, v, err)
			}
		}
		b := o.Behavior(1)
		if b.IndexTypes != dialect.Types(tensor.Int32, tensor.Int64) || len(b.Notes) == 0 || b.IncludeSelf != "" {
			t.Errorf("%s behavior %+v", o.Name, b)
		}
		switch o.Name {
		case "mindspore.tensor_scatter_elements":
			if b.Index != (engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeSkip}) ||
				len(b.Reductions) != 2 || b.Reductions["none"] != engine.None || b.Reductions["add"] != engine.Add {
				t.Errorf("%s behavior %+v", o.Name, b)
			}
			if len(o.Attrs) != 2 || o.Attrs[0].Name != "axis" || o.Attrs[0].Default != "0" ||
				o.Attrs[1].Name != "reduction" || o.Attrs[1].Default != "none" {
				t.Errorf("%s attributes %+v", o.Name, o.Attrs)
			}
		default:
			wantReductions := 0
			if o.Name == "mindspore.scatter_nd" {
				wantReductions = 1 // always add
			}
			if b.Index != (engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError}) ||
				len(b.Reductions) != wantReductions || wantReductions == 1 && b.Reductions["add"] != engine.Add {
				t.Errorf("%s behavior %+v", o.Name, b)
			}
			if len(o.Attrs) != 0 {
				t.Errorf("%s attributes %+v", o.Name, o.Attrs)
			}
		}
	}
	if len(want) != 0 {
		t.Errorf("operators missing: %v", want)
	}
	if k, ok := op("mindspore.scatter_nd").AttrKind("shape"); !ok || k != dialect.Ints {
		t.Errorf("shape attribute kind %v, %v", k, ok)
	}
}

// scatter_nd's shape given as an attribute (as `--attr shape=4,4,4` does)
// or as an int32 or int64 input tensor, through Op.Run.
func TestScatterNDShapeAttrAndInput(t *testing.T) {
	o := op("mindspore.scatter_nd")
	rows := []float32{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4}
	indices := tensortest.I32(tensor.Shape{2, 1}, 0, 2)
	updates := tensortest.F32(tensor.Shape{2, 4, 4}, repeat(rows, 2)...)
	want := tensortest.F32(tensor.Shape{4, 4, 4}, slices.Concat(rows, make([]float32, 16), rows, make([]float32, 16))...)
	in := func(shape ...tensor.Tensor) map[string]tensor.Tensor {
		m := map[string]tensor.Tensor{"indices": indices, "updates": updates}
		if len(shape) > 0 {
			m["shape"] = shape[0]
		}
		return m
	}
	attr := func(text string) map[string]dialect.Value {
		v, err := dialect.ParseValue(dialect.Ints, text)
		if err != nil {
			t.Fatal(err)
		}
		return map[string]dialect.Value{"shape": v}
	}
	good := []dialect.Call{
		{Inputs: in(), Attrs: attr("4,4,4")},
		{Opset: 1, Inputs: in(), Attrs: attr("[4, 4, 4]")},
		{Inputs: in(tensortest.I32(tensor.Shape{3}, 4, 4, 4))},
		{Opset: 3, Inputs: in(tensortest.I64(tensor.Shape{3}, 4, 4, 4))},
	}
	for i, c := range good {
		got, err := o.Run(c)
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("call %d: got %v, %v; want %v", i, got, err, want)
		}
	}
	bad := []struct {
		name string
		call dialect.Call
		want error
	}{
		{"zero in attribute", dialect.Call{Inputs: in(), Attrs: attr("4,0,4")}, dialect.ErrInput},
		{"negative in attribute", dialect.Call{Inputs: in(), Attrs: attr("4,-4,4")}, dialect.ErrInput},
		{"empty attribute", dialect.Call{Inputs: in(), Attrs: attr("")}, dialect.ErrInput},
		{"zero in input", dialect.Call{Inputs: in(tensortest.I64(tensor.Shape{3}, 4, 4, 0))}, dialect.ErrInput},
		{"negative in input", dialect.Call{Inputs: in(tensortest.I32(tensor.Shape{3}, -4, 4, 4))}, dialect.ErrInput},
		{"empty input", dialect.Call{Inputs: in(tensortest.I64(tensor.Shape{0}))}, dialect.ErrInput},
		{"2-D input", dialect.Call{Inputs: in(tensortest.I64(tensor.Shape{3, 1}, 4, 4, 4))}, dialect.ErrInput},
		{"scalar input", dialect.Call{Inputs: in(tensor.Scalar(int64(4)))}, dialect.ErrInput},
		{"float input", dialect.Call{Inputs: in(tensortest.F32(tensor.Shape{3}, 4, 4, 4))}, dialect.ErrInput},
		{"uint8 input", dialect.Call{Inputs: in(tensor.Must(tensor.From(tensor.Shape{3}, []uint8{4, 4, 4})))}, dialect.ErrInput},
		{"both", dialect.Call{Inputs: in(tensortest.I64(tensor.Shape{3}, 4, 4, 4)), Attrs: attr("4,4,4")}, dialect.ErrInput},
		{"missing", dialect.Call{Inputs: in()}, dialect.ErrInput},
		{"attribute of the wrong kind", dialect.Call{Inputs: in(), Attrs: map[string]dialect.Value{"shape": {Kind: dialect.Int, Int: 4}}}, dialect.ErrAttribute},
		{"unknown attribute", dialect.Call{Inputs: in(), Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int}}}, dialect.ErrAttribute},
		{"shape does not fit updates", dialect.Call{Inputs: in(), Attrs: attr("4,4,5")}, engine.ErrShape},
		{"negative opset", dialect.Call{Opset: -1, Inputs: in(), Attrs: attr("4,4,4")}, dialect.ErrVersion},
	}
	for _, tt := range bad {
		_, err := o.Run(tt.call)
		checkErr(t, tt.name, err, tt.want)
	}
}

func TestOpRun(t *testing.T) {
	g := op("mindspore.gather_nd")
	got, err := g.Run(dialect.Call{Inputs: map[string]tensor.Tensor{
		"input_x": tensortest.F32(tensor.Shape{2, 3}, -0.1, 0.3, 3.6, 0.4, 0.5, -3.2),
		"indices": tensortest.I32(tensor.Shape{2, 2}, 0, 0, 1, 1),
	}})
	if want := tensortest.F32(tensor.Shape{2}, -0.1, 0.5); err != nil || !tensor.Equal(got, want) {
		t.Errorf("gather_nd: got %v, %v", got, err)
	}
	_, err = g.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"input_x": tensortest.F32(tensor.Shape{1}, 1)}})
	checkErr(t, "gather_nd missing indices", err, dialect.ErrInput)
	_, err = g.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"data": tensortest.F32(tensor.Shape{1}, 1), "indices": tensortest.I64(tensor.Shape{1, 1}, 0)}})
	checkErr(t, "gather_nd ONNX input name", err, dialect.ErrInput)

	s := op("mindspore.tensor_scatter_elements")
	in := map[string]tensor.Tensor{
		"input_x": tensortest.I32(tensor.Shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9),
		"indices": tensortest.I32(tensor.Shape{2, 3}, 1, -1, 2, 0, 2, 1),
		"updates": tensortest.I32(tensor.Shape{2, 3}, 1, 2, 2, 4, 5, 8),
	}
	str := func(s string) dialect.Value { return dialect.Value{Kind: dialect.String, Str: s} }
	integer := func(i int64) dialect.Value { return dialect.Value{Kind: dialect.Int, Int: i} }
	runs := []struct {
		attrs map[string]dialect.Value
		want  tensor.Tensor
	}{
		{map[string]dialect.Value{"reduction": str("add")}, tensortest.I32(tensor.Shape{3, 3}, 5, 2, 3, 5, 5, 14, 7, 15, 11)},
		{nil, tensortest.I32(tensor.Shape{3, 3}, 4, 2, 3, 1, 5, 8, 7, 5, 2)},
		{map[string]dialect.Value{"axis": integer(-2), "reduction": str("none")}, tensortest.I32(tensor.Shape{3, 3}, 4, 2, 3, 1, 5, 8, 7, 5, 2)},
		{map[string]dialect.Value{"axis": integer(1)}, tensortest.I32(tensor.Shape{3, 3}, 1, 1, 2, 4, 8, 5, 7, 8, 9)},
	}
	for i, r := range runs {
		got, err := s.Run(dialect.Call{Inputs: in, Attrs: r.attrs})
		if err != nil || !tensor.Equal(got, r.want) {
			t.Errorf("tensor_scatter_elements run %d: got %v, %v; want %v", i, got, err, r.want)
		}
	}
	bad := []struct {
		attrs map[string]dialect.Value
		want  error
	}{
		{map[string]dialect.Value{"reduction": str("mul")}, dialect.ErrAttribute},
		{map[string]dialect.Value{"reduction": integer(1)}, dialect.ErrAttribute},
		{map[string]dialect.Value{"axis": integer(2)}, dialect.ErrAttribute},
		{map[string]dialect.Value{"dim": integer(0)}, dialect.ErrAttribute},
	}
	for _, b := range bad {
		_, err := s.Run(dialect.Call{Inputs: in, Attrs: b.attrs})
		checkErr(t, "tensor_scatter_elements bad attributes", err, b.want)
	}
}
