// Package compare runs the same inputs through the equivalent operators of
// several dialects and reports where their results or errors differ, cell
// by cell, naming the rule behind each difference.
//
// It is for the converter author whose model gives other numbers after
// going from PyTorch to ONNX or from ONNX to OpenVINO: the difference
// usually hides in a corner (a negative index, a duplicate, a NaN,
// include_self, an integer mean) where the frameworks define the same
// operation differently.
//
// The operators of a family name their inputs and attributes differently
// (ONNX's data is TensorFlow's params and PyTorch's input); Role is the
// part each plays, and a Request may use any dialect's spelling. Values
// are mapped too: a reduction is given in any dialect's spelling and each
// operator gets its own ("add" for ONNX, "sum" for PyTorch's
// scatter_reduce and OpenVINO; TensorFlow has an operator per reduction,
// tf.tensor_scatter_nd_add).
// Where an operator cannot take the request, it is left out, with the
// reason: it lacks an input that was given, or a reduction that was asked
// for. A family takes only the members that do exactly what was asked;
// operators named one by one also run where they do something fixed of
// their own (tf.scatter_nd always adds), and the difference is explained.
//
// A family's members are the operators of its Family, and those its
// rule (a table in this package) lists beside them: onnx.Gather takes
// the flattened data in take when no axis is asked; torch.gather and
// onnx.GatherElements are members of take_along_axis; torch.index_reduce
// of segment_prod, segment_min and segment_mean. In a segment family the
// request gives data's rows, segment_ids and num_segments, as TensorFlow
// and JAX take them; a member that scatters onto a destination
// (numpy.add.at, torch.index_add) gets the rows as its updates, onto
// num_segments rows of data's row shape that compare builds, all the
// family's start (0, or 1 for a product), with include_self false where
// it has one. torch.put and torch.index_put choose their reduction with
// accumulate, which compare sets from the reduction asked.
//
// Outcomes are compared first: success, or the kind of error (errors that
// wrap the same sentinel, such as engine.ErrIndex, agree). Successful
// results are compared by type and shape, then cell by cell: floating-point
// and complex elements by their bits, so +0 and -0 differ, except that
// every NaN equals every NaN.
//
// The explanations come from the operators' dialect.Behavior tables, the
// same tables their evaluation and docs/dialects.md read, applied to the
// inputs: which index lands on a differing cell and whether it is negative,
// how many updates land there, whether the values there are NaN, and what
// each operator's index rules, reduction, include_self and notes say
// about that.
package compare

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// MaxCells is the number of differing cells a Report keeps (and
// explains); Differing counts them all.
const MaxCells = 1000

// Report is the result of a comparison.
type Report struct {
	// Family is the family of the operators compared.
	Family string
	// Runs are the operators run, in the order named, or in the
	// registry's order for a family.
	Runs []*OpRun
	// Skipped are the operators left out.
	Skipped []Skipped
	// Outcomes groups the runs by outcome: success, or the kind of error
	// (errors of one kind agree). More than one group is a difference,
	// and OutcomeWhy explains it.
	Outcomes   []Outcome
	OutcomeWhy []Rule
	// Shapes groups the successful runs by their result's type and
	// shape, the largest group first. More than one group is a
	// difference, and ShapeWhy explains it.
	Shapes   []ShapeGroup
	ShapeWhy []Rule
	// Compared is the number of cells compared: the elements of the
	// results of Shapes[0], when it holds two runs or more.
	Compared int
	// Differing is the number of those cells in which the results
	// differ; Cells holds the first MaxCells of them, grouped by the
	// explanation of the difference.
	Differing int
	Cells     []CellGroup
}

// Outcome is a group of runs that ended alike.
type Outcome struct {
	// Kind is "ok", or the kind of error: the text of the sentinel it
	// wraps ("index out of range", "invalid input").
	Kind string
	Runs []*OpRun
}

// ShapeGroup is a group of successful runs whose results have one type
// and shape.
type ShapeGroup struct {
	DType tensor.DType
	Shape tensor.Shape
	Runs  []*OpRun
	// SameElements reports, for a group after the first, whether its
	// results hold the elements of the first group's in the same
	// row-major order (only the shape differs).
	SameElements bool
}

// Cell is one element in which the results differ.
type Cell struct {
	// Pos is the element's row-major position, and Coords its
	// coordinates.
	Pos    int
	Coords []int
	// Values groups the runs by the value they give, in run order.
	Values []CellValue
	// Sources names the index entries that land on the cell, for a
	// scatter ("indices[0], indices[2] = [-1]"); "" for none or a gather.
	Sources string
}

// CellValue is a value, formatted, and the runs that give it.
type CellValue struct {
	Text string
	Runs []*OpRun
}

// CellGroup is a group of differing cells explained by the same rules.
type CellGroup struct {
	Cells []Cell
	Why   []Rule
}

// Rule names a rule behind a difference: what in the inputs brings it
// into play (Topic), and what each operator's table says about it.
type Rule struct {
	Topic string
	Says  []Saying
}

// Saying is what the named operators' Behavior tables say on a topic.
type Saying struct {
	Ops  []string
	Text string
}

// String formats the rule on one line: the topic, then what each group
// of operators does.
func (r Rule) String() string {
	parts := make([]string, len(r.Says))
	for i, s := range r.Says {
		parts[i] = strings.Join(s.Ops, ", ") + ": " + s.Text
	}
	if len(parts) == 0 {
		return r.Topic
	}
	return r.Topic + ": " + strings.Join(parts, "; ")
}

// Agree reports whether every run ended alike: all failed with errors of
// one kind, or all succeeded with results of one type and shape and
// equal cells.
func (rep *Report) Agree() bool {
	return len(rep.Outcomes) <= 1 && len(rep.Shapes) <= 1 && rep.Differing == 0
}

// Run runs the request's operators and compares their outcomes. An
// error (wrapping ErrRequest) means the request could not be run: an
// operator's own error is part of the Report.
func Run(req Request) (*Report, error) {
	ops, family, err := candidates(req)
	if err != nil {
		return nil, err
	}
	if err := checkOpsets(req.Opsets); err != nil {
		return nil, err
	}
	q, err := resolve(req)
	if err != nil {
		return nil, err
	}
	q.rule = familyRules[family]
	if q.rule.reduction != engine.None && !q.has(Reduction) {
		q.reduction = q.rule.reduction // a segment family has one, which none of its members names
	}
	if q.rule.rows && !q.has(IncludeSelf) {
		q.includeSelf = false // the rows alone, as the segment reductions have them
	}
	if err := checkRoles(q, ops); err != nil {
		return nil, err
	}
	rep := &Report{Family: family}
	for _, op := range ops {
		run, skipped := plan(q, op, req.Opsets)
		if run == nil {
			rep.Skipped = append(rep.Skipped, skipped)
			continue
		}
		rep.Runs = append(rep.Runs, run)
	}
	if len(rep.Runs) < 2 {
		return nil, tooFew(rep)
	}
	for _, run := range rep.Runs {
		run.Out, run.Err = run.Op.Run(run.Call)
	}
	f := newFacts(q, family)
	rep.outcomes(f)
	rep.shapes(f)
	rep.cells(f)
	return rep, nil
}

func tooFew(rep *Report) error {
	var b strings.Builder
	if len(rep.Runs) == 1 {
		fmt.Fprintf(&b, " (only %s can)", rep.Runs[0].Label())
	}
	for _, s := range rep.Skipped {
		fmt.Fprintf(&b, "; %s: %s", s.Op, s.Reason)
	}
	return fmt.Errorf("%w: fewer than two %s operators can take these inputs%s", ErrRequest, rep.Family, b.String())
}

// errKinds are the sentinels an operator error is classified by.
var errKinds = []error{engine.ErrIndex, engine.ErrShape, engine.ErrType, engine.ErrArgument,
	dialect.ErrVersion, dialect.ErrAttribute, dialect.ErrInput}

func errKind(err error) string {
	if err == nil {
		return "ok"
	}
	for _, k := range errKinds {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	return "error"
}

// groupOf returns the position in groups of the first group that same
// picks, appending fresh when there is none.
func groupOf[G any](groups *[]G, same func(G) bool, fresh G) int {
	if i := slices.IndexFunc(*groups, same); i >= 0 {
		return i
	}
	*groups = append(*groups, fresh)
	return len(*groups) - 1
}

func (rep *Report) outcomes(f *facts) {
	for _, run := range rep.Runs {
		kind := errKind(run.Err)
		i := groupOf(&rep.Outcomes, func(o Outcome) bool { return o.Kind == kind }, Outcome{Kind: kind})
		rep.Outcomes[i].Runs = append(rep.Outcomes[i].Runs, run)
	}
	if len(rep.Outcomes) > 1 {
		rep.OutcomeWhy = f.outcomeWhy(rep.Runs)
	}
}

func (rep *Report) shapes(f *facts) {
	for _, run := range rep.Runs {
		if run.Err != nil {
			continue
		}
		d, s := run.Out.DType(), run.Out.Shape()
		i := groupOf(&rep.Shapes, func(g ShapeGroup) bool { return g.DType == d && g.Shape.Equal(s) }, ShapeGroup{DType: d, Shape: s})
		rep.Shapes[i].Runs = append(rep.Shapes[i].Runs, run)
	}
	slices.SortStableFunc(rep.Shapes, func(a, b ShapeGroup) int { return len(b.Runs) - len(a.Runs) })
	if len(rep.Shapes) < 2 {
		return
	}
	first := rep.Shapes[0].Runs[0].Out
	var all []*OpRun
	for i := range rep.Shapes {
		g := &rep.Shapes[i]
		all = append(all, g.Runs...)
		if i > 0 {
			out := g.Runs[0].Out
			g.SameElements = out.DType() == first.DType() && out.Len() == first.Len() && sameElements(out, first)
		}
	}
	rep.ShapeWhy = f.shapeWhy(all)
}

// sameElements reports whether a and b, of one type and length, have
// equal keys at every position.
func sameElements(a, b tensor.Tensor) bool {
	ka, kb := keysOf(a), keysOf(b)
	for i := range a.Len() {
		if ka(i) != kb(i) {
			return false
		}
	}
	return true
}

// cellValues groups the runs by their value at cell i, in the order of
// the runs, each value with its text; keys are the runs' keysOf.
func cellValues(runs []*OpRun, keys []func(int) key, i int) []CellValue {
	var values []CellValue
	var seen []key
	for r, run := range runs {
		k := keys[r](i)
		j := slices.Index(seen, k)
		if j < 0 {
			seen = append(seen, k)
			values = append(values, CellValue{Text: tensor.FormatElem(run.Out.At(i))})
			j = len(values) - 1
		}
		values[j].Runs = append(values[j].Runs, run)
	}
	return values
}

func (rep *Report) cells(f *facts) {
	if len(rep.Shapes) == 0 || len(rep.Shapes[0].Runs) < 2 {
		return
	}
	runs := rep.Shapes[0].Runs
	shape := rep.Shapes[0].Shape
	rep.Compared = runs[0].Out.Len()
	if !slices.ContainsFunc(runs, func(r *OpRun) bool { return !tensor.Equal(r.Out, runs[0].Out) }) {
		return // equal bits: no cell can differ
	}
	keys := make([]func(int) key, len(runs))
	for r, run := range runs {
		keys[r] = keysOf(run.Out)
	}
	var diff []Cell
	for i := range rep.Compared {
		first := keys[0](i)
		if !slices.ContainsFunc(keys[1:], func(k func(int) key) bool { return k(i) != first }) {
			continue
		}
		rep.Differing++
		if len(diff) < MaxCells {
			diff = append(diff, Cell{Pos: i, Coords: shape.Coords(i), Values: cellValues(runs, keys, i)})
		}
	}
	if len(diff) == 0 {
		return
	}
	positions := make([]int, len(diff))
	for i, c := range diff {
		positions[i] = c.Pos
	}
	var hits map[int][]hit
	if shape.Equal(f.q.shape) || f.segments && shape.Equal(f.shape) {
		hits = f.hitsAt(positions)
	}
	group := map[string]int{} // rulesKey of each group's Why: its position
	for _, c := range diff {
		hs, known := hits[c.Pos]
		c.Sources = f.sources(hs, known)
		why := f.cellWhy(runs, c.Pos, hs, known)
		k := rulesKey(why)
		i, ok := group[k]
		if !ok {
			i = len(rep.Cells)
			group[k] = i
			rep.Cells = append(rep.Cells, CellGroup{Why: why})
		}
		rep.Cells[i].Cells = append(rep.Cells[i].Cells, c)
	}
}

func rulesKey(rules []Rule) string {
	parts := make([]string, len(rules))
	for i, r := range rules {
		parts[i] = r.String()
	}
	return strings.Join(parts, "\n")
}

// key is a comparable stand-in for an element, equal for two elements
// that compare as equal: the bits of a number (those of each part of a
// complex number), with every NaN folded into one key, or a string.
type key struct {
	re, im       uint64
	reNaN, imNaN bool // a NaN part, whose bits are then left out
	s            string
}

func (k key) isNaN() bool { return k.reNaN || k.imNaN }

// keysOf returns the function that gives the key of element i of t. It
// chooses by the element type once, and reads elements through the typed
// accessors Tensor.IntAt and Tensor.FloatAt or t's slice, so that a loop
// over the elements neither allocates nor goes through At. An integer is
// keyed by its bits widened to 64 (a uint64 as its bits); a float16,
// bfloat16, float32 or float64 value, and each part of a complex number,
// by the bits of its exact float64 widening, which tells apart the same
// values as its own bits.
func keysOf(t tensor.Tensor) func(i int) key {
	switch d := t.DType(); {
	case d.IsInteger():
		return func(i int) key {
			v, _ := t.IntAt(i)
			return key{re: uint64(v)}
		}
	case d.IsFloat():
		return func(i int) key {
			x, _ := t.FloatAt(i)
			return floatKey(x)
		}
	}
	switch v := t.Data().(type) {
	case []complex64:
		return complexKeys(v)
	case []complex128:
		return complexKeys(v)
	case []bool:
		return func(i int) key {
			if v[i] {
				return key{re: 1}
			}
			return key{}
		}
	case []string:
		return func(i int) key { return key{s: v[i]} }
	}
	return func(int) key { return key{} } // an undefined tensor holds nothing
}

func floatKey(x float64) key {
	if math.IsNaN(x) {
		return key{reNaN: true}
	}
	return key{re: math.Float64bits(x)}
}

func complexKeys[T complex64 | complex128](v []T) func(i int) key {
	return func(i int) key {
		c := complex128(v[i])
		re, im := floatKey(real(c)), floatKey(imag(c))
		return key{re: re.re, reNaN: re.reNaN, im: im.re, imNaN: im.reNaN}
	}
}

// isNaN reports whether element i of t is a NaN (or a complex number
// with a NaN part).
func isNaN(t tensor.Tensor, i int) bool {
	if t.IsZero() || i < 0 || i >= t.Len() {
		return false
	}
	return keysOf(t)(i).isNaN()
}
