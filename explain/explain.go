// Package explain shows what one scatter or gather call did, element by
// element: which output cell each update went to, or which data cell each
// gathered element came from, and what happened to every cell on the way
// (untouched, written once, overwritten by later duplicates, reduced with
// several updates, gathered, read).
//
// Run evaluates the operator through its dialect, so the output shown is
// always the framework-exact one, then traces the call:
//
//   - For a scatter, every update lands in the cell that the scatter's
//     gather counterpart would read at the update's position (ScatterND
//     and GatherND, ScatterElements and GatherElements on the same axis).
//     Run gathers from a tensor of cell numbers shaped like the output,
//     with the operator's own index rules (Behavior.Index), so each update
//     learns its destination; an index the rules skip gives none.
//   - For a gather, Run evaluates the operator a second time with its data
//     replaced by a tensor of cell numbers, so the output holds, for each
//     element, the number of the data cell it was copied from, however the
//     framework arranges its batch dimensions, axes and shapes.
//   - For a segment reduction (TensorFlow's and JAX's segment_* and
//     unsorted_segment_*, NumPy's reduceat), every element of data's rows
//     links to the output cell of its segment: the one its id names
//     (an id the rules drop links nowhere), or for reduceat the run it
//     lies in. An output row that no row reaches is Empty, and the trace
//     names the fill it holds.
//
// A trace takes memory for every element and every move (a Cell of 16
// bytes, a Link of 40 and the working memory that finds it): Run holds it
// to the size limit of tensor.SetMaxBytes as a tensor is held, and refuses
// a call whose trace would take more with an error that matches
// tensor.ErrTooLarge and says how much it needs.
//
// A Trace renders as text (WriteText) or as a picture (Draw, WriteSVG,
// WritePNG) while every tensor has at most MaxCells elements; beyond that,
// WriteText prints a Summary and the picture is refused with ErrTooLarge.
// A tensor of rank 3 or more is shown as its 2-D slices over the last two
// dimensions.
package explain

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// MaxCells is the largest number of elements of a tensor that is shown
// cell by cell.
const MaxCells = 400

// ErrTooLarge is matched (with errors.Is) by the error of drawing a trace
// that has a tensor with more than MaxCells elements.
var ErrTooLarge = errors.New("too large to draw")

// Role is what a tensor is to the call.
type Role uint8

// The roles.
const (
	// Data is the tensor a gather reads from, or the one a scatter
	// updates a copy of.
	Data Role = iota + 1
	// Indices holds the index values.
	Indices
	// Updates holds the values a scatter writes: updates, src or value.
	Updates
	// Output is the result.
	Output
)

var roleNames = [...]string{Data: "data", Indices: "indices", Updates: "updates", Output: "output"}

// String returns the role's name in lower case.
func (r Role) String() string {
	if int(r) < len(roleNames) && roleNames[r] != "" {
		return roleNames[r]
	}
	return "role(" + strconv.Itoa(int(r)) + ")"
}

// Status is what happened to one cell of a tensor.
type Status uint8

// The statuses. A scatter's data cells and the index values that did their
// work are Plain.
const (
	Plain Status = iota // nothing to say
	// Untouched: an output cell of a scatter that no update reached, so
	// it keeps its value (or zero); a data cell of a gather that no
	// output element reads; a src cell beyond the index's extent.
	Untouched
	Written     // an output cell replaced by exactly one update
	Overwritten // an output cell written by several updates: the last in index order wins
	Reduced     // an output cell combined with its updates by the reduction
	Gathered    // an output cell of a gather, copied from a data cell
	Read        // a data cell of a gather that output elements copy
	Applied     // an update that takes part in the output
	Lost        // an update that a later update to the same cell overwrites
	Skipped     // an update, an index value or a gathered element whose index the rules skip
	Failed      // the index value the operator reported as out of range
	// Empty: an output cell of a segment reduction that no row reaches:
	// an empty segment, which holds the operator's fill (Trace.Fill).
	Empty
)

var statusNames = [...]string{"plain", "untouched", "written", "overwritten", "reduced", "gathered", "read",
	"applied", "lost", "skipped", "failed", "empty"}

// String returns the status's name in lower case.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Cell is the trace of one element of a tensor.
type Cell struct {
	Status Status
	// Hits counts the updates that reached an output cell of a scatter,
	// the output elements read from a data cell of a gather, and the
	// links that start at an updates cell.
	Hits int
}

// Operand is one tensor of the call with the trace of each of its
// elements.
type Operand struct {
	Role Role
	// Name is the framework's name of the input or output ("params",
	// "src", "value", "out").
	Name   string
	Tensor tensor.Tensor
	// Cells has one entry per element, in row-major order.
	Cells []Cell
}

// Link is the move of one element, in the order the operator applies
// them (row-major order of the indices): an update written to an output
// cell (a scatter), or a data cell copied to an output cell (a gather).
type Link struct {
	// From is the flat offset of the element in Updates (a scatter) or
	// Data (a gather), and To that of the cell it goes to in Output. A
	// scatter's To, or a gather's From, is -1 when the index rules skip
	// the index.
	From, To int
	// Index is the flat offset in Indices of the first index value that
	// chose the cell, and IndexLen the number of values that did: the
	// tuple length for the ND operators, 1 for the others, 0 for an empty
	// index tuple. They lie IndexStride apart, 1 but for a start index
	// vector along another dimension than the last (StableHLO's
	// index_vector_dim); 0 reads as 1.
	Index, IndexLen, IndexStride int
	// Lost is set on an update that a later update to the same cell
	// overwrites (reduction none).
	Lost bool
}

// Trace is the account of one operator call.
type Trace struct {
	Op      string // "onnx.ScatterND"
	Family  string // one of dialect.Families
	Version int    // the operator version the opset selected
	// Versioned is false for the dialects whose operators have no
	// versions (their single version is 1).
	Versioned bool
	Scatter   bool
	// Fills is set for a gather that writes a fill value of its own
	// where it skips an index, rather than zeros (JAX's mode "fill").
	Fills bool
	// VectorDim is the dimension of Indices that holds index tuples (the
	// ND operators' last, the general operators' index_vector_dim), or -1
	// when each index value stands alone.
	VectorDim int
	// Reduction is a scatter's reduction in the framework's spelling
	// ("none", "add", "amax", "update"), and Combine its meaning.
	Reduction string
	Combine   engine.Reduction
	// ExcludeSelf is set when the destination's own value takes no part
	// in the reduction (include_self=false, use_init_val=false).
	ExcludeSelf bool
	// FromZeros is set for the scatters that take a shape instead of
	// data: their output starts as zeros, and Data is nil.
	FromZeros bool
	// Segments is set for a segment reduction (TensorFlow's and JAX's
	// segment reductions, NumPy's reduceat): Updates holds the rows of
	// its data (Data is nil), each linked to the output cell of its
	// segment, and an output row that no row reaches is an empty segment,
	// which holds Fill (the operator's Behavior.Fill, named).
	Segments bool
	Fill     string
	// Rules are the index rules of the operator version.
	Rules engine.IndexRules
	// Attrs are the attributes in force, as NAME=VALUE ("axis=1",
	// "reduction=none (default)").
	Attrs []string
	// The tensors of the call. Updates is nil for a gather, Data for a
	// scatter that starts from zeros, Output when the call failed.
	Data, Indices, Updates, Output *Operand
	// Links are the element moves, in the order they are applied.
	Links []Link
	// Err is the operator's error when it failed on an index value,
	// whose cell in Indices is then Failed.
	Err error

	// kind is how the call is traced.
	kind tracer
	// runAxis is a reduceat's axis, normalised.
	runAxis int
	// tupleLen is the number of index arrays of a scatter by a tuple of
	// them (0 for the others), and tupleShape the shape they broadcast to.
	tupleLen   int
	tupleShape tensor.Shape
	// fillAxis is an index_fill's dim, normalised.
	fillAxis int
	// scatterAxis is an element-wise scatter's axis, normalised.
	scatterAxis int
	// ones names the optional updates input that the call leaves out
	// and that counts as ones (tf.math.bincount without weights).
	ones string
}

// Run evaluates op on call and traces it. When the operator fails, Run
// returns its error unchanged; if the error is an index out of range
// (*engine.IndexError), Run also returns a Trace of the inputs, without
// Output or Links, whose offending index value is Failed.
func Run(op *dialect.Op, call dialect.Call) (*Trace, error) {
	out, runErr := op.Run(call)
	version, b, err := op.Resolve(call.Opset)
	if err != nil {
		return nil, runErr
	}
	t, err := newTrace(op, version, b, call)
	if runErr != nil {
		var ie *engine.IndexError
		if err != nil || !errors.As(runErr, &ie) || t.alloc() != nil {
			return nil, runErr
		}
		t.Err = runErr
		t.markFailed(ie)
		return t, runErr
	}
	if err != nil {
		return nil, err
	}
	t.Output = newOperand(Output, op.Output, out)
	if t.ones != "" {
		// The call with the ones newTrace made as its updates.
		call = withInput(call, t.ones, t.Updates.Tensor)
	}
	if err := t.alloc(); err != nil {
		return nil, fmt.Errorf("explain: %s: %w", op.Name, err)
	}
	err = t.kind.link(t, op, call)
	if err != nil {
		return nil, fmt.Errorf("explain: %s: tracing the call: %w", op.Name, err)
	}
	t.classify()
	return t, nil
}

// newOperand returns the operand of x, without its cells: Trace.alloc
// allocates them once the trace is known to fit the size limit.
func newOperand(role Role, name string, x tensor.Tensor) *Operand {
	return &Operand{Role: role, Name: name, Tensor: x}
}

// alloc allocates the cells of t's operands, unless t's records would take
// more memory than the size limit of tensor.SetMaxBytes (see size), which
// they are held to as a tensor is; then it returns an error that matches
// tensor.ErrTooLarge and allocates nothing.
func (t *Trace) alloc() error {
	if err := tensor.CheckBytes("the trace", t.size(), 1); err != nil {
		return err
	}
	for _, o := range t.Operands() {
		o.Cells = make([]Cell, o.Tensor.Len())
	}
	return nil
}

// size returns the bytes that tracing t takes, at most math.MaxInt64: a
// Cell for every element of every operand and, once there is an output,
// a Link for every move, and the working memory that finds and classifies
// the links (a cell number for every element of the tensor the moves end
// in, for a scatter, or start from, for a gather; a destination or source
// for every move; a scatter's last move to every output cell) and
// Summary's list of the cells hit more than once.
func (t *Trace) size() int64 {
	var total uint64
	add := func(n int, size uintptr) {
		hi, lo := bits.Mul64(uint64(n), uint64(size))
		sum, carry := bits.Add64(total, lo, 0)
		total = sum
		if hi != 0 || carry != 0 || sum > math.MaxInt64 {
			total = math.MaxInt64
		}
	}
	for _, o := range t.Operands() {
		add(o.Tensor.Len(), unsafe.Sizeof(Cell{}))
	}
	if t.Output == nil {
		return int64(total)
	}
	const word = unsafe.Sizeof(int64(0))
	moves := t.moves()
	add(moves, unsafe.Sizeof(Link{})+word)
	add(t.counted().Tensor.Len(), 2*word) // cell numbers, Summary
	if t.Scatter {
		add(t.Output.Tensor.Len(), word) // the last moves
	}
	return int64(total)
}

// moves returns the number of links of t, which has an output.
func (t *Trace) moves() int { return t.kind.moves(t) }

// A tracer is how one kind of call is traced: link makes its links, and
// moves counts them beforehand from the shapes, so that size can refuse a
// trace too large before it is made.
type tracer struct {
	link  func(t *Trace, op *dialect.Op, call dialect.Call) error
	moves func(t *Trace) int
}

// The kinds of call, each traced its own way.
var (
	segmentTracer = tracer{(*Trace).linkSegments, (*Trace).segmentMoves}
	flatTracer    = tracer{(*Trace).linkFlat, (*Trace).flatMoves}
	tupleTracer   = tracer{(*Trace).linkTuple, (*Trace).tupleMoves}
	fillTracer    = tracer{(*Trace).linkIndexFill, (*Trace).indexFillMoves}
	maskedTracer  = tracer{(*Trace).linkMasked, (*Trace).maskedMoves}
	planTracer    = tracer{(*Trace).linkPlan, (*Trace).planMoves}
	scatterTracer = tracer{(*Trace).linkScatter, (*Trace).scatterMoves}
	gatherTracer  = tracer{(*Trace).linkGather, (*Trace).gatherMoves}
)

// tracerOf returns the tracer of op's calls, once newTrace has read the
// roles of the call's inputs.
func (t *Trace) tracerOf(op *dialect.Op) tracer {
	switch {
	case t.Segments:
		return segmentTracer
	case counterparts[op.Name] != "":
		return flatTracer
	case t.tupleLen > 0:
		return tupleTracer
	case t.Family == "index_fill":
		return fillTracer
	case t.Family == "masked_scatter":
		return maskedTracer
	case op.Plan != nil:
		return planTracer
	case t.Scatter:
		return scatterTracer
	}
	return gatherTracer
}

// gatherMoves is the number of links of a gather: one per output element.
func (t *Trace) gatherMoves() int { return t.Output.Tensor.Len() }

// planMoves is the number of links of a call traced by its plan: one per
// element of updates, whatever the number of start indices (a window, or
// dynamic_update_slice's one), or for a gather one per output element.
func (t *Trace) planMoves() int {
	if !t.Scatter {
		return t.gatherMoves()
	}
	return t.Updates.Tensor.Len()
}

// scatterMoves is the number of links of a scatter: one per update that
// lands, the updates broadcast where the operator broadcasts indices.
func (t *Trace) scatterMoves() int {
	out, ind := t.Output.Tensor, t.Indices.Tensor
	switch {
	case out.Len() == 0 || ind.Len() == 0:
		return 0
	case t.Family == "scatter_nd":
		shape, err := engine.GatherNDShape(out.Shape(), ind.Shape(), 0)
		if err != nil {
			return 0 // linkScatter fails on the same shapes
		}
		n, _ := shape.NumElements()
		return n
	case broadcastsIndices[t.Op] && ind.Rank() == out.Rank():
		// Broadcast in every dimension but the axis, where a size of 1
		// takes the output's.
		n := 1
		for d := range ind.Rank() {
			if ind.Dim(d) == 1 && !t.isAxis(d) {
				n *= out.Dim(d)
			} else {
				n *= ind.Dim(d)
			}
		}
		return n
	}
	return ind.Len()
}

// newTrace sorts the call's inputs into roles and reads the reduction; b
// is the Behavior of the operator version.
func newTrace(op *dialect.Op, version int, b dialect.Behavior, call dialect.Call) (*Trace, error) {
	t := &Trace{
		Op:        op.Name,
		Family:    op.Family,
		Version:   version,
		Versioned: !slices.Equal(op.Versions, []int{1}),
		Scatter:   dialect.IsScatter(op.Family),
		VectorDim: -1,
		Rules:     b.Index,
		Attrs:     attributesInForce(op, version, call),
	}
	if isSegmentOp(op) {
		t.Scatter, t.Segments = true, true
	}
	in := inputs(op, call)
	for _, p := range op.Inputs {
		x, ok := in[p.Name]
		if !ok || x.IsZero() {
			continue
		}
		switch {
		case p.Role == dialect.RoleData && t.Segments:
			t.Updates = newOperand(Updates, p.Name, x) // the rows
		case p.Role == dialect.RoleData:
			t.Data = newOperand(Data, p.Name, x)
		case p.Role == dialect.RoleIndices:
			t.Indices = newOperand(Indices, p.Name, x)
		case (p.Role == dialect.RoleUpdates || p.Role == dialect.RoleValue) && t.Scatter:
			t.Updates = newOperand(Updates, p.Name, x)
		}
	}
	if arrays, ok, err := indexTuple(op, call); err != nil {
		return nil, fmt.Errorf("explain: %s: %w", op.Name, err)
	} else if ok && len(arrays) > 0 {
		p, _ := paramOf(op, dialect.RoleIndices)
		if err := t.stackTuple(strings.TrimSuffix(p, ".0"), arrays); err != nil {
			return nil, fmt.Errorf("explain: %s: %w", op.Name, err)
		}
	}
	if t.Scatter && t.Updates == nil && t.Indices != nil {
		for _, p := range op.Inputs {
			if p.Role == dialect.RoleUpdates && p.Optional {
				// Absent, the updates count one each: shown as ones.
				ones, err := onesOf(t.Indices.Tensor.Shape())
				if err != nil {
					return nil, fmt.Errorf("explain: %s: %w", op.Name, err)
				}
				t.Updates, t.ones = newOperand(Updates, "ones", ones), p.Name
			}
		}
	}
	missing := ""
	switch {
	case t.Indices == nil:
		missing = "indices"
	case t.Scatter && t.Updates == nil:
		missing = "updates"
	case !t.Scatter && t.Data == nil:
		missing = "data"
	}
	if missing != "" {
		return nil, fmt.Errorf("explain: %s: no %s among the inputs (%s)", op.Name, missing, strings.Join(slices.Sorted(maps.Keys(in)), ", "))
	}
	t.FromZeros = t.Scatter && t.Data == nil && !t.Segments
	if t.Scatter {
		if err := t.readReduction(op, version, call, b); err != nil {
			return nil, err
		}
	}
	if broadcastsIndices[op.Name] && t.Data != nil {
		axis, err := t.axis(op, call, max(t.Data.Tensor.Rank(), 1))
		if err != nil {
			return nil, err
		}
		t.scatterAxis = axis
	}
	if t.Family == "index_fill" {
		rank := 1
		if t.Data != nil {
			rank = max(t.Data.Tensor.Rank(), 1)
		}
		axis, err := t.axis(op, call, rank)
		if err != nil {
			return nil, err
		}
		t.fillAxis = axis
	}
	if t.Segments {
		t.ExcludeSelf = true // a segment has no value of its own
		_, t.Fill, _ = segmentFill(op, b, t.Combine)
		if op.Family == "reduceat" {
			axis, err := t.axis(op, call, max(t.Updates.Tensor.Rank(), 1))
			if err != nil {
				return nil, err
			}
			t.runAxis = axis
		}
	}
	t.kind = t.tracerOf(op)
	return t, nil
}

// inputs returns the call's inputs, with those given as attributes turned
// into tensors as dialect.Op.Run turns them.
func inputs(op *dialect.Op, call dialect.Call) map[string]tensor.Tensor {
	in := maps.Clone(call.Inputs)
	if in == nil {
		in = map[string]tensor.Tensor{}
	}
	for name, v := range call.Attrs {
		if p, ok := op.Param(name); ok && p.AttrKind != 0 {
			in[name] = v.Tensor()
		}
	}
	return in
}

// readReduction sets the scatter's reduction from its attribute (or the
// attribute's default), or from its Behavior when it has a single one.
func (t *Trace) readReduction(op *dialect.Op, version int, call dialect.Call, b dialect.Behavior) error {
	attr := ""
	for _, a := range op.Attrs {
		if a.Role == dialect.RoleReduction && version >= a.Since {
			attr = a.Name
			break
		}
	}
	t.Reduction, t.Combine = "none", engine.None
	switch {
	case attr != "":
		// A string default always parses. Without a reduction (PyTorch's
		// scatter without reduce) the scatter is a plain write.
		v, _, _ := attrValue(op, call, attr)
		if s := v.Str; s != "" && s != "none" {
			r, ok := b.Reductions[s]
			if !ok {
				return fmt.Errorf("explain: %s: reduction %q is not in the operator's table", op.Name, s)
			}
			t.Reduction, t.Combine = s, r
		}
	case len(b.Reductions) == 1:
		for name, r := range b.Reductions {
			t.Reduction, t.Combine = name, r
		}
	}
	if f := b.Flag; f.Attr != "" {
		v, _, err := attrValue(op, call, f.Attr)
		if err != nil {
			return fmt.Errorf("explain: %s: default of %s: %w", op.Name, f.Attr, err)
		}
		t.Combine = f.Off
		if v.Bool {
			t.Combine = f.On
		}
		t.Reduction = fmt.Sprintf("%s=%t", f.Attr, v.Bool)
	}
	if b.IncludeSelf != "" && t.Combine != engine.None {
		v, given, err := attrValue(op, call, b.IncludeSelf)
		if err != nil {
			return fmt.Errorf("explain: %s: default of %s: %w", op.Name, b.IncludeSelf, err)
		}
		t.ExcludeSelf = given && !v.Bool
	}
	return nil
}

// attrValue returns the value of attribute name in call, or else its
// default; given is false when there is neither.
func attrValue(op *dialect.Op, call dialect.Call, name string) (v dialect.Value, given bool, err error) {
	if v, ok := call.Attrs[name]; ok {
		return v, true, nil
	}
	a, ok := op.Attr(name)
	if !ok || a.Default == "" {
		return dialect.Value{}, false, nil
	}
	v, err = dialect.ParseValue(a.Kind, a.Default)
	return v, err == nil, err
}

// cellNumbers returns an int64 tensor of the given shape holding 1, 2, ...
// in row-major order: 0 stays free for "nothing", which is what a gather
// writes for an index its rules skip.
func cellNumbers(shape tensor.Shape) (tensor.Tensor, error) {
	ids, err := tensor.New(tensor.Int64, shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i, v := 0, ids.Data().([]int64); i < len(v); i++ {
		v[i] = int64(i) + 1
	}
	return ids, nil
}

// atLeast1D views a 0-d tensor as a 1-D tensor of one element, as PyTorch
// counts it.
func atLeast1D(x tensor.Tensor) tensor.Tensor {
	if x.Rank() > 0 {
		return x
	}
	v, _ := x.Reshape(tensor.Shape{1}) // one element either way
	return v
}

// linkScatter finds each update's destination by gathering from cell
// numbers shaped like the output, with the operator's index rules.
func (t *Trace) linkScatter(op *dialect.Op, call dialect.Call) error {
	out, ind := t.Output.Tensor, t.Indices.Tensor
	if out.Len() == 0 || ind.Len() == 0 {
		return nil // nothing is written
	}
	ids, err := cellNumbers(out.Shape())
	if err != nil {
		return err
	}
	if t.Family == "scatter_nd" {
		t.VectorDim = ind.Rank() - 1
		shape, err := engine.GatherNDShape(out.Shape(), ind.Shape(), 0)
		if err != nil {
			return err
		}
		dst, err := tensor.New(tensor.Int64, shape)
		if err != nil {
			return err
		}
		if err := engine.GatherND(dst, ids, ind, 0, t.Rules); err != nil {
			return err
		}
		k := ind.Dim(ind.Rank() - 1)
		block, _ := out.Shape()[k:].NumElements()
		dests := dst.Data().([]int64)
		t.Links = make([]Link, len(dests))
		for p, id := range dests {
			t.Links[p] = Link{From: p, To: int(id) - 1, Index: p / block * k, IndexLen: k}
		}
		return nil
	}
	axis, err := t.axis(op, call, max(out.Rank(), 1))
	if err != nil {
		return err
	}
	ind1, indexAt, err := t.broadcastIndices(op, axis)
	if err != nil {
		return err
	}
	dst, err := tensor.New(tensor.Int64, ind1.Shape())
	if err != nil {
		return err
	}
	if err := engine.GatherElements(dst, atLeast1D(ids), ind1, axis, t.Rules); err != nil {
		return err
	}
	// An update comes from the position of its index in updates, which
	// may be larger; a value is one for every index.
	is, us := ind1.Shape(), atLeast1D(t.Updates.Tensor).Shape()
	weights := make([]int, len(is))
	if t.Updates.Name != "value" {
		if len(us) > len(is) {
			return fmt.Errorf("%s %v has a higher rank than %s %v", t.Updates.Name, us, t.Indices.Name, is)
		}
		// Updates broadcast against the indices, aligned at the right
		// (NumPy's put_along_axis): a dimension of size 1, or one they
		// lack, repeats; PyTorch's larger src is read at the index's
		// coordinates.
		strides, lead := us.Strides(), len(is)-len(us)
		for d := lead; d < len(is); d++ {
			if us[d-lead] != 1 || is[d] == 1 {
				weights[d] = strides[d-lead]
			}
		}
	}
	from := project(is, weights)
	dests := dst.Data().([]int64)
	t.Links = make([]Link, len(dests))
	for q, id := range dests {
		t.Links[q] = Link{From: from(q), To: int(id) - 1, Index: indexAt(q), IndexLen: 1}
	}
	return nil
}

// isAxis reports whether d is the axis of the call, as Attrs names it
// (an element-wise scatter's axis, dim or their default).
func (t *Trace) isAxis(d int) bool {
	return d == t.scatterAxis
}

// broadcastsIndices are the element-wise scatters whose indices
// broadcast against the output in every dimension but the axis (NumPy's
// put_along_axis, as its Behavior's notes say).
var broadcastsIndices = map[string]bool{"numpy.put_along_axis": true}

// broadcastIndices returns the indices of an element-wise scatter as it
// applies them (at least 1-D; for the operators of broadcastsIndices,
// broadcast against the output but along axis), and the function that
// gives the position in the indices shown of each of their values.
func (t *Trace) broadcastIndices(op *dialect.Op, axis int) (tensor.Tensor, func(q int) int, error) {
	ind, out := atLeast1D(t.Indices.Tensor), t.Output.Tensor
	same := func(q int) int { return q }
	if !broadcastsIndices[op.Name] || ind.Rank() != out.Rank() {
		return ind, same, nil
	}
	target := ind.Shape().Clone()
	for d := range target {
		if d != axis && target[d] == 1 {
			target[d] = out.Dim(d)
		}
	}
	if target.Equal(ind.Shape()) {
		return ind, same, nil
	}
	at := project(target, ind.Shape().BroadcastStrides(target))
	wide, err := tensor.New(tensor.Int64, target)
	if err != nil {
		return tensor.Tensor{}, nil, err
	}
	for q := range wide.Len() {
		v, _ := ind.IntAt(at(q))
		wide.SetIntAt(q, v)
	}
	return wide, at, nil
}

// project returns the function that maps the row-major position of an
// element of a tensor of shape s to the sum of its coordinates times
// weights (one per dimension): the offset, in another tensor, of the
// element that those coordinates address. Unlike Shape.Coords, it
// allocates nothing per element.
func project(s tensor.Shape, weights []int) func(q int) int {
	return func(q int) int {
		off := 0
		for d := len(s) - 1; d >= 0; d-- {
			if s[d] > 0 {
				off += q % s[d] * weights[d]
				q /= s[d]
			}
		}
		return off
	}
}

// linkGather evaluates the operator again with its data replaced by cell
// numbers: the output then names each element's source cell.
func (t *Trace) linkGather(op *dialect.Op, call dialect.Call) error {
	ids, err := cellNumbers(t.Data.Tensor.Shape())
	if err != nil {
		return err
	}
	numbered := dialect.Call{Opset: call.Opset, Inputs: maps.Clone(call.Inputs), Attrs: call.Attrs}
	if numbered.Inputs == nil {
		numbered.Inputs = map[string]tensor.Tensor{}
	}
	numbered.Inputs[t.Data.Name] = ids
	src, err := op.Run(numbered)
	if err != nil {
		return err
	}
	sources, ok := src.Data().([]int64)
	if !ok || src.Len() != t.Output.Tensor.Len() {
		return fmt.Errorf("the gather of cell numbers gave %v%v, want int64%v", src.DType(), src.Shape(), t.Output.Tensor.Shape())
	}
	indexOf, err := t.gatherIndex(op, call)
	if err != nil {
		return err
	}
	t.Links = make([]Link, len(sources))
	for q, id := range sources {
		at, n := indexOf(q)
		t.Links[q] = Link{From: int(id) - 1, To: q, Index: at, IndexLen: n}
	}
	return nil
}

// gatherIndex returns the function that gives, for the flat position q of
// a gather's output, the index values that chose its source.
func (t *Trace) gatherIndex(op *dialect.Op, call dialect.Call) (func(q int) (at, n int), error) {
	ind, out := t.Indices.Tensor, t.Output.Tensor
	_, hasAxis, err := axisArg(op, call)
	if err != nil {
		return nil, err
	}
	family := t.Family
	if family == "take" && hasAxis {
		family = "gather" // numpy.take along an axis: the result is shaped as a gather's
	}
	switch family {
	case "take": // without an axis, the result has index's shape
		return func(q int) (int, int) { return q, 1 }, nil
	case "gather_elements", "take_along_axis":
		return broadcastIndex(ind.Shape(), out.Shape()), nil
	case "gather_nd":
		t.VectorDim = ind.Rank() - 1
		k := 1 // a 0-d indices tensor holds one tuple of one value
		if ind.Rank() > 0 {
			k = ind.Dim(ind.Rank() - 1)
		}
		if k == 0 {
			return func(int) (int, int) { return 0, 0 }, nil
		}
		block := 0
		if tuples := ind.Len() / k; tuples > 0 {
			block = out.Len() / tuples
		}
		return func(q int) (int, int) { return q / block * k, k }, nil
	}
	// gather: the output is data.shape[:axis] + indices.shape[batch:] +
	// data.shape[axis+1:], the batch dimensions leading both.
	v, _, err := attrValue(op, call, "batch_dims") // 0 when there is none
	if err != nil {
		return nil, err
	}
	batch := int(v.Int)
	axis, given, err := axisArg(op, call)
	if err != nil {
		return nil, err
	}
	if !given {
		axis = batch // TensorFlow's axis=None
	}
	if axis == 0 {
		batch = 0 // no batch dimension can precede axis 0
	}
	dataRank := max(t.Data.Tensor.Rank(), 1)
	if axis < 0 {
		axis += dataRank
	}
	if batch < 0 {
		batch += ind.Rank()
	}
	os := out.Shape()
	if t.Data.Tensor.Rank() == 0 {
		os = tensor.Shape{1} // a 0-d input counts as 1-D
	}
	// The number of output dimensions that come from indices, batch
	// dimensions included; PyTorch's 0-d index counts as 1-D.
	indexRank := len(os) - dataRank + 1 + batch
	if axis+indexRank-batch > len(os) || batch > axis {
		return nil, fmt.Errorf("output shape %v does not fit data %v, indices %v, axis %d and batch_dims %d",
			out.Shape(), t.Data.Tensor.Shape(), ind.Shape(), axis, batch)
	}
	// The index value sits at the output's batch coordinates followed by
	// those it has from indices.
	strides := append(os[:batch].Clone(), os[axis:axis+indexRank-batch]...).Strides()
	weights := make([]int, len(os))
	copy(weights, strides[:batch])
	copy(weights[axis:], strides[batch:])
	at := project(os, weights)
	return func(q int) (int, int) { return at(q), 1 }, nil
}

// broadcastIndex returns the function that gives, for the flat position
// q of an element-wise gather's result, the index value that chose its
// source: the one at the same coordinates, or at 0 along a dimension in
// which the indices broadcast (NumPy's take_along_axis, PyTorch's
// take_along_dim). Indices of another rank than the result (a 0-d index,
// or take_along_dim without dim, whose result is 1-D) are read in
// row-major order.
func broadcastIndex(ind, out tensor.Shape) func(q int) (int, int) {
	if len(ind) != len(out) || ind.Equal(out) {
		return func(q int) (int, int) { return q, 1 }
	}
	weights := ind.Strides()
	for d := range ind {
		if ind[d] != out[d] {
			weights[d] = 0 // broadcast from size 1
		}
	}
	at := project(out, weights)
	return func(q int) (int, int) { return at(q), 1 }
}

// axis returns the operator's axis (attribute axis or dim, or input axis)
// in [0, rank).
func (t *Trace) axis(op *dialect.Op, call dialect.Call, rank int) (int, error) {
	axis, _, err := axisArg(op, call)
	if err != nil {
		return 0, err
	}
	return dialect.NormAxis(axis, rank, t.Op)
}

// axisArg reads the axis from the input axis, or from the attributes axis
// or dim or their default; given is false when there is none of them.
func axisArg(op *dialect.Op, call dialect.Call) (axis int, given bool, err error) {
	for _, name := range []string{"axis", "dim"} {
		if x, ok := call.Inputs[name]; ok && !x.IsZero() {
			a, err := dialect.IntOf(x, name)
			return a, err == nil, err
		}
		if v, ok, err := attrValue(op, call, name); ok || err != nil {
			return int(v.Int), ok, err
		}
	}
	return 0, false, nil
}

// classify sets the status and hit count of every cell from the links.
func (t *Trace) classify() {
	out := t.Output.Cells
	if !t.Scatter {
		for _, l := range t.Links {
			if l.From < 0 {
				out[l.To].Status = Skipped
				t.markIndex(l, Skipped)
				continue
			}
			out[l.To] = Cell{Status: Gathered, Hits: 1}
			t.Data.Cells[l.From].Hits++
		}
		for i := range t.Data.Cells {
			c := &t.Data.Cells[i]
			c.Status = Untouched
			if c.Hits > 0 {
				c.Status = Read
			}
		}
		return
	}
	last := make([]int, len(out))
	for i, l := range t.Links {
		if l.To >= 0 {
			out[l.To].Hits++
			last[l.To] = i
		}
	}
	for i := range out {
		c := &out[i]
		switch {
		case c.Hits == 0 && t.Segments:
			c.Status = Empty
		case c.Hits == 0:
			c.Status = Untouched
		case t.Combine != engine.None:
			c.Status = Reduced
		case c.Hits == 1:
			c.Status = Written
		default:
			c.Status = Overwritten
		}
	}
	upd := t.Updates.Cells
	for i, l := range t.Links {
		c := &upd[l.From]
		c.Hits++
		s := Applied
		switch {
		case l.To < 0:
			s = Skipped
			t.markIndex(l, Skipped)
		case t.Combine == engine.None && last[l.To] != i:
			s = Lost
			t.Links[i].Lost = true
		}
		// A value shared by every index takes the strongest status of
		// its links.
		if c.Status == Plain || s == Applied || s == Lost && c.Status == Skipped {
			c.Status = s
		}
	}
	for i := range upd {
		if upd[i].Status == Plain {
			upd[i].Status = Untouched
		}
	}
}

// markIndex sets the status of the index values of l.
func (t *Trace) markIndex(l Link, s Status) {
	for j := range l.IndexLen {
		t.Indices.Cells[l.Index+j*max(l.IndexStride, 1)].Status = s
	}
}

// markFailed marks the index value that ie reports, when its position
// lies in Indices.
func (t *Trace) markFailed(ie *engine.IndexError) {
	shape := t.Indices.Tensor.Shape()
	if len(ie.Pos) != len(shape) {
		return
	}
	for d, p := range ie.Pos {
		if p < 0 || p >= shape[d] {
			return
		}
	}
	t.Indices.Cells[shape.Offset(ie.Pos)].Status = Failed
}

// Operands returns the tensors of the trace in the order they are shown:
// data, indices, updates, output, leaving out those that are nil.
func (t *Trace) Operands() []*Operand {
	var ops []*Operand
	for _, o := range []*Operand{t.Data, t.Indices, t.Updates, t.Output} {
		if o != nil {
			ops = append(ops, o)
		}
	}
	return ops
}

// source is the tensor whose elements the links move: a scatter's
// updates, a gather's data.
func (t *Trace) source() *Operand {
	if t.Scatter {
		return t.Updates
	}
	return t.Data
}

// counted is the tensor whose cells Summary counts: where a scatter's
// updates go (its output), where a gather's elements come from (its data).
func (t *Trace) counted() *Operand {
	if t.Scatter {
		return t.Output
	}
	return t.Data
}

// Fits reports whether every tensor of t can be shown cell by cell: nil,
// or an error matching ErrTooLarge that names the first tensor that
// cannot.
func (t *Trace) Fits() error {
	for _, o := range t.Operands() {
		if x := o.Tensor; x.Len() > MaxCells {
			return fmt.Errorf("explain: %s: %w: %s %v%v has %d elements, more than %d",
				t.Op, ErrTooLarge, o.Name, x.DType(), x.Shape(), x.Len(), MaxCells)
		}
	}
	return nil
}

// Count is a cell and how many times it was hit.
type Count struct {
	Pos  []int
	Hits int
}

// Summary counts what a call did, for tensors too large to show cell by
// cell. The cells it counts are the output's for a scatter (where updates
// go) and the data's for a gather (where elements come from).
type Summary struct {
	Moves   int // the updates of a scatter, or the elements of a gather's output
	Skipped int // moves whose index the rules skip
	Cells   int // the number of cells counted
	Hit     int // the cells that at least one move reaches
	// Duplicates counts the moves to (or from) a cell that an earlier
	// move already reached.
	Duplicates int
	// Top holds the cells hit more than once, most hit first (ties in
	// row-major order), at most TopCells of them.
	Top []Count
}

// TopCells is the most cells Summary lists in Top.
const TopCells = 5

// Summary returns the counts of t; it is empty when the call failed.
func (t *Trace) Summary() Summary {
	var s Summary
	if t.Output == nil {
		return s
	}
	counted := t.counted()
	s.Moves = len(t.Links)
	for _, l := range t.Links {
		if l.From < 0 || l.To < 0 {
			s.Skipped++
		}
	}
	s.Cells = len(counted.Cells)
	var many []int
	for i, c := range counted.Cells {
		if c.Hits > 0 {
			s.Hit++
		}
		if c.Hits > 1 {
			many = append(many, i)
		}
	}
	s.Duplicates = s.Moves - s.Skipped - s.Hit
	slices.SortStableFunc(many, func(a, b int) int { return cmp.Compare(counted.Cells[b].Hits, counted.Cells[a].Hits) })
	shape := counted.Tensor.Shape()
	for _, i := range many[:min(len(many), TopCells)] {
		s.Top = append(s.Top, Count{Pos: shape.Coords(i), Hits: counted.Cells[i].Hits})
	}
	return s
}

// linkPlan links the elements of a call of a general operator, by its
// plan: the gather of cell numbers of the operand that the call's own
// gather makes, or that reads for each update the cell it is written to.
func (t *Trace) linkPlan(op *dialect.Op, call dialect.Call) error {
	p, err := op.PlanOf(call)
	if err != nil {
		return err
	}
	t.Rules = p.Rules
	for _, in := range op.Inputs {
		t.Fills = t.Fills || in.Role == dialect.RoleFill
	}
	// A scatter's cells are its output's: it may have no data (onto
	// zeros, as tf.math.bincount).
	operand := t.Output.Tensor
	if !t.Scatter {
		operand = t.Data.Tensor
	}
	ids, err := cellNumbers(operand.Shape())
	if err != nil {
		return err
	}
	d := p.Gather
	other := t.Output.Tensor // a gather's result, a scatter's updates
	if t.Scatter {
		other = t.Updates.Tensor
		g := p.Scatter.Gather(operand.Shape(), other.Shape())
		d = &g
	}
	cells, err := tensor.New(tensor.Int64, other.Shape())
	if err != nil {
		return err
	}
	ind := t.Indices.Tensor
	if err := engine.GatherGeneral(cells, ids, ind, d, engine.GatherOptions{Rules: p.Rules}); err != nil {
		return err
	}
	if d.IndexVectorDim < ind.Rank() {
		t.VectorDim = d.IndexVectorDim
	}
	indexOf := startIndexOf(d, other.Shape(), ind.Shape())
	t.Links = make([]Link, other.Len())
	for q, id := range cells.Data().([]int64) {
		l := Link{From: int(id) - 1, To: q}
		if t.Scatter {
			l.From, l.To = q, int(id)-1
		}
		l.Index, l.IndexLen, l.IndexStride = indexOf(q)
		t.Links[q] = l
	}
	return nil
}

// startIndexOf returns, for a gather with dimension numbers d of a result
// of shape out with indices of shape ind, the function that gives the
// position in indices of the start index of result element q: the flat
// offset of its first component, the number of components and the
// distance between them.
func startIndexOf(d *engine.GatherDims, out, ind tensor.Shape) func(q int) (at, n, stride int) {
	outStrides, indStrides := out.Strides(), ind.Strides()
	// The result's dimensions outside the slice pair in order with those
	// of indices but the index vector's.
	var weights []int
	for i := range out {
		weights = append(weights, 0)
		if slices.Contains(d.OffsetDims, i) {
			continue
		}
		s := len(weights) - 1 - countBefore(d.OffsetDims, i)
		if s >= d.IndexVectorDim {
			s++
		}
		weights[i] = indStrides[s]
	}
	n, stride := 1, 1
	if d.IndexVectorDim < len(ind) {
		n, stride = ind[d.IndexVectorDim], indStrides[d.IndexVectorDim]
	}
	return func(q int) (int, int, int) {
		at := 0
		for i, w := range weights {
			at += q / outStrides[i] % max(out[i], 1) * w
		}
		return at, n, stride
	}
}

// countBefore returns how many values of dims are below i.
func countBefore(dims []int, i int) int {
	n := 0
	for _, d := range dims {
		if d < i {
			n++
		}
	}
	return n
}
