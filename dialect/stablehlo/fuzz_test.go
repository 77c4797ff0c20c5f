package stablehlo_test

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/optest"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// fuzzTypes are the element types the fuzz target picks from: StableHLO's
// (no strings), every size and kind of arithmetic.
var fuzzTypes = []tensor.DType{tensor.Float32, tensor.Float64, tensor.Float16, tensor.BFloat16, tensor.Int8, tensor.Int32,
	tensor.Uint16, tensor.Uint64, tensor.Bool, tensor.Complex64}

var indexTypes = []tensor.DType{tensor.Int8, tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint32, tensor.Uint64}

var computations = []stablehlo.Computation{stablehlo.Replace, stablehlo.Add, stablehlo.Multiply, stablehlo.Maximum,
	stablehlo.Minimum, stablehlo.And, stablehlo.Or, stablehlo.Xor}

// FuzzOps calls each operator, in its allocating and Into forms (a
// scatter also in place), on dimension numbers, shapes and start indices
// the fuzzer's bytes build, and checks every result bit for bit, or its
// error's class, against the reference loops written from StableHLO's
// specification.
func FuzzOps(f *testing.F) {
	for i := range 32 {
		f.Add([]byte{byte(i), byte(i / 4), byte(i / 8), 3, 2, 3, 1, 0, 2, 1, 3, 0, 1, 2, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7})
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := tensortest.NewFuzz(b)
		op := in.Pick(4)
		dt := fuzzTypes[in.Pick(len(fuzzTypes))]
		it := indexTypes[in.Pick(len(indexTypes))]
		switch op {
		case 0, 1:
			h := in.HLO(false, it.IsUnsigned())
			operand, indices := in.Elements(dt, h.Operand), tensortest.FromInts(it, h.Indices, h.IndexValues...)
			if op == 0 {
				d := stablehlo.GatherDims{OffsetDims: h.OtherWin, CollapsedSliceDims: h.Collapsed, OperandBatchingDims: h.OpBatch,
					StartIndicesBatchingDims: h.IndBatch, StartIndexMap: h.StartMap, IndexVectorDim: h.VecDim, SliceSizes: h.SliceSizes}
				want, wantErr := reftest.HLOGather(operand, indices, d, reftest.GatherClamp, nil)
				got, err := stablehlo.Gather(operand, indices, d)
				check(t, "Gather", got, err, want, wantErr, h)
				dst := tensortest.Junk(dt, h.Other)
				check(t, "GatherInto", dst, stablehlo.GatherInto(dst, operand, indices, d), want, wantErr, h)
				return
			}
			c := computations[in.Pick(len(computations))]
			if dt.IsComplex() && (c == stablehlo.Maximum || c == stablehlo.Minimum) {
				c = stablehlo.Add // complex numbers have no order here
			}
			d := stablehlo.ScatterDims{UpdateWindowDims: h.OtherWin, InsertedWindowDims: h.Collapsed, InputBatchingDims: h.OpBatch,
				ScatterIndicesBatchingDims: h.IndBatch, ScatterDimsToOperandDims: h.StartMap, IndexVectorDim: h.VecDim}
			updates := in.Elements(dt, h.Other)
			comp, err := reftest.ParseComputation(string(c))
			if err != nil {
				t.Fatal(err)
			}
			want, wantErr := reftest.HLOScatter(operand, indices, updates, d, comp, reftest.ScatterSkipWindow)
			got, err := stablehlo.Scatter(operand, indices, updates, d, c)
			check(t, "Scatter "+string(c), got, err, want, wantErr, h)
			dst := tensortest.Junk(dt, h.Operand)
			check(t, "ScatterInto "+string(c), dst, stablehlo.ScatterInto(dst, operand, indices, updates, d, c), want, wantErr, h)
			dst = operand.Clone()
			err = stablehlo.ScatterInto(dst, dst, indices, updates, d, c)
			check(t, "ScatterInto in place "+string(c), dst, err, want, wantErr, h)
			if d := reftest.Untouched(dst, err, operand); d != "" {
				t.Fatalf("ScatterInto in place %s: %s\n%+v", c, d, h)
			}
		default:
			operand := in.Elements(dt, in.Shape())
			starts := make([]tensor.Tensor, operand.Rank())
			sizes := make([]int, operand.Rank())
			for d := range starts {
				starts[d] = tensortest.FromInts(it, tensor.Shape{}, in.Pick(9)-3)
				sizes[d] = in.Pick(operand.Dim(d) + 1)
			}
			if op == 2 {
				want, wantErr := reftest.HLODynamicSlice(operand, starts, sizes)
				got, err := stablehlo.DynamicSlice(operand, starts, sizes)
				check(t, "DynamicSlice", got, err, want, wantErr, sizes)
				dst := tensortest.Junk(dt, sizes)
				check(t, "DynamicSliceInto", dst, stablehlo.DynamicSliceInto(dst, operand, starts), want, wantErr, sizes)
				return
			}
			update := in.Elements(dt, sizes)
			want, wantErr := reftest.HLODynamicUpdateSlice(operand, update, starts)
			got, err := stablehlo.DynamicUpdateSlice(operand, update, starts)
			check(t, "DynamicUpdateSlice", got, err, want, wantErr, sizes)
			dst := tensortest.Junk(dt, operand.Shape())
			check(t, "DynamicUpdateSliceInto", dst, stablehlo.DynamicUpdateSliceInto(dst, operand, update, starts), want, wantErr, sizes)
			dst = operand.Clone()
			err = stablehlo.DynamicUpdateSliceInto(dst, dst, update, starts)
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
