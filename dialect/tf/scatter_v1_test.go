package tf_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// v1Scatter is one of the tf.compat.v1 scatters with the plain loop of
// tensorflow/python/kernel_tests/scatter_ops_test.py's _Numpy* helpers:
// ref[index] op= update, one at a time in index order.
type v1Scatter struct {
	name string
	f    func(ref, indices, updates tensor.Tensor) error
	step func(v, u float64) float64
}

var v1Scatters = []v1Scatter{
	{"update", tf.ScatterUpdate, func(_, u float64) float64 { return u }},
	{"add", tf.ScatterAdd, func(v, u float64) float64 { return v + u }},
	{"sub", tf.ScatterSub, func(v, u float64) float64 { return v - u }},
	{"mul", tf.ScatterMul, func(v, u float64) float64 { return v * u }},
	{"div", tf.ScatterDiv, func(v, u float64) float64 { return v / u }},
	{"min", tf.ScatterMin, math.Min},
	{"max", tf.ScatterMax, math.Max},
}

// TestScatterV1VariableRank transcribes _VariableRankTests of
// tensorflow/python/kernel_tests/scatter_ops_test.py (testVariableRank*,
// testRepeatIndices* and their *Scalar forms): for indices of shape (),
// (2,), (3,7) and (3,4,7) and rows of shape (), (5,) and (5,9), ref of
// 3*size rows, indices a random choice of them (with repeats, or not),
// updates random or a scalar with small values clipped away from 0;
// float32, float64 and (but for div) int32, int32 and int64 indices.
// Each result must equal the plain loop's, in the element type (the
// float64 steps of the loop round exactly as float32 steps do).
func TestScatterV1VariableRank(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for _, op := range v1Scatters {
		for _, vt := range []tensor.DType{tensor.Float32, tensor.Float64, tensor.Int32} {
			if vt == tensor.Int32 && op.name == "div" {
				continue // as the test, which skips int32 for div
			}
			for _, it := range []tensor.DType{tensor.Int32, tensor.Int64} {
				for _, repeat := range []bool{false, true} {
					for _, scalar := range []bool{false, true} {
						for _, is := range []tensor.Shape{{}, {2}, {3, 7}, {3, 4, 7}} {
							for _, extra := range []tensor.Shape{{}, {5}, {5, 9}} {
								checkVariableRank(t, rng, op, vt, it, is, extra, repeat, scalar)
							}
						}
					}
				}
			}
		}
	}
}

func checkVariableRank(t *testing.T, rng *rand.Rand, op v1Scatter, vt, it tensor.DType, is, extra tensor.Shape, repeat, scalar bool) {
	t.Helper()
	size := tensortest.Count(is)
	first := 3 * size
	idx := rng.Perm(first)[:size]
	if size > 1 && repeat {
		half := idx[:size/2]
		for len(half) < size {
			half = append(half, half[rng.IntN(size/2)])
		}
		rng.Shuffle(len(half), func(i, j int) { half[i], half[j] = half[j], half[i] })
		idx = half
	}
	// Values as the element type holds them: int32 truncates randn.
	value := func() float64 {
		x := rng.NormFloat64()
		if vt == tensor.Int32 {
			return float64(int32(x))
		}
		if vt == tensor.Float32 {
			return float64(float32(x))
		}
		return x
	}
	// round rounds a step's result to the element type, as each step of
	// the kernel does.
	round := func(x float64) float64 {
		if vt == tensor.Float32 {
			return float64(float32(x))
		}
		return x
	}
	clip := func(x float64) float64 {
		threshold := 1e-4
		if vt == tensor.Int32 {
			threshold = 1
		}
		if math.Abs(x) < threshold {
			return math.Copysign(threshold, x)
		}
		return x
	}
	row := tensortest.Count(extra)
	us := tensor.Shape{}
	if !scalar {
		us = tensortest.Join(is, extra)
	}
	upd := make([]float64, tensortest.Count(us))
	for i := range upd {
		upd[i] = clip(value())
	}
	old := make([]float64, first*row)
	for i := range old {
		old[i] = value()
	}
	want := append([]float64(nil), old...)
	for i, r := range idx {
		for j := range row {
			u := upd[0]
			if !scalar {
				u = upd[i*row+j]
			}
			want[r*row+j] = round(op.step(want[r*row+j], u))
		}
	}
	ref := fromFloats(vt, tensortest.Join(tensor.Shape{first}, extra), old)
	indices := tensor.Must(tensor.New(it, is))
	for i, r := range idx {
		indices.SetIntAt(i, int64(r))
	}
	if err := op.f(ref, indices, fromFloats(vt, us, upd)); err != nil {
		t.Fatalf("%s %v indices %v %v extra %v: %v", op.name, vt, it, is, extra, err)
	}
	got := fromFloats(vt, ref.Shape(), want)
	if !tensor.Equal(ref, got) {
		t.Errorf("%s %v indices %v %v extra %v repeat %v scalar %v:\ngot  %v\nwant %v",
			op.name, vt, it, is, extra, repeat, scalar, ref, got)
	}
}

// fromFloats returns a tensor of type d and shape s holding v, each value
// rounded once (truncated, for integers).
func fromFloats(d tensor.DType, s tensor.Shape, v []float64) tensor.Tensor {
	t := tensor.Must(tensor.New(d, s))
	for i, x := range v {
		if d.IsInteger() {
			t.SetIntAt(i, int64(x))
			continue
		}
		t.SetFloatAt(i, x)
	}
	return t
}

// TestScatterV1OutOfRangeCpu transcribes testScatterOutOfRangeCpu of
// scatter_ops_test.py: indices in range pass; -1 and 6 in a ref of 6 are
// errors in TensorFlow's words, naming the first bad index. Unlike
// TensorFlow, which has applied the updates before it, ref is left as it
// was.
func TestScatterV1OutOfRangeCpu(t *testing.T) {
	for _, op := range v1Scatters {
		params := tensortest.F32(shape{6}, 1, 2, 3, 4, 5, 6)
		updates := tensortest.F32(shape{3}, -3, -4, -5)
		if err := op.f(params, tensortest.I64(shape{3}, 2, 0, 5), updates); err != nil {
			t.Errorf("%s: indices in range: %v", op.name, err)
		}
		before := params.Clone()
		for _, tt := range []struct {
			indices tensor.Tensor
			msg     string
			pos     []int
			value   int64
		}{
			{tensortest.I64(shape{3}, -1, 0, 5), "indices[0] = -1 is not in [0, 6)", []int{0}, -1},
			{tensortest.I64(shape{3}, 2, 0, 6), "indices[2] = 6 is not in [0, 6)", []int{2}, 6},
			{tensortest.I64(shape{3}, 7, 0, -6), "indices[0] = 7 is not in [0, 6)", []int{0}, 7}, // the first
			{asInt32(tensortest.I64(shape{1, 3}, 2, 9, 0)), "indices[0,1] = 9 is not in [0, 6)", []int{0, 1}, 9},
		} {
			upd := updates
			if tt.indices.Rank() == 2 {
				upd = tensortest.F32(shape{1, 3}, -3, -4, -5)
			}
			err := op.f(params, tt.indices, upd)
			wantErr(t, err, engine.ErrIndex, "tf.compat.v1.scatter_"+op.name+": "+tt.msg)
			var ie *engine.IndexError
			if !errors.As(err, &ie) || !equalInts(ie.Pos, tt.pos) || ie.Value != tt.value || ie.Tuple != nil {
				t.Errorf("%s: IndexError %+v, want Pos %v Value %d", op.name, ie, tt.pos, tt.value)
			}
			if !tensor.Equal(params, before) {
				t.Errorf("%s: the refused call changed ref to %v", op.name, params)
			}
		}
	}
}

// TestScatterV1BooleanUpdate transcribes testBooleanScatterUpdate of
// scatter_ops_test.py: scalar indices and updates on a bool variable.
func TestScatterV1BooleanUpdate(t *testing.T) {
	v := tensortest.Of(shape{2}, true, false)
	if err := tf.ScatterUpdate(v, tensortest.I32(shape{}, 1), tensortest.Of(shape{}, true)); err != nil {
		t.Fatal(err)
	}
	if err := tf.ScatterUpdate(v, tensortest.I64(shape{}, 0), tensortest.Of(shape{}, false)); err != nil {
		t.Fatal(err)
	}
	if want := tensortest.Of(shape{2}, false, true); !tensor.Equal(v, want) {
		t.Errorf("got %v, want %v", v, want)
	}
}

// TestScatterV1Corners: duplicates, integer division, NaN, strings,
// empty indices, and what this library does where TensorFlow's kernel is
// undefined or partial.
func TestScatterV1Corners(t *testing.T) {
	nan := float32(math.NaN())
	tests := []struct {
		name             string
		f                func(ref, indices, updates tensor.Tensor) error
		ref, ind, upd    tensor.Tensor
		want             tensor.Tensor
		sentinel         error
		msg              string // the whole error
		unchangedOnError bool
	}{
		{name: "update: last duplicate wins", f: tf.ScatterUpdate,
			ref: tensortest.F32(shape{3, 2}, 1, 2, 3, 4, 5, 6), ind: tensortest.I64(shape{2, 2}, 2, 0, 2, 2),
			upd:  tensortest.F32(shape{2, 2, 2}, 10, 11, 20, 21, 30, 31, 40, 41),
			want: tensortest.F32(shape{3, 2}, 20, 21, 3, 4, 40, 41)},
		{name: "update: strings", f: tf.ScatterUpdate,
			ref: tensortest.Str(shape{2}, "a", "b"), ind: tensortest.I32(shape{1}, 1), upd: tensortest.Str(shape{1}, "z"),
			want: tensortest.Str(shape{2}, "a", "z")},
		{name: "add: duplicates accumulate", f: tf.ScatterAdd,
			ref: tensortest.I32(shape{3}, 1, 2, 3), ind: tensortest.I64(shape{4}, 0, 2, 0, 0), upd: tensortest.I32(shape{4}, 10, 20, 30, 40),
			want: tensortest.I32(shape{3}, 81, 2, 23)},
		{name: "sub: scalar update at every index", f: tf.ScatterSub,
			ref: tensortest.F64(shape{2, 2}, 1, 2, 3, 4), ind: tensortest.I64(shape{3}, 1, 1, 0), upd: tensortest.F64(shape{}, 0.5),
			want: tensortest.F64(shape{2, 2}, 0.5, 1.5, 2, 3)},
		{name: "mul: int32 wraps", f: tf.ScatterMul,
			ref: tensortest.I32(shape{1}, 1<<30), ind: tensortest.I64(shape{1}, 0), upd: tensortest.I32(shape{1}, 4),
			want: tensortest.I32(shape{1}, 0)},
		{name: "div: integers truncate, in order", f: tf.ScatterDiv,
			ref: tensortest.I32(shape{3}, 7, -7, 100), ind: tensortest.I64(shape{4}, 0, 1, 2, 2), upd: tensortest.I32(shape{4}, 2, 2, -3, 2),
			want: tensortest.I32(shape{3}, 3, -3, -16)},
		{name: "div: lowest by -1 stays", f: tf.ScatterDiv,
			ref: tensortest.I32(shape{1}, math.MinInt32), ind: tensortest.I64(shape{1}, 0), upd: tensortest.I32(shape{1}, -1),
			want: tensortest.I32(shape{1}, math.MinInt32)},
		{name: "div: floats by zero", f: tf.ScatterDiv,
			ref: tensortest.F32(shape{3}, 1, -1, 0), ind: tensortest.I64(shape{3}, 0, 1, 2), upd: tensortest.F32(shape{3}, 0, 0, 0),
			// 0/0 is the engine's NaN of an operation without a NaN operand,
			// the negative quiet NaN.
			want: tensortest.F32(shape{3}, float32(math.Inf(1)), float32(math.Inf(-1)), math.Float32frombits(0xffc00000))},
		{name: "div: an integer 0 is refused", f: tf.ScatterDiv,
			ref: tensortest.I64(shape{2, 2}, 8, 9, 10, 11), ind: tensortest.I64(shape{2}, 0, 1), upd: tensortest.I64(shape{2, 2}, 2, 2, 5, 0),
			sentinel: engine.ErrArgument, unchangedOnError: true,
			msg: "tf.compat.v1.scatter_div: invalid argument: reduction div: updates[1,1] is 0, and an integer cannot be divided by zero"},
		{name: "div: a scalar 0 is refused", f: tf.ScatterDiv,
			ref: tensortest.I32(shape{2}, 8, 9), ind: tensortest.I64(shape{1}, 0), upd: tensortest.I32(shape{}, 0),
			sentinel: engine.ErrArgument, unchangedOnError: true,
			msg: "tf.compat.v1.scatter_div: invalid argument: reduction div: updates[0] is 0, and an integer cannot be divided by zero"},
		{name: "min: NaN update ignored, NaN in ref stays", f: tf.ScatterMin,
			ref: tensortest.F32(shape{2}, nan, 5), ind: tensortest.I64(shape{3}, 0, 1, 1), upd: tensortest.F32(shape{3}, 1, nan, 3),
			want: tensortest.F32(shape{2}, nan, 3)},
		{name: "max: NaN update ignored", f: tf.ScatterMax,
			ref: tensortest.F32(shape{2}, 1, 5), ind: tensortest.I64(shape{2}, 0, 1), upd: tensortest.F32(shape{2}, nan, 7),
			want: tensortest.F32(shape{2}, 1, 7)},
		{name: "empty indices: nothing, no index read", f: tf.ScatterAdd,
			ref: tensortest.F32(shape{0, 2}), ind: tensortest.I64(shape{0}), upd: tensortest.F32(shape{0, 2}),
			want: tensortest.F32(shape{0, 2})},
		{name: "rows of no elements: indices still checked", f: tf.ScatterAdd,
			ref: tensortest.F32(shape{2, 0}), ind: tensortest.I64(shape{1}, 2), upd: tensortest.F32(shape{1, 0}),
			sentinel: engine.ErrIndex, msg: "tf.compat.v1.scatter_add: indices[0] = 2 is not in [0, 2)"},
		{name: "scalar ref", f: tf.ScatterUpdate,
			ref: tensortest.F32(shape{}, 1), ind: tensortest.I64(shape{}, 0), upd: tensortest.F32(shape{}, 2),
			sentinel: engine.ErrShape, msg: "tf.compat.v1.scatter_update: shape mismatch: params must be at least 1-D, got shape []"},
		{name: "updates of the wrong shape", f: tf.ScatterAdd,
			ref: zeros32(shape{5, 3}), ind: tensortest.I64(shape{2}, 0, 1), upd: tensortest.F32(shape{2, 2}, 1, 2, 3, 4),
			sentinel: engine.ErrShape, unchangedOnError: true,
			msg: "tf.compat.v1.scatter_add: shape mismatch: Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], " +
				"got updates.shape [2,2], indices.shape [2], params.shape [5,3]"},
		{name: "updates of another type", f: tf.ScatterAdd,
			ref: zeros32(shape{2}), ind: tensortest.I64(shape{1}, 0), upd: tensortest.F64(shape{1}, 1),
			sentinel: engine.ErrType, msg: "tf.compat.v1.scatter_add: unsupported element type: updates has type float64, ref has type float32; they must be equal"},
		{name: "add refuses bool", f: tf.ScatterAdd,
			ref: tensortest.Of(shape{1}, true), ind: tensortest.I64(shape{1}, 0), upd: tensortest.Of(shape{1}, true),
			sentinel: dialect.ErrInput},
		{name: "min refuses complex", f: tf.ScatterMin,
			ref: tensortest.Of(shape{1}, complex64(1)), ind: tensortest.I64(shape{1}, 0), upd: tensortest.Of(shape{1}, complex64(2)),
			sentinel: engine.ErrType},
		{name: "int16 indices refused", f: tf.ScatterUpdate,
			ref: zeros32(shape{2}), ind: tensortest.Of(shape{1}, int16(0)), upd: tensortest.F32(shape{1}, 1),
			sentinel: dialect.ErrInput},
		{name: "missing updates", f: tf.ScatterUpdate,
			ref: zeros32(shape{2}), ind: tensortest.I64(shape{1}, 0), sentinel: dialect.ErrInput},
	}
	for _, tt := range tests {
		before := tt.ref.Clone()
		err := tt.f(tt.ref, tt.ind, tt.upd)
		if tt.sentinel == nil {
			if err != nil || !tensor.Equal(tt.ref, tt.want) {
				t.Errorf("%s: got %v, %v; want %v", tt.name, tt.ref, err, tt.want)
			}
			continue
		}
		var oe *dialect.OpError
		if !errors.Is(err, tt.sentinel) || !errors.As(err, &oe) || tt.msg != "" && err.Error() != tt.msg {
			t.Errorf("%s: got %v\nwant %v %s", tt.name, err, tt.sentinel, tt.msg)
		}
		if !tensor.Equal(tt.ref, before) {
			t.Errorf("%s: the refused call changed ref to %v", tt.name, tt.ref)
		}
	}
}

func zeros32(s tensor.Shape) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, s)) }

// TestScatterV1Run: through the table, the operator updates a copy of
// ref and returns it, leaving ref as it was.
func TestScatterV1Run(t *testing.T) {
	ref := tensortest.F32(shape{3}, 1, 2, 3)
	out, err := lookup("tf.compat.v1.scatter_mul").Run(dialect.Call{Inputs: map[string]tensor.Tensor{
		"ref": ref, "indices": tensortest.I64(shape{2}, 2, 2), "updates": tensortest.F32(shape{2}, 10, 0.5)}})
	if want := tensortest.F32(shape{3}, 1, 2, 15); err != nil || !tensor.Equal(out, want) {
		t.Errorf("got %v, %v; want %v", out, err, want)
	}
	if !tensor.Equal(ref, tensortest.F32(shape{3}, 1, 2, 3)) {
		t.Errorf("Run changed ref to %v", ref)
	}
	_, err = lookup("tf.compat.v1.scatter_add").Run(dialect.Call{Inputs: map[string]tensor.Tensor{
		"indices": tensortest.I64(shape{1}, 0), "updates": tensortest.F32(shape{1}, 1)}})
	if !errors.Is(err, dialect.ErrInput) {
		t.Errorf("missing ref: %v", err)
	}
}
