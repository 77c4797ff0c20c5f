package explain

import (
	"fmt"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// counterparts names, for a scatter of the flattened tensor, the gather
// of its dialect that reads the flattened tensor by the same index rules
// and attributes (NumPy's mode): each update lands where the gather of
// cell numbers reads.
var counterparts = map[string]string{
	"numpy.put": "numpy.take",
	"torch.put": "torch.take",
}

// linkFlat links the values of a put to the cells of the flattened output
// that its counterpart gather reads for each index: the i-th index takes
// value i, or NumPy's v[i % len(v)] (v repeats); an empty v writes
// nothing.
func (t *Trace) linkFlat(op *dialect.Op, call dialect.Call) error {
	out, ind, vals := t.Output.Tensor, t.Indices.Tensor, t.Updates.Tensor
	if out.Len() == 0 || ind.Len() == 0 || vals.Len() == 0 {
		return nil // nothing is written
	}
	take, err := registry.Lookup(counterparts[op.Name])
	if err != nil {
		return err
	}
	ids, err := cellNumbers(tensor.Shape{out.Len()})
	if err != nil {
		return err
	}
	dataName, ok := paramOf(take, dialect.RoleData)
	indName, ok2 := paramOf(take, dialect.RoleIndices)
	if !ok || !ok2 {
		return fmt.Errorf("%s has no data or indices", take.Name)
	}
	attrs := map[string]dialect.Value{}
	for name, v := range call.Attrs {
		if _, known := take.Attr(name); known {
			attrs[name] = v
		}
	}
	dst, err := take.Run(dialect.Call{Inputs: map[string]tensor.Tensor{dataName: ids, indName: ind}, Attrs: attrs})
	if err != nil {
		return err
	}
	dests, ok := dst.Data().([]int64)
	if !ok || len(dests) != ind.Len() {
		return fmt.Errorf("%s of cell numbers gave %v%v, want int64%v", take.Name, dst.DType(), dst.Shape(), ind.Shape())
	}
	t.Links = make([]Link, len(dests))
	for q, id := range dests {
		t.Links[q] = Link{From: q % vals.Len(), To: int(id) - 1, Index: q, IndexLen: 1}
	}
	return nil
}

// paramOf returns the name of op's input of the given role.
func paramOf(op *dialect.Op, role dialect.Role) (string, bool) {
	for _, p := range op.Inputs {
		if p.Role == role {
			return p.Name, true
		}
	}
	return "", false
}

// flatMoves is the number of links of a put: one per index, none for an
// empty v.
func (t *Trace) flatMoves() int {
	if t.Updates.Tensor.Len() == 0 || t.Output.Tensor.Len() == 0 {
		return 0
	}
	return t.Indices.Tensor.Len()
}
