package explain

import (
	"fmt"
	"maps"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// linkIndexFill links the value of PyTorch's index_fill to every cell of
// the slices along dim that index selects: the gather of cell numbers
// along dim with the operator's index rules reads them.
func (t *Trace) linkIndexFill(op *dialect.Op, call dialect.Call) error {
	out, ind := t.Output.Tensor, t.Indices.Tensor
	if out.Len() == 0 || ind.Len() == 0 {
		return nil
	}
	axis, err := t.axis(op, call, max(out.Rank(), 1))
	if err != nil {
		return err
	}
	ids, err := cellNumbers(out.Shape())
	if err != nil {
		return err
	}
	ids, ind = atLeast1D(ids), atLeast1D(ind)
	shape, err := engine.GatherShape(ids.Shape(), ind.Shape(), axis, 0)
	if err != nil {
		return err
	}
	dst, err := tensor.New(tensor.Int64, shape)
	if err != nil {
		return err
	}
	if err := engine.Gather(dst, ids, ind, axis, 0, t.Rules); err != nil {
		return err
	}
	inner, _ := shape[axis+1:].NumElements()
	dests := dst.Data().([]int64)
	t.Links = make([]Link, len(dests))
	for q, id := range dests {
		t.Links[q] = Link{From: 0, To: int(id) - 1, Index: q / max(inner, 1) % ind.Len(), IndexLen: 1}
	}
	return nil
}

// indexFillMoves is the number of links of an index_fill: the cells of
// the slices index selects.
func (t *Trace) indexFillMoves() int {
	out, ind := t.Output.Tensor, t.Indices.Tensor
	if out.Rank() == 0 {
		return ind.Len()
	}
	if out.Len() == 0 || ind.Len() == 0 {
		return 0
	}
	return out.Len() / max(out.Dim(t.fillAxis), 1) * ind.Len()
}

// linkMasked links the elements of PyTorch's masked_scatter's source, in
// row-major order, to the cells of input where the mask (broadcast to
// input's shape) is true, also in row-major order.
func (t *Trace) linkMasked(*dialect.Op, dialect.Call) error {
	out, mask := t.Output.Tensor, t.Indices.Tensor
	m, ok := mask.Data().([]bool)
	if !ok {
		return fmt.Errorf("%s is %v, not bool", t.Indices.Name, mask.DType())
	}
	if len(mask.Shape()) > len(out.Shape()) {
		return fmt.Errorf("%s %v does not broadcast to %v", t.Indices.Name, mask.Shape(), out.Shape())
	}
	at := project(out.Shape(), mask.Shape().BroadcastStrides(out.Shape()))
	t.Links = t.Links[:0]
	for q := range out.Len() {
		if i := at(q); m[i] {
			t.Links = append(t.Links, Link{From: len(t.Links), To: q, Index: i, IndexLen: 1})
		}
	}
	return nil
}

// maskedMoves is the number of links of a masked_scatter: the cells of
// input where the broadcast mask is true.
func (t *Trace) maskedMoves() int {
	out, mask := t.Output.Tensor, t.Indices.Tensor
	m, ok := mask.Data().([]bool)
	if !ok || len(mask.Shape()) > len(out.Shape()) {
		return 0
	}
	at, n := project(out.Shape(), mask.Shape().BroadcastStrides(out.Shape())), 0
	for q := range out.Len() {
		if m[at(q)] {
			n++
		}
	}
	return n
}

// onesOf returns int32 ones of shape: the updates of a scatter whose
// optional updates are absent (tf.math.bincount without weights counts a
// one for each value).
func onesOf(shape tensor.Shape) (tensor.Tensor, error) {
	ones, err := tensor.New(tensor.Int32, shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	v := ones.Data().([]int32)
	for i := range v {
		v[i] = 1
	}
	return ones, nil
}

// withInput returns call with the input name given as x, the call's own
// inputs left as they were.
func withInput(call dialect.Call, name string, x tensor.Tensor) dialect.Call {
	in := maps.Clone(call.Inputs)
	if in == nil {
		in = map[string]tensor.Tensor{}
	}
	in[name] = x
	return dialect.Call{Opset: call.Opset, Inputs: in, Attrs: call.Attrs}
}
