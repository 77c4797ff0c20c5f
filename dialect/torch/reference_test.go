package torch_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

// torchReduce maps scatter_reduce's reduce names to the reference's
// reductions.
var torchReduce = map[string]engine.Reduction{
	"sum": engine.Add, "prod": engine.Mul, "mean": engine.Mean, "amax": engine.Max, "amin": engine.Min,
}

// randTensor returns a tensor of type d and shape s with random values:
// small integers for int64; for the floating-point types values of either
// sign and up to a few hundred, so that float16 and bfloat16 sums round,
// with now and then NaN or -0.
func randTensor(rng *rand.Rand, d tensor.DType, s tensor.Shape) tensor.Tensor {
	n, _ := s.NumElements()
	f := make([]float64, n)
	for i := range f {
		switch rng.IntN(16) {
		case 0:
			f[i] = math.NaN()
		case 1:
			f[i] = math.Copysign(0, -1)
		default:
			f[i] = rng.NormFloat64() * 100
		}
	}
	var data any
	switch d {
	case tensor.Int64:
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(rng.IntN(9) - 4)
		}
		data = v
	case tensor.Float64:
		data = f
	case tensor.Float16:
		v := make([]float16.Float16, n)
		for i := range v {
			v[i] = float16.Fromfloat32(float32(f[i]))
		}
		data = v
	case tensor.BFloat16:
		v := make([]bfloat16.BFloat16, n)
		for i := range v {
			v[i] = bfloat16.FromFloat32(float32(f[i]))
		}
		data = v
	}
	return tensor.Must(tensor.Wrap(s, data))
}

// TestAgainstReference compares scatter_reduce and gather with the
// reference implementation (testkit/reftest) under PyTorch's rules, on
// random shapes, dims, index values and src sizes, for int64, float64,
// float16 and bfloat16 (whose sums and products accumulate in float32 and
// round once).
func TestAgainstReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	reduces := []string{"sum", "prod", "mean", "amax", "amin"}
	types := []tensor.DType{tensor.Int64, tensor.Float64, tensor.Float16, tensor.BFloat16}
	for iter := 0; iter < 3000; iter++ {
		rank := 1 + rng.IntN(3)
		ds := make(tensor.Shape, rank)
		is := make(tensor.Shape, rank)
		ss := make(tensor.Shape, rank)
		dim := rng.IntN(rank)
		for d := range ds {
			ds[d] = 1 + rng.IntN(4)
			is[d] = rng.IntN(ds[d] + 1)
			if d == dim {
				is[d] = 1 + rng.IntN(5)
			}
			ss[d] = is[d] + rng.IntN(2)
		}
		n, _ := is.NumElements()
		ix := make([]int64, n)
		for i := range ix {
			ix[i] = int64(rng.IntN(ds[dim]))
		}
		index := tensortest.I64(is, ix...)
		reduce := reduces[rng.IntN(len(reduces))]
		includeSelf := rng.IntN(2) == 0
		d := types[rng.IntN(len(types))]
		input, src := randTensor(rng, d, ds), randTensor(rng, d, ss)
		got, err := torch.ScatterReduce(input, dim, index, src, torch.Reduce(reduce), includeSelf)
		want, wantErr := reftest.ScatterElements(input, index, src, dim, engine.ScatterOptions{
			Reduction: torchReduce[reduce], ExcludeSelf: !includeSelf,
			Arith: engine.Arith{ZeroStart: true, HalfOnce: true, DivideAll: true, CountInType: true, Complex: engine.ComplexC10}})
		if wantErr != nil {
			t.Fatalf("the reference refuses %s of input %v index %v src %v dim %d: %v", reduce, ds, is, ss, dim, wantErr)
		}
		if err != nil {
			t.Fatalf("%s include_self=%v input %v index %v src %v dim %d: %v", reduce, includeSelf, ds, is, ss, dim, err)
		}
		if diff := reftest.Diff(got, want); diff != "" {
			t.Fatalf("%s include_self=%v dim %d\ninput %v\nindex %v\nsrc %v\n%s", reduce, includeSelf, dim, input, index, src, diff)
		}
		// gather with the same index shape and fresh values.
		gx := make([]int64, n)
		for i := range gx {
			gx[i] = int64(rng.IntN(ds[dim]))
		}
		gi := tensortest.I64(is, gx...)
		got, err = torch.Gather(input, dim, gi)
		if want, wantErr = reftest.GatherElements(input, gi, dim, engine.IndexRules{}); wantErr != nil || err != nil {
			t.Fatalf("gather input %v index %v dim %d: %v, the reference %v", ds, is, dim, err, wantErr)
		}
		if diff := reftest.Diff(got, want); diff != "" {
			t.Fatalf("gather dim %d\ninput %v\nindex %v\n%s", dim, input, gi, diff)
		}
	}
}
