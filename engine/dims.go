package engine

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// GatherDims are the dimension numbers of the general gather, StableHLO's
// (and XLA's) gather, of which every framework's gather is a case. For
// each position of the result, the start index read from indices along
// IndexVectorDim places a slice of SliceSizes in operand; the result
// holds the slices, with the slice dimensions listed in
// CollapsedSliceDims and OperandBatchingDims (all of size 1) left out.
//
// The engine accepts one thing StableHLO does not: a batching dimension
// of indices may be smaller than the operand's dimension it pairs with
// (ONNX's GatherElements reads only the corner of data that indices
// covers). The stablehlo dialect refuses that itself.
type GatherDims struct {
	// OffsetDims are the dimensions of the result that hold the slice's
	// dimensions that remain, in increasing order.
	OffsetDims []int
	// CollapsedSliceDims are the operand dimensions, of slice size at
	// most 1, that the result leaves out, in increasing order. A slice
	// size of 0 there (which StableHLO allows, and which would place the
	// slice one past the end of the dimension) counts as 1.
	CollapsedSliceDims []int
	// OperandBatchingDims are operand dimensions, in increasing order,
	// indexed by the position of the result along the matching
	// StartIndicesBatchingDims instead of by an index value.
	OperandBatchingDims      []int
	StartIndicesBatchingDims []int
	// StartIndexMap says which operand dimension each component of a
	// start index addresses.
	StartIndexMap []int
	// IndexVectorDim is the dimension of indices that holds the start
	// index vectors; rank(indices) for vectors of one component, one per
	// element.
	IndexVectorDim int
	// SliceSizes is the size of the slice in every operand dimension.
	SliceSizes []int
}

// ScatterDims are the dimension numbers of the general scatter,
// StableHLO's (and XLA's) scatter, of which every framework's scatter is a
// case. Each position of updates outside UpdateWindowDims names a start
// index, read from indices along IndexVectorDim; the window of updates
// there is combined into the operand at that start, the operand
// dimensions in InsertedWindowDims and InputBatchingDims having window
// size 1 and no dimension in updates.
//
// The engine accepts two things StableHLO does not: a batching dimension
// of indices may be smaller than the operand's dimension it pairs with,
// and updates may be larger than indices in the dimensions that pair with
// indices' (PyTorch reads only the corner of src that index covers). The
// stablehlo dialect refuses both itself.
type ScatterDims struct {
	// UpdateWindowDims are the dimensions of updates that hold the
	// window, in increasing order.
	UpdateWindowDims []int
	// InsertedWindowDims are the operand dimensions, of window size 1,
	// that have no dimension in updates, in increasing order.
	InsertedWindowDims []int
	// InputBatchingDims are operand dimensions, in increasing order,
	// addressed by the position along the matching
	// ScatterIndicesBatchingDims instead of by an index value.
	InputBatchingDims          []int
	ScatterIndicesBatchingDims []int
	// ScatterDimsToOperandDims says which operand dimension each component
	// of a start index addresses.
	ScatterDimsToOperandDims []int
	// IndexVectorDim is the dimension of indices that holds the start
	// index vectors; rank(indices) for vectors of one component.
	IndexVectorDim int
}

// String formats the dimension numbers as StableHLO prints them.
func (d *GatherDims) String() string {
	return fmt.Sprintf("offset_dims = %v, collapsed_slice_dims = %v, operand_batching_dims = %v, "+
		"start_indices_batching_dims = %v, start_index_map = %v, index_vector_dim = %d, slice_sizes = %v",
		dimList(d.OffsetDims), dimList(d.CollapsedSliceDims), dimList(d.OperandBatchingDims),
		dimList(d.StartIndicesBatchingDims), dimList(d.StartIndexMap), d.IndexVectorDim, dimList(d.SliceSizes))
}

// String formats the dimension numbers as StableHLO prints them.
func (d *ScatterDims) String() string {
	return fmt.Sprintf("update_window_dims = %v, inserted_window_dims = %v, input_batching_dims = %v, "+
		"scatter_indices_batching_dims = %v, scatter_dims_to_operand_dims = %v, index_vector_dim = %d",
		dimList(d.UpdateWindowDims), dimList(d.InsertedWindowDims), dimList(d.InputBatchingDims),
		dimList(d.ScatterIndicesBatchingDims), dimList(d.ScatterDimsToOperandDims), d.IndexVectorDim)
}

func dimList(v []int) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprint(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// check checks the dimension numbers against the shapes of operand and
// indices: the constraints of StableHLO's gather, but that a batching
// dimension of indices may be smaller than the operand's unless exact. It
// allocates nothing unless it fails.
func (d *GatherDims) check(operand, indices tensor.Shape, exact bool) error {
	r, q := len(operand), len(indices)
	if d.IndexVectorDim < 0 || d.IndexVectorDim > q {
		return argErr("index_vector_dim %d is out of range [0, %d] for indices %v", d.IndexVectorDim, q, indices)
	}
	if n := len(d.OffsetDims) + len(d.CollapsedSliceDims) + len(d.OperandBatchingDims); n != r {
		return argErr("offset_dims, collapsed_slice_dims and operand_batching_dims have %d dimensions in all, operand %v has rank %d",
			n, operand, r)
	}
	if len(d.SliceSizes) != r {
		return argErr("slice_sizes has %d sizes, operand %v has rank %d", len(d.SliceSizes), operand, r)
	}
	for i, s := range d.SliceSizes {
		if s < 0 || s > operand[i] {
			return shapeErr("slice_sizes[%d] = %d is out of range [0, %d] for operand %v", i, s, operand[i], operand)
		}
	}
	vec := indexVectorSize(indices, d.IndexVectorDim)
	if len(d.StartIndexMap) != vec {
		return shapeErr("start_index_map has %d dimensions, the index vectors of indices %v along dimension %d have %d",
			len(d.StartIndexMap), indices, d.IndexVectorDim, vec)
	}
	outRank := q - boolInt(d.IndexVectorDim < q) + len(d.OffsetDims)
	if err := checkSplit("offset_dims", d.OffsetDims, outRank, "collapsed_slice_dims", d.CollapsedSliceDims,
		"operand_batching_dims", d.OperandBatchingDims, r); err != nil {
		return err
	}
	for _, c := range d.CollapsedSliceDims {
		if d.SliceSizes[c] > 1 {
			return shapeErr("slice_sizes[%d] = %d, but collapsed dimension %d needs a size of at most 1", c, d.SliceSizes[c], c)
		}
	}
	if err := d.checkBatching(operand, indices, exact); err != nil {
		return err
	}
	return checkIndexMap("start_index_map", d.StartIndexMap, "operand_batching_dims", d.OperandBatchingDims, r)
}

func (d *GatherDims) checkBatching(operand, indices tensor.Shape, exact bool) error {
	for _, b := range d.OperandBatchingDims {
		if d.SliceSizes[b] > 1 {
			return shapeErr("slice_sizes[%d] = %d, but batching dimension %d needs a size of at most 1", b, d.SliceSizes[b], b)
		}
	}
	return checkBatchingPairs("operand_batching_dims", d.OperandBatchingDims, "start_indices_batching_dims",
		d.StartIndicesBatchingDims, operand, indices, d.IndexVectorDim, exact)
}

// check checks the dimension numbers against the shapes of operand,
// indices and updates: the constraints of StableHLO's scatter, but that a
// batching dimension of indices may be smaller than the operand's and
// updates' scatter dimensions larger than indices' (see ScatterDims)
// unless exact. It allocates nothing unless it fails.
func (d *ScatterDims) check(operand, indices, updates tensor.Shape, exact bool) error {
	r, q, u := len(operand), len(indices), len(updates)
	if d.IndexVectorDim < 0 || d.IndexVectorDim > q {
		return argErr("index_vector_dim %d is out of range [0, %d] for indices %v", d.IndexVectorDim, q, indices)
	}
	if n := len(d.UpdateWindowDims) + len(d.InsertedWindowDims) + len(d.InputBatchingDims); n != r {
		return argErr("update_window_dims, inserted_window_dims and input_batching_dims have %d dimensions in all, operand %v has rank %d",
			n, operand, r)
	}
	if err := checkSplit("update_window_dims", d.UpdateWindowDims, u, "inserted_window_dims", d.InsertedWindowDims,
		"input_batching_dims", d.InputBatchingDims, r); err != nil {
		return err
	}
	if err := checkBatchingPairs("input_batching_dims", d.InputBatchingDims, "scatter_indices_batching_dims",
		d.ScatterIndicesBatchingDims, operand, indices, d.IndexVectorDim, exact); err != nil {
		return err
	}
	vec := indexVectorSize(indices, d.IndexVectorDim)
	if len(d.ScatterDimsToOperandDims) != vec {
		return shapeErr("scatter_dims_to_operand_dims has %d dimensions, the index vectors of indices %v along dimension %d have %d",
			len(d.ScatterDimsToOperandDims), indices, d.IndexVectorDim, vec)
	}
	if err := checkIndexMap("scatter_dims_to_operand_dims", d.ScatterDimsToOperandDims, "input_batching_dims", d.InputBatchingDims, r); err != nil {
		return err
	}
	// updates: the scatter dimensions, those of indices but the index
	// vector's, in order; the window dimensions, those of operand but the
	// inserted and batching ones, in order, no larger than operand's.
	if want := q - boolInt(d.IndexVectorDim < q) + len(d.UpdateWindowDims); u != want {
		return shapeErr("updates %v has rank %d, want %d (the %d dimensions of indices %v but the index vector's, and %d window dimensions)",
			updates, u, want, q-boolInt(d.IndexVectorDim < q), indices, len(d.UpdateWindowDims))
	}
	w, s, o := 0, 0, 0 // the next window dimension, indices dimension, operand window dimension
	for i := 0; i < u; i++ {
		if w < len(d.UpdateWindowDims) && d.UpdateWindowDims[w] == i {
			for slices.Contains(d.InsertedWindowDims, o) || slices.Contains(d.InputBatchingDims, o) {
				o++
			}
			if updates[i] > operand[o] {
				return shapeErr("updates %v is larger than operand %v in window dimension %d (operand dimension %d)",
					updates, operand, i, o)
			}
			w, o = w+1, o+1
			continue
		}
		if s == d.IndexVectorDim {
			s++
		}
		if updates[i] < indices[s] || exact && updates[i] != indices[s] {
			need := "updates must be at least as large"
			if exact {
				need = "they must be equal"
			}
			return shapeErr("updates %v has %d in scatter dimension %d, indices %v has %d in dimension %d; %s",
				updates, updates[i], i, indices, indices[s], s, need)
		}
		s++
	}
	return nil
}

// checkBatchingPairs checks a gather's or scatter's batching dimensions:
// as many of one as of the other, the second unique, within indices and
// not the index vector's dimension, and no larger than the first (equal
// if exact).
func checkBatchingPairs(opName string, op []int, indName string, ind []int, operand, indices tensor.Shape, vecDim int, exact bool) error {
	if len(op) != len(ind) {
		return argErr("%s %v and %s %v have different lengths", opName, dimList(op), indName, dimList(ind))
	}
	if err := sortedIn(indName, ind, len(indices), false); err != nil {
		return err
	}
	for i, b := range ind {
		if b == vecDim {
			return argErr("%s %v holds index_vector_dim %d", indName, dimList(ind), vecDim)
		}
		if indices[b] > operand[op[i]] || exact && indices[b] != operand[op[i]] {
			need := "indices' must be no larger"
			if exact {
				need = "they must be equal"
			}
			return shapeErr("batching dimension %d of indices %v has size %d, batching dimension %d of operand %v has %d; %s",
				b, indices, indices[b], op[i], operand, operand[op[i]], need)
		}
	}
	return nil
}

// sortedIn checks that every dimension of dims lies in [0, rank) and that
// none is repeated; with sorted, that they increase.
func sortedIn(name string, dims []int, rank int, sorted bool) error {
	for i, v := range dims {
		if v < 0 || v >= rank {
			return argErr("%s %v: %d is out of range [0, %d)", name, dimList(dims), v, rank)
		}
		if sorted && i > 0 && dims[i-1] >= v {
			return argErr("%s %v must increase", name, dimList(dims))
		}
		if !sorted && slices.Contains(dims[:i], v) {
			return argErr("%s %v repeats %d", name, dimList(dims), v)
		}
	}
	return nil
}

// checkSplit checks the three lists that split the dimensions of a
// gather's operand or a scatter's: the window dimensions (offset_dims,
// update_window_dims), as dimensions of the tensor on the other side, of
// rank winRank; the collapsed (or inserted) ones and the batching ones,
// as dimensions of the operand, of rank r. Each list increases and lies
// in range, and no dimension is both collapsed and batching.
func checkSplit(winName string, win []int, winRank int, colName string, col []int, batchName string, batch []int, r int) error {
	if err := sortedIn(winName, win, winRank, true); err != nil {
		return err
	}
	if err := sortedIn(colName, col, r, true); err != nil {
		return err
	}
	if err := sortedIn(batchName, batch, r, true); err != nil {
		return err
	}
	return disjoint(colName, col, batchName, batch)
}

// checkIndexMap checks the operand dimension that each start index
// component addresses (start_index_map, scatter_dims_to_operand_dims):
// in range for rank r, none twice, and none a batching dimension.
func checkIndexMap(name string, m []int, batchName string, batch []int, r int) error {
	if err := sortedIn(name, m, r, false); err != nil {
		return err
	}
	return disjoint(name, m, batchName, batch)
}

// disjoint checks that no dimension is in both a and b.
func disjoint(aName string, a []int, bName string, b []int) error {
	for _, v := range a {
		if slices.Contains(b, v) {
			return argErr("dimension %d is in both %s %v and %s %v", v, aName, dimList(a), bName, dimList(b))
		}
	}
	return nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// indexVectorSize returns the number of components of a start index: the
// size of indices along dim, or 1 when dim is rank(indices).
func indexVectorSize(indices tensor.Shape, dim int) int {
	if dim < len(indices) {
		return indices[dim]
	}
	return 1
}

// appendShape appends to dst the shape of the result of a gather with
// dimension numbers d, which check has accepted, and returns it.
func (d *GatherDims) appendShape(dst tensor.Shape, operand, indices tensor.Shape) tensor.Shape {
	outRank := len(indices) - boolInt(d.IndexVectorDim < len(indices)) + len(d.OffsetDims)
	o, s, w := 0, 0, 0 // the next offset dimension, indices dimension, operand dimension
	for i := 0; i < outRank; i++ {
		if o < len(d.OffsetDims) && d.OffsetDims[o] == i {
			for slices.Contains(d.CollapsedSliceDims, w) || slices.Contains(d.OperandBatchingDims, w) {
				w++
			}
			dst = append(dst, d.SliceSizes[w])
			o, w = o+1, w+1
			continue
		}
		if s == d.IndexVectorDim {
			s++
		}
		dst = append(dst, indices[s])
		s++
	}
	return dst
}

// Shape checks the dimension numbers d against the shapes of operand and
// indices, as the engine does (exact false) or exactly as StableHLO does
// (exact true: batching dimensions of equal sizes), and returns the shape
// of the result.
func (d *GatherDims) Shape(operand, indices tensor.Shape, exact bool) (tensor.Shape, error) {
	if err := d.check(operand, indices, exact); err != nil {
		return nil, err
	}
	return d.appendShape(nil, operand, indices), nil
}

// Check checks the dimension numbers d against the shapes of operand,
// indices and updates, as the engine does (exact false) or exactly as
// StableHLO does (exact true: batching dimensions of equal sizes, and
// updates of exactly the shape the dimension numbers give).
func (d *ScatterDims) Check(operand, indices, updates tensor.Shape, exact bool) error {
	return d.check(operand, indices, updates, exact)
}

// Gather returns the dimension numbers of the gather that reads, for each
// element of updates, the operand element a scatter with dimension
// numbers d writes it to: the same start indices, with the updates'
// windows as slices. It lets a caller trace a scatter by gathering
// numbered cells. operand and updates are the scatter's shapes; where d
// does not fit them, the gather's dimension numbers are invalid too (a
// slice size of -1), and GatherGeneral rejects them.
func (d *ScatterDims) Gather(operand, updates tensor.Shape) GatherDims {
	sizes := make([]int, len(operand))
	w := 0
	for i := range sizes {
		if slices.Contains(d.InsertedWindowDims, i) || slices.Contains(d.InputBatchingDims, i) {
			sizes[i] = min(1, operand[i])
			continue
		}
		sizes[i] = -1
		if w < len(d.UpdateWindowDims) && 0 <= d.UpdateWindowDims[w] && d.UpdateWindowDims[w] < len(updates) {
			sizes[i] = updates[d.UpdateWindowDims[w]]
		}
		w++
	}
	return GatherDims{
		OffsetDims:               d.UpdateWindowDims,
		CollapsedSliceDims:       d.InsertedWindowDims,
		OperandBatchingDims:      d.InputBatchingDims,
		StartIndicesBatchingDims: d.ScatterIndicesBatchingDims,
		StartIndexMap:            d.ScatterDimsToOperandDims,
		IndexVectorDim:           d.IndexVectorDim,
		SliceSizes:               sizes,
	}
}
