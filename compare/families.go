package compare

import (
	"fmt"
	"slices"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// familyRule is what compare knows of a family beyond its members' own
// tables: the operators of other families that do the family's
// operation, and how a request maps onto members that take other inputs
// than the family's own.
type familyRule struct {
	// also lists operators whose Family is another one that are members
	// of this family too (onnx.Gather of a flattened tensor is a take).
	also []string
	// rows says that the family reduces the rows of data into
	// num_segments segments, as TensorFlow's and JAX's segment
	// reductions do. A member that scatters updates onto a destination
	// (numpy.add.at, torch.index_add) gets the request's data as its
	// updates, and as its destination num_segments rows shaped like
	// data's rows, every element start; a member with include_self gets
	// false unless the request says otherwise, so that the destination
	// takes part only where the member cannot leave it out.
	rows  bool
	start dialect.Fill
	// reduction, for a segment family whose operators always do one
	// that none of them names, is that reduction (None for the others):
	// the request's unless it gives its own.
	reduction engine.Reduction
	// flat says that without an axis in the request the family reads
	// data flattened (numpy.take's axis None): no member is given an
	// axis, and one whose axis has a default that is not "flattened"
	// (an attribute with a default, or a required one: onnx.Gather's 0)
	// gets data flattened.
	flat bool
}

// familyRules are the families that have a rule; the others' members are
// the operators of their Family, run on the request as it is.
var familyRules = map[string]familyRule{
	"segment_sum":     {rows: true, start: dialect.FillZero, reduction: engine.Add},
	"segment_sub":     {rows: true, start: dialect.FillZero},
	"segment_prod":    {rows: true, start: dialect.FillOne, reduction: engine.Mul, also: []string{"torch.index_reduce"}},
	"segment_max":     {rows: true, start: dialect.FillZero, reduction: engine.Max},
	"segment_min":     {rows: true, start: dialect.FillZero, reduction: engine.Min, also: []string{"torch.index_reduce"}},
	"segment_mean":    {rows: true, start: dialect.FillZero, reduction: engine.Mean, also: []string{"torch.index_reduce"}},
	"segment_sqrt_n":  {reduction: engine.Mean},
	"take":            {flat: true, also: []string{"onnx.Gather"}},
	"take_along_axis": {also: []string{"torch.gather", "onnx.GatherElements"}},
}

// inFamily reports whether op is a member of family: its own, or one
// whose rule lists it.
func inFamily(op *dialect.Op, family string) bool {
	return op.Family == family || slices.Contains(familyRules[family].also, op.Name)
}

// familiesOf returns the families op is a member of, its own first.
func familiesOf(op *dialect.Op) []string {
	fams := []string{op.Family}
	for _, f := range dialect.Families {
		if f != op.Family && inFamily(op, f) {
			fams = append(fams, f)
		}
	}
	return fams
}

// members returns the registry's members of family, in the registry's
// order.
func members(family string) []*dialect.Op {
	var ops []*dialect.Op
	for _, op := range registry.Ops() {
		if inFamily(op, family) {
			ops = append(ops, op)
		}
	}
	return ops
}

// commonFamily returns the first family of ops[0] that every op is a
// member of, or "".
func commonFamily(ops []*dialect.Op) string {
	for _, f := range familiesOf(ops[0]) {
		if !slices.ContainsFunc(ops, func(op *dialect.Op) bool { return !inFamily(op, f) }) {
			return f
		}
	}
	return ""
}

// scattersRows reports whether op, in a rows family, scatters the rows
// onto a destination that compare builds: it takes data and updates,
// and the request gives no updates.
func scattersRows(rule familyRule, q *resolved, op *dialect.Op) bool {
	if !rule.rows || q.has(Updates) {
		return false
	}
	_, data := nameFor(op, Data)
	_, updates := nameFor(op, Updates)
	return data && updates
}

// rowsDestination returns num_segments rows shaped like the rows of
// data (data's dimensions past the segment ids' rank: but the first for
// ids of rank 1), of data's type, every element start; or an error that
// says what the request lacks to build them, or why they cannot be (a
// size past the limit, a start the type has no value for).
func rowsDestination(q *resolved, start dialect.Fill) (tensor.Tensor, tensor.Shape, error) {
	ids, hasIDs := q.inputs[Indices]
	if q.data.IsZero() || !hasIDs {
		return tensor.Tensor{}, nil, fmt.Errorf("needs data and segment ids to build its destination of %s", start)
	}
	n, err := dialect.IntOf(q.inputs[NumSegments], "num_segments")
	switch {
	case err != nil:
		return tensor.Tensor{}, nil, fmt.Errorf("needs num_segments to build its destination of %s: %v", start, err)
	case n < 0:
		return tensor.Tensor{}, nil, fmt.Errorf("num_segments = %d is negative: no destination of %s to build", n, start)
	case ids.Rank() > len(q.shape):
		return tensor.Tensor{}, nil, fmt.Errorf("segment ids of rank %d are not a prefix of data of shape %v", ids.Rank(), q.shape)
	}
	shape := append(tensor.Shape{n}, q.shape[ids.Rank():]...)
	dst, err := tensor.New(q.data.DType(), shape)
	if err != nil {
		return tensor.Tensor{}, nil, fmt.Errorf("its destination %v of %v: %w", shape, q.data.DType(), err)
	}
	if start != dialect.FillZero {
		v, ok := dialect.FillValue(start, dst.DType())
		if !ok {
			return tensor.Tensor{}, nil, fmt.Errorf("%v has no %s to start its destination from", dst.DType(), start)
		}
		iv, isInt := v.IntAt(0)
		fv, isFloat := v.FloatAt(0)
		for i := range dst.Len() {
			if !(isInt && dst.SetIntAt(i, iv) || isFloat && dst.SetFloatAt(i, fv)) {
				return tensor.Tensor{}, nil, fmt.Errorf("a destination of %v elements filled with %s is not built here", dst.DType(), start)
			}
		}
	}
	return dst, shape, nil
}

// flattened reports whether, in a flat family, op is given data
// flattened: the request gives no axis and op's axis has a default of
// its own (or is required).
func flattened(rule familyRule, q *resolved, op *dialect.Op) bool {
	if !rule.flat || q.has(Axis) {
		return false
	}
	name, ok := nameFor(op, Axis)
	if !ok {
		return false
	}
	a, isAttr := op.Attr(name)
	return !isAttr || a.Default != "" || a.Required
}
