package onnx_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

func seq(n int, f func(i int) float32) []float32 {
	v := make([]float32, n)
	for i := range v {
		v[i] = f(i)
	}
	return v
}

// The examples of the ScatterND specification, at each of its versions.
func TestScatterNDSpecExamples(t *testing.T) {
	rows := [][]float32{{1, 2, 3, 4}, {5, 6, 7, 8}, {8, 7, 6, 5}, {4, 3, 2, 1}}
	rev := [][]float32{{8, 7, 6, 5}, {4, 3, 2, 1}, {1, 2, 3, 4}, {5, 6, 7, 8}}
	block := func(b [][]float32) []float32 {
		var v []float32
		for _, r := range b {
			v = append(v, r...)
		}
		return v
	}
	fill := func(vals ...float32) []float32 {
		var v []float32
		for _, x := range vals {
			v = append(v, x, x, x, x)
		}
		return v
	}
	data2 := tensortest.F32(tensor.Shape{4, 4, 4}, append(append(append(block(rows), block(rows)...), block(rev)...), block(rev)...)...)
	upd2 := tensortest.F32(tensor.Shape{2, 4, 4}, append(fill(5, 6, 7, 8), fill(1, 2, 3, 4)...)...)
	want2 := tensortest.F32(tensor.Shape{4, 4, 4}, append(append(append(fill(5, 6, 7, 8), block(rows)...), fill(1, 2, 3, 4)...), block(rev)...)...)

	for _, opset := range []onnx.Opset{11, 12, 13, 15, 16, 17, 18, 21} {
		got, err := opset.ScatterND(tensortest.F32(tensor.Shape{8}, 1, 2, 3, 4, 5, 6, 7, 8), tensortest.I64(tensor.Shape{4, 1}, 4, 3, 1, 7),
			tensortest.F32(tensor.Shape{4}, 9, 10, 11, 12), "")
		if want := tensortest.F32(tensor.Shape{8}, 1, 11, 3, 10, 9, 6, 7, 12); err != nil || !tensor.Equal(got, want) {
			t.Errorf("opset %d example 1: got %v, %v; want %v", opset, got, err, want)
		}
		got, err = opset.ScatterND(data2, tensortest.I64(tensor.Shape{2, 1}, 0, 2), upd2, "none")
		if err != nil || !tensor.Equal(got, want2) {
			t.Errorf("opset %d example 2: got %v, %v; want %v", opset, got, err, want2)
		}
	}
}

// The examples of the (deprecated) Scatter specification, which
// ScatterElements keeps.
func TestScatterSpecExamples(t *testing.T) {
	data := tensortest.F32(tensor.Shape{3, 3}, make([]float32, 9)...)
	idx := tensortest.I64(tensor.Shape{2, 3}, 1, 0, 2, 0, 2, 1)
	upd := tensortest.F32(tensor.Shape{2, 3}, 1.0, 1.1, 1.2, 2.0, 2.1, 2.2)
	want1 := tensortest.F32(tensor.Shape{3, 3}, 2.0, 1.1, 0.0, 1.0, 0.0, 2.2, 0.0, 2.1, 1.2)
	data2 := tensortest.F32(tensor.Shape{1, 5}, 1, 2, 3, 4, 5)
	idx2 := tensortest.I64(tensor.Shape{1, 2}, 1, 3)
	upd2 := tensortest.F32(tensor.Shape{1, 2}, 1.1, 2.1)
	want2 := tensortest.F32(tensor.Shape{1, 5}, 1.0, 1.1, 3.0, 2.1, 5.0)
	for _, opset := range []onnx.Opset{9, 10} {
		if got, err := opset.Scatter(data, idx, upd, 0); err != nil || !tensor.Equal(got, want1) {
			t.Errorf("Scatter opset %d example 1: %v %v", opset, got, err)
		}
		if got, err := opset.Scatter(data2, idx2, upd2, 1); err != nil || !tensor.Equal(got, want2) {
			t.Errorf("Scatter opset %d example 2: %v %v", opset, got, err)
		}
	}
	for _, opset := range []onnx.Opset{11, 13, 16, 18} {
		if got, err := opset.ScatterElements(data, idx, upd, 0, ""); err != nil || !tensor.Equal(got, want1) {
			t.Errorf("ScatterElements opset %d example 1: %v %v", opset, got, err)
		}
		if got, err := opset.ScatterElements(data2, idx2, upd2, -1, ""); err != nil || !tensor.Equal(got, want2) {
			t.Errorf("ScatterElements opset %d example 2: %v %v", opset, got, err)
		}
	}
}

// The indexing examples of TensorFlow's GatherNd (batch_dims 0, string
// elements), which ONNX GatherND shares.
func TestGatherNDExamples(t *testing.T) {
	m := tensortest.Str(tensor.Shape{2, 2}, "a", "b", "c", "d")
	cube := tensortest.Str(tensor.Shape{2, 2, 2}, "a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1")
	tests := []struct {
		data, indices, want tensor.Tensor
	}{
		{m, tensortest.I64(tensor.Shape{2, 2}, 0, 0, 1, 1), tensortest.Str(tensor.Shape{2}, "a", "d")},
		{m, tensortest.I64(tensor.Shape{2, 1}, 1, 0), tensortest.Str(tensor.Shape{2, 2}, "c", "d", "a", "b")},
		{cube, tensortest.I64(tensor.Shape{1, 1}, 1), tensortest.Str(tensor.Shape{1, 2, 2}, "a1", "b1", "c1", "d1")},
		{cube, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 1, 0), tensortest.Str(tensor.Shape{2, 2}, "c0", "d0", "a1", "b1")},
		{cube, tensortest.I64(tensor.Shape{2, 3}, 0, 0, 1, 1, 0, 1), tensortest.Str(tensor.Shape{2}, "b0", "b1")},
		{m, tensortest.I64(tensor.Shape{2, 1, 2}, 0, 0, 0, 1), tensortest.Str(tensor.Shape{2, 1}, "a", "b")},
		{m, tensortest.I64(tensor.Shape{2, 1, 1}, 1, 0), tensortest.Str(tensor.Shape{2, 1, 2}, "c", "d", "a", "b")},
		{cube, tensortest.I64(tensor.Shape{2, 1, 1}, 1, 0),
			tensortest.Str(tensor.Shape{2, 1, 2, 2}, "a1", "b1", "c1", "d1", "a0", "b0", "c0", "d0")},
		{cube, tensortest.I64(tensor.Shape{2, 2, 2}, 0, 1, 1, 0, 0, 0, 1, 1),
			tensortest.Str(tensor.Shape{2, 2, 2}, "c0", "d0", "a1", "b1", "a0", "b0", "c1", "d1")},
		{cube, tensortest.I64(tensor.Shape{2, 2, 3}, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0),
			tensortest.Str(tensor.Shape{2, 2}, "b0", "b1", "d0", "c1")},
	}
	for i, tt := range tests {
		for _, opset := range []onnx.Opset{11, 12, 13} {
			got, err := opset.GatherND(tt.data, tt.indices, 0)
			if err != nil || !tensor.Equal(got, tt.want) {
				t.Errorf("example %d opset %d: got %v, %v; want %v", i, opset, got, err, tt.want)
			}
		}
	}
	// ONNX's own batch_dims example.
	data := tensortest.F32(tensor.Shape{2, 2, 2}, 0, 1, 2, 3, 4, 5, 6, 7)
	got, err := onnx.Opset(12).GatherND(data, tensortest.I64(tensor.Shape{2, 1}, 1, 0), 1)
	if want := tensortest.F32(tensor.Shape{2, 2}, 2, 3, 4, 5); err != nil || !tensor.Equal(got, want) {
		t.Errorf("batch_dims 1: got %v, %v; want %v", got, err, want)
	}
}

func TestGatherAndGatherElements(t *testing.T) {
	data := tensortest.F32(tensor.Shape{3, 2}, 1, 2, 3, 4, 5, 6)
	for _, opset := range []onnx.Opset{1, 11, 13} {
		got, err := opset.Gather(data, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 1, -1), 0)
		want := tensortest.F32(tensor.Shape{2, 2, 2}, 1, 2, 3, 4, 3, 4, 5, 6)
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("Gather opset %d: got %v, %v", opset, got, err)
		}
		got, err = opset.Gather(data, tensor.Scalar(int32(1)), -1)
		if want := tensortest.F32(tensor.Shape{3}, 2, 4, 6); err != nil || !tensor.Equal(got, want) {
			t.Errorf("Gather scalar index opset %d: got %v, %v", opset, got, err)
		}
	}
	for _, opset := range []onnx.Opset{11, 13} {
		got, err := opset.GatherElements(tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4), tensortest.I64(tensor.Shape{2, 2}, 0, 0, 1, 0), 1)
		if want := tensortest.F32(tensor.Shape{2, 2}, 1, 1, 4, 3); err != nil || !tensor.Equal(got, want) {
			t.Errorf("GatherElements opset %d: got %v, %v", opset, got, err)
		}
	}
}

func TestReductions(t *testing.T) {
	data := tensortest.F32(tensor.Shape{1, 5}, 1, 2, 3, 4, 5)
	idx := tensortest.I64(tensor.Shape{1, 2}, 1, 1)
	upd := tensortest.F32(tensor.Shape{1, 2}, 1.1, 2.1)
	tests := []struct {
		reduction onnx.Reduction
		want      float32
	}{
		{"none", 2.1}, // duplicates: the last update wins
		{"add", 2 + 1.1 + 2.1},
		{"mul", 2 * 1.1 * 2.1},
		{"max", 2.1},
		{"min", 1.1},
	}
	for _, tt := range tests {
		got, err := onnx.Latest.ScatterElements(data, idx, upd, 1, tt.reduction)
		if err != nil {
			t.Fatalf("%s: %v", tt.reduction, err)
		}
		want := tensortest.F32(tensor.Shape{1, 5}, 1, tt.want, 3, 4, 5)
		if !tensor.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", tt.reduction, got, want)
		}
	}
}

func TestVersionRules(t *testing.T) {
	data := tensortest.F32(tensor.Shape{2, 2}, 1, 2, 3, 4)
	upd := tensortest.F32(tensor.Shape{1, 1}, 9)
	idx := tensortest.I64(tensor.Shape{1, 1}, 0)
	bf := tensortest.FromInts(tensor.BFloat16, tensor.Shape{2, 2}, 1, 2, 3, 4)
	bfUpd := tensortest.FromInts(tensor.BFloat16, tensor.Shape{1, 1}, 9)
	i32 := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int32{0}))
	i16 := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int16{0}))
	call := func(f func() (tensor.Tensor, error)) error { _, err := f(); return err }
	tests := []struct {
		name string
		err  error
		want error // nil: success
	}{
		{"Scatter before 9", call(func() (tensor.Tensor, error) { return onnx.Opset(8).Scatter(data, idx, upd, 0) }), dialect.ErrVersion},
		{"Scatter 10", call(func() (tensor.Tensor, error) { return onnx.Opset(10).Scatter(data, idx, upd, 0) }), nil},
		{"Scatter removed in 11", call(func() (tensor.Tensor, error) { return onnx.Opset(11).Scatter(data, idx, upd, 0) }), dialect.ErrVersion},
		{"ScatterElements before 11", call(func() (tensor.Tensor, error) { return onnx.Opset(10).ScatterElements(data, idx, upd, 0, "") }), dialect.ErrVersion},
		{"ScatterND before 11", call(func() (tensor.Tensor, error) {
			return onnx.Opset(10).ScatterND(data, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "")
		}), dialect.ErrVersion},
		{"GatherND before 11", call(func() (tensor.Tensor, error) { return onnx.Opset(10).GatherND(data, idx, 0) }), dialect.ErrVersion},
		{"GatherElements before 11", call(func() (tensor.Tensor, error) { return onnx.Opset(10).GatherElements(data, idx, 0) }), dialect.ErrVersion},
		{"add before 16", call(func() (tensor.Tensor, error) { return onnx.Opset(15).ScatterElements(data, idx, upd, 0, "add") }), dialect.ErrAttribute},
		{"add at 16", call(func() (tensor.Tensor, error) { return onnx.Opset(16).ScatterElements(data, idx, upd, 0, "add") }), nil},
		{"mul at 16", call(func() (tensor.Tensor, error) {
			return onnx.Opset(17).ScatterND(data, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "mul")
		}), nil},
		{"max before 18", call(func() (tensor.Tensor, error) { return onnx.Opset(17).ScatterElements(data, idx, upd, 0, "max") }), dialect.ErrAttribute},
		{"min before 18", call(func() (tensor.Tensor, error) {
			return onnx.Opset(16).ScatterND(data, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "min")
		}), dialect.ErrAttribute},
		{"max at 18", call(func() (tensor.Tensor, error) { return onnx.Opset(18).ScatterElements(data, idx, upd, 0, "max") }), nil},
		{"unknown reduction", call(func() (tensor.Tensor, error) { return onnx.Latest.ScatterElements(data, idx, upd, 0, "sum") }), dialect.ErrAttribute},
		{"mean is not onnx", call(func() (tensor.Tensor, error) {
			return onnx.Latest.ScatterND(data, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "mean")
		}), dialect.ErrAttribute},
		{"bfloat16 before 13", call(func() (tensor.Tensor, error) { return onnx.Opset(12).ScatterElements(bf, idx, bfUpd, 0, "") }), dialect.ErrInput},
		{"bfloat16 at 13", call(func() (tensor.Tensor, error) { return onnx.Opset(13).ScatterElements(bf, idx, bfUpd, 0, "") }), nil},
		{"bfloat16 Gather 11", call(func() (tensor.Tensor, error) { return onnx.Opset(11).Gather(bf, idx, 0) }), dialect.ErrInput},
		{"bfloat16 GatherND 12", call(func() (tensor.Tensor, error) { return onnx.Opset(12).GatherND(bf, idx, 0) }), dialect.ErrInput},
		{"ScatterND int32 indices", call(func() (tensor.Tensor, error) {
			return onnx.Latest.ScatterND(data, i32, tensortest.F32(tensor.Shape{1, 2}, 1, 2), "")
		}), dialect.ErrInput},
		{"GatherND int32 indices", call(func() (tensor.Tensor, error) { return onnx.Latest.GatherND(data, i32, 0) }), dialect.ErrInput},
		{"ScatterElements int32 indices", call(func() (tensor.Tensor, error) { return onnx.Latest.ScatterElements(data, i32, upd, 0, "") }), nil},
		{"Gather int16 indices", call(func() (tensor.Tensor, error) { return onnx.Latest.Gather(data, i16, 0) }), dialect.ErrInput},
		{"batch_dims before 12", call(func() (tensor.Tensor, error) {
			return onnx.Opset(11).GatherND(data, tensortest.I64(tensor.Shape{2, 1}, 0, 1), 1)
		}), dialect.ErrAttribute},
		{"batch_dims negative", call(func() (tensor.Tensor, error) {
			return onnx.Latest.GatherND(data, tensortest.I64(tensor.Shape{2, 1}, 0, 1), -1)
		}), dialect.ErrAttribute},
		{"batch_dims at the rank", call(func() (tensor.Tensor, error) {
			return onnx.Latest.GatherND(data, tensortest.I64(tensor.Shape{2, 1}, 0, 1), 2)
		}), dialect.ErrAttribute},
		{"batch_dims huge", call(func() (tensor.Tensor, error) {
			return onnx.Latest.GatherND(data, tensortest.I64(tensor.Shape{2, 1}, 0, 1), math.MaxInt)
		}), dialect.ErrAttribute},
		{"GatherND k = 0", call(func() (tensor.Tensor, error) {
			return onnx.Latest.GatherND(data, tensortest.I64(tensor.Shape{2, 0}), 0)
		}), engine.ErrShape},
		{"axis out of range", call(func() (tensor.Tensor, error) { return onnx.Latest.Gather(data, idx, 2) }), dialect.ErrAttribute},
		{"axis -3", call(func() (tensor.Tensor, error) { return onnx.Latest.GatherElements(data, idx, -3) }), dialect.ErrAttribute},
		{"updates shape differs from indices", call(func() (tensor.Tensor, error) {
			return onnx.Latest.ScatterElements(data, idx, tensortest.F32(tensor.Shape{1, 2}, 1, 2), 0, "")
		}), engine.ErrShape},
		{"index out of range", call(func() (tensor.Tensor, error) { return onnx.Latest.Gather(data, tensortest.I64(tensor.Shape{1}, 2), 0) }), engine.ErrIndex},
		{"index below -size", call(func() (tensor.Tensor, error) { return onnx.Latest.Gather(data, tensortest.I64(tensor.Shape{1}, -3), 0) }), engine.ErrIndex},
	}
	for _, tt := range tests {
		switch {
		case tt.want == nil && tt.err != nil:
			t.Errorf("%s: unexpected error %v", tt.name, tt.err)
		case tt.want != nil && !errors.Is(tt.err, tt.want):
			t.Errorf("%s: got %v, want %v", tt.name, tt.err, tt.want)
		case tt.err != nil:
			var oe *dialect.OpError
			if !errors.As(tt.err, &oe) || !strings.HasPrefix(tt.err.Error(), "onnx.") {
				t.Errorf("%s: %v does not name the operator", tt.name, tt.err)
			}
		}
	}
}

func TestErrorMessage(t *testing.T) {
	_, err := onnx.Latest.ScatterND(tensortest.F32(tensor.Shape{4, 4}, make([]float32, 16)...), tensortest.I64(tensor.Shape{2, 2}, 0, 1, 4, 0),
		tensortest.F32(tensor.Shape{2}, 1, 2), "")
	want := "onnx.ScatterND: index out of range: indices[1] = [4, 0]: component 0 is 4, allowed range [-4, 3] for dimension 0 of data [4,4]"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
}

// Every element type through every operator at every version: bfloat16
// is refused before version 13, and the rest give the same answers.
func TestEveryVersionAndElementType(t *testing.T) {
	for _, opset := range []onnx.Opset{9, 10, 11, 12, 13, 16, 18} {
		for _, d := range tensor.DTypes() {
			eachOp(t, opset, d)
		}
	}
}

func eachOp(t *testing.T, opset onnx.Opset, d tensor.DType) {
	t.Helper()
	data := tensortest.FromInts(d, tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 6)
	want := func(shape tensor.Shape, v ...int) tensor.Tensor { return tensortest.FromInts(d, shape, v...) }
	type result struct {
		op       string
		from     onnx.Opset // the first opset defining the operator
		until    onnx.Opset // the first opset without it, or 0
		out      tensor.Tensor
		err      error
		expected tensor.Tensor
	}
	var rs []result
	add := func(op string, from, until onnx.Opset, expected tensor.Tensor, out tensor.Tensor, err error) {
		rs = append(rs, result{op, from, until, out, err, expected})
	}
	out, err := opset.ScatterND(data, tensortest.I64(tensor.Shape{1, 2}, 1, -1), want(tensor.Shape{1}, 7), "")
	add("ScatterND", 11, 0, want(tensor.Shape{2, 3}, 1, 2, 3, 4, 5, 7), out, err)
	out, err = opset.ScatterElements(data, tensortest.I64(tensor.Shape{1, 1}, 1), want(tensor.Shape{1, 1}, 0), 0, "")
	add("ScatterElements", 11, 0, want(tensor.Shape{2, 3}, 1, 2, 3, 0, 5, 6), out, err)
	out, err = opset.Scatter(data, tensortest.I64(tensor.Shape{1, 1}, -1), want(tensor.Shape{1, 1}, 0), 0)
	add("Scatter", 9, 11, want(tensor.Shape{2, 3}, 1, 2, 3, 0, 5, 6), out, err)
	out, err = opset.GatherND(data, tensortest.I64(tensor.Shape{1, 1}, 1), 0)
	add("GatherND", 11, 0, want(tensor.Shape{1, 3}, 4, 5, 6), out, err)
	out, err = opset.GatherElements(data, tensortest.I64(tensor.Shape{2, 1}, 2, 0), 1)
	add("GatherElements", 11, 0, want(tensor.Shape{2, 1}, 3, 4), out, err)
	out, err = opset.Gather(data, tensor.Must(tensor.From(tensor.Shape{1}, []int32{2})), 1)
	add("Gather", 1, 0, want(tensor.Shape{2, 1}, 3, 6), out, err)
	for _, r := range rs {
		defined := opset >= r.from && (r.until == 0 || opset < r.until)
		switch {
		case !defined:
			if !errors.Is(r.err, dialect.ErrVersion) {
				t.Errorf("%s opset %d: got %v, want ErrVersion", r.op, opset, r.err)
			}
		case d == tensor.BFloat16 && opset < 13:
			if !errors.Is(r.err, dialect.ErrInput) {
				t.Errorf("%s opset %d bfloat16: got %v, want ErrInput", r.op, opset, r.err)
			}
		case r.err != nil || !tensor.Equal(r.out, r.expected):
			t.Errorf("%s opset %d %v: got %v, %v; want %v", r.op, opset, d, r.out, r.err, r.expected)
		}
	}
	if d == tensor.String || opset < 16 {
		return
	}
	// Two updates, 3 and 2, multiplied into the 2 at [0, 1]: only a
	// product in index order gives 12 (none gives 2, add 7, max 3, min 2).
	out, err = opset.ScatterND(data, tensortest.I64(tensor.Shape{2, 2}, 0, 1, 0, 1), want(tensor.Shape{2}, 3, 2), "mul")
	if expected := want(tensor.Shape{2, 3}, 1, 12, 3, 4, 5, 6); err != nil || !tensor.Equal(out, expected) {
		t.Errorf("ScatterND mul opset %d %v: %v %v", opset, d, out, err)
	}
}

// TestGatherAfterScatter: for unique random indices, gathering at the
// scattered positions gives back the updates.
func TestGatherAfterScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 500; iter++ {
		// ScatterND then GatherND, element or slice updates.
		shape := tensor.Shape{1 + rng.IntN(5), 1 + rng.IntN(5), 1 + rng.IntN(3)}
		n, _ := shape.NumElements()
		data := tensortest.F32(shape, seq(n, func(i int) float32 { return -float32(i) })...)
		k := 1 + rng.IntN(3)
		rows, _ := shape[:k].NumElements()
		m := 1 + rng.IntN(rows)
		perm := rng.Perm(rows)[:m]
		idx := make([]int64, 0, m*k)
		for _, p := range perm {
			c := make([]int64, k)
			for d := k - 1; d >= 0; d-- {
				c[d] = int64(p % shape[d])
				if rng.IntN(2) == 0 {
					c[d] -= int64(shape[d]) // the same position, counted from the end
				}
				p /= shape[d]
			}
			idx = append(idx, c...)
		}
		indices := tensortest.I64(tensor.Shape{m, k}, idx...)
		slice, _ := shape[k:].NumElements()
		updates := tensortest.F32(append(tensor.Shape{m}, shape[k:]...), seq(m*slice, func(i int) float32 { return float32(i + 1) })...)
		out, err := onnx.Latest.ScatterND(data, indices, updates, "")
		if err != nil {
			t.Fatal(err)
		}
		back, err := onnx.Latest.GatherND(out, indices, 0)
		if err != nil || !tensor.Equal(back, updates) {
			t.Fatalf("GatherND(ScatterND): %v %v, want %v", back, err, updates)
		}
		// ScatterElements then GatherElements along a random axis, with a
		// permutation per line so that indices are unique along the axis.
		axis := rng.IntN(3)
		is := shape.Clone()
		is[axis] = 1 + rng.IntN(shape[axis])
		ni, _ := is.NumElements()
		eidx := make([]int64, ni)
		strides := is.Strides()
		for line := 0; line < ni; line++ {
			if line/strides[axis]%is[axis] != 0 {
				continue // not the first element of its line along axis
			}
			p := rng.Perm(shape[axis])
			for j := 0; j < is[axis]; j++ {
				eidx[line+j*strides[axis]] = int64(p[j])
			}
		}
		eupd := tensortest.F32(is, seq(ni, func(i int) float32 { return float32(100 + i) })...)
		out, err = onnx.Latest.ScatterElements(data, tensortest.I64(is, eidx...), eupd, axis, "")
		if err != nil {
			t.Fatal(err)
		}
		back, err = onnx.Latest.GatherElements(out, tensortest.I64(is, eidx...), axis)
		if err != nil || !tensor.Equal(back, eupd) {
			t.Fatalf("GatherElements(ScatterElements) axis %d: %v %v, want %v", axis, back, err, eupd)
		}
	}
}

func TestInto(t *testing.T) {
	buf := []float32{1, 2, 3, 4}
	data := tensortest.F32(tensor.Shape{4}, buf...)
	dst := tensor.Must(tensor.From(tensor.Shape{4}, buf))
	if err := onnx.Latest.ScatterNDInto(dst, data, tensortest.I64(tensor.Shape{1, 1}, 2), tensortest.F32(tensor.Shape{1}, 9), "add"); err != nil {
		t.Fatal(err)
	}
	if buf[2] != 12 {
		t.Errorf("got %v", buf)
	}
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	if err := onnx.Latest.GatherInto(out, data, tensortest.I64(tensor.Shape{2}, 3, 0), 0); err != nil {
		t.Fatal(err)
	}
	if got := out.Data().([]float32); got[0] != 4 || got[1] != 1 {
		t.Errorf("GatherInto: %v", got)
	}
	wrong := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3}))
	if err := onnx.Latest.GatherNDInto(wrong, data, tensortest.I64(tensor.Shape{2, 1}, 3, 0), 0); !errors.Is(err, engine.ErrShape) {
		t.Errorf("GatherNDInto with a wrong dst: %v", err)
	}
}

func TestOpTable(t *testing.T) {
	versions := map[string][][2]int{ // opset -> version
		"onnx.Gather":          {{1, 1}, {10, 1}, {11, 11}, {12, 11}, {13, 13}, {25, 13}},
		"onnx.GatherND":        {{11, 11}, {12, 12}, {13, 13}, {18, 13}},
		"onnx.GatherElements":  {{11, 11}, {12, 11}, {13, 13}},
		"onnx.ScatterND":       {{11, 11}, {12, 11}, {13, 13}, {15, 13}, {16, 16}, {17, 16}, {18, 18}, {0, 18}},
		"onnx.ScatterElements": {{11, 11}, {13, 13}, {16, 16}, {18, 18}},
		"onnx.Scatter":         {{9, 9}, {10, 9}, {0, 9}},
	}
	for _, op := range onnx.Ops() {
		for _, ov := range versions[op.Name] {
			if v, err := op.Version(ov[0]); err != nil || v != ov[1] {
				t.Errorf("%s opset %d: got version %d, %v; want %d", op.Name, ov[0], v, err, ov[1])
			}
		}
		delete(versions, op.Name)
	}
	if len(versions) != 0 {
		t.Errorf("operators missing from the table: %v", versions)
	}
}

func TestOpRun(t *testing.T) {
	var scatterND *dialect.Op
	for _, op := range onnx.Ops() {
		if op.Name == "onnx.ScatterND" {
			scatterND = op
		}
	}
	in := map[string]tensor.Tensor{"data": tensortest.F32(tensor.Shape{2}, 1, 2), "indices": tensortest.I64(tensor.Shape{1, 1}, 1), "updates": tensortest.F32(tensor.Shape{1}, 5)}
	red := func(s string) map[string]dialect.Value {
		return map[string]dialect.Value{"reduction": {Kind: dialect.String, Str: s}}
	}
	out, err := scatterND.Run(dialect.Call{Opset: 18, Inputs: in, Attrs: red("add")})
	if want := tensortest.F32(tensor.Shape{2}, 1, 7); err != nil || !tensor.Equal(out, want) {
		t.Errorf("Run: %v %v", out, err)
	}
	tests := []struct {
		call dialect.Call
		want error
	}{
		{dialect.Call{Opset: 13, Inputs: in, Attrs: red("none")}, dialect.ErrAttribute},
		{dialect.Call{Inputs: in, Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int}}}, dialect.ErrAttribute},
		{dialect.Call{Inputs: in, Attrs: map[string]dialect.Value{"reduction": {Kind: dialect.Int}}}, dialect.ErrAttribute},
		{dialect.Call{Inputs: map[string]tensor.Tensor{"data": in["data"]}}, dialect.ErrInput},
		{dialect.Call{Inputs: map[string]tensor.Tensor{"data": in["data"], "indices": in["indices"], "updates": in["updates"], "x": in["data"]}}, dialect.ErrInput},
		{dialect.Call{Opset: 10, Inputs: in}, dialect.ErrVersion},
	}
	for _, tt := range tests {
		if _, err := scatterND.Run(tt.call); !errors.Is(err, tt.want) {
			t.Errorf("%+v: got %v, want %v", tt.call.Attrs, err, tt.want)
		}
	}
}

// From version 16, reduction add concatenates strings in index order, as
// ONNX Runtime's CPU kernels do (std::string +=); the other reductions
// refuse them, and before 16 there is no reduction to ask for.
func TestStringAdd(t *testing.T) {
	data := tensortest.Str(tensor.Shape{3}, "x", "y", "z")
	upd := tensortest.Str(tensor.Shape{4}, "a", "b", "c", "d")
	want := tensortest.Str(tensor.Shape{3}, "xb", "y", "zacd")
	for _, opset := range []onnx.Opset{16, 18} {
		got, err := opset.ScatterND(data, tensortest.I64(tensor.Shape{4, 1}, 2, 0, -1, 2), upd, "add")
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("ScatterND opset %d: got %v, %v; want %v", opset, got, err, want)
		}
		got, err = opset.ScatterElements(data, tensortest.I64(tensor.Shape{4}, 2, 0, -1, 2), upd, 0, "add")
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("ScatterElements opset %d: got %v, %v; want %v", opset, got, err, want)
		}
		for _, r := range []onnx.Reduction{onnx.ReductionMul, onnx.ReductionMax, onnx.ReductionMin} {
			_, err := opset.ScatterND(data, tensortest.I64(tensor.Shape{1, 1}, 0), tensortest.Str(tensor.Shape{1}, "a"), r)
			if opset == 16 && r != onnx.ReductionMul {
				continue // not a reduction of version 16
			}
			if !errors.Is(err, engine.ErrType) {
				t.Errorf("ScatterND opset %d %s on strings: got %v, want ErrType", opset, r, err)
			}
		}
	}
	if _, err := onnx.Opset(13).ScatterND(data, tensortest.I64(tensor.Shape{1, 1}, 0), tensortest.Str(tensor.Shape{1}, "a"), "add"); !errors.Is(err, dialect.ErrAttribute) {
		t.Errorf("ScatterND opset 13 add: got %v, want ErrAttribute", err)
	}
}

// Which NaN max and min keep, bit for bit, as the shared rule says: a NaN
// already in data stays; otherwise the first NaN update wins.
func TestNaNBits(t *testing.T) {
	for _, reduction := range []onnx.Reduction{onnx.ReductionMax, onnx.ReductionMin} {
		for _, tt := range optest.NaNCases() {
			if tt.ExcludeSelf {
				continue // ONNX has no include_self
			}
			n := len(tt.Updates)
			data, upd := tensortest.F32(tensor.Shape{1}, tt.Data), tensortest.F32(tensor.Shape{n}, tt.Updates...)
			got, err := onnx.Opset(18).ScatterND(data, tensortest.I64(tensor.Shape{n, 1}, make([]int64, n)...), upd, reduction)
			if err != nil || math.Float32bits(got.Data().([]float32)[0]) != tt.Want {
				t.Errorf("ScatterND %s %s: got %v, %v; want %#x", reduction, tt.Name, got, err, tt.Want)
			}
			got, err = onnx.Opset(18).ScatterElements(data, tensortest.I64(tensor.Shape{n}, make([]int64, n)...), upd, 0, reduction)
			if err != nil || math.Float32bits(got.Data().([]float32)[0]) != tt.Want {
				t.Errorf("ScatterElements %s %s: got %v, %v; want %#x", reduction, tt.Name, got, err, tt.Want)
			}
		}
	}
}
