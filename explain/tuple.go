package explain

import (
	"fmt"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// A scatter by a tuple of index arrays (NumPy's ufunc.at, PyTorch's
// index_put) indexes the first k dimensions of its data with k integer
// arrays (a bool mask of rank r standing for r arrays, the coordinates
// of its true elements) broadcast to one shape S, as a[i0, i1] does: the entry at each
// position of S names a slice of data's trailing dimensions, and the
// updates broadcast to S followed by those dimensions. Its trace shows
// the arrays stacked along a last dimension (one tuple per entry; a
// single array as it is), and links every element of the updates
// (repeated where they broadcast) to the cell of data's slice it lands
// on, found by GatherND of cell numbers with the operator's index rules.

// indexTuple returns the index arrays of a call of op, when op takes its
// indices as a tuple (an input with Tuple set, or inputs named NAME.0,
// NAME.1, ...); ok is false for the other operators.
func indexTuple(op *dialect.Op, call dialect.Call) (arrays []tensor.Tensor, ok bool, err error) {
	for _, p := range op.Inputs {
		if p.Role != dialect.RoleIndices {
			continue
		}
		base, isItem := strings.CutSuffix(p.Name, ".0")
		if !p.Tuple && !isItem {
			return nil, false, nil
		}
		if !isItem {
			base = p.Name
		}
		arrays, err := dialect.TupleInputs(call, base)
		return arrays, true, err
	}
	return nil, false, nil
}

// stackTuple sets t's indices from the arrays of a tuple: the single
// array as it is when it needs no broadcasting, else the arrays
// broadcast and stacked along a last dimension, one tuple per entry.
func (t *Trace) stackTuple(name string, arrays []tensor.Tensor) error {
	arrays, err := expandMasks(name, arrays)
	if err != nil {
		return err
	}
	k := len(arrays)
	shapes := make([]tensor.Shape, k)
	for j, a := range arrays {
		shapes[j] = a.Shape()
	}
	s, ok := tensor.Broadcast(shapes...)
	if !ok {
		return fmt.Errorf("shapes %v do not broadcast together", shapes)
	}
	t.tupleLen, t.tupleShape = k, s
	if k == 1 && arrays[0].Shape().Equal(s) {
		t.Indices = newOperand(Indices, name, arrays[0])
		return nil
	}
	n, _ := s.NumElements()
	stacked, err := tensor.New(tensor.Int64, append(s.Clone(), k))
	if err != nil {
		return err
	}
	tuples := stacked.Data().([]int64)
	for j, a := range arrays {
		at := project(s, a.Shape().BroadcastStrides(s))
		for e := range n {
			v, _ := a.IntAt(at(e))
			tuples[e*k+j] = v
		}
	}
	t.Indices = newOperand(Indices, name, stacked)
	t.VectorDim = len(s)
	return nil
}

// expandMasks returns the index arrays with each bool mask of rank r
// replaced by r arrays: the coordinates of its true elements in
// row-major order, as PyTorch's index_put reads a mask.
func expandMasks(name string, arrays []tensor.Tensor) ([]tensor.Tensor, error) {
	var out []tensor.Tensor
	for j, a := range arrays {
		m, isMask := a.Data().([]bool)
		switch {
		case isMask && a.Rank() > 0:
			cols := make([][]int64, a.Rank())
			for i, v := range m {
				if v {
					for d, c := range a.Shape().Coords(i) {
						cols[d] = append(cols[d], int64(c))
					}
				}
			}
			for _, c := range cols {
				out = append(out, tensor.Must(tensor.From(tensor.Shape{len(c)}, append([]int64{}, c...))))
			}
		case !a.DType().IsInteger():
			return nil, fmt.Errorf("%s.%d is %v, neither integers nor a mask of rank 1 or more", name, j, a.DType())
		default:
			out = append(out, a)
		}
	}
	return out, nil
}

// tupleMoves is the number of links of a scatter by a tuple: one per
// element of the indexed shape.
func (t *Trace) tupleMoves() int {
	out := t.Output.Tensor
	if t.tupleLen > out.Rank() {
		return 0 // linkTuple fails
	}
	n, _ := append(t.tupleShape.Clone(), out.Shape()[t.tupleLen:]...).NumElements()
	return n
}

// linkTuple links a scatter by a tuple of index arrays.
func (t *Trace) linkTuple(*dialect.Op, dialect.Call) error {
	out, upd := t.Output.Tensor, t.Updates.Tensor
	k, s := t.tupleLen, t.tupleShape
	if k > out.Rank() {
		return fmt.Errorf("%d index arrays for an output of rank %d", k, out.Rank())
	}
	ind := t.Indices.Tensor
	if t.VectorDim < 0 {
		ind = tensor.Must(ind.Reshape(append(s.Clone(), 1)))
	}
	shape := append(s.Clone(), out.Shape()[k:]...)
	dst, err := tensor.New(tensor.Int64, shape)
	if err != nil {
		return err
	}
	ids, err := cellNumbers(out.Shape())
	if err != nil {
		return err
	}
	if err := engine.GatherND(dst, ids, ind, 0, t.Rules); err != nil {
		return err
	}
	if len(upd.Shape()) > len(shape) {
		return fmt.Errorf("%s %v does not broadcast to the indexed shape %v", t.Updates.Name, upd.Shape(), shape)
	}
	from := project(shape, upd.Shape().BroadcastStrides(shape))
	slice, _ := out.Shape()[k:].NumElements()
	dests := dst.Data().([]int64)
	t.Links = make([]Link, len(dests))
	for q, id := range dests {
		l := Link{From: from(q), To: int(id) - 1, Index: q / max(slice, 1), IndexLen: 1}
		if t.VectorDim >= 0 {
			l.Index, l.IndexLen = l.Index*k, k
		}
		t.Links[q] = l
	}
	return nil
}
