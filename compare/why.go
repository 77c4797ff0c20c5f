package compare

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// noRule is the explanation of a difference that no rule of the Behavior
// tables accounts for.
const noRule = "no rule of the operators' Behavior tables accounts for this difference"

// shared returns the sentence of a rule, marked as the one every dialect
// shares unless its table says otherwise when it is the default.
func shared(rule string, isDefault bool) string {
	if isDefault {
		return rule + " (the shared rule)"
	}
	return rule
}

// meanings say what each reduction does with the updates that land on a
// position.
var meanings = map[engine.Reduction]string{
	engine.None: "the update replaces the value",
	engine.Add:  "the updates are added to the value",
	engine.Sub:  "the updates are subtracted from the value",
	engine.Mul:  "the value is multiplied by the updates",
	engine.Max:  "the largest value is kept",
	engine.Min:  "the smallest value is kept",
	engine.Mean: "the mean of the values is taken",
	engine.Div:  "the value is divided by the updates",
}

func meaning(r engine.Reduction, updates int) string {
	if r == engine.None && updates > 1 {
		return "the last update in index order replaces the value"
	}
	return meanings[r]
}

// facts are what the inputs say about the indices: which dimension of
// data each index value addresses, and (for a scatter) where each entry
// lands.
type facts struct {
	family  string
	q       *resolved
	indices tensor.Tensor
	values  []int64 // the index values; nil when they cannot be read
	k       int     // values per entry: the tuple length for the ND families, else 1
	dims    []int   // the dimension of data that component j of an entry addresses
	axis    int     // the normalised axis, for the element and gather families
	// shape is data's shape, and updates the updates, as the indices
	// address them: for the element families a 0-d tensor counts as 1-D
	// of size 1, as PyTorch counts it (the others refuse it).
	shape   tensor.Shape
	updates tensor.Tensor
	// segments is set for the segment families, whose shape is the
	// output's ([num_segments] + data's trailing dimensions) and whose
	// updates are data: the slice of data at entry e lands on row
	// values[e], unless it is outside [0, num_segments).
	segments bool
}

func newFacts(q *resolved, family string) *facts {
	f := &facts{family: family, q: q, indices: q.inputs[Indices], shape: q.shape, updates: q.inputs[Updates]}
	values, ok := int64s(f.indices)
	if !ok || q.shape == nil || f.indices.Rank() == 0 && strings.HasSuffix(family, "_nd") {
		return f
	}
	if strings.HasPrefix(family, "segment_") {
		n, err := dialect.IntOf(q.inputs[NumSegments], "num_segments")
		ir := f.indices.Rank()
		if err != nil || n < 0 || ir > len(q.shape) || !q.shape[:ir].Equal(f.indices.Shape()) {
			return f
		}
		f.shape = append(tensor.Shape{n}, q.shape[ir:]...)
		f.updates, f.segments, f.k, f.dims, f.values = q.data, true, 1, []int{0}, values
		return f
	}
	if strings.HasSuffix(family, "_elements") {
		f.indices, f.updates = as1D(f.indices), as1D(f.updates)
		if len(f.shape) == 0 {
			f.shape = tensor.Shape{1}
		}
	}
	if q.rule.flat && !q.has(Axis) {
		n, _ := q.shape.NumElements()
		f.shape = tensor.Shape{n} // the flattened data every member reads
	}
	rank := len(f.shape)
	switch family {
	case "scatter_nd", "gather_nd":
		f.k = f.indices.Dim(f.indices.Rank() - 1)
		batch := 0
		if family == "gather_nd" {
			batch = q.batchDims
		}
		if f.k < 1 || batch < 0 || batch > rank-f.k {
			return f
		}
		for j := range f.k {
			f.dims = append(f.dims, batch+j)
		}
	default:
		axis, err := dialect.NormAxis(q.axis, rank, "data")
		if err != nil {
			return f
		}
		f.k, f.axis, f.dims = 1, axis, []int{axis}
	}
	f.values = values
	return f
}

// as1D returns a 0-d tensor as a 1-D tensor of one element, and any other
// tensor as it is.
func as1D(t tensor.Tensor) tensor.Tensor {
	if t.IsZero() || t.Rank() > 0 {
		return t
	}
	return tensor.Must(t.Reshape(tensor.Shape{1}))
}

// int64s reads an integer tensor's elements; uint64 values above
// math.MaxInt64 become math.MaxInt64, which is out of range anyway.
func int64s(t tensor.Tensor) ([]int64, bool) {
	if t.IsZero() || !t.DType().IsInteger() {
		return nil, false
	}
	out := make([]int64, t.Len())
	for i := range out {
		v, _ := t.IntAt(i) // a uint64 as its bits
		if v < 0 && t.DType() == tensor.Uint64 {
			v = math.MaxInt64
		}
		out[i] = v
	}
	return out, true
}

// entries returns the number of index entries (tuples for the ND
// families, single values otherwise).
func (f *facts) entries() int {
	if f.values == nil {
		return 0
	}
	return len(f.values) / f.k
}

// entryName names entry e and its value: "indices[1] = [-1, 0]" for a
// tuple, "indices[0,2] = -1" otherwise.
func (f *facts) entryName(e int) string {
	if f.k == 1 && !strings.HasSuffix(f.family, "_nd") {
		return "indices" + coords(f.indices.Shape().Coords(e)) + " = " + strconv.FormatInt(f.values[e], 10)
	}
	outer := f.indices.Shape()
	outer = outer[:len(outer)-1]
	parts := make([]string, f.k)
	for j := range parts {
		parts[j] = strconv.FormatInt(f.values[e*f.k+j], 10)
	}
	return "indices" + coords(outer.Coords(e)) + " = [" + strings.Join(parts, ", ") + "]"
}

// coords formats a position in indices as tensor.Shape does: "[1,2]",
// and "" for a scalar's.
func coords(c []int) string {
	if len(c) == 0 {
		return ""
	}
	return tensor.Shape(c).String()
}

// indexUse is one index value and the dimension of data it addresses.
type indexUse struct {
	entry, dim, size int
	value            int64
}

// firstUse returns the first index value, in index order, for which
// match holds.
func (f *facts) firstUse(match func(u indexUse) bool) (indexUse, bool) {
	for e := range f.entries() {
		for j, d := range f.dims {
			u := indexUse{entry: e, dim: d, size: f.shape[d], value: f.values[e*f.k+j]}
			if match(u) {
				return u, true
			}
		}
	}
	return indexUse{}, false
}

func isNegative(u indexUse) bool { return u.value < 0 && u.value >= -int64(u.size) }

func isOutside(u indexUse) bool { return u.value < -int64(u.size) || u.value >= int64(u.size) }

// hit is an index entry landing on a cell of a scatter's output, with
// negative indices counted from the end.
type hit struct {
	entry    int
	negative bool // a component of the entry is negative
	update   int  // the position in updates of the value it brings; -1 when unknown
}

// hitsAt returns the entries landing on each of the given cells of a
// scatter's output, in index order; nil when the indices or shapes do not
// say (a gather, or inputs the operators refused).
func (f *facts) hitsAt(cells []int) map[int][]hit {
	if !strings.HasPrefix(f.family, "scatter") && !f.segments || f.values == nil {
		return nil
	}
	want := slices.Clone(cells)
	slices.Sort(want)
	hits := make(map[int][]hit, len(want))
	for _, c := range want {
		hits[c] = nil
	}
	updates, shape := f.updates, f.shape
	if f.segments {
		// Row values[e] of the output receives slice e of data.
		slice, _ := shape[1:].NumElements()
		// A negative id lands, counted from the end, for the members
		// that count it so (NumPy's and PyTorch's scatters into the
		// rows); the rules then say who drops it.
		n := int64(shape[0])
		for e, v := range f.values {
			negative := v < 0
			if negative {
				v += n
			}
			if v < 0 || v >= n {
				continue
			}
			base := int(v) * slice
			for _, c := range want[sort.SearchInts(want, base):] {
				if c >= base+slice {
					break
				}
				hits[c] = append(hits[c], hit{entry: e, negative: negative, update: e*slice + c - base})
			}
		}
		return hits
	}
	strides := shape.Strides()
	if f.family == "scatter_nd" {
		slice, _ := shape[f.k:].NumElements()
		known := updates.Len() == f.entries()*slice
		for e := range f.entries() {
			base, negative, ok := 0, false, true
			for j := range f.k {
				v, size := f.values[e*f.k+j], int64(shape[j])
				if v < -size || v >= size {
					ok = false
					break
				}
				if v < 0 {
					v, negative = v+size, true
				}
				base += int(v) * strides[j]
			}
			if !ok {
				continue
			}
			lo := sort.SearchInts(want, base)
			for _, c := range want[lo:] {
				if c >= base+slice {
					break
				}
				h := hit{entry: e, negative: negative, update: -1}
				if known {
					h.update = e*slice + c - base
				}
				hits[c] = append(hits[c], h)
			}
		}
		return hits
	}
	is := f.indices.Shape()
	if len(is) != len(shape) {
		return nil
	}
	var ustrides []int
	if updates.Rank() == len(is) {
		ustrides = updates.Shape().Strides()
	}
	pos := make([]int, len(is)) // the coordinates of entry e, advanced in place
	for e := range f.entries() {
		if e > 0 {
			for d := len(pos) - 1; d >= 0; d-- {
				if pos[d]++; pos[d] < is[d] {
					break
				}
				pos[d] = 0
			}
		}
		v, size := f.values[e], int64(shape[f.axis])
		if v < -size || v >= size {
			continue
		}
		negative := v < 0
		if negative {
			v += size
		}
		cell, upd, inside, inUpdates := 0, 0, true, ustrides != nil
		for d, p := range pos {
			if d != f.axis && p >= shape[d] {
				inside = false
				break
			}
			c := p
			if d == f.axis {
				c = int(v)
			}
			cell += c * strides[d]
			if inUpdates && p < updates.Dim(d) {
				upd += p * ustrides[d]
			} else {
				inUpdates = false
			}
		}
		if _, wanted := hits[cell]; !inside || !wanted {
			continue
		}
		h := hit{entry: e, negative: negative, update: -1}
		if inUpdates {
			h.update = upd
		}
		hits[cell] = append(hits[cell], h)
	}
	return hits
}

// sources names the entries landing on a cell, for Cell.Sources.
func (f *facts) sources(hs []hit, known bool) string {
	if !known {
		return ""
	}
	if len(hs) == 0 {
		return "no index lands here"
	}
	const shown = 4
	names := make([]string, 0, shown+1)
	for i, h := range hs {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(hs)-shown))
			break
		}
		names = append(names, f.entryName(h.entry))
	}
	return "from " + strings.Join(names, ", ")
}

// rule builds a Rule on topic from what say returns for each run: a key
// (equal keys mean the runs do the same thing) and the text naming it.
// It reports false when all keys are equal: the rule does not tell the
// runs apart.
func rule(topic string, runs []*OpRun, say func(r *OpRun) (key any, text string)) (Rule, bool) {
	var keys []any
	out := Rule{Topic: topic}
	for _, r := range runs {
		k, text := say(r)
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
		i := groupOf(&out.Says, func(s Saying) bool { return s.Text == text }, Saying{Text: text})
		out.Says[i].Ops = append(out.Says[i].Ops, r.Label())
	}
	return out, len(keys) > 1
}

// ruleList collects the rules that tell runs apart.
type ruleList []Rule

// add appends r when ok, as rule reports it.
func (rs *ruleList) add(r Rule, ok bool) {
	if ok {
		*rs = append(*rs, r)
	}
}

// orNone returns the rules, or when there are none a rule saying that no
// rule accounts for the difference, followed by more.
func (rs ruleList) orNone(more string) []Rule {
	if len(rs) == 0 {
		return []Rule{{Topic: noRule + more}}
	}
	return rs
}

func filterRuns(runs []*OpRun, keep func(r *OpRun) bool) []*OpRun {
	var out []*OpRun
	for _, r := range runs {
		if keep(r) {
			out = append(out, r)
		}
	}
	return out
}

func (f *facts) scatter() bool { return dialect.IsScatter(f.family) }

// negativeRule says what the run's index rules do with a negative index.
func (f *facts) negativeRule(r *OpRun) (any, string) {
	idx := r.behavior.Index
	switch {
	case idx.Negative == engine.NegativeFromEnd:
		return "end", "it counts from the end"
	case idx.Negative == engine.NegativeSkip:
		return "skip", "a negative index is dropped"
	case idx.Negative == engine.NegativeRefused:
		return "error", "a negative index is an error"
	case idx.OutOfRange == engine.OutOfRangeSkip && f.segments:
		return "skip", "a negative index is dropped, as every index out of range"
	case idx.OutOfRange == engine.OutOfRangeSkip:
		return "skip", f.skipped()
	case idx.OutOfRange == engine.OutOfRangeClamp:
		return "clamp", clamped
	case idx.OutOfRange == engine.OutOfRangeWrap:
		return "wrap", wrapped
	}
	return "error", "a negative index is an error"
}

const (
	clamped = "it is clamped: the slice moves to lie within the tensor"
	wrapped = "it wraps around: it is taken modulo the size of its dimension"
)

// outsideRule says what the run's index rules do with an index outside
// [-size, size-1].
func (f *facts) outsideRule(r *OpRun) (any, string) {
	switch r.behavior.Index.OutOfRange {
	case engine.OutOfRangeSkip:
		return "skip", f.skipped()
	case engine.OutOfRangeClamp:
		return "clamp", clamped
	case engine.OutOfRangeWrap:
		return "wrap", wrapped
	}
	return "error", "an out-of-range index is an error"
}

func (f *facts) skipped() string {
	if f.scatter() {
		return "it is skipped: the update is ignored"
	}
	return "it is skipped: the output gets zeros"
}

// outcomeWhy explains why some runs fail and others do not, or fail
// otherwise.
func (f *facts) outcomeWhy(runs []*OpRun) []Rule {
	var rules ruleList
	if t := f.indices; !t.IsZero() {
		rules.add(rule(fmt.Sprintf("%v indices", t.DType()), runs, func(r *OpRun) (any, string) {
			types := r.behavior.IndexTypes
			if types.Has(t.DType()) {
				return true, "accepts " + typeList(types)
			}
			return false, fmt.Sprintf("refuses %v (accepts %s)", t.DType(), typeList(types))
		}))
	}
	if u, ok := f.firstUse(isNegative); ok {
		rules.add(rule(fmt.Sprintf("negative index %s (dimension %d of size %d)", f.entryName(u.entry), u.dim, u.size),
			runs, f.negativeRule))
	}
	if u, ok := f.firstUse(isOutside); ok {
		rules.add(rule(fmt.Sprintf("index %s is outside [%d, %d] for dimension %d", f.entryName(u.entry), -u.size, u.size-1, u.dim),
			runs, f.outsideRule))
	}
	rules.add(f.batchRule(runs))
	if slices.ContainsFunc(runs, func(r *OpRun) bool {
		return r.Err != nil && errKind(r.Err) != engine.ErrIndex.Error()
	}) {
		// Some run failed for another reason than an index value: its
		// notes on the element type, or on shapes, may say why.
		rules.add(f.notesRule(runs, f.errorWords(runs)))
	}
	return rules.orNone("; the errors name the cause")
}

// errorWords returns the words, sorted, with which notes may speak of the
// causes of the runs' errors other than an index value: the element type,
// shapes, 0-d tensors.
func (f *facts) errorWords(runs []*OpRun) []string {
	var words []string
	d := f.q.data.DType()
	if u := f.q.inputs[Updates]; f.q.data.IsZero() && !u.IsZero() {
		d = u.DType()
	}
	for _, r := range runs {
		switch kind := errKind(r.Err); {
		case kind == engine.ErrType.Error() && d != tensor.Undefined:
			words = append(words, typeWords(d)...)
		case kind == dialect.ErrInput.Error():
			if d != tensor.Undefined {
				words = append(words, typeWords(d)...)
			}
			words = append(words, "shape")
		case kind == engine.ErrShape.Error() || kind == dialect.ErrAttribute.Error():
			words = append(words, "shape", "0-d", "1-D", "scalar")
		}
	}
	if len(words) > 0 && (len(f.q.shape) == 0 || f.q.inputs[Indices].Rank() == 0) {
		words = append(words, "0-d", "scalar")
	}
	slices.Sort(words)
	return slices.Compact(words)
}

// batchRule tells apart runs that use the requested batch_dims from those
// that have none.
func (f *facts) batchRule(runs []*OpRun) (Rule, bool) {
	if f.q.batchDims == 0 {
		return Rule{}, false
	}
	return rule(fmt.Sprintf("batch_dims %d", f.q.batchDims), runs, func(r *OpRun) (any, string) {
		if r.batchDims == 0 {
			return 0, "has no batch_dims: 0"
		}
		return r.batchDims, fmt.Sprintf("batch_dims %d", r.batchDims)
	})
}

// shapeWhy explains why successful runs give results of different types
// or shapes.
func (f *facts) shapeWhy(runs []*OpRun) []Rule {
	var rules ruleList
	rules.add(f.batchRule(runs))
	rules.add(f.notesRule(runs, []string{"batch", "output", "0-d", "scalar", "broadcast"}))
	return rules.orNone("")
}

// notesRule sets side by side the notes of each run that mention one of
// words and that the others do not share.
func (f *facts) notesRule(runs []*OpRun, words []string) (Rule, bool) {
	if len(words) == 0 {
		return Rule{}, false
	}
	matching := make(map[*OpRun][]string, len(runs))
	count := map[string]int{}
	used := make([]bool, len(words))
	for _, r := range runs {
		for _, n := range r.behavior.Notes {
			lower, match := strings.ToLower(n), false
			for i, w := range words {
				if strings.Contains(lower, strings.ToLower(w)) {
					used[i], match = true, true
				}
			}
			if match {
				matching[r] = append(matching[r], n)
				count[n]++
			}
		}
	}
	var mentioned []string
	for i, w := range words {
		if used[i] {
			mentioned = append(mentioned, strconv.Quote(w))
		}
	}
	topic := "notes that mention " + strings.Join(mentioned, ", ")
	return rule(topic, runs, func(r *OpRun) (any, string) {
		var own []string
		for _, n := range matching[r] {
			if count[n] < len(runs) {
				own = append(own, n)
			}
		}
		if len(own) == 0 {
			return "", "no such note"
		}
		text := strings.Join(own, " ")
		return text, text
	})
}

// typeWords are the words with which notes name element type d.
func typeWords(d tensor.DType) []string {
	words := []string{d.String()}
	switch {
	case d.IsComplex():
		words = append(words, "complex")
	case d == tensor.Uint16 || d == tensor.Uint32 || d == tensor.Uint64:
		words = append(words, "uint16-64")
	}
	return words
}

// cellWhy explains why the runs, all successful with results of one
// shape, differ at cell pos. known says whether hs, the entries landing
// there, could be worked out.
func (f *facts) cellWhy(runs []*OpRun, pos int, hs []hit, known bool) []Rule {
	var rules ruleList
	if known {
		f.scatterCellWhy(runs, pos, hs, &rules)
	}
	return rules.orNone("")
}

func (f *facts) scatterCellWhy(runs []*OpRun, pos int, hs []hit, rules *ruleList) {
	data := f.q.data
	d := runs[0].Out.DType()
	// What the output starts from matters where no update lands, or
	// where the existing value takes part.
	starts := filterRuns(runs, func(r *OpRun) bool {
		return len(hs) == 0 || r.reduction != engine.None && r.includeSelf
	})
	topic := "no index lands here"
	if len(hs) > 0 {
		topic = "the value already here"
	}
	rules.add(rule(topic, starts, func(r *OpRun) (any, string) {
		if r.rows {
			return r.start, fmt.Sprintf("an empty segment holds %v: the destination compare starts it from (num_segments rows of %v)", r.start, r.start)
		}
		if f.segments {
			fill := r.behavior.Fill
			return fill, "an empty segment holds " + fill.String()
		}
		if r.zeros {
			return true, "starts from zeros of the shape (it takes no data)"
		}
		if !data.IsZero() && pos < data.Len() {
			return false, "starts from data, which holds " + tensor.FormatElem(data.At(pos)) + " here"
		}
		return false, "starts from data"
	}))
	if len(hs) == 0 {
		return
	}
	if i := slices.IndexFunc(hs, func(h hit) bool { return h.negative }); i >= 0 {
		rules.add(rule("a negative index lands here: "+f.entryName(hs[i].entry), runs, f.negativeRule))
	}
	topic = "1 update lands here"
	if len(hs) > 1 {
		topic = fmt.Sprintf("%d updates land here (duplicate indices)", len(hs))
	}
	rules.add(rule(topic, runs, func(r *OpRun) (any, string) {
		return r.reduction, r.redText + ": " + meaning(r.reduction, len(hs))
	}))
	reducing := filterRuns(runs, func(r *OpRun) bool { return r.reduction != engine.None })
	rules.add(rule("the value already here", reducing, func(r *OpRun) (any, string) {
		return r.includeSelf, r.selfText
	}))
	updates := f.updates
	nanData := !data.IsZero() && isNaN(data, pos)
	nanUpdate := slices.ContainsFunc(hs, func(h hit) bool { return isNaN(updates, h.update) })
	if nanData || nanUpdate {
		topic := "NaN in data here"
		if nanUpdate {
			topic = "NaN in an update landing here"
		}
		extremes := filterRuns(runs, func(r *OpRun) bool { return r.reduction == engine.Max || r.reduction == engine.Min })
		rules.add(rule(topic, extremes, func(r *OpRun) (any, string) {
			m := r.behavior.Arith.MinMax
			return m, shared(dialect.MinMaxRule(m), m == engine.MinMaxNaN)
		}))
	}
	if (d == tensor.Float16 || d == tensor.BFloat16) && len(hs) > 1 {
		summing := filterRuns(runs, func(r *OpRun) bool {
			return r.reduction == engine.Add || r.reduction == engine.Mul || r.reduction == engine.Mean
		})
		rules.add(rule(fmt.Sprintf("%d %v updates accumulate here", len(hs), d), summing, func(r *OpRun) (any, string) {
			once := r.behavior.Arith.HalfOnce
			return once, shared(dialect.HalfRule(once), !once)
		}))
	}
	if d.IsComplex() {
		arith := filterRuns(runs, func(r *OpRun) bool { return r.reduction == engine.Mul || r.reduction == engine.Mean })
		rules.add(rule(fmt.Sprintf("%v products or quotients here", d), arith, func(r *OpRun) (any, string) {
			c := r.behavior.Arith.Complex
			return c, shared(dialect.ComplexRule(c), c == engine.ComplexGo)
		}))
	}
	if d.IsInteger() {
		means := filterRuns(runs, func(r *OpRun) bool { return r.reduction == engine.Mean })
		rules.add(rule(fmt.Sprintf("the mean of %v values", d), means, func(r *OpRun) (any, string) {
			inType := r.behavior.Arith.CountInType
			return inType, shared(dialect.MeanRule(inType), !inType)
		}))
	}
}

// typeList names a list of index types ("int32, int64", "any integer").
func typeList(types dialect.TypeSet) string {
	switch {
	case types == dialect.IntegerTypes:
		return "any integer"
	case len(types.List()) == 1:
		return types.Names() + " only"
	}
	return types.Names()
}

// noteApplies reports whether a note applies to the run as far as its
// boolean attributes go: a note that speaks of "include_self false" does
// not apply to a run with include_self true.
func (r *OpRun) noteApplies(note string) bool {
	for _, a := range r.Op.Attrs {
		if a.Kind != dialect.Bool {
			continue
		}
		v, ok := r.Call.Attrs[a.Name]
		if !ok {
			def, err := dialect.ParseValue(dialect.Bool, a.Default)
			if err != nil {
				continue
			}
			v = def
		}
		if strings.Contains(note, a.Name+" "+strconv.FormatBool(!v.Bool)) {
			return false
		}
	}
	return true
}
