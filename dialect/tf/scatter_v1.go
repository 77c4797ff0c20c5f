package tf

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// v1Op describes one of the tf.compat.v1.scatter_* operators, which update
// the rows of a variable in place.
type v1Op struct {
	name      string
	reduction string           // what the operator does, in TensorFlow's words
	red       engine.Reduction // the same, as the engine's reduction
	types     typeSet          // the accepted element types of ref and updates
	summary   string
	note      string
	b         *dialect.Behavior // its shared Behavior, which init sets
}

// newV1 returns tf.compat.v1.scatter_<reduction>, which does what summary
// says to the rows of ref that indices name, in place; note says what
// becomes of duplicate indices or of NaN.
func newV1(reduction string, red engine.Reduction, types typeSet, summary, note string) *v1Op {
	return &v1Op{name: "tf.compat.v1.scatter_" + reduction, reduction: reduction, red: red, types: types,
		summary: summary + ", in place", note: note}
}

// inOrder is the note of a v1 scatter that applies duplicate indices one
// at a time: verb is what each does.
func inOrder(verb string) string {
	return "Duplicate indices " + verb + " one update at a time in row-major index order."
}

var (
	v1Update = newV1("update", engine.None, anyType, "write updates into the rows of ref that indices name",
		"With duplicate indices the last update in row-major index order wins; TensorFlow leaves the order undefined, "+
			"and its CPU kernel applies them in that order.")
	v1Add = newV1("add", engine.Add, numberTypes, "add updates to the rows of ref that indices name", inOrder("add"))
	v1Sub = newV1("sub", engine.Sub, numberTypes, "subtract updates from the rows of ref that indices name", inOrder("subtract"))
	v1Mul = newV1("mul", engine.Mul, numberTypes, "multiply the rows of ref that indices name by updates", inOrder("multiply"))
	v1Div = newV1("div", engine.Div, numberTypes, "divide the rows of ref that indices name by updates",
		"Duplicate indices divide one update at a time in row-major index order; integers truncate toward zero (C++'s /=). "+
			"An integer update of 0 is an error, before anything is written: TensorFlow's CPU kernel divides by it, "+
			"which C++ leaves undefined (the process traps on x86).")
	v1Min = newV1("min", engine.Min, realTypes, "keep the smaller of ref and updates in the rows that indices name",
		"A NaN in updates is ignored while a NaN already in ref stays (Eigen's cwiseMin, std::min).")
	v1Max = newV1("max", engine.Max, realTypes, "keep the larger of ref and updates in the rows that indices name",
		"A NaN in updates is ignored while a NaN already in ref stays (Eigen's cwiseMax, std::max).")
	v1Ops = []*v1Op{v1Update, v1Add, v1Sub, v1Mul, v1Div, v1Min, v1Max}
)

// v1Notes are the rules every tf.compat.v1 scatter shares.
var v1Notes = []string{
	"ref is updated in place, row ref[indices[i,...,j]] by updates[i,...,j]: updates has shape indices.shape + ref.shape[1:], " +
		"or is a scalar applied at every index; ref has rank >= 1.",
	"A negative or out-of-range index is an error naming the first one, as on TensorFlow's CPU kernel, " +
		"but ref is left as it was, where the CPU kernel has applied the updates before the bad index.",
	"Indices are checked only when there is at least one.",
}

func (op *v1Op) behavior(int) dialect.Behavior {
	b := behavior(rules, op.types, append(slices.Clone(v1Notes), op.note)...)
	b.Reductions = map[string]engine.Reduction{op.reduction: op.red}
	if op.red == engine.Max || op.red == engine.Min {
		b.Arith = tensorScatterArith
	}
	return b
}

// scatterV1Ops returns the table entries of the tf.compat.v1 scatters.
func scatterV1Ops() []*dialect.Op {
	inputs := []dialect.Param{
		{Name: "ref", Role: dialect.RoleData, Doc: "the variable to update, of rank >= 1 (a copy of it is updated and returned)"},
		{Name: "indices", Role: dialect.RoleIndices, Doc: "rows of ref, of any shape"},
		{Name: "updates", Role: dialect.RoleUpdates, Types: "ref's type",
			Doc: "shaped indices.shape + ref.shape[1:], or a scalar"},
	}
	return opcall.Variants(v1Ops, inputs, nil, func(op *v1Op) *dialect.Op {
		return &dialect.Op{Name: op.name, Family: "scatter_rows", Summary: op.summary, Behavior: op.behavior, Plan: v1Plan,
			Eval: func(_ *dialect.Behavior, c dialect.Call) (tensor.Tensor, error) {
				ref := c.Inputs["ref"]
				if ref.IsZero() {
					return tensor.Tensor{}, opcall.Wrap(op.name, fmt.Errorf("%w: missing input \"ref\"", dialect.ErrInput))
				}
				out := ref.Clone()
				if err := scatterV1(op, out, c.Inputs["indices"], c.Inputs["updates"]); err != nil {
					return tensor.Tensor{}, err
				}
				return out, nil
			}}
	})
}

// v1Plan is a tf.compat.v1 scatter as the general scatter, which explain
// traces: each index a start index of one component along ref's
// dimension 0, each row of updates a window of ref.shape[1:]. A scalar
// updates, which the call spreads, has no plan.
func v1Plan(_ *dialect.Behavior, c dialect.Call) (dialect.Plan, error) {
	ref, indices, updates := c.Inputs["ref"], c.Inputs["indices"], c.Inputs["updates"]
	if ref.Rank() < 1 || updates.Rank() != indices.Rank()+ref.Rank()-1 {
		return dialect.Plan{}, fmt.Errorf("%w: the plan needs ref of rank >= 1 and updates of shape indices.shape + ref.shape[1:]", engine.ErrShape)
	}
	q := indices.Rank()
	d := &engine.ScatterDims{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: q}
	for w := q; w < updates.Rank(); w++ {
		d.UpdateWindowDims = append(d.UpdateWindowDims, w)
	}
	return dialect.Plan{Scatter: d, Rules: rules}, nil
}

// setV1Behaviors points each v1Op at its shared Behavior in table.
func setV1Behaviors(table []*dialect.Op) {
	for _, op := range v1Ops {
		op.b = opcall.SharedOf(table, op.name)
	}
}

// ScatterUpdate and its variants (ScatterAdd, ...) are generated into
// zvariants.go from the table of the genvariants command (see tf.go).

// scatterV1 runs op on ref in place; its error names op.
func scatterV1(op *v1Op, ref, indices, updates tensor.Tensor) error {
	sh := opcall.GetShapes()
	defer sh.Release()
	return opcall.Wrap(op.name, runScatterV1(sh, op, ref, indices, updates))
}

func runScatterV1(sh *opcall.Shapes, op *v1Op, ref, indices, updates tensor.Tensor) error {
	if err := opcall.CheckInputs(op.b, ref, "ref", indices, "indices"); err != nil {
		return err
	}
	if updates.IsZero() {
		return fmt.Errorf("%w: missing input \"updates\"", dialect.ErrInput)
	}
	if updates.DType() != ref.DType() {
		return fmt.Errorf("%w: updates has type %v, ref has type %v; they must be equal",
			engine.ErrType, updates.DType(), ref.DType())
	}
	rs, is, us := sh.Of(ref), sh.Of(indices), sh.Of(updates)
	if len(rs) < 1 {
		return fmt.Errorf("%w: params must be at least 1-D, got shape %v", engine.ErrShape, rs)
	}
	if !validV1Shapes(rs, is, us) {
		return fmt.Errorf("%w: Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], "+
			"got updates.shape %v, indices.shape %v, params.shape %v", engine.ErrShape, us, is, rs)
	}
	if indices.Len() == 0 {
		return nil // the kernel reads no index
	}
	// Each index is a tuple of one: indices.shape + [1] for ScatterND.
	tuples := append(sh.Buf(len(is)+1), is...)
	tuples = append(tuples, 1)
	iv, err := indices.View(sh.Ptr(tuples))
	if err != nil {
		return err
	}
	if len(us) == 0 {
		// A scalar update applies at every index: spread it over
		// indices.shape + ref.shape[1:].
		if updates, err = spread(updates, append(append(sh.Buf(len(is)+len(rs)-1), is...), rs[1:]...)); err != nil {
			return err
		}
	}
	opt := engine.ScatterOptions{Reduction: op.red, Rules: rules, Arith: op.b.Arith}
	return rowIndexError(engine.ScatterND(ref, ref, iv, updates, opt), "indices", "is not in")
}

// validV1Shapes is TensorFlow's ValidShapes: updates is a scalar, or has
// shape indices.shape + ref.shape[1:].
func validV1Shapes(rs, is, us tensor.Shape) bool {
	if len(us) == 0 {
		return true
	}
	return len(us) == len(is)+len(rs)-1 && us[:len(is)].Equal(is) && us[len(is):].Equal(rs[1:])
}

// spread returns a new tensor of the given shape holding the scalar s in
// every element.
func spread(s tensor.Tensor, shape tensor.Shape) (tensor.Tensor, error) {
	t, err := tensor.Empty(s.DType(), shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	n := t.Len()
	if n == 0 {
		return t, nil
	}
	v := reflect.ValueOf(t.Data())
	reflect.Copy(v, reflect.ValueOf(s.Data()))
	// Doubling copies: each one copies what is already written.
	for done := 1; done < n; done *= 2 {
		reflect.Copy(v.Slice(done, n), v.Slice(0, done))
	}
	return t, nil
}
