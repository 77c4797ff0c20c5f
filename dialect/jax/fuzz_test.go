package jax_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// fuzzTypes are the element types the fuzz target picks from: JAX's (no
// strings), every size and kind of arithmetic.
var fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Int32,
	tensor.Uint16, tensor.Uint64, tensor.Bool, tensor.Complex64}

var indexTypes = []tensor.DType{tensor.Int8, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint32, tensor.Uint64}

var modes = []jax.Mode{jax.Default, jax.Clip, jax.Fill, jax.Drop, jax.PromiseInBounds}

// scatters are the scatter functions, allocating and Into, with the
// reference's computations.
var scatters = []struct {
	name string
	comp reftest.Computation
	f    func(operand, indices, updates tensor.Tensor, d jax.ScatterDimensionNumbers, m jax.Mode) (tensor.Tensor, error)
	into func(dst, operand, indices, updates tensor.Tensor, d jax.ScatterDimensionNumbers, m jax.Mode) error
}{
	{"Scatter", reftest.ComputeReplace, jax.Scatter, jax.ScatterInto},
	{"ScatterAdd", reftest.ComputeAdd, jax.ScatterAdd, jax.ScatterAddInto},
	{"ScatterSub", reftest.ComputeSubtract, jax.ScatterSub, jax.ScatterSubInto},
	{"ScatterMul", reftest.ComputeMultiply, jax.ScatterMul, jax.ScatterMulInto},
	{"ScatterMin", reftest.ComputeMinimum, jax.ScatterMin, jax.ScatterMinInto},
	{"ScatterMax", reftest.ComputeMaximum, jax.ScatterMax, jax.ScatterMaxInto},
}

// FuzzOps calls gather (in every mode, the default fill value or one of
// the operand's type) and the scatters on dimension numbers, shapes and
// start indices the fuzzer's bytes build, and the dynamic slices, each in
// its allocating and Into forms (a scatter and a dynamic update slice
// also in place), and checks every result bit for bit, or its error's
// class, against the reference loops written from StableHLO's
// specification with JAX's modes.
func FuzzOps(f *testing.F) {
	for i := range 32 {
		f.Add([]byte{byte(i), byte(i / 4), byte(i / 8), 3, 2, 3, 1, 0, 2, 1, 3, 0, 1, 2, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		op := in.Pick(4)
		dt := fuzzTypes[in.Pick(len(fuzzTypes))]
		it := indexTypes[in.Pick(len(indexTypes))]
		mode := modes[in.Pick(len(modes))]
		switch op {
		case 0, 1:
			h := in.HLO(true, it.IsUnsigned())
			operand, indices := in.Elements(dt, h.Operand), tensortest.FromInts(it, h.Indices, h.IndexValues...)
			if op == 0 {
				d := jax.GatherDimensionNumbers{OffsetDims: h.OtherWin, CollapsedSliceDims: h.Collapsed, StartIndexMap: h.StartMap,
					OperandBatchingDims: h.OpBatch, StartIndicesBatchingDims: h.IndBatch}
				rd := engine.GatherDims{OffsetDims: h.OtherWin, CollapsedSliceDims: h.Collapsed, OperandBatchingDims: h.OpBatch,
					StartIndicesBatchingDims: h.IndBatch, StartIndexMap: h.StartMap, IndexVectorDim: h.VecDim, SliceSizes: h.SliceSizes}
				rmode, fill, rfill := reftest.GatherClamp, tensor.Tensor{}, any(nil)
				if mode == jax.Fill || mode == jax.Drop {
					rmode = reftest.GatherFill
					if in.Bool() {
						fill = in.Elements(dt, tensor.Shape{})
						rfill = fill.At(0)
					}
				}
				want, wantErr := reftest.HLOGather(operand, indices, rd, rmode, rfill)
				got, err := jax.Gather(operand, indices, d, h.SliceSizes, mode, fill)
				check(t, "Gather "+string(mode), got, err, want, wantErr, h)
				dst := tensortest.Junk(dt, h.Other)
				check(t, "GatherInto "+string(mode), dst, jax.GatherInto(dst, operand, indices, d, h.SliceSizes, mode, fill), want, wantErr, h)
				return
			}
			s := scatters[in.Pick(len(scatters))]
			if dt.IsComplex() && (s.comp == reftest.ComputeMinimum || s.comp == reftest.ComputeMaximum) {
				s = scatters[1] // complex numbers have no order here
			}
			d := jax.ScatterDimensionNumbers{UpdateWindowDims: h.OtherWin, InsertedWindowDims: h.Collapsed,
				ScatterDimsToOperandDims: h.StartMap, OperandBatchingDims: h.OpBatch, ScatterIndicesBatchingDims: h.IndBatch}
			rd := engine.ScatterDims{UpdateWindowDims: h.OtherWin, InsertedWindowDims: h.Collapsed, InputBatchingDims: h.OpBatch,
				ScatterIndicesBatchingDims: h.IndBatch, ScatterDimsToOperandDims: h.StartMap, IndexVectorDim: h.VecDim}
			rmode := reftest.ScatterSkipWindow
			if mode == jax.Clip {
				rmode = reftest.ScatterClamp
			}
			updates := in.Elements(dt, h.Other)
			if dt == tensor.Bool && (s.comp == reftest.ComputeAdd || s.comp == reftest.ComputeSubtract || s.comp == reftest.ComputeMultiply) {
				// lax.add, lax.sub and lax.mul take numbers only: a call
				// that would otherwise run is refused as a type error.
				_, wantErr := reftest.HLOScatter(operand, indices, updates, rd, reftest.ComputeReplace, rmode)
				_, err := s.f(operand, indices, updates, d, mode)
				errInto := s.into(tensortest.Junk(dt, h.Operand), operand, indices, updates, d, mode)
				for _, e := range []error{err, errInto} {
					if wantErr == nil && !errors.Is(e, engine.ErrType) || wantErr != nil && e == nil {
						t.Fatalf("%s of bool: %v, want a type error\n%+v", s.name, e, h)
					}
				}
				return
			}
			want, wantErr := reftest.HLOScatter(operand, indices, updates, rd, s.comp, rmode)
			got, err := s.f(operand, indices, updates, d, mode)
			check(t, s.name+" "+string(mode), got, err, want, wantErr, h)
			dst := tensortest.Junk(dt, h.Operand)
			check(t, s.name+"Into "+string(mode), dst, s.into(dst, operand, indices, updates, d, mode), want, wantErr, h)
			dst = operand.Clone()
			err = s.into(dst, dst, indices, updates, d, mode)
			check(t, s.name+"Into in place "+string(mode), dst, err, want, wantErr, h)
			if d := reftest.Untouched(dst, err, operand); d != "" {
				t.Fatalf("%sInto in place %s: %s\n%+v", s.name, mode, d, h)
			}
		default:
			operand := in.Elements(dt, in.Shape())
			starts := make([]tensor.Tensor, operand.Rank())
			sizes := make([]int, operand.Rank())
			shifted := make([]tensor.Tensor, operand.Rank()) // as JAX counts a negative start from the end
			for d := range starts {
				v := in.Pick(9) - 3
				if it.IsUnsigned() && v < 0 {
					v = 0
				}
				starts[d] = tensortest.FromInts(it, tensor.Shape{}, v)
				if v < 0 {
					v += operand.Dim(d)
				}
				shifted[d] = tensortest.FromInts(tensor.Int64, tensor.Shape{}, v)
				sizes[d] = in.Pick(operand.Dim(d) + 1)
			}
			if op == 2 {
				want, wantErr := reftest.HLODynamicSlice(operand, shifted, sizes)
				got, err := jax.DynamicSlice(operand, starts, sizes, true)
				check(t, "DynamicSlice", got, err, want, wantErr, sizes)
				dst := tensortest.Junk(dt, sizes)
				check(t, "DynamicSliceInto", dst, jax.DynamicSliceInto(dst, operand, starts, true), want, wantErr, sizes)
				return
			}
			update := in.Elements(dt, sizes)
			want, wantErr := reftest.HLODynamicUpdateSlice(operand, update, shifted)
			got, err := jax.DynamicUpdateSlice(operand, update, starts, true)
			check(t, "DynamicUpdateSlice", got, err, want, wantErr, sizes)
			dst := tensortest.Junk(dt, operand.Shape())
			check(t, "DynamicUpdateSliceInto", dst, jax.DynamicUpdateSliceInto(dst, operand, update, starts, true), want, wantErr, sizes)
			dst = operand.Clone()
			err = jax.DynamicUpdateSliceInto(dst, dst, update, starts, true)
			check(t, "DynamicUpdateSliceInto in place", dst, err, want, wantErr, sizes)
			if d := reftest.Untouched(dst, err, operand); d != "" {
				t.Fatalf("DynamicUpdateSliceInto in place: %s\n%+v", d, sizes)
			}
		}
	})
}

// check fails t when the outcome of the named call disagrees with the
// reference's.
func check(t *testing.T, what string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error, ctx any) {
	t.Helper()
	if d := reftest.Disagreement(got, err, want, wantErr, optest.SameHLOClass); d != "" {
		t.Fatalf("%s: %s\n%s", what, d, fmt.Sprintf("%+v", ctx))
	}
}
