package explain

import (
	"fmt"
	"slices"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// A segment reduction (TensorFlow's and JAX's segment_* and
// unsorted_segment_*, NumPy's reduceat) reduces the rows of its data into
// the rows of its output. Its trace shows data as the updates, each
// element linked to the output cell of its segment: the segment its id
// names, or for reduceat the run it lies in. An output row that no row
// reaches is an empty segment, which holds the operator's fill.

// isSegmentOp reports whether op reduces rows into segments: it takes
// num_segments, or it is a sorted segment reduction or a reduceat, whose
// output rows the ids or run starts give.
func isSegmentOp(op *dialect.Op) bool {
	if op.Family == "segment_sum_sorted" || op.Family == "reduceat" {
		return true
	}
	return slices.ContainsFunc(op.Inputs, func(p dialect.Param) bool { return p.Role == dialect.RoleNumSegments })
}

// segmentFill returns what an empty segment of op holds, given its
// Behavior and reduction: the Behavior's Fill, or for the reductions of
// runs their EmptyRun, the identity of the reduction where it is that.
// ok is false where no Fill names it (the -0 of a float sum's identity;
// reduceat, which has no empty run).
func segmentFill(op *dialect.Op, b dialect.Behavior, red engine.Reduction) (f dialect.Fill, text string, ok bool) {
	switch op.Family {
	case "reduceat":
		return 0, "", false
	case "segment_sum_sorted":
		if b.Runs.Empty == engine.EmptyZero {
			return dialect.FillZero, dialect.FillZero.String(), true
		}
		switch red {
		case engine.Mul:
			return dialect.FillOne, dialect.FillOne.String(), true
		case engine.Max:
			return dialect.FillMinusInf, dialect.FillMinusInf.String(), true
		case engine.Min:
			return dialect.FillPlusInf, dialect.FillPlusInf.String(), true
		}
		return 0, "the identity of " + red.String() + " (-0 for floats)", false
	}
	return b.Fill, b.Fill.String(), true
}

// linkSegments links every element of the rows to the cell of its
// segment in the output, in the order of the ids.
func (t *Trace) linkSegments(op *dialect.Op, call dialect.Call) error {
	switch {
	case op.Family == "reduceat":
		return t.linkRuns(op, call)
	case op.Plan != nil:
		// The general scatter the call runs, under the rules of its
		// attributes (JAX's mode clip clamps an id to the nearest
		// segment, which the loop below does not know).
		return t.linkPlan(op, call)
	}
	rows, ids, out := t.Updates.Tensor, t.Indices.Tensor, t.Output.Tensor
	values, err := indexValues(ids)
	if err != nil {
		return err
	}
	r := ids.Rank()
	if r > rows.Rank() || !rows.Shape()[:r].Equal(ids.Shape()) {
		return fmt.Errorf("%s %v is not a prefix of %s %v", t.Indices.Name, ids.Shape(), t.Updates.Name, rows.Shape())
	}
	slice, _ := rows.Shape()[r:].NumElements()
	n := int64(0)
	if out.Rank() > 0 {
		n = int64(out.Dim(0))
	}
	t.Links = make([]Link, 0, rows.Len())
	for e, v := range values {
		if v < 0 && t.Rules.Negative == engine.NegativeFromEnd {
			v += n
		}
		for k := range slice {
			to := -1
			if v >= 0 && v < n {
				to = int(v)*slice + k
			}
			t.Links = append(t.Links, Link{From: e*slice + k, To: to, Index: e, IndexLen: 1})
		}
	}
	return nil
}

// linkRuns links the elements of a reduceat's array: output j along axis
// reduces the run of array from indices[j] to indices[j+1]-1, or the
// slice at indices[j] alone where indices[j] >= indices[j+1] (the last
// run ends with the array).
func (t *Trace) linkRuns(op *dialect.Op, call dialect.Call) error {
	rows, ids := t.Updates.Tensor, t.Indices.Tensor
	starts, err := indexValues(ids)
	if err != nil {
		return err
	}
	axis := t.runAxis
	shape := rows.Shape()
	pre, _ := shape[:axis].NumElements()
	post, _ := shape[axis+1:].NumElements()
	size, m := shape[axis], len(starts)
	for p := range pre {
		for j, lo := range starts {
			hi := int64(size)
			if j+1 < m {
				hi = starts[j+1]
			}
			if lo >= hi {
				hi = lo + 1
			}
			for i := lo; i < hi; i++ {
				for q := range post {
					from := (p*size+int(i))*post + q
					to := (p*m+j)*post + q
					t.Links = append(t.Links, Link{From: from, To: to, Index: j, IndexLen: 1})
				}
			}
		}
	}
	return nil
}

// indexValues reads an integer tensor's values.
func indexValues(ids tensor.Tensor) ([]int64, error) {
	if !ids.DType().IsInteger() {
		return nil, fmt.Errorf("index type %v is not an integer type", ids.DType())
	}
	values := make([]int64, ids.Len())
	for i := range values {
		values[i], _ = ids.IntAt(i)
	}
	return values, nil
}

// segmentMoves returns the number of links of a segment reduction: one
// per element of the rows, and for reduceat one per element of each run
// (a slice lies in several runs where the starts go back).
func (t *Trace) segmentMoves() int {
	rows := t.Updates.Tensor
	if t.Family != "reduceat" {
		return rows.Len()
	}
	starts, err := indexValues(t.Indices.Tensor)
	axis := t.runAxis
	if err != nil || axis < 0 || axis >= rows.Rank() {
		return 0 // linkRuns fails on the same inputs
	}
	size := int64(rows.Dim(axis))
	per := 0
	for j, lo := range starts {
		hi := size
		if j+1 < len(starts) {
			hi = starts[j+1]
		}
		per += int(max(hi-lo, 1))
	}
	return per * (rows.Len() / max(int(size), 1))
}
