package tf_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

type shape = tensor.Shape

// asInt32 returns an int64 index tensor converted to int32, so that every
// example runs with both index types.
func asInt32(t tensor.Tensor) tensor.Tensor {
	v := t.Data().([]int64)
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return tensor.Must(tensor.From(t.Shape(), out))
}

// bothIndexTypes runs f with int64 indices and with the same indices as
// int32.
func bothIndexTypes(t *testing.T, indices tensor.Tensor, f func(t *testing.T, indices tensor.Tensor)) {
	t.Helper()
	t.Run("int64", func(t *testing.T) { f(t, indices) })
	t.Run("int32", func(t *testing.T) { f(t, asInt32(indices)) })
}

func check(t *testing.T, got tensor.Tensor, err error, want tensor.Tensor) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
	if !tensor.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

// The examples of TensorFlow's GatherNd documentation: every one of them
// (the "batched" ones have leading index dimensions only, batch_dims 0).
func TestGatherNDDocExamples(t *testing.T) {
	m := tensortest.Str(shape{2, 2}, "a", "b", "c", "d")
	cube := tensortest.Str(shape{2, 2, 2}, "a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1")
	tests := []struct {
		name            string
		params, indices tensor.Tensor
		want            tensor.Tensor
	}{
		{"simple indexing into a matrix", m, tensortest.I64(shape{2, 2}, 0, 0, 1, 1), tensortest.Str(shape{2}, "a", "d")},
		{"slice indexing into a matrix", m, tensortest.I64(shape{2, 1}, 1, 0), tensortest.Str(shape{2, 2}, "c", "d", "a", "b")},
		{"indexing into a 3-tensor, depth 1", cube, tensortest.I64(shape{1, 1}, 1),
			tensortest.Str(shape{1, 2, 2}, "a1", "b1", "c1", "d1")},
		{"indexing into a 3-tensor, depth 2", cube, tensortest.I64(shape{2, 2}, 0, 1, 1, 0),
			tensortest.Str(shape{2, 2}, "c0", "d0", "a1", "b1")},
		{"indexing into a 3-tensor, depth 3", cube, tensortest.I64(shape{2, 3}, 0, 0, 1, 1, 0, 1), tensortest.Str(shape{2}, "b0", "b1")},
		{"batched indexing into a matrix", m, tensortest.I64(shape{2, 1, 2}, 0, 0, 0, 1), tensortest.Str(shape{2, 1}, "a", "b")},
		{"batched slice indexing into a matrix", m, tensortest.I64(shape{2, 1, 1}, 1, 0),
			tensortest.Str(shape{2, 1, 2}, "c", "d", "a", "b")},
		{"batched indexing into a 3-tensor, depth 1", cube, tensortest.I64(shape{2, 1, 1}, 1, 0),
			tensortest.Str(shape{2, 1, 2, 2}, "a1", "b1", "c1", "d1", "a0", "b0", "c0", "d0")},
		{"batched indexing into a 3-tensor, depth 2", cube, tensortest.I64(shape{2, 2, 2}, 0, 1, 1, 0, 0, 0, 1, 1),
			tensortest.Str(shape{2, 2, 2}, "c0", "d0", "a1", "b1", "a0", "b0", "c1", "d1")},
		{"batched indexing into a 3-tensor, depth 3", cube, tensortest.I64(shape{2, 2, 3}, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0),
			tensortest.Str(shape{2, 2}, "b0", "b1", "d0", "c1")},
		// tf.gather_nd's Python documentation adds these.
		{"gathering rows", tensortest.Str(shape{2, 3}, "a", "b", "c", "d", "e", "f"), tensortest.I64(shape{2, 1}, 1, 0),
			tensortest.Str(shape{2, 3}, "d", "e", "f", "a", "b", "c")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bothIndexTypes(t, tt.indices, func(t *testing.T, indices tensor.Tensor) {
				got, err := tf.GatherND(tt.params, indices, 0)
				check(t, got, err, tt.want)
			})
		})
	}
}

// The batch_dims examples of tf.gather_nd's Python documentation.
func TestGatherNDBatchDimsDocExamples(t *testing.T) {
	cube := tensortest.Str(shape{2, 2, 2}, "a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1")
	tests := []struct {
		indices tensor.Tensor
		want    tensor.Tensor
	}{
		{tensortest.I64(shape{2, 1}, 1, 0), tensortest.Str(shape{2, 2}, "c0", "d0", "a1", "b1")},
		{tensortest.I64(shape{2, 1, 1}, 1, 0), tensortest.Str(shape{2, 1, 2}, "c0", "d0", "a1", "b1")},
		{tensortest.I64(shape{2, 1, 2}, 1, 0, 0, 1), tensortest.Str(shape{2, 1}, "c0", "b1")},
	}
	for _, tt := range tests {
		bothIndexTypes(t, tt.indices, func(t *testing.T, indices tensor.Tensor) {
			got, err := tf.GatherND(cube, indices, 1)
			check(t, got, err, tt.want)
		})
	}
	// One row from each of a batch of matrices: with the batch position in
	// each index tuple, or with batch_dims = 1.
	zeros := tensor.Must(tensor.New(tensor.Float32, shape{5, 7, 3}))
	out, err := tf.GatherND(zeros, tensortest.I64(shape{5, 2}, 0, 1, 1, 0, 2, 4, 3, 2, 4, 1), 0)
	if err != nil || !out.Shape().Equal(shape{5, 3}) {
		t.Errorf("explicit batch positions: %v %v", out.Shape(), err)
	}
	out, err = tf.GatherND(zeros, tensortest.I64(shape{5, 1}, 1, 0, 4, 2, 1), 1)
	if err != nil || !out.Shape().Equal(shape{5, 3}) {
		t.Errorf("batch_dims 1: %v %v", out.Shape(), err)
	}
	// batch_dims 2: one element per position of a [2,2] batch.
	p := tensortest.F32(shape{2, 2, 3}, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32)
	out, err = tf.GatherND(p, tensortest.I64(shape{2, 2, 1}, 2, 0, 1, 2), 2)
	check(t, out, err, tensortest.F32(shape{2, 2}, 2, 10, 21, 32))
	// As tf.gather_nd reshapes indices to params' batch dimensions, a
	// batch of the same size but another shape is accepted.
	out, err = tf.GatherND(p, tensortest.I64(shape{4, 1, 1}, 2, 0, 1, 2), 2)
	check(t, out, err, tensortest.F32(shape{2, 2}, 2, 10, 21, 32))
	// An error in that case gives TensorFlow's flat batch position, and
	// the position in indices as given.
	_, err = tf.GatherND(p, tensortest.I64(shape{4, 1, 1}, 2, 0, 3, 2), 2)
	wantErr(t, err, engine.ErrIndex, "tf.gather_nd: indices[2] = [1, 0, 3] does not index into param shape [2,2,3]")
	var ie *engine.IndexError
	if errors.As(err, &ie) && !equalInts(ie.Pos, []int{2, 0, 0}) {
		t.Errorf("IndexError position %v, want [2 0 0]", ie.Pos)
	}
}

// The examples of tf.gather's documentation.
func TestGatherDocExamples(t *testing.T) {
	p := tensortest.Str(shape{6}, "p0", "p1", "p2", "p3", "p4", "p5")
	got, err := tf.Gather(p, tensor.Scalar(int32(3)), 0, 0)
	check(t, got, err, tensortest.Str(shape{}, "p3"))
	bothIndexTypes(t, tensortest.I64(shape{4}, 2, 0, 2, 5), func(t *testing.T, indices tensor.Tensor) {
		got, err := tf.Gather(p, indices, 0, 0)
		check(t, got, err, tensortest.Str(shape{4}, "p2", "p0", "p2", "p5"))
	})
	got, err = tf.Gather(p, tensortest.I64(shape{2, 2}, 2, 0, 2, 5), 0, 0)
	check(t, got, err, tensortest.Str(shape{2, 2}, "p2", "p0", "p2", "p5"))

	m := tensortest.F32(shape{4, 3}, 0, 1, 2, 10, 11, 12, 20, 21, 22, 30, 31, 32)
	got, err = tf.Gather(m, tensortest.I32(shape{2}, 3, 1), 0, 0)
	check(t, got, err, tensortest.F32(shape{2, 3}, 30, 31, 32, 10, 11, 12))
	got, err = tf.Gather(m, tensortest.I32(shape{2}, 2, 1), 1, 0)
	check(t, got, err, tensortest.F32(shape{4, 2}, 2, 1, 12, 11, 22, 21, 32, 31))

	for axis, want := range []shape{{1, 2, 3}, {4, 1, 2}} {
		got, err := tf.Gather(m, tensortest.I32(shape{1, 2}, 0, 2), axis, 0)
		if err != nil || !got.Shape().Equal(want) {
			t.Errorf("axis %d: shape %v, %v; want %v", axis, got.Shape(), err, want)
		}
	}

	// params of shape (5, 6, 7, 8), indices (10, 11) below 7, axis 2.
	big := make([]float32, 5*6*7*8)
	for i := range big {
		big[i] = float32(i)
	}
	idx := make([]int32, 10*11)
	for i := range idx {
		idx[i] = int32((i * 5) % 7)
	}
	res, err := tf.Gather(tensortest.F32(shape{5, 6, 7, 8}, big...), tensortest.I32(shape{10, 11}, idx...), 2, 0)
	if err != nil || !res.Shape().Equal(shape{5, 6, 10, 11, 8}) {
		t.Fatalf("axis 2: %v %v", res.Shape(), err)
	}
	// result[:, :, a, b, :] == params[:, :, indices[a, b], :] for a, b = 0, 1.
	r := res.Data().([]float32)
	k := int(idx[1])
	for i := 0; i < 5; i++ {
		for j := 0; j < 6; j++ {
			for c := 0; c < 8; c++ {
				if got, want := r[(((i*6+j)*10+0)*11+1)*8+c], big[((i*6+j)*7+k)*8+c]; got != want {
					t.Fatalf("result[%d,%d,0,1,%d] = %v, want %v", i, j, c, got, want)
				}
			}
		}
	}

	// Batching: batch_dims = 1 gathers different items from each row.
	bp := tensortest.I32(shape{3, 5}, 0, 0, 1, 0, 2, 3, 0, 0, 0, 4, 0, 5, 0, 6, 0)
	bi := tensortest.I64(shape{3, 2}, 2, 4, 0, 4, 1, 3)
	bothIndexTypes(t, bi, func(t *testing.T, indices tensor.Tensor) {
		got, err := tf.Gather(bp, indices, 1, 1)
		check(t, got, err, tensortest.I32(shape{3, 2}, 1, 2, 3, 4, 5, 6))
		// tf.gather(values, indices, batch_dims=-1): axis=None is
		// axis = batch_dims = -1.
		got, err = tf.Gather(bp, indices, -1, -1)
		check(t, got, err, tensortest.I32(shape{3, 2}, 1, 2, 3, 4, 5, 6))
	})
}

// The examples of tf.scatter_nd's documentation.
func TestScatterNDDocExamples(t *testing.T) {
	bothIndexTypes(t, tensortest.I64(shape{4, 1}, 4, 3, 1, 7), func(t *testing.T, indices tensor.Tensor) {
		got, err := tf.ScatterND(indices, tensortest.I32(shape{4}, 9, 10, 11, 12), shape{8})
		check(t, got, err, tensortest.I32(shape{8}, 0, 11, 0, 10, 9, 0, 0, 12))
	})
	fill := func(vals ...int32) []int32 {
		var v []int32
		for _, x := range vals {
			v = append(v, x, x, x, x)
		}
		return v
	}
	slice := fill(5, 6, 7, 8)
	upd := tensortest.I32(shape{2, 4, 4}, append(append([]int32(nil), slice...), slice...)...)
	want := tensortest.I32(shape{4, 4, 4}, append(append(append(append([]int32(nil), slice...), fill(0, 0, 0, 0)...), slice...),
		fill(0, 0, 0, 0)...)...)
	bothIndexTypes(t, tensortest.I64(shape{2, 1}, 0, 2), func(t *testing.T, indices tensor.Tensor) {
		got, err := tf.ScatterND(indices, upd, shape{4, 4, 4})
		check(t, got, err, want)
	})
}

// The examples of the tf.tensor_scatter_nd_* documentation.
func TestTensorScatterDocExamples(t *testing.T) {
	ones8 := tensortest.I32(shape{8}, 1, 1, 1, 1, 1, 1, 1, 1)
	zeros8 := tensortest.I32(shape{8}, 0, 0, 0, 0, 0, 0, 0, 0)
	idx4 := tensortest.I64(shape{4, 1}, 4, 3, 1, 7)
	upd4 := tensortest.I32(shape{4}, 9, 10, 11, 12)
	ones444 := make([]float32, 64)
	for i := range ones444 {
		ones444[i] = 1
	}
	fill := func(vals ...float32) []float32 {
		var v []float32
		for _, x := range vals {
			v = append(v, x, x, x, x)
		}
		return v
	}
	slices := tensortest.F32(shape{2, 4, 4}, append(fill(5, 6, 7, 8), fill(5, 6, 7, 8)...)...)
	x := make([]float32, 25)
	for i := 0; i < 5; i++ {
		x[i*5+i], x[i*5+4-i] = 1, 1
	}
	type op func(t, indices, updates tensor.Tensor) (tensor.Tensor, error)
	tests := []struct {
		name               string
		op                 op
		t, indices, update tensor.Tensor
		want               tensor.Tensor
	}{
		{"update ones", tf.TensorScatterUpdate, ones8, idx4, upd4, tensortest.I32(shape{8}, 1, 11, 1, 10, 9, 1, 1, 12)},
		{"update zeros", tf.TensorScatterUpdate, zeros8, tensortest.I64(shape{4, 1}, 1, 3, 4, 7), upd4,
			tensortest.I32(shape{8}, 0, 9, 0, 10, 11, 0, 0, 12)},
		{"update scalars of a matrix", tf.TensorScatterUpdate, tensortest.I32(shape{3, 2}, 1, 1, 1, 1, 1, 1),
			tensortest.I64(shape{2, 2}, 0, 1, 2, 0), tensortest.I32(shape{2}, 5, 10), tensortest.I32(shape{3, 2}, 1, 5, 1, 1, 10, 1)},
		{"update rows", tf.TensorScatterUpdate, tensor.Must(tensor.New(tensor.Int32, shape{6, 3})),
			tensortest.I64(shape{2, 1}, 2, 4), tensortest.I32(shape{2, 3}, 1, 2, 3, 4, 5, 6),
			tensortest.I32(shape{6, 3}, 0, 0, 0, 0, 0, 0, 1, 2, 3, 0, 0, 0, 4, 5, 6, 0, 0, 0)},
		{"update an X, folded indices", tf.TensorScatterUpdate, tensor.Must(tensor.New(tensor.Float32, shape{5, 5})),
			tensortest.I64(shape{2, 5, 2}, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 4, 1, 3, 2, 2, 3, 1, 4, 0),
			tensortest.F32(shape{2, 5}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), tensortest.F32(shape{5, 5}, x...)},
		{"add", tf.TensorScatterAdd, ones8, idx4, upd4, tensortest.I32(shape{8}, 1, 12, 1, 11, 10, 1, 1, 13)},
		{"add slices", tf.TensorScatterAdd, tensortest.F32(shape{4, 4, 4}, ones444...), tensortest.I64(shape{2, 1}, 0, 2), slices,
			tensortest.F32(shape{4, 4, 4}, append(append(append(fill(6, 7, 8, 9), fill(1, 1, 1, 1)...), fill(6, 7, 8, 9)...),
				fill(1, 1, 1, 1)...)...)},
		{"sub", tf.TensorScatterSub, ones8, idx4, upd4, tensortest.I32(shape{8}, 1, -10, 1, -9, -8, 1, 1, -11)},
		{"sub slices", tf.TensorScatterSub, tensortest.F32(shape{4, 4, 4}, ones444...), tensortest.I64(shape{2, 1}, 0, 2), slices,
			tensortest.F32(shape{4, 4, 4}, append(append(append(fill(-4, -5, -6, -7), fill(1, 1, 1, 1)...), fill(-4, -5, -6, -7)...),
				fill(1, 1, 1, 1)...)...)},
		{"max", tf.TensorScatterMax, zeros8, tensortest.I64(shape{3, 1}, 1, 4, 5), tensortest.I32(shape{3}, 1, -1, 1),
			tensortest.I32(shape{8}, 0, 1, 0, 0, 0, 1, 0, 0)},
		// tf.tensor_scatter_nd_min has no documented example: the max
		// one, mirrored.
		{"min", tf.TensorScatterMin, zeros8, tensortest.I64(shape{3, 1}, 1, 4, 5), tensortest.I32(shape{3}, 1, -1, 1),
			tensortest.I32(shape{8}, 0, 0, 0, 0, -1, 0, 0, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bothIndexTypes(t, tt.indices, func(t *testing.T, indices tensor.Tensor) {
				before := tt.t.Clone()
				got, err := tt.op(tt.t, indices, tt.update)
				check(t, got, err, tt.want)
				if !tensor.Equal(tt.t, before) {
					t.Errorf("the input tensor changed")
				}
			})
		})
	}
}

type call func(d tensor.DType) (tensor.Tensor, error)

// Every element type through every operator: what TensorFlow's CPU kernels
// accept gives the documented result, the rest is refused with ErrInput
// naming the type.
func TestElementTypes(t *testing.T) {
	v := func(d tensor.DType, s shape, vals ...int) tensor.Tensor { return tensortest.FromInts(d, s, vals...) }
	pairs := tensortest.I64(shape{3, 2}, 0, 1, 1, 2, 0, 1)
	tests := []struct {
		op     string
		refuse []tensor.DType
		run    call
		want   func(d tensor.DType) tensor.Tensor
	}{
		{"tf.gather_nd", nil,
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.GatherND(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), tensortest.I64(shape{2, 2}, 1, 2, 0, 0), 0)
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2}, 6, 1) }},
		{"tf.gather", nil,
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.Gather(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), tensortest.I32(shape{2}, 2, 0), 1, 0)
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 2}, 3, 1, 6, 4) }},
		// For strings FromInts(n) is n letters, so concatenation is the
		// sum; for bools it is n != 0, so OR is the sum.
		{"tf.scatter_nd", nil,
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.ScatterND(tensortest.I64(shape{3, 1}, 1, 0, 1), v(d, shape{3, 3}, 1, 2, 3, 0, 1, 0, 2, 0, 1), shape{2, 3})
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 0, 1, 0, 3, 2, 4) }},
		{"tf.tensor_scatter_nd_update", nil,
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.TensorScatterUpdate(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), pairs, v(d, shape{3}, 7, 8, 9))
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 1, 9, 3, 4, 5, 8) }},
		{"tf.tensor_scatter_nd_add", []tensor.DType{tensor.Bool, tensor.String},
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.TensorScatterAdd(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), pairs, v(d, shape{3}, 7, 8, 9))
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 1, 18, 3, 4, 5, 14) }},
		{"tf.tensor_scatter_nd_sub", []tensor.DType{tensor.Bool, tensor.String},
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.TensorScatterSub(v(d, shape{2, 3}, 10, 20, 30, 40, 50, 60), pairs, v(d, shape{3}, 7, 8, 9))
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 10, 4, 30, 40, 50, 52) }},
		{"tf.tensor_scatter_nd_min", []tensor.DType{tensor.Bool, tensor.String, tensor.Complex64, tensor.Complex128},
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.TensorScatterMin(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), pairs, v(d, shape{3}, 7, 0, 1))
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 1, 1, 3, 4, 5, 0) }},
		{"tf.tensor_scatter_nd_max", []tensor.DType{tensor.Bool, tensor.String, tensor.Complex64, tensor.Complex128},
			func(d tensor.DType) (tensor.Tensor, error) {
				return tf.TensorScatterMax(v(d, shape{2, 3}, 1, 2, 3, 4, 5, 6), pairs, v(d, shape{3}, 7, 0, 9))
			},
			func(d tensor.DType) tensor.Tensor { return v(d, shape{2, 3}, 1, 9, 3, 4, 5, 6) }},
	}
	for _, tt := range tests {
		for _, d := range tensor.DTypes() {
			got, err := tt.run(d)
			refused := false
			for _, r := range tt.refuse {
				refused = refused || r == d
			}
			switch {
			case refused:
				var oe *dialect.OpError
				if !errors.Is(err, dialect.ErrInput) || !errors.As(err, &oe) || oe.Op != tt.op ||
					!strings.Contains(err.Error(), d.String()) {
					t.Errorf("%s %v: got %v, want an ErrInput naming %v", tt.op, d, err, d)
				}
			case err != nil:
				t.Errorf("%s %v: unexpected error %v", tt.op, d, err)
			case !tensor.Equal(got, tt.want(d)):
				t.Errorf("%s %v: got %v, want %v", tt.op, d, got, tt.want(d))
			}
		}
	}
}

func TestIndexTypes(t *testing.T) {
	data := tensortest.F32(shape{2, 2}, 1, 2, 3, 4)
	for _, idx := range []tensor.Tensor{
		tensortest.FromInts(tensor.Int16, shape{1, 1}, 0),
		tensortest.FromInts(tensor.Uint8, shape{1, 1}, 0),
		tensortest.FromInts(tensor.Uint64, shape{1, 1}, 0),
		tensortest.F32(shape{1, 1}, 0),
	} {
		errs := map[string]error{}
		_, errs["tf.gather_nd"] = tf.GatherND(data, idx, 0)
		_, errs["tf.gather"] = tf.Gather(data, idx, 0, 0)
		_, errs["tf.scatter_nd"] = tf.ScatterND(idx, tensortest.F32(shape{1, 2}, 1, 2), shape{2, 2})
		_, errs["tf.tensor_scatter_nd_update"] = tf.TensorScatterUpdate(data, idx, tensortest.F32(shape{1, 2}, 1, 2))
		_, errs["tf.tensor_scatter_nd_max"] = tf.TensorScatterMax(data, idx, tensortest.F32(shape{1, 2}, 1, 2))
		for op, err := range errs {
			var oe *dialect.OpError
			if !errors.Is(err, dialect.ErrInput) || !errors.As(err, &oe) || oe.Op != op ||
				!strings.Contains(err.Error(), idx.DType().String()) {
				t.Errorf("%s with %v indices: got %v, want ErrInput", op, idx.DType(), err)
			}
		}
	}
}

// Negative and out-of-range indices are errors worded as TensorFlow's,
// which unwrap to the engine's IndexError and ErrIndex.
func TestIndexErrors(t *testing.T) {
	m := tensortest.F32(shape{4, 4}, make([]float32, 16)...)
	row := tensortest.F32(shape{4}, 1, 2, 3, 4)
	upd2 := tensortest.F32(shape{2}, 1, 2)
	tests := []struct {
		name    string
		indices tensor.Tensor
		run     func(indices tensor.Tensor) (tensor.Tensor, error)
		want    string
		value   int64 // the IndexError's value
		pos     []int // and its position in indices
	}{
		{"gather_nd past the end", tensortest.I64(shape{2, 2}, 0, 0, 7, 0),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.GatherND(m, ix, 0) },
			"tf.gather_nd: indices[1] = [7, 0] does not index into param shape [4,4]", 7, []int{1, 0}},
		{"gather_nd negative", tensortest.I64(shape{2, 2}, 0, -1, 1, 1),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.GatherND(m, ix, 0) },
			"tf.gather_nd: indices[0] = [0, -1] does not index into param shape [4,4]", -1, []int{0, 1}},
		{"gather_nd reports the last bad tuple", tensortest.I64(shape{3, 2}, 9, 0, 0, 0, 0, -2),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.GatherND(m, ix, 0) },
			"tf.gather_nd: indices[2] = [0, -2] does not index into param shape [4,4]", -2, []int{2, 1}},
		{"gather_nd position in higher-rank indices", tensortest.I64(shape{1, 3, 1}, 0, 1, 7),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.GatherND(row, ix, 0) },
			"tf.gather_nd: indices[0,2] = [7] does not index into param shape [4]", 7, []int{0, 2, 0}},
		{"gather_nd single tuple", tensortest.I64(shape{2}, 1, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.GatherND(m, ix, 0) },
			"tf.gather_nd: indices = [1, 4] does not index into param shape [4,4]", 4, []int{1}},
		{"gather_nd batch_dims 1 shows the batch position", tensortest.I64(shape{2, 1}, 1, 5),
			func(ix tensor.Tensor) (tensor.Tensor, error) {
				return tf.GatherND(tensortest.F32(shape{2, 3, 4}, make([]float32, 24)...), ix, 1)
			},
			"tf.gather_nd: indices[1] = [1, 5] does not index into param shape [2,3,4]", 5, []int{1, 0}},
		{"gather past the end", tensortest.I64(shape{2}, 0, 7),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.Gather(row, ix, 0, 0) },
			"tf.gather: indices[1] = 7 is not in [0, 4)", 7, []int{1}},
		{"gather negative", tensortest.I64(shape{2}, -1, 0),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.Gather(row, ix, 0, 0) },
			"tf.gather: indices[0] = -1 is not in [0, 4)", -1, []int{0}},
		{"gather reports the first bad index", tensortest.I64(shape{2, 2}, 0, 9, -3, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.Gather(m, ix, 1, 0) },
			"tf.gather: indices[0,1] = 9 is not in [0, 4)", 9, []int{0, 1}},
		{"gather scalar index", tensortest.I64(shape{}, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.Gather(row, ix, 0, 0) },
			"tf.gather: indices = 4 is not in [0, 4)", 4, []int{}},
		{"gather with batch_dims", tensortest.I64(shape{4, 1}, 0, 1, 2, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.Gather(m, ix, 1, 1) },
			"tf.gather: indices[3,0] = 4 is not in [0, 4)", 4, []int{3, 0}},
		{"scatter_nd past the end", tensortest.I64(shape{2, 2}, 0, 1, 7, 0),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.ScatterND(ix, upd2, shape{4, 4}) },
			"tf.scatter_nd: indices[1] = [7, 0] does not index into shape [4,4]", 7, []int{1, 0}},
		{"scatter_nd negative", tensortest.I64(shape{2, 2}, 0, -1, 1, 1),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.ScatterND(ix, upd2, shape{4, 4}) },
			"tf.scatter_nd: indices[0] = [0, -1] does not index into shape [4,4]", -1, []int{0, 1}},
		{"scatter_nd reports the last bad tuple", tensortest.I64(shape{2, 2}, 4, 0, 1, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.ScatterND(ix, upd2, shape{4, 4}) },
			"tf.scatter_nd: indices[1] = [1, 4] does not index into shape [4,4]", 4, []int{1, 1}},
		{"tensor_scatter_nd_update past the end", tensortest.I64(shape{2, 2}, 0, 1, 7, 0),
			func(ix tensor.Tensor) (tensor.Tensor, error) { return tf.TensorScatterUpdate(m, ix, upd2) },
			"tf.tensor_scatter_nd_update: indices[1] = [7, 0] does not index into shape [4,4]", 7, []int{1, 0}},
		{"tensor_scatter_nd_add negative", tensortest.I64(shape{2, 1, 1}, 1, -4),
			func(ix tensor.Tensor) (tensor.Tensor, error) {
				return tf.TensorScatterAdd(m, ix, tensortest.F32(shape{2, 1, 4}, make([]float32, 8)...))
			},
			"tf.tensor_scatter_nd_add: indices[1,0] = [-4] does not index into shape [4,4]", -4, []int{1, 0, 0}},
		{"tensor_scatter_nd_sub", tensortest.I64(shape{1, 2}, 4, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) {
				return tf.TensorScatterSub(m, ix, tensortest.F32(shape{1}, 1))
			},
			"tf.tensor_scatter_nd_sub: indices[0] = [4, 4] does not index into shape [4,4]", 4, []int{0, 0}},
		{"tensor_scatter_nd_min", tensortest.I64(shape{1, 1}, 4),
			func(ix tensor.Tensor) (tensor.Tensor, error) {
				return tf.TensorScatterMin(row, ix, tensortest.F32(shape{1}, 1))
			},
			"tf.tensor_scatter_nd_min: indices[0] = [4] does not index into shape [4]", 4, []int{0, 0}},
		{"tensor_scatter_nd_max", tensortest.I64(shape{1, 1}, -9),
			func(ix tensor.Tensor) (tensor.Tensor, error) {
				return tf.TensorScatterMax(row, ix, tensortest.F32(shape{1}, 1))
			},
			"tf.tensor_scatter_nd_max: indices[0] = [-9] does not index into shape [4]", -9, []int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bothIndexTypes(t, tt.indices, func(t *testing.T, indices tensor.Tensor) {
				_, err := tt.run(indices)
				if err == nil || err.Error() != tt.want {
					t.Fatalf("got  %v\nwant %s", err, tt.want)
				}
				var oe *dialect.OpError
				if !errors.As(err, &oe) || !strings.HasPrefix(tt.want, oe.Op+": ") {
					t.Errorf("%v is not an *OpError naming the operator", err)
				}
				var ie *engine.IndexError
				if !errors.Is(err, engine.ErrIndex) || !errors.As(err, &ie) {
					t.Fatalf("%v does not unwrap to an *engine.IndexError", err)
				}
				if ie.Value != tt.value || !equalInts(ie.Pos, tt.pos) {
					t.Errorf("IndexError value %d at %v, want %d at %v", ie.Value, ie.Pos, tt.value, tt.pos)
				}
			})
		})
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Duplicate indices: update keeps the last, the others accumulate one
// update at a time in row-major index order.
func TestDuplicates(t *testing.T) {
	three := tensortest.I64(shape{3, 1}, 0, 0, 0)
	// float32: 1e8 + 1 rounds back to 1e8, so only sequential order gives 0.
	got, err := tf.TensorScatterAdd(tensortest.F32(shape{1}, 0), three, tensortest.F32(shape{3}, 1e8, 1, -1e8))
	check(t, got, err, tensortest.F32(shape{1}, 0))
	got, err = tf.ScatterND(three, tensortest.F32(shape{3}, 1e8, 1, -1e8), shape{1})
	check(t, got, err, tensortest.F32(shape{1}, 0))
	got, err = tf.TensorScatterSub(tensortest.F32(shape{1}, 10), three, tensortest.F32(shape{3}, 1, 2, 3))
	check(t, got, err, tensortest.F32(shape{1}, 4))
	got, err = tf.TensorScatterUpdate(tensortest.F32(shape{2}, 0, 0), tensortest.I64(shape{2, 2, 1}, 1, 1, 1, 0), tensortest.F32(shape{2, 2}, 1, 2, 3, 4))
	check(t, got, err, tensortest.F32(shape{2}, 4, 3))
	// float16 rounds after every step: 2048 + 1 is 2048, twice.
	h := func(v ...float32) tensor.Tensor {
		out := make([]float16.Float16, len(v))
		for i, x := range v {
			out[i] = float16.Fromfloat32(x)
		}
		return tensor.Must(tensor.From(shape{len(v)}, out))
	}
	got, err = tf.TensorScatterAdd(h(2048), three, h(1, 1, 0))
	check(t, got, err, h(2048))
	// Integers wrap.
	got, err = tf.TensorScatterAdd(tensortest.FromInts(tensor.Int8, shape{1}, 127), three,
		tensortest.FromInts(tensor.Int8, shape{3}, 1, 0, 0))
	check(t, got, err, tensortest.FromInts(tensor.Int8, shape{1}, -128))
	// scatter_nd: strings concatenate in index order, bools OR, complex add.
	got, err = tf.ScatterND(tensortest.I64(shape{3, 1}, 1, 0, 1), tensortest.Str(shape{3}, "a", "b", "c"), shape{3})
	check(t, got, err, tensortest.Str(shape{3}, "b", "ac", ""))
	got, err = tf.ScatterND(tensortest.I64(shape{2, 2}, 0, 1, 0, 1), tensortest.Str(shape{2}, "x", "y"), shape{1, 2})
	check(t, got, err, tensortest.Str(shape{1, 2}, "", "xy"))
	got, err = tf.ScatterND(tensortest.I64(shape{3, 1}, 0, 0, 1), tensor.Must(tensor.From(shape{3}, []bool{true, false, false})), shape{2})
	check(t, got, err, tensor.Must(tensor.From(shape{2}, []bool{true, false})))
	got, err = tf.ScatterND(three, tensor.Must(tensor.From(shape{3}, []complex64{1 + 1i, 2, 3i})), shape{1})
	check(t, got, err, tensor.Must(tensor.From(shape{1}, []complex64{3 + 4i})))
}

// NaN under tensor_scatter_nd_min and _max: a NaN in tensor stays, a NaN
// update is ignored, as std::min and std::max in TensorFlow's CPU kernel
// give.
func TestMinMaxNaN(t *testing.T) {
	nan := float32(math.NaN())
	idx := tensortest.I64(shape{4, 1}, 0, 1, 1, 2)
	got, err := tf.TensorScatterMax(tensortest.F32(shape{3}, nan, 1, 1), idx, tensortest.F32(shape{4}, 5, nan, 3, nan))
	check(t, got, err, tensortest.F32(shape{3}, nan, 3, 1))
	got, err = tf.TensorScatterMin(tensortest.F32(shape{3}, nan, 1, 1), idx, tensortest.F32(shape{4}, -5, nan, -3, nan))
	check(t, got, err, tensortest.F32(shape{3}, nan, -3, 1))
	got, err = tf.TensorScatterMax(tensortest.F64(shape{3}, math.NaN(), 1, 1), idx, tensortest.F64(shape{4}, 5, math.NaN(), 3, math.NaN()))
	check(t, got, err, tensortest.F64(shape{3}, math.NaN(), 3, 1))
	// The same for the 16-bit floats.
	hn := float16.NaN()
	h := func(v ...float16.Float16) tensor.Tensor { return tensor.Must(tensor.From(shape{len(v)}, v)) }
	got, err = tf.TensorScatterMax(h(hn, float16.Fromfloat32(1)), tensortest.I64(shape{2, 1}, 0, 1),
		h(float16.Fromfloat32(5), hn))
	check(t, got, err, h(hn, float16.Fromfloat32(1)))
	bn := bfloat16.FromFloat32(nan)
	b := func(v ...bfloat16.BFloat16) tensor.Tensor { return tensor.Must(tensor.From(shape{len(v)}, v)) }
	got, err = tf.TensorScatterMin(b(bfloat16.FromFloat32(2), bn), tensortest.I64(shape{2, 1}, 0, 1), b(bn, bfloat16.FromFloat32(1)))
	check(t, got, err, b(bfloat16.FromFloat32(2), bn))
	// Of equal values (+0 and -0) the existing one stays.
	negZero := float32(math.Copysign(0, -1))
	got, err = tf.TensorScatterMax(tensortest.F32(shape{2}, 0, negZero), tensortest.I64(shape{2, 1}, 0, 1), tensortest.F32(shape{2}, negZero, 0))
	check(t, got, err, tensortest.F32(shape{2}, 0, negZero))
	got, err = tf.TensorScatterMin(tensortest.F32(shape{2}, 0, negZero), tensortest.I64(shape{2, 1}, 0, 1), tensortest.F32(shape{2}, negZero, 0))
	check(t, got, err, tensortest.F32(shape{2}, 0, negZero))
	// The updates tensor is not changed by the NaN handling.
	upd := tensortest.F32(shape{1}, nan)
	if _, err := tf.TensorScatterMax(tensortest.F32(shape{1}, 1), tensortest.I64(shape{1, 1}, 0), upd); err != nil ||
		!math.IsNaN(float64(upd.Data().([]float32)[0])) {
		t.Errorf("updates changed: %v %v", upd, err)
	}
}

func TestEmptyIndices(t *testing.T) {
	m := tensortest.F32(shape{2, 2}, 1, 2, 3, 4)
	bothIndexTypes(t, tensortest.I64(shape{0, 2}), func(t *testing.T, empty tensor.Tensor) {
		got, err := tf.GatherND(m, empty, 0)
		check(t, got, err, tensortest.F32(shape{0}))
		got, err = tf.ScatterND(empty, tensortest.F32(shape{0}), shape{2, 2})
		check(t, got, err, tensortest.F32(shape{2, 2}, 0, 0, 0, 0))
		for _, op := range []func(t, indices, updates tensor.Tensor) (tensor.Tensor, error){
			tf.TensorScatterUpdate, tf.TensorScatterAdd, tf.TensorScatterSub, tf.TensorScatterMin, tf.TensorScatterMax,
		} {
			got, err := op(m, empty, tensortest.F32(shape{0}))
			check(t, got, err, m)
		}
	})
	got, err := tf.GatherND(m, tensortest.I64(shape{0, 1}), 0)
	check(t, got, err, tensortest.F32(shape{0, 2}))
	got, err = tf.Gather(m, tensortest.I32(shape{0}), 1, 0)
	check(t, got, err, tensortest.F32(shape{2, 0}))
	// indices.shape[-1] == 0: each empty tuple selects the whole of params.
	got, err = tf.GatherND(tensortest.Str(shape{2}, "a", "b"), tensortest.I64(shape{3, 0}), 0)
	check(t, got, err, tensortest.Str(shape{3, 2}, "a", "b", "a", "b", "a", "b"))
	// Empty params.
	empty := tensortest.F32(shape{0, 3})
	got, err = tf.GatherND(empty, tensortest.I64(shape{0, 2}), 0)
	check(t, got, err, tensortest.F32(shape{0}))
	_, err = tf.GatherND(empty, tensortest.I64(shape{1, 2}, 0, 0), 0)
	wantErr(t, err, engine.ErrShape, "tf.gather_nd: shape mismatch: Requested more than 0 entries, but params is empty.  Params shape: [0,3]")
	// tf.gather reads no index when the output is empty.
	got, err = tf.Gather(tensortest.F32(shape{3, 0}), tensortest.I64(shape{1}, 5), 0, 0)
	check(t, got, err, tensortest.F32(shape{1, 0}))
	_, err = tf.Gather(tensortest.F32(shape{0, 2}), tensortest.I64(shape{1}, 0), 0, 0)
	wantErr(t, err, engine.ErrIndex, "tf.gather: indices[0] = 0 is not in [0, 0)")
	// Scatters: empty indices need empty updates, and an index depth of
	// 0 is refused when the output has elements.
	_, err = tf.TensorScatterUpdate(m, tensortest.I64(shape{2, 0}), tensortest.F32(shape{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8))
	wantErr(t, err, engine.ErrShape, "tf.tensor_scatter_nd_update: shape mismatch: Indices and updates specified for empty output shape")
	_, err = tf.TensorScatterUpdate(m, tensortest.I64(shape{0, 0}), tensortest.F32(shape{0, 2, 2}))
	wantErr(t, err, engine.ErrShape, "tf.tensor_scatter_nd_update: shape mismatch: Only indices.shape[-1] values between 1 and 7 are currently supported.  Requested rank: 0")
	got, err = tf.ScatterND(tensortest.I64(shape{0, 1}), tensortest.F32(shape{0, 4}), shape{0, 4})
	check(t, got, err, tensortest.F32(shape{0, 4}))
	_, err = tf.ScatterND(tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1, 4}, 1, 2, 3, 4), shape{0, 4})
	wantErr(t, err, engine.ErrShape, "tf.scatter_nd: shape mismatch: Indices and updates specified for empty output.  indices shape: [1,1]")
}

func wantErr(t *testing.T, err, sentinel error, text string) {
	t.Helper()
	var oe *dialect.OpError
	if err == nil || !errors.Is(err, sentinel) || !errors.As(err, &oe) || err.Error() != text {
		t.Errorf("got  %v\nwant %s (%v)", err, text, sentinel)
	}
}

// Shape and argument errors, in TensorFlow's words.
func TestShapeErrors(t *testing.T) {
	m := tensortest.F32(shape{4, 4}, make([]float32, 16)...)
	tests := []struct {
		err      error
		sentinel error
		want     string
	}{
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{}, 1), tensortest.F32(shape{1}, 1))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Indices shape must have rank at least one. Found:[]"},
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{1, 2}, 1, 1), tensortest.F32(shape{}, 1))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Updates shape must have rank at least one. Found:[]"},
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{2, 1}, 1, 2), tensortest.F32(shape{3, 4}, make([]float32, 12)...))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Outer dimensions of indices and update must match. Indices shape: [2,1], updates shape:[3,4]"},
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{2, 1}, 1, 2), tensortest.F32(shape{2}, 1, 2))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Inner dimensions of output shape must match inner dimensions of updates shape. Output: [4,4] updates: [2]"},
		{second(tf.TensorScatterAdd(m, tensortest.I64(shape{2, 1}, 1, 2), tensortest.F32(shape{2, 3}, 1, 2, 3, 4, 5, 6))), engine.ErrShape,
			"tf.tensor_scatter_nd_add: shape mismatch: The inner 1 dimensions of output.shape=[4,4] must match the inner 1 dimensions of updates.shape=[2,3]"},
		// 1-D indices are refused: the batch shape cannot be [].
		{second(tf.TensorScatterUpdate(tensortest.F32(shape{4}, 1, 2, 3, 4), tensortest.I64(shape{1}, 1), tensortest.F32(shape{1}, 5))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Inner dimensions of output shape must match inner dimensions of updates shape. Output: [4] updates: [1]"},
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{1}, 1), tensortest.F32(shape{4}, 1, 2, 3, 4))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Dimensions [0,1) of indices[shape=[1]] = 1 must match dimensions [0,1) of updates[shape=[4]] = 4"},
		{second(tf.TensorScatterUpdate(tensor.Scalar(float32(1)), tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1}, 2))), engine.ErrShape,
			"tf.tensor_scatter_nd_update: shape mismatch: Inner dimensions of output shape must match inner dimensions of updates shape. Output: [] updates: [1]"},
		{second(tf.TensorScatterUpdate(m, tensortest.F32(shape{1, 2}, 1, 1), tensortest.F32(shape{1}, 1))), dialect.ErrInput,
			"tf.tensor_scatter_nd_update: invalid input: indices must be int32 or int64, got float32"},
		{second(tf.TensorScatterUpdate(m, tensortest.I64(shape{1, 2}, 1, 1), tensortest.I32(shape{1}, 1))), engine.ErrType,
			"tf.tensor_scatter_nd_update: unsupported element type: updates has type int32, tensor has type float32; they must be equal"},
		{second(tf.ScatterND(tensortest.I64(shape{2, 1}, 1, 2), tensortest.F32(shape{3, 4}, make([]float32, 12)...), shape{4, 4})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of updates[shape=[3,4]]"},
		{second(tf.ScatterND(tensortest.I64(shape{2, 1}, 1, 2), tensortest.F32(shape{2, 3}, 1, 2, 3, 4, 5, 6), shape{4, 4})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Dimensions [1,2) of input[shape=[4,4]] must match dimensions [1,2) of updates[shape=[2,3]]"},
		{second(tf.ScatterND(tensortest.I64(shape{2, 3}, 0, 0, 0, 1, 1, 1), tensortest.F32(shape{2}, 1, 2), shape{4, 4})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Dimensions [3,2) of input[shape=[4,4]] must match dimensions [1,1) of updates[shape=[2]]"},
		{second(tf.ScatterND(tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1, 4}, 1, 2, 3, 4), shape{-1, 4})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Dimension -1 must be >= 0"},
		{second(tf.ScatterND(tensortest.I64(shape{1, 0}), tensortest.F32(shape{1}, 1), shape{})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Indices and updates specified for empty output shape"},
		{second(tf.ScatterND(tensortest.I64(shape{1, 8}, 0, 0, 0, 0, 0, 0, 0, 0), tensortest.F32(shape{1}, 1), shape{1, 1, 1, 1, 1, 1, 1, 1})), engine.ErrShape,
			"tf.scatter_nd: shape mismatch: Only indices.shape[-1] values between 1 and 7 are currently supported.  Requested rank: 8"},
		{second(tf.GatherND(tensor.Scalar(float32(1)), tensortest.I64(shape{1}, 0), 0)), engine.ErrShape,
			"tf.gather_nd: shape mismatch: params must be at least a vector"},
		{second(tf.GatherND(m, tensortest.I64(shape{}, 0), 0)), engine.ErrShape,
			"tf.gather_nd: shape mismatch: indices must be at least a vector"},
		{second(tf.GatherND(m, tensortest.I64(shape{1, 3}, 0, 0, 0), 0)), engine.ErrShape,
			"tf.gather_nd: shape mismatch: index innermost dimension length must be <= params rank; saw: 3 vs. 2"},
		{second(tf.GatherND(m, tensortest.I64(shape{4, 2}, 0, 0, 0, 0, 0, 0, 0, 0), 1)), engine.ErrShape,
			"tf.gather_nd: shape mismatch: index innermost dimension length must be <= params rank; saw: 3 vs. 2"},
		{second(tf.GatherND(m, tensortest.I64(shape{4, 1}, 0, 0, 0, 0), -1)), dialect.ErrAttribute,
			"tf.gather_nd: invalid attribute: tf.gather_nd does not allow negative batch_dims (got -1)"},
		{second(tf.GatherND(m, tensortest.I64(shape{4, 1}, 0, 0, 0, 0), 2)), dialect.ErrAttribute,
			"tf.gather_nd: invalid attribute: Argument `batch_dims` = 2 must be less than rank(`indices`) = 2"},
		{second(tf.GatherND(m, tensortest.I64(shape{4, 1, 1}, 0, 0, 0, 0), 2)), dialect.ErrAttribute,
			"tf.gather_nd: invalid attribute: Argument `batch_dims` = 2 must be less than rank(`params`) = 2"},
		{second(tf.GatherND(m, tensortest.I64(shape{3, 1}, 0, 0, 0), 1)), engine.ErrShape,
			"tf.gather_nd: shape mismatch: Input to reshape is a tensor with 3 values, but the requested shape has 4 (the batch dimensions of indices [3,1] must hold as many elements as those of params [4,4])"},
		{second(tf.Gather(tensor.Scalar(float32(1)), tensortest.I64(shape{1}, 0), 0, 0)), engine.ErrShape,
			"tf.gather: shape mismatch: params must be at least 1 dimensional"},
		{second(tf.Gather(m, tensortest.I64(shape{1}, 0), 2, 0)), dialect.ErrAttribute,
			"tf.gather: invalid attribute: Shape must be at least rank 3 but is rank 2 (axis 2, params [4,4])"},
		{second(tf.Gather(m, tensortest.I64(shape{1}, 0), -3, 0)), dialect.ErrAttribute,
			"tf.gather: invalid attribute: Shape must be at least rank 3 but is rank 2 (axis -3, params [4,4])"},
		{second(tf.Gather(m, tensortest.I64(shape{4, 1}, 0, 0, 0, 0), 1, 3)), dialect.ErrAttribute,
			"tf.gather: invalid attribute: Expected batch_dims in the range [-2, 2], but got 3"},
		{second(tf.Gather(m, tensortest.I64(shape{4, 1}, 0, 0, 0, 0), 1, 2)), dialect.ErrAttribute,
			"tf.gather: invalid attribute: batch_dims (2) must be less than rank(params) (2)."},
		{second(tf.Gather(tensortest.F32(shape{4, 4, 1}, make([]float32, 16)...), tensortest.I64(shape{4, 4}, make([]int64, 16)...), 1, 2)), dialect.ErrAttribute,
			"tf.gather: invalid attribute: batch_dims (2) must be less than or equal to axis (1)."},
		{second(tf.Gather(m, tensortest.I64(shape{3, 1}, 0, 0, 0), 1, 1)), engine.ErrShape,
			"tf.gather: shape mismatch: params.shape[0]: 4 should be equal to indices.shape[0]: 3"},
		{second(tf.GatherND(tensor.Tensor{}, tensortest.I64(shape{1}, 0), 0)), dialect.ErrInput,
			"tf.gather_nd: invalid input: missing input \"params\""},
		{second(tf.TensorScatterMax(m, tensor.Tensor{}, m)), dialect.ErrInput,
			"tf.tensor_scatter_nd_max: invalid input: missing input \"indices\""},
		{second(tf.TensorScatterMax(tensor.Must(tensor.New(tensor.Complex64, shape{2})), tensortest.I64(shape{1, 1}, 0),
			tensor.Must(tensor.New(tensor.Complex64, shape{1})))), dialect.ErrInput,
			"tf.tensor_scatter_nd_max: invalid input: tensor of type complex64 is not supported; the operator takes real numbers (integers, floats)"},
	}
	for _, tt := range tests {
		wantErr(t, tt.err, tt.sentinel, tt.want)
	}
}

func second(_ tensor.Tensor, err error) error { return err }

// tf.gather's axis and batch_dims: negative values, axis=None, and axis 0
// dropping batch_dims.
func TestGatherAxisAndBatchDims(t *testing.T) {
	p := tensortest.I32(shape{2, 3, 2}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
	idx := tensortest.I64(shape{2, 2}, 2, 0, 1, 1)
	got, err := tf.Gather(p, idx, 1, 1)
	check(t, got, err, tensortest.I32(shape{2, 2, 2}, 4, 5, 0, 1, 8, 9, 8, 9))
	got2, err := tf.Gather(p, idx, -2, -1)
	check(t, got2, err, got)
	// batch_dims 1 along the last axis.
	got, err = tf.Gather(p, tensortest.I64(shape{2, 1}, 1, 0), 2, 1)
	check(t, got, err, tensortest.I32(shape{2, 3, 1}, 1, 3, 5, 6, 8, 10))
	// axis 0 ignores batch_dims, as tf.gather does.
	got, err = tf.Gather(p, tensortest.I64(shape{2, 1}, 1, 0), 0, 1)
	want, _ := tf.Gather(p, tensortest.I64(shape{2, 1}, 1, 0), 0, 0)
	check(t, got, err, want)
	if !got.Shape().Equal(shape{2, 1, 3, 2}) {
		t.Errorf("axis 0 shape %v", got.Shape())
	}
	// Through Op.Run: without an axis attribute, axis is batch_dims.
	op := lookup("tf.gather")
	out, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"params": p, "indices": idx},
		Attrs: map[string]dialect.Value{"batch_dims": {Kind: dialect.Int, Int: 1}}})
	check(t, out, err, tensortest.I32(shape{2, 2, 2}, 4, 5, 0, 1, 8, 9, 8, 9))
	out, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"params": p, "indices": tensortest.I64(shape{2, 2}, 1, 0, 1, 1)},
		Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: 2}}})
	check(t, out, err, tensortest.I32(shape{2, 3, 2, 2}, 1, 0, 1, 1, 3, 2, 3, 3, 5, 4, 5, 5, 7, 6, 7, 7, 9, 8, 9, 9, 11, 10, 11, 11))
}

func lookup(name string) *dialect.Op { return dialect.Find(tf.Ops(), name) }

// scatter_nd's shape as an attribute (--attr shape=4,4,4) or as an int32
// or int64 input tensor.
func TestScatterNDShapeAttrOrInput(t *testing.T) {
	op := lookup("tf.scatter_nd")
	indices := tensortest.I32(shape{2, 1}, 0, 2)
	updates := tensortest.F32(shape{2, 4, 4}, make([]float32, 32)...)
	for i := range updates.Data().([]float32) {
		updates.Data().([]float32)[i] = float32(i + 1)
	}
	want, err := tf.ScatterND(indices, updates, shape{4, 4, 4})
	if err != nil {
		t.Fatal(err)
	}
	attr, err := dialect.ParseValue(dialect.Ints, "4,4,4")
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]tensor.Tensor{"indices": indices, "updates": updates}
	out, err := op.Run(dialect.Call{Inputs: in, Attrs: map[string]dialect.Value{"shape": attr}})
	check(t, out, err, want)
	for _, s := range []tensor.Tensor{tensortest.I64(shape{3}, 4, 4, 4), tensortest.I32(shape{3}, 4, 4, 4)} {
		out, err := op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"indices": indices, "updates": updates, "shape": s}})
		check(t, out, err, want)
	}
	bad := []struct {
		call     dialect.Call
		sentinel error
		text     string
	}{
		{dialect.Call{Inputs: map[string]tensor.Tensor{"indices": indices, "updates": updates, "shape": tensortest.I64(shape{3}, 4, 4, 4)},
			Attrs: map[string]dialect.Value{"shape": attr}}, dialect.ErrInput, "given both"},
		{dialect.Call{Inputs: map[string]tensor.Tensor{"indices": indices, "updates": updates, "shape": tensortest.I64(shape{1, 3}, 4, 4, 4)}},
			dialect.ErrInput, "shape must be a vector"},
		{dialect.Call{Inputs: map[string]tensor.Tensor{"indices": indices, "updates": updates, "shape": tensortest.F32(shape{3}, 4, 4, 4)}},
			dialect.ErrInput, "int32 or int64"},
		{dialect.Call{Inputs: in, Attrs: map[string]dialect.Value{"shape": {Kind: dialect.Ints, Ints: []int64{-4, 4, 4}}}},
			engine.ErrShape, "Dimension -4 must be >= 0"},
		{dialect.Call{Inputs: in}, dialect.ErrInput, "missing input \"shape\""},
		{dialect.Call{Inputs: in, Attrs: map[string]dialect.Value{"shape": attr, "axis": {Kind: dialect.Int}}},
			dialect.ErrAttribute, "unknown attribute"},
	}
	for _, b := range bad {
		_, err := op.Run(b.call)
		var oe *dialect.OpError
		if !errors.Is(err, b.sentinel) || !errors.As(err, &oe) || oe.Op != "tf.scatter_nd" || !strings.Contains(err.Error(), b.text) {
			t.Errorf("got %v, want %v containing %q", err, b.sentinel, b.text)
		}
	}
}

// Every operator through Op.Run, with TensorFlow's input and attribute
// names.
func TestOpRun(t *testing.T) {
	m := tensortest.F32(shape{2, 2}, 1, 2, 3, 4)
	idx := tensortest.I64(shape{1, 2}, 1, 0)
	upd := tensortest.F32(shape{1}, 10)
	tests := []struct {
		name   string
		inputs map[string]tensor.Tensor
		attrs  map[string]dialect.Value
		want   tensor.Tensor
	}{
		{"tf.gather_nd", map[string]tensor.Tensor{"params": m, "indices": idx}, nil, tensortest.F32(shape{1}, 3)},
		{"tf.gather_nd", map[string]tensor.Tensor{"params": m, "indices": tensortest.I64(shape{2, 1}, 1, 0)},
			map[string]dialect.Value{"batch_dims": {Kind: dialect.Int, Int: 1}}, tensortest.F32(shape{2}, 2, 3)},
		{"tf.gather", map[string]tensor.Tensor{"params": m, "indices": tensortest.I64(shape{1}, 1)},
			map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: -1}}, tensortest.F32(shape{2, 1}, 2, 4)},
		{"tf.scatter_nd", map[string]tensor.Tensor{"indices": idx, "updates": upd},
			map[string]dialect.Value{"shape": {Kind: dialect.Ints, Ints: []int64{2, 2}}}, tensortest.F32(shape{2, 2}, 0, 0, 10, 0)},
		{"tf.tensor_scatter_nd_update", map[string]tensor.Tensor{"tensor": m, "indices": idx, "updates": upd}, nil,
			tensortest.F32(shape{2, 2}, 1, 2, 10, 4)},
		{"tf.tensor_scatter_nd_add", map[string]tensor.Tensor{"tensor": m, "indices": idx, "updates": upd}, nil,
			tensortest.F32(shape{2, 2}, 1, 2, 13, 4)},
		{"tf.tensor_scatter_nd_sub", map[string]tensor.Tensor{"tensor": m, "indices": idx, "updates": upd}, nil,
			tensortest.F32(shape{2, 2}, 1, 2, -7, 4)},
		{"tf.tensor_scatter_nd_min", map[string]tensor.Tensor{"tensor": m, "indices": idx, "updates": upd}, nil, m},
		{"tf.tensor_scatter_nd_max", map[string]tensor.Tensor{"tensor": m, "indices": idx, "updates": upd}, nil,
			tensortest.F32(shape{2, 2}, 1, 2, 10, 4)},
	}
	for _, tt := range tests {
		out, err := lookup(tt.name).Run(dialect.Call{Inputs: tt.inputs, Attrs: tt.attrs})
		if err != nil || !tensor.Equal(out, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, out, err, tt.want)
		}
	}
	// Errors from Run name the operator.
	_, err := lookup("tf.tensor_scatter_nd_add").Run(dialect.Call{Inputs: map[string]tensor.Tensor{
		"tensor": m, "indices": tensortest.I64(shape{1, 2}, 2, 0), "updates": upd}})
	wantErr(t, err, engine.ErrIndex, "tf.tensor_scatter_nd_add: indices[0] = [2, 0] does not index into shape [2,2]")
	_, err = lookup("tf.gather").Run(dialect.Call{Inputs: map[string]tensor.Tensor{"params": m}})
	if !errors.Is(err, dialect.ErrInput) {
		t.Errorf("missing indices: %v", err)
	}
}

func TestOpTable(t *testing.T) {
	want := map[string]struct {
		family    string
		inputs    string
		attrs     string
		reduction map[string]engine.Reduction
	}{
		"tf.gather_nd":                    {"gather_nd", "params indices", "batch_dims", nil},
		"tf.gather":                       {"gather", "params indices", "axis batch_dims", nil},
		"tf.scatter_nd":                   {"scatter_nd", "indices updates shape", "", map[string]engine.Reduction{"add": engine.Add}},
		"tf.tensor_scatter_nd_update":     {"scatter_nd", "tensor indices updates", "", map[string]engine.Reduction{"update": engine.None}},
		"tf.tensor_scatter_nd_add":        {"scatter_nd", "tensor indices updates", "", map[string]engine.Reduction{"add": engine.Add}},
		"tf.tensor_scatter_nd_sub":        {"scatter_nd", "tensor indices updates", "", map[string]engine.Reduction{"sub": engine.Sub}},
		"tf.tensor_scatter_nd_min":        {"scatter_nd", "tensor indices updates", "", map[string]engine.Reduction{"min": engine.Min}},
		"tf.tensor_scatter_nd_max":        {"scatter_nd", "tensor indices updates", "", map[string]engine.Reduction{"max": engine.Max}},
		"tf.math.segment_sum":             {"segment_sum_sorted", "data segment_ids", "", map[string]engine.Reduction{"sum": engine.Add}},
		"tf.math.segment_prod":            {"segment_sum_sorted", "data segment_ids", "", map[string]engine.Reduction{"product": engine.Mul}},
		"tf.math.segment_min":             {"segment_sum_sorted", "data segment_ids", "", map[string]engine.Reduction{"minimum": engine.Min}},
		"tf.math.segment_max":             {"segment_sum_sorted", "data segment_ids", "", map[string]engine.Reduction{"maximum": engine.Max}},
		"tf.math.segment_mean":            {"segment_sum_sorted", "data segment_ids", "", map[string]engine.Reduction{"mean": engine.Mean}},
		"tf.math.unsorted_segment_sum":    {"segment_sum", "data segment_ids num_segments", "", map[string]engine.Reduction{"sum": engine.Add}},
		"tf.math.unsorted_segment_prod":   {"segment_prod", "data segment_ids num_segments", "", map[string]engine.Reduction{"prod": engine.Mul}},
		"tf.math.unsorted_segment_max":    {"segment_max", "data segment_ids num_segments", "", map[string]engine.Reduction{"max": engine.Max}},
		"tf.math.unsorted_segment_min":    {"segment_min", "data segment_ids num_segments", "", map[string]engine.Reduction{"min": engine.Min}},
		"tf.math.unsorted_segment_mean":   {"segment_mean", "data segment_ids num_segments", "", map[string]engine.Reduction{"mean": engine.Mean}},
		"tf.math.unsorted_segment_sqrt_n": {"segment_sqrt_n", "data segment_ids num_segments", "", map[string]engine.Reduction{"sqrt_n": engine.Mean}},
	}
	for name, red := range map[string]engine.Reduction{"update": engine.None, "add": engine.Add, "sub": engine.Sub,
		"mul": engine.Mul, "div": engine.Div, "min": engine.Min, "max": engine.Max} {
		want["tf.compat.v1.scatter_"+name] = struct {
			family    string
			inputs    string
			attrs     string
			reduction map[string]engine.Reduction
		}{"scatter_rows", "ref indices updates", "", map[string]engine.Reduction{name: red}}
	}
	want["tf.math.bincount"] = struct {
		family    string
		inputs    string
		attrs     string
		reduction map[string]engine.Reduction
	}{"bincount", "arr weights", "minlength maxlength dtype axis binary_output", map[string]engine.Reduction{"add": engine.Add}}
	for _, op := range tf.Ops() {
		w, ok := want[op.Name]
		if !ok {
			t.Errorf("unexpected operator %s", op.Name)
			continue
		}
		delete(want, op.Name)
		var inputs, attrs []string
		for _, p := range op.Inputs {
			inputs = append(inputs, p.Name)
		}
		for _, a := range op.Attrs {
			attrs = append(attrs, a.Name)
		}
		if op.Family != w.family || strings.Join(inputs, " ") != w.inputs || strings.Join(attrs, " ") != w.attrs {
			t.Errorf("%s: family %q inputs %v attrs %v", op.Name, op.Family, inputs, attrs)
		}
		if len(op.Versions) != 1 || op.Versions[0] != 1 {
			t.Errorf("%s: versions %v", op.Name, op.Versions)
		}
		for _, opset := range []int{0, 1, 7} {
			if v, err := op.Version(opset); err != nil || v != 1 {
				t.Errorf("%s opset %d: %d %v", op.Name, opset, v, err)
			}
		}
		b := op.Behavior(1)
		// The ND operators' kernels report the last bad tuple; gather and
		// the tf.compat.v1 scatters the first bad index.
		want := engine.IndexRules{Negative: engine.NegativeError, OutOfRange: engine.OutOfRangeError, Report: engine.ReportLast}
		switch {
		case op.Name == "tf.gather" || strings.HasPrefix(op.Name, "tf.math.segment_") || strings.HasPrefix(op.Name, "tf.compat.v1."):
			want.Report = engine.ReportFirst
		case strings.HasPrefix(op.Name, "tf.math.unsorted_segment_"):
			// Negative ids dropped, the first id past the end named.
			want = engine.IndexRules{Negative: engine.NegativeSkip, OutOfRange: engine.OutOfRangeError}
		}
		if op.Name == "tf.math.bincount" {
			// Negative values are refused, values past the last bin skipped.
			want = engine.IndexRules{Negative: engine.NegativeRefused, OutOfRange: engine.OutOfRangeSkip}
		}
		if b.Index != want {
			t.Errorf("%s: index rules %+v, want %+v", op.Name, b.Index, want)
		}
		if b.IndexTypes != dialect.Types(tensor.Int32, tensor.Int64) {
			t.Errorf("%s: index types %v", op.Name, b.IndexTypes)
		}
		if len(b.Reductions) != len(w.reduction) {
			t.Errorf("%s: reductions %v, want %v", op.Name, b.Reductions, w.reduction)
		}
		for name, r := range w.reduction {
			if b.Reductions[name] != r {
				t.Errorf("%s: reduction %s is %v, want %v", op.Name, name, b.Reductions[name], r)
			}
		}
		if len(b.Notes) == 0 {
			t.Errorf("%s has no notes", op.Name)
		}
		if p, ok := op.Param("shape"); ok && p.AttrKind != dialect.Ints {
			t.Errorf("%s: shape is not an Ints attribute", op.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("missing operators: %v", want)
	}
}

func TestInto(t *testing.T) {
	// In place: dst is the tensor itself.
	buf := []float32{1, 2, 3, 4}
	data := tensor.Must(tensor.From(shape{4}, buf))
	if err := tf.TensorScatterAddInto(data, data, tensortest.I64(shape{2, 1}, 1, 1), tensortest.F32(shape{2}, 10, 20)); err != nil {
		t.Fatal(err)
	}
	if buf[1] != 32 {
		t.Errorf("in-place add: %v", buf)
	}
	for name, into := range map[string]func(dst, t, indices, updates tensor.Tensor) error{
		"update": tf.TensorScatterUpdateInto, "sub": tf.TensorScatterSubInto,
		"min": tf.TensorScatterMinInto, "max": tf.TensorScatterMaxInto,
	} {
		dst := tensor.Must(tensor.New(tensor.Float32, shape{4}))
		if err := into(dst, data, tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1}, 5)); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if err := into(tensor.Must(tensor.New(tensor.Float32, shape{3})), data, tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1}, 5)); !errors.Is(err, engine.ErrShape) {
			t.Errorf("%s with a wrong dst: %v", name, err)
		}
	}
	// scatter_nd into a reused buffer: cleared first, and left alone on
	// error.
	out := tensortest.F32(shape{2, 2}, 7, 7, 7, 7)
	if err := tf.ScatterNDInto(out, tensortest.I64(shape{1, 2}, 1, 1), tensortest.F32(shape{1}, 3)); err != nil {
		t.Fatal(err)
	}
	check(t, out, nil, tensortest.F32(shape{2, 2}, 0, 0, 0, 3))
	before := out.Clone()
	err := tf.ScatterNDInto(out, tensortest.I64(shape{2, 2}, 0, 0, 2, 0), tensortest.F32(shape{2}, 1, 1))
	wantErr(t, err, engine.ErrIndex, "tf.scatter_nd: indices[1] = [2, 0] does not index into shape [2,2]")
	check(t, out, nil, before)
	if err := tf.ScatterNDInto(tensortest.I32(shape{2, 2}, 0, 0, 0, 0), tensortest.I64(shape{1, 2}, 1, 1), tensortest.F32(shape{1}, 3)); !errors.Is(err, engine.ErrType) {
		t.Errorf("scatter_nd into a dst of another type: %v", err)
	}
	// Gathers.
	g := tensor.Must(tensor.New(tensor.Float32, shape{2}))
	if err := tf.GatherInto(g, data, tensortest.I32(shape{2}, 3, 0), 0, 0); err != nil {
		t.Fatal(err)
	}
	check(t, g, nil, tensortest.F32(shape{2}, 4, 1))
	if err := tf.GatherNDInto(g, data, tensortest.I32(shape{2, 1}, 2, 1), 0); err != nil {
		t.Fatal(err)
	}
	check(t, g, nil, tensortest.F32(shape{2}, 3, 32))
	wrong := tensor.Must(tensor.New(tensor.Float32, shape{3}))
	if err := tf.GatherNDInto(wrong, data, tensortest.I64(shape{2, 1}, 3, 0), 0); !errors.Is(err, engine.ErrShape) {
		t.Errorf("GatherNDInto with a wrong dst: %v", err)
	}
	if err := tf.GatherInto(wrong, data, tensortest.I64(shape{0}), 0, 0); !errors.Is(err, engine.ErrShape) {
		t.Errorf("GatherInto of an empty output with a wrong dst: %v", err)
	}
	if err := tf.GatherNDInto(wrong, data, tensortest.I64(shape{0, 1}), 0); !errors.Is(err, engine.ErrShape) {
		t.Errorf("GatherNDInto of an empty output with a wrong dst: %v", err)
	}
	// A missing dst is an argument error whether or not the output has
	// elements, as the engine reports it.
	for name, err := range map[string]error{
		"GatherNDInto":            tf.GatherNDInto(tensor.Tensor{}, data, tensortest.I64(shape{2, 1}, 3, 0), 0),
		"empty GatherNDInto":      tf.GatherNDInto(tensor.Tensor{}, data, tensortest.I64(shape{0, 1}), 0),
		"GatherInto":              tf.GatherInto(tensor.Tensor{}, data, tensortest.I64(shape{1}, 0), 0, 0),
		"empty GatherInto":        tf.GatherInto(tensor.Tensor{}, data, tensortest.I64(shape{0}), 0, 0),
		"empty TensorScatterInto": tf.TensorScatterUpdateInto(tensor.Tensor{}, tensortest.F32(shape{0}), tensortest.I64(shape{0, 1}), tensortest.F32(shape{0})),
		"ScatterNDInto":           tf.ScatterNDInto(tensor.Tensor{}, tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1}, 1)),
	} {
		if !errors.Is(err, engine.ErrArgument) {
			t.Errorf("%s without dst: %v", name, err)
		}
	}
}

// Which NaN tensor_scatter_nd_max and _min keep, bit for bit: a NaN in
// tensor stays whatever the updates, NaN ones included; a NaN update is
// ignored, so a number in tensor never becomes NaN.
func TestMinMaxNaNBits(t *testing.T) {
	a, b, c := math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00002), math.Float32frombits(0x7fc00003)
	for _, op := range []func(tensor.Tensor, tensor.Tensor, tensor.Tensor) (tensor.Tensor, error){tf.TensorScatterMax, tf.TensorScatterMin} {
		got, err := op(tensortest.F32(shape{2}, a, 1), tensortest.I64(shape{4, 1}, 0, 0, 1, 1), tensortest.F32(shape{4}, b, 5, c, b))
		if v := got.Data().([]float32); err != nil || math.Float32bits(v[0]) != 0x7fc00001 || v[1] != 1 {
			t.Errorf("got %v, %v; want [NaN 0x7fc00001, 1]", got, err)
		}
	}
}
