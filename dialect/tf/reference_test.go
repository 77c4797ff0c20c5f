package tf_test

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// The dialect against the reference implementation (testkit/reftest)
// under TensorFlow's index rules, on random shapes, values and indices with
// now and then a bad one: the same values, and an index error naming the
// index TensorFlow names.

func randShape(rng *rand.Rand, minRank, maxRank int) tensor.Shape {
	s := make(tensor.Shape, minRank+rng.IntN(maxRank-minRank+1))
	for i := range s {
		s[i] = 1 + rng.IntN(3)
	}
	return s
}

func randFloats(rng *rand.Rand, s tensor.Shape, nan bool) []float64 {
	n, _ := s.NumElements()
	v := make([]float64, n)
	for i := range v {
		v[i] = float64(rng.IntN(20) - 10)
		if nan && rng.IntN(8) == 0 {
			v[i] = math.NaN()
		}
	}
	return v
}

// randIndex returns a valid index below size, or now and then an invalid
// one (negative or too large).
func randIndex(rng *rand.Rand, size int) int64 {
	switch rng.IntN(30) {
	case 0:
		return -1 - int64(rng.IntN(2))
	case 1:
		return int64(size + rng.IntN(2))
	}
	return int64(rng.IntN(size))
}

// lastBadTuple returns the last index tuple (of k values) of ix that holds
// a value the reference refused.
func lastBadTuple(re *reftest.IndexError, ix []int64, k int) []int64 {
	t := re.Bad[len(re.Bad)-1] / k
	return ix[t*k : t*k+k]
}

func TestGatherNDAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 3000; iter++ {
		ps := randShape(rng, 1, 4)
		b := rng.IntN(len(ps))
		k := rng.IntN(len(ps) - b + 1)
		is := append(ps[:b].Clone(), randShape(rng, 0, 2)...)
		is = append(is, k)
		n, _ := is.NumElements()
		ix := make([]int64, n)
		for i := range ix {
			ix[i] = randIndex(rng, ps[b+i%k])
		}
		params, indices := tensortest.F64(ps, randFloats(rng, ps, false)...), tensortest.I64(is, ix...)
		got, err := tf.GatherND(params, indices, b)
		want, wantErr := reftest.GatherND(params, indices, b, inRange)
		if d := reftest.Disagreement(got, err, want, wantErr, optest.SameClass); d != "" {
			t.Fatalf("params %v indices %v batch_dims %d: %s", params, indices, b, d)
		}
		var re *reftest.IndexError
		var ie *engine.IndexError
		if errors.As(wantErr, &re) && (!errors.As(err, &ie) || !slices.Equal(ie.Tuple, lastBadTuple(re, ix, k))) {
			t.Fatalf("params %v indices %v batch_dims %d: error %v, want one naming %v",
				ps, indices, b, err, lastBadTuple(re, ix, k))
		}
	}
}

func TestGatherAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := 0; iter < 3000; iter++ {
		ps := randShape(rng, 1, 4)
		axis := rng.IntN(len(ps))
		b := rng.IntN(axis + 1)
		is := append(ps[:b].Clone(), randShape(rng, 0, 2)...)
		n, _ := is.NumElements()
		ix := make([]int64, n)
		for i := range ix {
			ix[i] = randIndex(rng, ps[axis])
		}
		params, indices := tensortest.F64(ps, randFloats(rng, ps, false)...), tensortest.I64(is, ix...)
		// Pass axis and batch_dims counted from the end now and then.
		a, bd := axis, b
		if axis > 0 && rng.IntN(2) == 0 {
			a -= len(ps)
		}
		if b > 0 && b < len(is) && rng.IntN(2) == 0 {
			bd -= len(is)
		}
		got, err := tf.Gather(params, indices, a, bd)
		want, wantErr := reftest.Gather(params, indices, axis, b, inRange)
		if d := reftest.Disagreement(got, err, want, wantErr, optest.SameClass); d != "" {
			t.Fatalf("params %v indices %v axis %d batch_dims %d: %s", params, indices, a, bd, d)
		}
		var re *reftest.IndexError
		var ie *engine.IndexError
		if errors.As(wantErr, &re) {
			first := re.Bad[0]
			if !errors.As(err, &ie) || ie.Value != ix[first] || is.Offset(ie.Pos) != first {
				t.Fatalf("params %v indices %v axis %d batch_dims %d: error %v, want one naming indices[%d] (flat)",
					ps, indices, a, bd, err, first)
			}
		}
	}
}

func TestTensorScatterAgainstReference(t *testing.T) {
	type op func(t, indices, updates tensor.Tensor) (tensor.Tensor, error)
	ops := []struct {
		name string
		f    op
		opt  engine.ScatterOptions
	}{
		{"update", tf.TensorScatterUpdate, engine.ScatterOptions{}},
		{"add", tf.TensorScatterAdd, engine.ScatterOptions{Reduction: engine.Add}},
		{"sub", tf.TensorScatterSub, engine.ScatterOptions{Reduction: engine.Sub}},
		// std::min(v, u) and std::max(v, u).
		{"min", tf.TensorScatterMin, engine.ScatterOptions{Reduction: engine.Min, Arith: engine.Arith{MinMax: engine.MinMaxStd}}},
		{"max", tf.TensorScatterMax, engine.ScatterOptions{Reduction: engine.Max, Arith: engine.Arith{MinMax: engine.MinMaxStd}}},
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for iter := 0; iter < 3000; iter++ {
		op := ops[rng.IntN(len(ops))]
		ts := randShape(rng, 1, 3)
		k := 1 + rng.IntN(len(ts))
		is := append(randShape(rng, 1, 2), k)
		n, _ := is.NumElements()
		ix := make([]int64, n)
		for i := range ix {
			ix[i] = randIndex(rng, ts[i%k])
		}
		us := append(is[:len(is)-1].Clone(), ts[k:]...)
		tt, indices, updates := tensortest.F64(ts, randFloats(rng, ts, true)...), tensortest.I64(is, ix...), tensortest.F64(us, randFloats(rng, us, true)...)
		got, err := op.f(tt, indices, updates)
		want, wantErr := reftest.ScatterND(tt, indices, updates, op.opt)
		if d := reftest.Disagreement(got, err, want, wantErr, optest.SameClass); d != "" {
			t.Fatalf("%s tensor %v indices %v updates %v: %s", op.name, tt, indices, updates, d)
		}
		var re *reftest.IndexError
		var ie *engine.IndexError
		if errors.As(wantErr, &re) && (!errors.As(err, &ie) || !slices.Equal(ie.Tuple, lastBadTuple(re, ix, k))) {
			t.Fatalf("%s tensor %v indices %v: error %v, want one naming %v", op.name, ts, indices, err, lastBadTuple(re, ix, k))
		}
	}
}
