package reftest

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
	"github.com/x448/float16"
)

type shape = tensor.Shape

func c64(s shape, v ...complex64) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
func bools(s shape, v ...bool) tensor.Tensor    { return tensor.Must(tensor.From(s, v)) }
func ints(d tensor.DType, s shape, v ...int) tensor.Tensor {
	return tensortest.FromInts(d, s, v...)
}

func half(s shape, v ...float32) tensor.Tensor {
	h := make([]float16.Float16, len(v))
	for i, x := range v {
		h[i] = float16.Fromfloat32(x)
	}
	return tensor.Must(tensor.From(s, h))
}

func bf16(s shape, v ...float32) tensor.Tensor {
	b := make([]bfloat16.BFloat16, len(v))
	for i, x := range v {
		b[i] = bfloat16.FromFloat32(x)
	}
	return tensor.Must(tensor.From(s, b))
}

var (
	e12     = float32(math.Ldexp(1, -12))
	nan     = math.NaN()
	negZero = math.Copysign(0, -1)
	// The index rules of the frameworks.
	inRange = engine.IndexRules{}
	fromEnd = engine.IndexRules{Negative: engine.NegativeFromEnd}
	skipBad = engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeSkip}
)

type refCase struct {
	name    string
	run     func() (tensor.Tensor, error)
	want    tensor.Tensor
	wantErr error
	bad     []int // for an index error, the refused positions
}

func runCases(t *testing.T, cases []refCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.run()
			if c.wantErr != nil {
				if !errors.Is(err, c.wantErr) {
					t.Fatalf("error %v, want %v", err, c.wantErr)
				}
				var ie *IndexError
				if errors.As(err, &ie) && !slices.Equal(ie.Bad, c.bad) {
					t.Fatalf("refused positions %v, want %v", ie.Bad, c.bad)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(got, c.want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// The examples of the ONNX ScatterND specification (versions 11 to 18)
// and the TensorFlow and MindSpore scatter_nd documentation, and the
// corners of the index tuples.
func TestScatterND(t *testing.T) {
	cube := []float32{
		1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
		1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
		8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8,
		8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8,
	}
	runCases(t, []refCase{
		{
			name: "onnx example 1",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{8}, 1, 2, 3, 4, 5, 6, 7, 8), tensortest.I64(shape{4, 1}, 4, 3, 1, 7),
					tensortest.F32(shape{4}, 9, 10, 11, 12), engine.ScatterOptions{Rules: fromEnd})
			},
			want: tensortest.F32(shape{8}, 1, 11, 3, 10, 9, 6, 7, 12),
		},
		{
			name: "onnx example 2",
			run: func() (tensor.Tensor, error) {
				upd := tensortest.F32(shape{2, 4, 4}, 5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
					1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4)
				return ScatterND(tensortest.F32(shape{4, 4, 4}, cube...), tensortest.I64(shape{2, 1}, 0, 2), upd, engine.ScatterOptions{Rules: fromEnd})
			},
			want: tensortest.F32(shape{4, 4, 4},
				5, 5, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8, 8, 8, 8,
				1, 2, 3, 4, 5, 6, 7, 8, 8, 7, 6, 5, 4, 3, 2, 1,
				1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
				8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8),
		},
		{
			name: "onnx example 1 with add, negative indices and a duplicate",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{8}, 1, 2, 3, 4, 5, 6, 7, 8), tensortest.I64(shape{4, 1}, -4, 3, 1, -5),
					tensortest.F32(shape{4}, 9, 10, 11, 12), engine.ScatterOptions{Rules: fromEnd, Reduction: engine.Add})
			},
			want: tensortest.F32(shape{8}, 1, 13, 3, 26, 14, 6, 7, 8),
		},
		{
			name: "mindspore example 2: onto zeros, adding",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{3, 3}, 0, 0, 0, 0, 0, 0, 0, 0, 0), tensortest.I64(shape{2, 2}, 0, 1, 1, 1),
					tensortest.F32(shape{2}, 3.2, 1.1), engine.ScatterOptions{Reduction: engine.Add})
			},
			want: tensortest.F32(shape{3, 3}, 0, 3.2, 0, 0, 1.1, 0, 0, 0, 0),
		},
		{
			name: "tensorflow scatter_nd on strings concatenates in index order",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.Str(shape{3}, "", "", ""), tensortest.I64(shape{3, 1}, 2, 0, 2),
					tensortest.Str(shape{3}, "a", "b", "c"), engine.ScatterOptions{Reduction: engine.Add, Arith: engine.Arith{ConcatStrings: true}})
			},
			want: tensortest.Str(shape{3}, "b", "", "ac"),
		},
		{
			name: "an empty tuple selects the whole of data",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2}, 1, 2), tensortest.I64(shape{2, 0}), tensortest.F32(shape{2, 2}, 3, 4, 5, 6), engine.ScatterOptions{Reduction: engine.Mul})
			},
			want: tensortest.F32(shape{2}, 15, 48),
		},
		{
			name: "no tuples",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2}, 1, 2), tensortest.I64(shape{0, 1}), tensortest.F32(shape{0}), engine.ScatterOptions{})
			},
			want: tensortest.F32(shape{2}, 1, 2),
		},
		{
			name: "skipped tuples are dropped whole",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2, 2}, 1, 2, 3, 4), tensortest.I64(shape{2, 2}, 0, 7, 1, -1),
					tensortest.F32(shape{2}, 8, 9), engine.ScatterOptions{Rules: skipBad})
			},
			want: tensortest.F32(shape{2, 2}, 1, 2, 3, 9),
		},
		{
			name: "every refused component is listed",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2, 2}, 1, 2, 3, 4), tensortest.I64(shape{3, 2}, 0, 2, -1, 0, 1, 1),
					tensortest.F32(shape{3}, 7, 8, 9), engine.ScatterOptions{})
			},
			wantErr: engine.ErrIndex, bad: []int{1, 2},
		},
		{
			name: "a uint64 beyond int64 is out of range, not negative",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2}, 1, 2), tensor.Must(tensor.From(shape{1, 1}, []uint64{math.MaxUint64})),
					tensortest.F32(shape{1}, 7), engine.ScatterOptions{Rules: fromEnd})
			},
			wantErr: engine.ErrIndex, bad: []int{0},
		},
		{
			name: "updates of the wrong shape",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2, 2}, 1, 2, 3, 4), tensortest.I64(shape{1, 1}, 0), tensortest.F32(shape{1, 3}, 7, 8, 9), engine.ScatterOptions{})
			},
			wantErr: engine.ErrShape,
		},
		{
			name: "tuples longer than the rank",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2}, 1, 2), tensortest.I64(shape{1, 2}, 0, 0), tensortest.F32(shape{1}, 7), engine.ScatterOptions{})
			},
			wantErr: engine.ErrShape,
		},
		{
			name: "a shape error comes before an index error",
			run: func() (tensor.Tensor, error) {
				return ScatterND(tensortest.F32(shape{2}, 1, 2), tensortest.I64(shape{1, 1}, 9), tensortest.F32(shape{2}, 7, 8), engine.ScatterOptions{})
			},
			wantErr: engine.ErrShape,
		},
		{
			name: "a type error comes before an index error",
			run: func() (tensor.Tensor, error) {
				c := c64(shape{1}, 1)
				return ScatterND(c, tensortest.I64(shape{1, 1}, 9), c.Clone(), engine.ScatterOptions{Reduction: engine.Max})
			},
			wantErr: engine.ErrType,
		},
	})
}

// The examples of ONNX Scatter (torch2onnx), OpenVINO
// ScatterElementsUpdate-12 and torch.Tensor.scatter_.
func TestScatterElements(t *testing.T) {
	zeros := func(d tensor.DType, s shape) tensor.Tensor { return tensor.Must(tensor.New(d, s)) }
	arange := tensortest.I64(shape{2, 5}, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	runCases(t, []refCase{
		{
			name: "onnx scatter example 1",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(zeros(tensor.Float32, shape{3, 3}), tensortest.I64(shape{2, 3}, 1, 0, 2, 0, 2, 1),
					tensortest.F32(shape{2, 3}, 1.0, 1.1, 1.2, 2.0, 2.1, 2.2), 0, engine.ScatterOptions{Rules: fromEnd})
			},
			want: tensortest.F32(shape{3, 3}, 2.0, 1.1, 0, 1.0, 0, 2.2, 0, 2.1, 1.2),
		},
		{
			name: "onnx scatter example 2",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{1, 5}, 1, 2, 3, 4, 5), tensortest.I64(shape{1, 2}, 1, 3),
					tensortest.F32(shape{1, 2}, 1.1, 2.1), 1, engine.ScatterOptions{Rules: fromEnd})
			},
			want: tensortest.F32(shape{1, 5}, 1, 1.1, 3, 2.1, 5),
		},
		{
			name: "openvino example 1: sum with use_init_val",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{4}, 2, 3, 4, 6), tensortest.I64(shape{6}, 1, 0, 0, -2, -1, 2),
					tensortest.F32(shape{6}, 10, 20, 30, 40, 70, 60), 0, engine.ScatterOptions{Rules: fromEnd, Reduction: engine.Add})
			},
			want: tensortest.F32(shape{4}, 52, 13, 104, 76),
		},
		{
			name: "openvino example 2: sum without use_init_val",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{4}, 2, 3, 4, 6), tensortest.I64(shape{6}, 1, 0, 0, 2, 3, 2),
					tensortest.F32(shape{6}, 10, 20, 30, 40, 70, 60), 0, engine.ScatterOptions{Rules: fromEnd, Reduction: engine.Add, ExcludeSelf: true})
			},
			want: tensortest.F32(shape{4}, 50, 10, 100, 70),
		},
		{
			name: "openvino example 3: none",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(zeros(tensor.Int32, shape{3, 4}), tensortest.I64(shape{2, 2}, 1, 2, 0, 3),
					ints(tensor.Int32, shape{2, 2}, 11, 12, 13, 14), 1, engine.ScatterOptions{Rules: fromEnd})
			},
			want: ints(tensor.Int32, shape{3, 4}, 0, 11, 12, 0, 13, 0, 0, 14, 0, 0, 0, 0),
		},
		{
			name: "openvino example 4: sum",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(ints(tensor.Int32, shape{3, 4}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1),
					tensortest.I64(shape{2, 2}, 1, 1, 0, 3), ints(tensor.Int32, shape{2, 2}, 11, 12, 13, 14), 1,
					engine.ScatterOptions{Rules: fromEnd, Reduction: engine.Add})
			},
			want: ints(tensor.Int32, shape{3, 4}, 1, 24, 1, 1, 14, 1, 1, 15, 1, 1, 1, 1),
		},
		{
			name: "openvino example 5: prod",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(ints(tensor.Int32, shape{3, 4}, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2),
					tensortest.I64(shape{2, 2}, 1, 1, 0, 3), ints(tensor.Int32, shape{2, 2}, 11, 12, 13, 14), 1,
					engine.ScatterOptions{Rules: fromEnd, Reduction: engine.Mul})
			},
			want: ints(tensor.Int32, shape{3, 4}, 2, 264, 2, 2, 26, 2, 2, 28, 2, 2, 2, 2),
		},
		{
			name: "torch scatter_ example 1: src larger than index",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(zeros(tensor.Int64, shape{3, 5}), tensortest.I64(shape{1, 4}, 0, 1, 2, 0), arange, 0, engine.ScatterOptions{})
			},
			want: tensortest.I64(shape{3, 5}, 1, 0, 0, 4, 0, 0, 2, 0, 0, 0, 0, 0, 3, 0, 0),
		},
		{
			name: "torch scatter_ example 2",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(zeros(tensor.Int64, shape{3, 5}), tensortest.I64(shape{2, 3}, 0, 1, 2, 0, 1, 4), arange, 1, engine.ScatterOptions{})
			},
			want: tensortest.I64(shape{3, 5}, 1, 2, 3, 0, 0, 6, 7, 0, 0, 8, 0, 0, 0, 0, 0),
		},
		{
			name: "torch scatter_ with reduce multiply",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F64(shape{2, 4}, 2, 2, 2, 2, 2, 2, 2, 2), tensortest.I64(shape{2, 1}, 2, 3),
					tensortest.F64(shape{2, 1}, 1.23, 1.23), 1, engine.ScatterOptions{Reduction: engine.Mul})
			},
			want: tensortest.F64(shape{2, 4}, 2, 2, 2.46, 2, 2, 2, 2, 2.46),
		},
		{
			name: "mindspore skips out-of-range indices",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{3}, 1, 2, 3), tensortest.I64(shape{4}, 3, -4, -3, 2),
					tensortest.F32(shape{4}, 7, 8, 9, 10), 0, engine.ScatterOptions{Rules: skipBad, Reduction: engine.Add})
			},
			want: tensortest.F32(shape{3}, 10, 2, 13),
		},
		{
			name: "negative indices refused",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{2, 2}, 1, 2, 3, 4), tensortest.I64(shape{2, 1}, 0, -1),
					tensortest.F32(shape{2, 1}, 7, 8), 1, engine.ScatterOptions{})
			},
			wantErr: engine.ErrIndex, bad: []int{1},
		},
		{
			name: "indices larger than data off the axis",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{1, 2}, 1, 2), tensortest.I64(shape{2, 1}, 0, 0), tensortest.F32(shape{2, 1}, 7, 8), 1, engine.ScatterOptions{})
			},
			wantErr: engine.ErrShape,
		},
		{
			name: "indices larger than updates",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{3}, 1, 2, 3), tensortest.I64(shape{2}, 0, 0), tensortest.F32(shape{1}, 7), 0, engine.ScatterOptions{})
			},
			wantErr: engine.ErrShape,
		},
		{
			name: "axis out of range",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{3}, 1, 2, 3), tensortest.I64(shape{1}, 0), tensortest.F32(shape{1}, 7), 1, engine.ScatterOptions{})
			},
			wantErr: engine.ErrArgument,
		},
		{
			name: "sub cannot exclude self",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(tensortest.F32(shape{1}, 1), tensortest.I64(shape{1}, 0), tensortest.F32(shape{1}, 7), 0,
					engine.ScatterOptions{Reduction: engine.Sub, ExcludeSelf: true})
			},
			wantErr: engine.ErrArgument,
		},
	})
}

// One position, value self, receiving updates ups under opt.
func one(self, ups tensor.Tensor, opt engine.ScatterOptions) func() (tensor.Tensor, error) {
	return func() (tensor.Tensor, error) {
		return ScatterElements(self, tensortest.I64(shape{ups.Len()}, make([]int64, ups.Len())...), ups, 0, opt)
	}
}

// The arithmetic of the reductions: the shared rules and the options.
func TestReductions(t *testing.T) {
	nanF := float32(nan)
	runCases(t, []refCase{
		{name: "max propagates a NaN update", run: one(tensortest.F32(shape{1}, 1), tensortest.F32(shape{2}, nanF, 5), engine.ScatterOptions{Reduction: engine.Max}),
			want: tensortest.F32(shape{1}, nanF)},
		{name: "min keeps a NaN value", run: one(tensortest.F32(shape{1}, nanF), tensortest.F32(shape{1}, 5), engine.ScatterOptions{Reduction: engine.Min}),
			want: tensortest.F32(shape{1}, nanF)},
		{name: "std::max ignores a NaN update", run: one(tensortest.F32(shape{1}, 1), tensortest.F32(shape{2}, nanF, 5), engine.ScatterOptions{Reduction: engine.Max, Arith: engine.Arith{MinMax: engine.MinMaxStd}}),
			want: tensortest.F32(shape{1}, 5)},
		{name: "std::min keeps a NaN value", run: one(tensortest.F32(shape{1}, nanF), tensortest.F32(shape{1}, 5), engine.ScatterOptions{Reduction: engine.Min, Arith: engine.Arith{MinMax: engine.MinMaxStd}}),
			want: tensortest.F32(shape{1}, nanF)},
		{name: "max of +0 and -0 keeps the existing", run: one(tensortest.F64(shape{1}, 0), tensortest.F64(shape{1}, negZero), engine.ScatterOptions{Reduction: engine.Max}),
			want: tensortest.F64(shape{1}, 0)},
		{name: "min of -0 and +0 keeps the existing", run: one(tensortest.F64(shape{1}, negZero), tensortest.F64(shape{1}, 0), engine.ScatterOptions{Reduction: engine.Min}),
			want: tensortest.F64(shape{1}, negZero)},
		{name: "int8 sums wrap", run: one(ints(tensor.Int8, shape{1}, 100), ints(tensor.Int8, shape{1}, 100), engine.ScatterOptions{Reduction: engine.Add}),
			want: ints(tensor.Int8, shape{1}, -56)},
		{name: "uint8 differences wrap", run: one(ints(tensor.Uint8, shape{1}, 1), ints(tensor.Uint8, shape{1}, 2), engine.ScatterOptions{Reduction: engine.Sub}),
			want: ints(tensor.Uint8, shape{1}, 255)},
		{name: "integer mean rounds toward -Inf", run: one(ints(tensor.Int32, shape{1}, -3), ints(tensor.Int32, shape{1}, -4), engine.ScatterOptions{Reduction: engine.Mean}),
			want: ints(tensor.Int32, shape{1}, -4)},
		{name: "mean without self", run: one(tensortest.F32(shape{1}, 100), tensortest.F32(shape{2}, 1, 2), engine.ScatterOptions{Reduction: engine.Mean, ExcludeSelf: true}),
			want: tensortest.F32(shape{1}, 1.5)},
		{
			// torch: 0 + 127 ones, counted 128 in int8, which is -128.
			name: "an int8 count in the element type wraps",
			run: func() (tensor.Tensor, error) {
				return ScatterElements(ints(tensor.Int8, shape{1}, 0), tensortest.I64(shape{127}, make([]int64, 127)...),
					ints(tensor.Int8, shape{127}, slices.Repeat([]int{1}, 127)...), 0, engine.ScatterOptions{Reduction: engine.Mean, Arith: engine.Arith{CountInType: true}})
			},
			want: ints(tensor.Int8, shape{1}, -1),
		},
		{
			name: "dividing all by their count changes NaN+3i",
			run: func() (tensor.Tensor, error) {
				c := c64(shape{2}, complex(float32(nan), 3), complex(4, 6))
				return ScatterElements(c, tensortest.I64(shape{1}, 1), c64(shape{1}, 2), 0,
					engine.ScatterOptions{Reduction: engine.Mean, Arith: engine.Arith{DivideAll: true}})
			},
			want: c64(shape{2}, complex(float32(nan), float32(nan)), complex(3, 3)),
		},
		{
			name: "dividing only the updated ones leaves NaN+3i",
			run: func() (tensor.Tensor, error) {
				c := c64(shape{2}, complex(float32(nan), 3), complex(4, 6))
				return ScatterElements(c, tensortest.I64(shape{1}, 1), c64(shape{1}, 2), 0,
					engine.ScatterOptions{Reduction: engine.Mean})
			},
			want: c64(shape{2}, complex(float32(nan), 3), complex(3, 3)),
		},
		{name: "without self a sum of -0 is -0", run: one(tensortest.F32(shape{1}, 5), tensortest.F32(shape{1}, float32(negZero)), engine.ScatterOptions{Reduction: engine.Add, ExcludeSelf: true}),
			want: tensortest.F32(shape{1}, float32(negZero))},
		{name: "from a zero start it is +0", run: one(tensortest.F32(shape{1}, 5), tensortest.F32(shape{1}, float32(negZero)), engine.ScatterOptions{Reduction: engine.Add, ExcludeSelf: true, Arith: engine.Arith{ZeroStart: true}}),
			want: tensortest.F32(shape{1}, 0)},
		{name: "a zero start does not change a product", run: one(tensortest.F32(shape{1}, 5), tensortest.F32(shape{2}, 2, 3), engine.ScatterOptions{Reduction: engine.Mul, ExcludeSelf: true, Arith: engine.Arith{ZeroStart: true}}),
			want: tensortest.F32(shape{1}, 6)},
		{name: "a complex product without self starts from 1+0i", run: one(c64(shape{1}, 16), c64(shape{1}, complex(float32(nan), 3)), engine.ScatterOptions{Reduction: engine.Mul, ExcludeSelf: true, Arith: engine.Arith{ZeroStart: true}}),
			want: c64(shape{1}, complex(float32(nan), float32(nan)))},
		// (1+e + ei)(1+e - ei) with e = 2^-12 has the real part
		// (1+e)^2 + e^2 = 1 + 2^-11 + 2^-23 exactly, which Go's complex64
		// product (in float64, rounded once) gives. c10::complex rounds
		// (1+e)^2 = 1 + 2^-11 + 2^-24 first, a tie, to the even 1 + 2^-11,
		// and adding e^2 = 2^-24 is a tie again.
		{name: "a complex64 product rounds once", run: one(c64(shape{1}, complex(1+e12, e12)), c64(shape{1}, complex(1+e12, -e12)),
			engine.ScatterOptions{Reduction: engine.Mul}), want: c64(shape{1}, complex(1+2*e12+2*e12*e12, 0))},
		{name: "a c10::complex product rounds each operation", run: one(c64(shape{1}, complex(1+e12, e12)), c64(shape{1}, complex(1+e12, -e12)),
			engine.ScatterOptions{Reduction: engine.Mul, Arith: engine.Arith{Complex: engine.ComplexC10}}), want: c64(shape{1}, complex(1+2*e12, 0))},
		// 5/3 is 0x3fd55555 in float32; 5 times the float32 1/3 (0x3eaaaaab,
		// a little more than 1/3) rounds up to 0x3fd55556.
		{name: "a complex64 mean divides", run: one(c64(shape{1}, 1), c64(shape{2}, 2, 2), engine.ScatterOptions{Reduction: engine.Mean}),
			want: c64(shape{1}, complex(math.Float32frombits(0x3fd55555), 0))},
		{name: "a c10::complex mean multiplies by the reciprocal", run: one(c64(shape{1}, 1), c64(shape{2}, 2, 2),
			engine.ScatterOptions{Reduction: engine.Mean, Arith: engine.Arith{Complex: engine.ComplexC10}}), want: c64(shape{1}, complex(math.Float32frombits(0x3fd55556), 0))},
		{name: "a c10::complex mean of an infinite part gives NaN in the other", run: one(c64(shape{1}, complex(float32(math.Inf(1)), 0)),
			c64(shape{1}, 0), engine.ScatterOptions{Reduction: engine.Mean, Arith: engine.Arith{Complex: engine.ComplexC10}}), want: c64(shape{1}, complex(float32(math.Inf(1)), float32(nan)))},
		{name: "a position without updates keeps its value", run: func() (tensor.Tensor, error) {
			return ScatterElements(tensortest.F32(shape{2}, 5, 6), tensortest.I64(shape{1}, 1), tensortest.F32(shape{1}, 1), 0, engine.ScatterOptions{Reduction: engine.Min, ExcludeSelf: true})
		}, want: tensortest.F32(shape{2}, 5, 1)},
		// 2048 + 1 rounds back to 2048 in float16 (ties to even); 2048 + 2
		// is exact.
		{name: "float16 rounds after every step", run: one(half(shape{1}, 2048), half(shape{2}, 1, 1), engine.ScatterOptions{Reduction: engine.Add}),
			want: half(shape{1}, 2048)},
		{name: "float16 rounds once", run: one(half(shape{1}, 2048), half(shape{2}, 1, 1), engine.ScatterOptions{Reduction: engine.Add, Arith: engine.Arith{HalfOnce: true}}),
			want: half(shape{1}, 2050)},
		{name: "float16 mean divides the rounded sum", run: one(half(shape{1}, 2048), half(shape{2}, 1, 1), engine.ScatterOptions{Reduction: engine.Mean, Arith: engine.Arith{HalfOnce: true}}),
			want: half(shape{1}, float32(2050)/3)},
		// 256 + 1 is a tie between 256 and 258 in bfloat16, which rounds
		// to 256.
		{name: "bfloat16 rounds after every step", run: one(bf16(shape{1}, 256), bf16(shape{2}, 1, 1), engine.ScatterOptions{Reduction: engine.Add}),
			want: bf16(shape{1}, 256)},
		{name: "bfloat16 rounds once", run: one(bf16(shape{1}, 256), bf16(shape{2}, 1, 1), engine.ScatterOptions{Reduction: engine.Add, Arith: engine.Arith{HalfOnce: true}}),
			want: bf16(shape{1}, 258)},
		{name: "bool add is OR", run: one(bools(shape{1}, false), bools(shape{2}, false, true), engine.ScatterOptions{Reduction: engine.Add}),
			want: bools(shape{1}, true)},
		{name: "bool mul is AND", run: one(bools(shape{1}, true), bools(shape{2}, true, false), engine.ScatterOptions{Reduction: engine.Mul}),
			want: bools(shape{1}, false)},
		{name: "bool sub is XOR", run: one(bools(shape{1}, true), bools(shape{2}, true, true), engine.ScatterOptions{Reduction: engine.Sub}),
			want: bools(shape{1}, true)},
		{name: "bool max is OR", run: one(bools(shape{1}, false), bools(shape{1}, true), engine.ScatterOptions{Reduction: engine.Max}),
			want: bools(shape{1}, true)},
		{name: "bool min is AND", run: one(bools(shape{1}, true), bools(shape{1}, false), engine.ScatterOptions{Reduction: engine.Min}),
			want: bools(shape{1}, false)},
		{name: "none keeps the last update", run: one(tensortest.F32(shape{1}, 1), tensortest.F32(shape{3}, 2, 3, 4), engine.ScatterOptions{}),
			want: tensortest.F32(shape{1}, 4)},
		{name: "bool has no mean", run: one(bools(shape{1}, true), bools(shape{1}, true), engine.ScatterOptions{Reduction: engine.Mean}),
			wantErr: engine.ErrType},
		{name: "strings have no product", run: one(tensortest.Str(shape{1}, "a"), tensortest.Str(shape{1}, "b"), engine.ScatterOptions{Reduction: engine.Mul, Arith: engine.Arith{ConcatStrings: true}}),
			wantErr: engine.ErrType},
		{name: "strings have no sum unless asked", run: one(tensortest.Str(shape{1}, "a"), tensortest.Str(shape{1}, "b"), engine.ScatterOptions{Reduction: engine.Add}),
			wantErr: engine.ErrType},
		{name: "strings concatenate from the first update without self", run: one(tensortest.Str(shape{1}, "a"), tensortest.Str(shape{2}, "b", "c"),
			engine.ScatterOptions{Reduction: engine.Add, ExcludeSelf: true, Arith: engine.Arith{ConcatStrings: true}}), want: tensortest.Str(shape{1}, "bc")},
		{name: "data and updates of different types", run: one(tensortest.F32(shape{1}, 1), tensortest.F64(shape{1}, 1), engine.ScatterOptions{}),
			wantErr: engine.ErrType},
	})
}

// The examples of the ONNX GatherND, GatherElements and Gather
// specifications, TensorFlow's GatherNd and tf.gather with batch_dims.
func TestGathers(t *testing.T) {
	abcd := tensortest.Str(shape{2, 2}, "a", "b", "c", "d")
	cube := tensortest.Str(shape{2, 2, 2}, "a0", "b0", "c0", "d0", "a1", "b1", "c1", "d1")
	runCases(t, []refCase{
		{name: "tensorflow simple indexing", run: func() (tensor.Tensor, error) {
			return GatherND(abcd, tensortest.I64(shape{2, 2}, 0, 0, 1, 1), 0, inRange)
		}, want: tensortest.Str(shape{2}, "a", "d")},
		{name: "tensorflow slice indexing", run: func() (tensor.Tensor, error) {
			return GatherND(abcd, tensortest.I64(shape{2, 1}, 1, 0), 0, inRange)
		}, want: tensortest.Str(shape{2, 2}, "c", "d", "a", "b")},
		{name: "tensorflow 3-tensor", run: func() (tensor.Tensor, error) {
			return GatherND(cube, tensortest.I64(shape{2, 2}, 0, 1, 1, 0), 0, inRange)
		}, want: tensortest.Str(shape{2, 2}, "c0", "d0", "a1", "b1")},
		{name: "tensorflow batched 3-tensor", run: func() (tensor.Tensor, error) {
			return GatherND(cube, tensortest.I64(shape{2, 2, 3}, 0, 0, 1, 1, 0, 1, 0, 1, 1, 1, 1, 0), 0, inRange)
		}, want: tensortest.Str(shape{2, 2}, "b0", "b1", "d0", "c1")},
		{name: "onnx batch_dims 1", run: func() (tensor.Tensor, error) {
			return GatherND(tensortest.I64(shape{2, 2, 2}, 0, 1, 2, 3, 4, 5, 6, 7), tensortest.I64(shape{2, 1}, 1, 0), 1, fromEnd)
		}, want: tensortest.I64(shape{2, 2}, 2, 3, 4, 5)},
		{name: "gather_nd with empty tuples copies everything", run: func() (tensor.Tensor, error) {
			return GatherND(abcd, tensortest.I64(shape{2, 0}), 0, inRange)
		}, want: tensortest.Str(shape{2, 2, 2}, "a", "b", "c", "d", "a", "b", "c", "d")},
		{name: "gather_nd checks tuples whose slices are empty", run: func() (tensor.Tensor, error) {
			return GatherND(tensortest.F32(shape{2, 0}), tensortest.I64(shape{1, 1}, 2), 0, fromEnd)
		}, wantErr: engine.ErrIndex, bad: []int{0}},
		{name: "gather_nd skips with zeros", run: func() (tensor.Tensor, error) {
			return GatherND(abcd, tensortest.I64(shape{2, 1}, 5, -1), 0, skipBad)
		}, want: tensortest.Str(shape{2, 2}, "", "", "c", "d")},
		{name: "gather_nd batch dimensions must agree", run: func() (tensor.Tensor, error) {
			return GatherND(abcd, tensortest.I64(shape{3, 1}, 0, 0, 0), 1, inRange)
		}, wantErr: engine.ErrShape},
		{name: "onnx gather_elements example 1", run: func() (tensor.Tensor, error) {
			return GatherElements(tensortest.F32(shape{2, 2}, 1, 2, 3, 4), tensortest.I64(shape{2, 2}, 0, 0, 1, 0), 1, fromEnd)
		}, want: tensortest.F32(shape{2, 2}, 1, 1, 4, 3)},
		{name: "onnx gather_elements example 2", run: func() (tensor.Tensor, error) {
			return GatherElements(tensortest.F32(shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9), tensortest.I64(shape{2, 3}, 1, 2, 0, 2, 0, 0), 0, fromEnd)
		}, want: tensortest.F32(shape{2, 3}, 4, 8, 3, 7, 2, 3)},
		{name: "onnx gather_elements negative indices", run: func() (tensor.Tensor, error) {
			return GatherElements(tensortest.F32(shape{3, 3}, 1, 2, 3, 4, 5, 6, 7, 8, 9), tensortest.I64(shape{2, 3}, -1, -2, 0, -2, 0, 0), 0, fromEnd)
		}, want: tensortest.F32(shape{2, 3}, 7, 5, 3, 4, 2, 3)},
		{name: "gather_elements refuses negative indices", run: func() (tensor.Tensor, error) {
			return GatherElements(tensortest.F32(shape{3}, 1, 2, 3), tensortest.I64(shape{3}, 0, -1, 3), 0, inRange)
		}, wantErr: engine.ErrIndex, bad: []int{1, 2}},
		{name: "onnx gather example 1", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{3, 2}, 1.0, 1.2, 2.3, 3.4, 4.5, 5.7), tensortest.I64(shape{2, 2}, 0, 1, 1, 2), 0, 0, fromEnd)
		}, want: tensortest.F32(shape{2, 2, 2}, 1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7)},
		{name: "onnx gather example 2", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{3, 3}, 1.0, 1.2, 1.9, 2.3, 3.4, 3.9, 4.5, 5.7, 5.9), tensortest.I64(shape{1, 2}, 0, 2), 1, 0, fromEnd)
		}, want: tensortest.F32(shape{3, 1, 2}, 1.0, 1.9, 2.3, 3.9, 4.5, 5.9)},
		{name: "gather with a scalar index drops the axis", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{3}, 1, 2, 3), tensortest.I64(shape{}, -1), 0, 0, fromEnd)
		}, want: tensortest.F32(shape{}, 3)},
		{name: "tf.gather with batch_dims 1", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{2, 3}, 1, 2, 3, 4, 5, 6), tensortest.I64(shape{2, 2}, 2, 0, 1, 1), 1, 1, inRange)
		}, want: tensortest.F32(shape{2, 2}, 3, 1, 5, 5)},
		{name: "gather checks indices even when the output is empty", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{0, 2}), tensortest.I64(shape{2}, 1, 2), 1, 0, inRange)
		}, wantErr: engine.ErrIndex, bad: []int{1}},
		{name: "gather batch_dims beyond axis", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{2, 3}, 1, 2, 3, 4, 5, 6), tensortest.I64(shape{2, 2}, 0, 0, 0, 0), 0, 1, inRange)
		}, wantErr: engine.ErrArgument},
		{name: "float indices", run: func() (tensor.Tensor, error) {
			return Gather(tensortest.F32(shape{2}, 1, 2), tensortest.F32(shape{1}, 0), 0, 0, inRange)
		}, wantErr: engine.ErrType},
	})
}

func TestDiff(t *testing.T) {
	tests := []struct {
		name string
		a, b tensor.Tensor
		same bool
	}{
		{"NaN payloads", tensortest.F64(shape{1}, math.Float64frombits(0x7ff8000000000001)), tensortest.F64(shape{1}, nan), true},
		{"float16 NaNs", half(shape{1}, float32(nan)), tensor.Must(tensor.From(shape{1}, []float16.Float16{0x7e01})), true},
		{"complex NaN parts", c64(shape{1}, complex(float32(nan), 1)), c64(shape{1}, complex(-float32(nan), 1)), true},
		{"+0 and -0", tensortest.F64(shape{1}, 0), tensortest.F64(shape{1}, negZero), false},
		{"NaN and a number", tensortest.F32(shape{1}, float32(nan)), tensortest.F32(shape{1}, 1), false},
		{"shapes", tensortest.F32(shape{1, 1}, 1), tensortest.F32(shape{1}, 1), false},
		{"types", tensortest.F32(shape{1}, 1), tensortest.F64(shape{1}, 1), false},
		{"strings", tensortest.Str(shape{2}, "a", "b"), tensortest.Str(shape{2}, "a", "b"), true},
	}
	for _, tt := range tests {
		if got := Diff(tt.a, tt.b) == ""; got != tt.same {
			t.Errorf("%s: Diff(%v, %v) says same = %v, want %v", tt.name, tt.a, tt.b, got, tt.same)
		}
	}
}

func TestDisagreement(t *testing.T) {
	// The operator's own classes, which sameClass pairs with the
	// reference's.
	opShape, opIndex := errors.New("op: shape"), errors.New("op: index")
	classes := map[error]error{opShape: engine.ErrShape, opIndex: engine.ErrIndex}
	sameClass := func(err, wantErr error) bool {
		for op, ref := range classes {
			if errors.Is(err, op) {
				return errors.Is(wantErr, ref)
			}
		}
		return false
	}
	one, two := tensortest.F32(shape{1}, 1), tensortest.F32(shape{1}, 2)
	indexErr := &IndexError{Bad: []int{0}}
	tests := []struct {
		name     string
		got      tensor.Tensor
		err      error
		want     tensor.Tensor
		wantErr  error
		disagree bool
	}{
		{"same values", one, nil, one.Clone(), nil, false},
		{"other values", one, nil, two, nil, true},
		{"both failed alike", tensor.Tensor{}, opShape, tensor.Tensor{}, engine.ErrShape, false},
		{"both index errors", tensor.Tensor{}, opIndex, tensor.Tensor{}, indexErr, false},
		{"a shape error for a type error", tensor.Tensor{}, opShape, tensor.Tensor{}, engine.ErrType, true},
		{"a shape error for an index error", tensor.Tensor{}, opShape, tensor.Tensor{}, indexErr, true},
		{"an index error for a shape error", tensor.Tensor{}, opIndex, tensor.Tensor{}, engine.ErrShape, true},
		{"an error of no class", tensor.Tensor{}, errors.New("other"), tensor.Tensor{}, engine.ErrShape, true},
		{"an error for a result", tensor.Tensor{}, opShape, one, nil, true},
		{"a result for an error", one, nil, tensor.Tensor{}, engine.ErrType, true},
	}
	for _, tt := range tests {
		if d := Disagreement(tt.got, tt.err, tt.want, tt.wantErr, sameClass); (d != "") != tt.disagree {
			t.Errorf("%s: Disagreement = %q, want disagreement %v", tt.name, d, tt.disagree)
		}
	}
}

// TestIndexErrorsAreEngineClass: the reference's index errors match the
// engine's ErrIndex, and no other class.
func TestIndexErrorsAreEngineClass(t *testing.T) {
	for _, err := range []error{&IndexError{Bad: []int{1}}, &SegmentError{Kind: "decreasing", Pos: 2}} {
		wrapped := fmt.Errorf("wrapped: %w", err)
		if !errors.Is(wrapped, engine.ErrIndex) || errors.Is(wrapped, engine.ErrShape) || errors.Is(wrapped, engine.ErrArgument) {
			t.Errorf("%v: not of the engine's class ErrIndex alone", wrapped)
		}
	}
}
