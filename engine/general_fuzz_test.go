package engine

import (
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/internal/reftest"
	"github.com/scatter-dev/scatter/internal/tensortest"
	"github.com/scatter-dev/scatter/tensor"
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
		if in.Bool() {
			defer func(g bool) { forceGeneral = g }(forceGeneral)
			forceGeneral = true
		}
		if in.Bool() {
			defer func(w int) { minWork = w }(minWork)
			minWork = 1
		}
		g := readGeneralCall(in, scatter)
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

// readGeneralCall decodes a gather or a scatter from in.
func readGeneralCall(in *tensortest.Fuzz, scatter bool) *generalCall {
	dt := generalTypes[in.Pick(len(generalTypes))]
	it := indexTypes[in.Pick(len(indexTypes))]
	// Each operand dimension is a window dimension (0), indexed and left
	// out of the result or updates (1), indexed and in the window (2), or
	// a batching dimension (3).
	r := 1 + in.Pick(4)
	operand := make(tensor.Shape, r)
	roles := make([]int, r)
	for d := range operand {
		operand[d] = in.Pick(5)
		if operand[d] == 0 && in.Pick(4) != 0 {
			operand[d] = 1 + in.Pick(4)
		}
		roles[d] = in.Pick(4)
	}
	var indexed, collapsed, opBatch, window, winSize []int
	for d, role := range roles {
		switch role {
		case 0, 2:
			window = append(window, d)
			winSize = append(winSize, in.Pick(operand[d]+1))
		}
		switch role {
		case 1:
			collapsed = append(collapsed, d)
		case 3:
			opBatch = append(opBatch, d)
		}
		if role == 1 || role == 2 {
			indexed = append(indexed, d)
		}
	}
	// Start index components in any order.
	for i := len(indexed) - 1; i > 0; i-- {
		j := in.Pick(i + 1)
		indexed[i], indexed[j] = indexed[j], indexed[i]
	}
	// Indices: free batch dimensions and one per batching dimension, in
	// any order, and the index vector's dimension among them, or implicit
	// for a vector of one component.
	type indDim struct {
		size  int
		batch int // the operand batching dimension it pairs with, or -1
	}
	var dims []indDim
	for range in.Pick(3) {
		dims = append(dims, indDim{in.Pick(4), -1})
	}
	for _, d := range opBatch {
		at := in.Pick(len(dims) + 1)
		dims = append(dims[:at], append([]indDim{{operand[d], d}}, dims[at:]...)...)
	}
	vecDim := len(dims)
	if len(indexed) != 1 || in.Bool() {
		vecDim = in.Pick(len(dims) + 1)
		dims = append(dims[:vecDim], append([]indDim{{len(indexed), -1}}, dims[vecDim:]...)...)
	}
	is := make(tensor.Shape, len(dims))
	var indBatch []int
	for i, d := range dims {
		is[i] = d.size
	}
	for _, d := range opBatch {
		for i, x := range dims {
			if x.batch == d {
				indBatch = append(indBatch, i)
			}
		}
	}
	// Index values in bounds or near them.
	values := make([]int, tensortest.Count(is))
	for i := range values {
		values[i] = in.Pick(8) - 2
		if it.IsUnsigned() && values[i] < 0 {
			values[i] += 300 // far out of bounds
		}
	}
	indices := tensortest.FromInts(it, is, values...)
	// The other tensor (the result, or updates): the batch dimensions of
	// indices in order, and the window dimensions at sorted positions.
	batches := len(is)
	if vecDim < len(is) {
		batches--
	}
	otherRank := batches + len(window)
	otherWin := pickSorted(in, otherRank, len(window))
	other := make(tensor.Shape, otherRank)
	w, s := 0, 0
	for i := range other {
		if w < len(otherWin) && otherWin[w] == i {
			other[i] = winSize[w]
			w++
			continue
		}
		if s == vecDim {
			s++
		}
		other[i] = is[s]
		s++
	}
	data := in.Elements(dt, operand)
	desc := fmt.Sprintf("%v operand %v, indices %v %v, other %v, roles %v", dt, operand, is, values, other, roles)
	if !scatter {
		sizes := make([]int, r)
		for d := range sizes {
			sizes[d] = min(1, operand[d])
		}
		for i, d := range window {
			sizes[d] = winSize[i]
		}
		d := GatherDims{OffsetDims: otherWin, CollapsedSliceDims: collapsed, OperandBatchingDims: opBatch,
			StartIndicesBatchingDims: indBatch, StartIndexMap: indexed, IndexVectorDim: vecDim, SliceSizes: sizes}
		opt := GatherOptions{Rules: IndexRules{OutOfRange: OutOfRangeClamp}}
		mode, fill := reftest.GatherClamp, any(nil)
		if in.Bool() {
			opt.Rules.OutOfRange, mode = OutOfRangeSkip, reftest.GatherFill
			opt.Fill = in.Elements(dt, tensor.Shape{})
			fill = opt.Fill.At(0)
		}
		want, wantErr := reftest.HLOGather(data, indices, reftest.GatherDims(d), mode, fill)
		return &generalCall{
			what: fmt.Sprintf("gather %s, %v: %s", d.String(), opt.Rules, desc),
			run: func() (tensor.Tensor, error) {
				dst := tensortest.Junk(dt, other)
				return dst, GatherGeneral(dst, data, indices, &d, opt)
			},
			want: want, wantErr: wantErr,
		}
	}
	// The scatter's windows are the updates' window dimensions.
	inserted := collapsed
	c := generalComputations[in.Pick(len(generalComputations))]
	if (c.red == Max || c.red == Min) && dt.IsComplex() {
		c = generalComputations[0] // complex numbers have no order here
	}
	d := ScatterDims{UpdateWindowDims: otherWin, InsertedWindowDims: inserted, InputBatchingDims: opBatch,
		ScatterIndicesBatchingDims: indBatch, ScatterDimsToOperandDims: indexed, IndexVectorDim: vecDim}
	updates := in.Elements(dt, other)
	opt := ScatterOptions{Reduction: c.red, Rules: IndexRules{OutOfRange: OutOfRangeSkip}, Arith: Arith{MinMax: MinMaxIEEE}}
	mode := reftest.ScatterSkipWindow
	if in.Bool() {
		opt.Rules.OutOfRange, mode = OutOfRangeClamp, reftest.ScatterClamp
	}
	want, wantErr := reftest.HLOScatter(data, indices, updates, reftest.ScatterDims(d), c.comp, mode)
	inPlace := in.Bool()
	return &generalCall{
		what: fmt.Sprintf("scatter %s, %v, %v, in place %v: %s, data %v, updates %v", d.String(), c.comp, opt.Rules, inPlace, desc,
			data, updates),
		run: func() (tensor.Tensor, error) {
			if inPlace {
				dst := data.Clone()
				return dst, ScatterGeneral(dst, dst, indices, updates, &d, opt)
			}
			dst := tensortest.Junk(dt, operand)
			return dst, ScatterGeneral(dst, data, indices, updates, &d, opt)
		},
		want: want, wantErr: wantErr,
	}
}

// pickSorted returns k distinct values of [0, n) in increasing order.
func pickSorted(in *tensortest.Fuzz, n, k int) []int {
	out := make([]int, 0, k)
	for i := 0; i < n && len(out) < k; i++ {
		// Take i when the remaining places need it, or by the bytes.
		if n-i == k-len(out) || in.Bool() {
			out = append(out, i)
		}
	}
	return out
}
