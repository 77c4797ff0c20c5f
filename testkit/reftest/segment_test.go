package reftest

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// SegmentReduce on worked examples: TensorFlow's documentation example
// (rows by a prefix of ids), JAX's drop and clip of ids out of range, the
// fill of an empty segment, NegativeSkip with an id past the end, and a
// mean by the root of the count.
func TestSegmentReduce(t *testing.T) {
	f32 := func(s shape, v ...float32) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	i64 := func(s shape, v ...int64) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	tfRules := engine.IndexRules{Negative: engine.NegativeSkip}
	for _, tc := range []struct {
		name     string
		data     tensor.Tensor
		ids      tensor.Tensor
		segments int
		fill     any
		clip     bool
		opt      engine.ScatterOptions
		want     tensor.Tensor
		bad      []int
	}{
		{"rows", ints(tensor.Int32, shape{3, 4}, 1, 2, 3, 4, 5, 6, 7, 8, 4, 3, 2, 1), i64(shape{3}, 0, 1, 0), 2, int32(0), false,
			engine.ScatterOptions{Reduction: engine.Add, Rules: tfRules}, ints(tensor.Int32, shape{2, 4}, 5, 5, 5, 5, 5, 6, 7, 8), nil},
		{"a prefix of two dimensions", f32(shape{2, 2, 1}, 1, 2, 3, 4), i64(shape{2, 2}, 1, 1, -1, 1), 3, float32(-1), false,
			engine.ScatterOptions{Reduction: engine.Max, Rules: tfRules, Arith: engine.Arith{MinMax: engine.MinMaxStdUpdate}}, f32(shape{3, 1}, -1, 4, -1), nil},
		{"dropped", f32(shape{4}, 1, 2, 4, 8), i64(shape{4}, -1, 0, 5, 1), 2, float32(0), false,
			engine.ScatterOptions{Reduction: engine.Add, Rules: engine.IndexRules{OutOfRange: engine.OutOfRangeSkip}}, f32(shape{2}, 2, 8), nil},
		{"clipped", f32(shape{4}, 1, 2, 4, 8), i64(shape{4}, -1, 0, 5, 1), 2, float32(0), true,
			engine.ScatterOptions{Reduction: engine.Add}, f32(shape{2}, 3, 12), nil},
		{"past the end", f32(shape{4}, 1, 2, 4, 8), i64(shape{4}, -1, 3, 5, 1), 3, float32(0), false,
			engine.ScatterOptions{Reduction: engine.Add, Rules: tfRules}, tensor.Tensor{}, []int{1, 2}},
		{"sqrt_n", f32(shape{5}, 1, 2, 3, 4, 9), i64(shape{5}, 0, 0, 0, 0, 2), 3, float32(0), false,
			engine.ScatterOptions{Reduction: engine.Mean, ExcludeSelf: true, Rules: tfRules, Arith: engine.Arith{SqrtCount: true}}, f32(shape{3}, 5, 0, 9), nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := SegmentReduce(tc.data, tc.ids, tc.segments, tc.fill, tc.clip, tc.opt)
			var ie *IndexError
			switch {
			case tc.bad != nil:
				if !errors.As(err, &ie) || !slices.Equal(ie.Bad, tc.bad) {
					t.Errorf("got %v, want bad positions %v", err, tc.bad)
				}
			case err != nil || !tensor.Equal(got, tc.want):
				t.Errorf("got %v, %v, want %v", got, err, tc.want)
			}
		})
	}
	// sqrt(3) in float32 divides 3.
	got, err := SegmentReduce(f32(shape{3}, 1, 1, 1), i64(shape{3}, 0, 0, 0), 1, float32(0), false,
		engine.ScatterOptions{Reduction: engine.Mean, ExcludeSelf: true, Arith: engine.Arith{SqrtCount: true}})
	if want := 3 / float32(math.Sqrt(3)); err != nil || got.Data().([]float32)[0] != want {
		t.Errorf("sqrt(3): got %v, %v, want %v", got, err, want)
	}
	// ids must be a prefix of data's shape.
	if _, err := SegmentReduce(f32(shape{2}, 1, 2), i64(shape{3}, 0, 0, 0), 1, float32(0), false, engine.ScatterOptions{Reduction: engine.Add}); !errors.Is(err, engine.ErrShape) {
		t.Errorf("not a prefix: got %v, want ErrShape", err)
	}
}
