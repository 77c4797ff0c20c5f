package engine_test

import (
	"fmt"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// generalTypes are the element types FuzzGeneral picks from: StableHLO's,
// every size of element and every kind of arithmetic.
var generalTypes = []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Int8,
	tensor.Int32, tensor.Uint8, tensor.Uint64, tensor.Bool, tensor.Complex64}

// generalComputations pairs the reference's update computations with the
// engine's reductions.
var generalComputations = []struct {
	comp reftest.Computation
	red  Reduction
}{
	{reftest.ComputeReplace, None}, {reftest.ComputeAdd, Add}, {reftest.ComputeMultiply, Mul},
	{reftest.ComputeMaximum, Max}, {reftest.ComputeMinimum, Min},
	{reftest.ComputeAnd, And}, {reftest.ComputeOr, Or}, {reftest.ComputeXor, Xor},
	{reftest.ComputeSubtract, Sub},
}

// FuzzGeneral runs the general gather and scatter on dimension numbers the
// fuzzer's bytes build (batching dimensions, collapsed and inserted ones,
// windows smaller than the operand, the index vector along any dimension
// of the indices or implicit, result and updates dimensions in any order),
// indices in and out of bounds, every update computation and the
// out-of-bounds rules of StableHLO, XLA and JAX (clamp, skip, fill), and
// checks each result bit for bit (or its error's class) against the
// reference loops written from StableHLO's specification
// (reftest.HLOGather, reftest.HLOScatter). Half of the calls may take a
// form's fast path where the dimension numbers are a form's; the other
// half go through the general core whatever they are.
func FuzzGeneral(f *testing.F) {
	for i := range 40 {
		f.Add([]byte{byte(i), byte(i / 8), 3, 2, 3, 1, 0, 2, 1, 3, 0, 1, 2, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		scatter := in.Bool()
		k := FastKernels
		if in.Bool() {
			k = GeneralKernels
		}
		if in.Bool() {
			// Split the call among workers, a scatter by slabs into one
			// slab at a time, and single elements sorted by block of dst.
			defer SetMinWork(1)()
			defer SetSlabBytes(1)()
			defer SetBlocked()()
		}
		g := readGeneralCall(in, k, scatter)
		if d := g.check(); d != "" {
			t.Fatalf("%s", d)
		}
	})
}

// generalCall is one call of the general gather or scatter with the
// reference's outcome.
type generalCall struct {
	what    string
	run     func() (tensor.Tensor, error)
	want    tensor.Tensor
	wantErr error
}

func (g *generalCall) check() string {
	got, err := g.run()
	if d := reftest.Disagreement(got, err, g.want, g.wantErr, sameClass); d != "" {
		return g.what + ": " + d
	}
	return ""
}

// readGeneralCall decodes a call of k.GatherGeneral or k.ScatterGeneral
// from in.
func readGeneralCall(in *tensortest.Fuzz, k Kernels, scatter bool) *generalCall {
	dt := generalTypes[in.Pick(len(generalTypes))]
	it := indexTypes[in.Pick(len(indexTypes))]
	h := in.HLO(false, it.IsUnsigned())
	operand, is, other := h.Operand, h.Indices, h.Other
	indices := tensortest.FromInts(it, is, h.IndexValues...)
	data := in.Elements(dt, operand)
	desc := fmt.Sprintf("%v operand %v, indices %v %v, other %v, roles %v", dt, operand, is, h.IndexValues, other, h.Roles)
	if !scatter {
		d := GatherDims{OffsetDims: h.OtherWin, CollapsedSliceDims: h.Collapsed, OperandBatchingDims: h.OpBatch,
			StartIndicesBatchingDims: h.IndBatch, StartIndexMap: h.StartMap, IndexVectorDim: h.VecDim, SliceSizes: h.SliceSizes}
		opt := GatherOptions{Rules: IndexRules{OutOfRange: OutOfRangeClamp}}
		mode, fill := reftest.GatherClamp, any(nil)
		if in.Bool() {
			opt.Rules.OutOfRange, mode = OutOfRangeSkip, reftest.GatherFill
			opt.Fill = in.Elements(dt, tensor.Shape{})
			fill = opt.Fill.At(0)
		}
		want, wantErr := reftest.HLOGather(data, indices, d, mode, fill)
		return &generalCall{
			what: fmt.Sprintf("gather %s, %v: %s", d.String(), opt.Rules, desc),
			run: func() (tensor.Tensor, error) {
				dst := tensortest.Junk(dt, other)
				return dst, k.GatherGeneral(dst, data, indices, &d, opt)
			},
			want: want, wantErr: wantErr,
		}
	}
	c := generalComputations[in.Pick(len(generalComputations))]
	if (c.red == Max || c.red == Min) && dt.IsComplex() {
		c = generalComputations[0] // complex numbers have no order here
	}
	d := ScatterDims{UpdateWindowDims: h.OtherWin, InsertedWindowDims: h.Collapsed, InputBatchingDims: h.OpBatch,
		ScatterIndicesBatchingDims: h.IndBatch, ScatterDimsToOperandDims: h.StartMap, IndexVectorDim: h.VecDim}
	updates := in.Elements(dt, other)
	// The reference refuses to subtract bool elements (C23); the engine
	// refuses it under NumbersOnly, as JAX's scatter_sub does.
	opt := ScatterOptions{Reduction: c.red, Rules: IndexRules{OutOfRange: OutOfRangeSkip},
		Arith: Arith{MinMax: MinMaxIEEE, NumbersOnly: c.red == Sub}}
	mode := reftest.ScatterSkipWindow
	if in.Bool() {
		opt.Rules.OutOfRange, mode = OutOfRangeClamp, reftest.ScatterClamp
	}
	want, wantErr := reftest.HLOScatter(data, indices, updates, d, c.comp, mode)
	inPlace := in.Bool()
	return &generalCall{
		what: fmt.Sprintf("scatter %s, %v, %v, in place %v: %s, data %v, updates %v", d.String(), c.comp, opt.Rules, inPlace, desc,
			data, updates),
		run: func() (tensor.Tensor, error) {
			if inPlace {
				dst := data.Clone()
				return dst, k.ScatterGeneral(dst, dst, indices, updates, &d, opt)
			}
			dst := tensortest.Junk(dt, operand)
			return dst, k.ScatterGeneral(dst, data, indices, updates, &d, opt)
		},
		want: want, wantErr: wantErr,
	}
}
