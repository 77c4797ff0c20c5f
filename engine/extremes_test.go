package engine_test

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
)

// TestExtremeArguments calls every kernel with an axis or batch_dims at
// the extremes of int: each is refused as ErrArgument quoting the value
// as it was given, before anything is read or written: every element of
// dst keeps the value it had.
func TestExtremeArguments(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{1, 2, 3, 4, 5, 6}))
	flat := tensor.Must(tensor.From(tensor.Shape{1, 3}, []int64{1, 0, 1}))
	tuples := tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{1}))
	upd := tensor.Must(tensor.From(tensor.Shape{1, 3}, []float32{7, 8, 9}))
	// dst holds values that no call would write: neither data's, nor
	// the updates', nor the zeros of a skipped index or a cleared dst.
	before := []float32{-1, -2, -3, -4, -5, -6}
	dst := tensor.Must(tensor.From(tensor.Shape{2, 3}, slices.Clone(before)))
	var rules engine.IndexRules
	for _, v := range []int{math.MinInt, math.MinInt + 1, math.MaxInt} {
		calls := []struct {
			name string
			call func() error
		}{
			{"GatherND batch_dims", func() error { return engine.GatherND(dst, data, tuples, v, rules) }},
			{"GatherElements axis", func() error { return engine.GatherElements(dst, data, flat, v, rules) }},
			{"Gather axis", func() error { return engine.Gather(dst, data, flat, v, 0, rules) }},
			{"Gather batch_dims", func() error { return engine.Gather(dst, data, flat, 1, v, rules) }},
			{"ScatterElements axis", func() error {
				return engine.ScatterElements(dst, data, flat, upd, v, engine.ScatterOptions{})
			}},
			{"GatherNDShape batch_dims", func() error { return second(engine.GatherNDShape(data.Shape(), tuples.Shape(), v)) }},
			{"GatherShape axis", func() error { return second(engine.GatherShape(data.Shape(), flat.Shape(), v, 0)) }},
			{"GatherElementsShape axis", func() error { return second(engine.GatherElementsShape(data.Shape(), flat.Shape(), v)) }},
			{"GatherShape batch_dims", func() error { return second(engine.GatherShape(data.Shape(), flat.Shape(), 1, v)) }},
		}
		for _, c := range calls {
			err := c.call()
			if !errors.Is(err, engine.ErrArgument) || !strings.Contains(err.Error(), " "+strconv.Itoa(v)+" ") ||
				optest.QuotesShifted(err.Error(), int64(v)) {
				t.Errorf("%s %d: %v; want ErrArgument quoting %d", c.name, v, err, v)
			}
			if f := dst.Data().([]float32); !slices.Equal(f, before) {
				t.Errorf("%s %d: the refused call wrote dst: %v, want %v", c.name, v, f, before)
				copy(f, before)
			}
		}
	}
}

// TestExtremeIndexValues gives every kernel index values at the extremes
// of int64 and uint64: each is an index error quoting the value as it is,
// a uint64 one as unsigned.
func TestExtremeIndexValues(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{2, 3}, []float32{1, 2, 3, 4, 5, 6}))
	upd := tensor.Must(tensor.From(tensor.Shape{1, 3}, []float32{7, 8, 9}))
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 3}))
	rules := engine.IndexRules{Negative: engine.NegativeFromEnd}
	values := map[tensor.DType][]uint64{ // uint64 bits
		tensor.Int64:  {1 << 63, 1<<63 + 1, math.MaxInt64}, // MinInt64, MinInt64+1, MaxInt64
		tensor.Uint64: {math.MaxInt64, 1 << 63, math.MaxUint64},
	}
	for dt, vs := range values {
		for _, v := range vs {
			flat := tensor.Must(tensor.New(dt, tensor.Shape{1, 3}))
			tuples := tensor.Must(tensor.New(dt, tensor.Shape{1, 1}))
			for _, x := range []tensor.Tensor{flat, tuples} {
				if dt == tensor.Int64 {
					x.Data().([]int64)[0] = int64(v)
				} else {
					x.Data().([]uint64)[0] = v
				}
			}
			want := strconv.FormatInt(int64(v), 10)
			if dt == tensor.Uint64 {
				want = strconv.FormatUint(v, 10)
			}
			out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 3}))
			calls := map[string]error{
				"GatherND":        engine.GatherND(out, data, tuples, 0, rules),
				"GatherElements":  engine.GatherElements(out, data, flat, 1, rules),
				"Gather":          engine.Gather(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 1, 3})), data, flat, 1, 0, rules),
				"ScatterElements": engine.ScatterElements(dst, data, flat, upd, 1, engine.ScatterOptions{Rules: rules}),
				"ScatterND":       engine.ScatterND(dst, data, tuples, upd, engine.ScatterOptions{Rules: rules}),
			}
			for name, err := range calls {
				var ie *engine.IndexError
				if !errors.As(err, &ie) || ie.ValueString() != want || !strings.Contains(err.Error(), " = "+want) &&
					!strings.Contains(err.Error(), "["+want+"]") {
					t.Errorf("%s with %v index %s: %v; want an index error quoting %s", name, dt, want, err, want)
				}
			}
		}
	}
}

func second(_ tensor.Shape, err error) error { return err }
