package tensortest

import "github.com/scatter-dev/scatter/tensor"

// HLO is a general gather or scatter (StableHLO's) that the fuzzer's bytes
// build: shapes, index values and dimension numbers that fit together,
// as plain ints (this package sees neither the engine nor a dialect).
// "Other" is the result of a gather, the updates of a scatter.
type HLO struct {
	Operand, Indices, Other tensor.Shape
	// IndexValues are the indices' values, in bounds or near them.
	IndexValues []int
	// VecDim is the index vector's dimension of the indices (their rank
	// for vectors of one component).
	VecDim int
	// OtherWin are the other tensor's window dimensions (offset_dims,
	// update_window_dims); Collapsed the operand's indexed dimensions
	// left out of the window (collapsed_slice_dims,
	// inserted_window_dims); OpBatch and IndBatch the batching pairs;
	// StartMap the operand dimension of each start index component;
	// SliceSizes a gather's slice sizes (a scatter's window sizes are the
	// other tensor's).
	OtherWin, Collapsed, OpBatch, IndBatch, StartMap, SliceSizes []int
	// Roles are each operand dimension's part, for a failure message:
	// 0 window, 1 indexed and left out, 2 indexed in the window, 3
	// batching.
	Roles []int
}

// HLO returns a general gather or scatter of rank up to 4: batching
// dimensions, collapsed or inserted ones, windows smaller than the
// operand, the index vector along any dimension of the indices (the last
// when vecLast, as JAX puts it) or implicit, the other tensor's
// dimensions in any order. Index values are unsigned-safe for an
// unsigned index type: a value below zero becomes far out of bounds.
func (f *Fuzz) HLO(vecLast, unsigned bool) HLO {
	r := 1 + f.Pick(4)
	h := HLO{Operand: make(tensor.Shape, r), Roles: make([]int, r)}
	for d := range h.Operand {
		h.Operand[d] = f.Pick(5)
		if h.Operand[d] == 0 && f.Pick(4) != 0 {
			h.Operand[d] = 1 + f.Pick(4)
		}
		h.Roles[d] = f.Pick(4)
	}
	var window, winSize []int
	for d, role := range h.Roles {
		switch role {
		case 0, 2:
			window = append(window, d)
			winSize = append(winSize, f.Pick(h.Operand[d]+1))
		}
		switch role {
		case 1:
			h.Collapsed = append(h.Collapsed, d)
		case 3:
			h.OpBatch = append(h.OpBatch, d)
		}
		if role == 1 || role == 2 {
			h.StartMap = append(h.StartMap, d)
		}
	}
	// Start index components in any order.
	for i := len(h.StartMap) - 1; i > 0; i-- {
		j := f.Pick(i + 1)
		h.StartMap[i], h.StartMap[j] = h.StartMap[j], h.StartMap[i]
	}
	// Indices: free batch dimensions and one per batching dimension, in
	// any order, and the index vector's dimension among them, or implicit
	// for a vector of one component.
	type indDim struct{ size, batch int } // batch: the operand batching dimension paired, or -1
	var dims []indDim
	for range f.Pick(3) {
		dims = append(dims, indDim{f.Pick(4), -1})
	}
	for _, d := range h.OpBatch {
		at := f.Pick(len(dims) + 1)
		dims = append(dims[:at], append([]indDim{{h.Operand[d], d}}, dims[at:]...)...)
	}
	h.VecDim = len(dims)
	if vecLast || len(h.StartMap) != 1 || f.Bool() {
		if !vecLast {
			h.VecDim = f.Pick(len(dims) + 1)
		}
		dims = append(dims[:h.VecDim], append([]indDim{{len(h.StartMap), -1}}, dims[h.VecDim:]...)...)
	}
	h.Indices = make(tensor.Shape, len(dims))
	for i, d := range dims {
		h.Indices[i] = d.size
	}
	for _, d := range h.OpBatch {
		for i, x := range dims {
			if x.batch == d {
				h.IndBatch = append(h.IndBatch, i)
			}
		}
	}
	h.IndexValues = make([]int, Count(h.Indices))
	for i := range h.IndexValues {
		h.IndexValues[i] = f.Pick(8) - 2
		if unsigned && h.IndexValues[i] < 0 {
			h.IndexValues[i] += 300 // far out of bounds
		}
	}
	// The other tensor: the batch dimensions of indices in order, and the
	// window dimensions at sorted positions.
	batches := len(h.Indices)
	if h.VecDim < len(h.Indices) {
		batches--
	}
	rank := batches + len(window)
	h.OtherWin = f.pickSorted(rank, len(window))
	h.Other = make(tensor.Shape, rank)
	w, s := 0, 0
	for i := range h.Other {
		if w < len(h.OtherWin) && h.OtherWin[w] == i {
			h.Other[i] = winSize[w]
			w++
			continue
		}
		if s == h.VecDim {
			s++
		}
		h.Other[i] = h.Indices[s]
		s++
	}
	h.SliceSizes = make([]int, r)
	for d := range h.SliceSizes {
		h.SliceSizes[d] = min(1, h.Operand[d])
	}
	for i, d := range window {
		h.SliceSizes[d] = winSize[i]
	}
	return h
}

// pickSorted returns k distinct values of [0, n) in increasing order.
func (f *Fuzz) pickSorted(n, k int) []int {
	out := make([]int, 0, k)
	for i := 0; i < n && len(out) < k; i++ {
		// Take i when the remaining places need it, or by the bytes.
		if n-i == k-len(out) || f.Bool() {
			out = append(out, i)
		}
	}
	return out
}
