package explain

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// textWrap is the most cells a row of a 1-D tensor shows; longer ones
// wrap, each row labelled with the position it starts at. In text, rows
// wrap at half or a quarter of it when they would be wider than
// textWidth characters.
const (
	textWrap  = 20
	textWidth = 100
)

// maxValueWidth is the most characters of an element shown; longer values
// are cut, ending in "…".
const maxValueWidth = 12

// ANSI escape sequences for the statuses, as background colours with
// black text; untouched cells are faint. Plain has none.
var ansi = map[Status]string{
	Untouched:   "\x1b[2m",
	Written:     "\x1b[30;42m",
	Overwritten: "\x1b[30;43m",
	Reduced:     "\x1b[30;45m",
	Gathered:    "\x1b[30;46m",
	Read:        "\x1b[30;106m",
	Applied:     "\x1b[30;102m",
	Lost:        "\x1b[30;101m",
	Skipped:     "\x1b[30;103m",
	Failed:      "\x1b[97;41m",
	Empty:       "\x1b[2m",
}

const ansiReset = "\x1b[0m"

// WriteText writes t for a terminal: the call, each tensor as a grid of
// cells (a 1-D tensor as a row, a 2-D one as rows, a 3-D one as 2-D
// slices one under another, with coordinates) marked by status, one line
// per move ("updates[2] = 11 -> output[1] by indices[2,:] = [1]") and the
// legend. With color, cells are coloured by status with ANSI escapes.
// When a tensor is too large (see Fits), WriteText prints the Summary
// instead of the cells.
func (t *Trace) WriteText(w io.Writer, color bool) error {
	var b strings.Builder
	for i, line := range t.headline() {
		if i > 0 {
			b.WriteString("  ")
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	if err := t.Fits(); err != nil {
		t.writeSummary(&b)
	} else {
		for _, o := range t.Operands() {
			b.WriteByte('\n')
			writeGrid(&b, o, color)
		}
		if len(t.Links) > 0 {
			b.WriteByte('\n')
			t.writeLinks(&b)
		}
		b.WriteByte('\n')
		t.writeLegend(&b, color)
	}
	if t.Err != nil {
		b.WriteString("\nthe call failed on an index value out of range")
		if t.failedAt() >= 0 {
			b.WriteString(", marked !")
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// headline returns the call's title, the attributes in force, what it does
// with duplicates and how it reads indices.
func (t *Trace) headline() []string {
	title := t.Op
	if t.Versioned {
		title += ", version " + strconv.Itoa(t.Version)
	}
	lines := []string{title}
	if len(t.Attrs) > 0 {
		lines = append(lines, "attributes: "+strings.Join(t.Attrs, ", "))
	}
	return append(lines, t.doing(), t.indexRules())
}

// attributesInForce returns the attributes of call at version as NAME=VALUE,
// in the operator's order: each one the version has, as given or else as
// its default ("axis=0 (default)"; one with no default that is not given
// is left out), then the inputs that stand for attributes (OpenVINO's
// axis, a scatter's shape) when given.
func attributesInForce(op *dialect.Op, version int, call dialect.Call) []string {
	var attrs []string
	for _, a := range op.Attrs {
		if version < a.Since {
			continue
		}
		if v, ok := call.Attrs[a.Name]; ok {
			attrs = append(attrs, a.Name+"="+v.String())
		} else if a.Default != "" {
			attrs = append(attrs, a.Name+"="+a.Default+" (default)")
		}
	}
	in := inputs(op, call)
	for _, p := range op.Inputs {
		if x, ok := in[p.Name]; ok && p.AttrKind != 0 && p.Role != dialect.RoleUpdates && p.Role != dialect.RoleValue && !x.IsZero() {
			elems := make([]string, x.Len())
			for i := range elems {
				elems[i] = tensor.FormatElem(x.At(i))
			}
			attrs = append(attrs, p.Name+"="+strings.Join(elems, ","))
		}
	}
	return attrs
}

// moving says, by reduction, how a scatter moves updates into their cells:
// when the cell's own value takes part, and when it does not (include_self
// false).
var moving = map[engine.Reduction][2]string{
	engine.None: {"each update replaces the value of its cell; of duplicates, the last in index order wins",
		"each update replaces the value of its cell; of duplicates, the last in index order wins"},
	engine.Add: {"updates are added to their cell one at a time, in index order",
		"a cell that updates reach becomes their sum, added one at a time in index order; its own value takes no part"},
	engine.Sub: {"updates are subtracted from their cell one at a time, in index order",
		"a cell that updates reach starts from 0 and they are subtracted one at a time, in index order; its own value takes no part"},
	engine.Mul: {"their cell is multiplied by the updates one at a time, in index order",
		"a cell that updates reach becomes their product, multiplied one at a time in index order; its own value takes no part"},
	engine.Max: {"a cell keeps the largest of its value and its updates",
		"a cell that updates reach becomes the largest of them; its own value takes no part"},
	engine.Min: {"a cell keeps the smallest of its value and its updates",
		"a cell that updates reach becomes the smallest of them; its own value takes no part"},
	engine.Mean: {"a cell becomes the mean of its value and its updates",
		"a cell that updates reach becomes the mean of them; its own value takes no part"},
	engine.Div: {"their cell is divided by the updates one at a time, in index order",
		"their cell is divided by the updates one at a time, in index order"},
}

// doing says how the operator moves elements.
func (t *Trace) doing() string {
	if !t.Scatter {
		return "each output element is copied from the data cell that its index selects"
	}
	name := t.Reduction
	if meaning := t.Combine.String(); meaning != name {
		name += " (" + meaning + ")"
	}
	if t.Segments {
		return "reduction " + name + ": " + t.segmentDoing()
	}
	s := moving[t.Combine][0]
	if t.ExcludeSelf {
		s = moving[t.Combine][1]
	}
	if t.FromZeros {
		s = "the output starts as zeros; " + s
	}
	return "reduction " + name + ": " + s
}

// segmentDoing says how a segment reduction gathers its rows.
func (t *Trace) segmentDoing() string {
	if t.Family == "reduceat" {
		return fmt.Sprintf("output element j along axis %d combines the run of %s from %s[j] up to %s[j+1] (the slice at %s[j] alone where %s[j] >= %s[j+1]; the last run ends with %s)",
			t.runAxis, t.Updates.Name, t.Indices.Name, t.Indices.Name, t.Indices.Name, t.Indices.Name, t.Indices.Name, t.Updates.Name)
	}
	return fmt.Sprintf("each output row combines, in index order, the rows of %s whose %s names it; an empty segment holds %s",
		t.Updates.Name, t.Indices.Name, t.Fill)
}

// indexRules says how the operator reads index values.
func (t *Trace) indexRules() string {
	return "indices: " + dialect.IndexRule(t.Rules)
}

// mark is the text that follows a cell's value: its status and, where it
// matters, its count.
func mark(c Cell) string {
	switch c.Status {
	case Written:
		return "W"
	case Overwritten:
		return "O" + strconv.Itoa(c.Hits)
	case Reduced:
		return "R" + strconv.Itoa(c.Hits)
	case Read:
		if c.Hits > 1 {
			return "*" + strconv.Itoa(c.Hits)
		}
		return "*"
	case Lost:
		return "L"
	case Skipped:
		return "S"
	case Failed:
		return "!"
	case Empty:
		return "E"
	}
	return ""
}

// legendMark is the mark of a status in the legend, where counts are n.
func legendMark(s Status) string {
	switch s {
	case Overwritten, Reduced:
		return mark(Cell{Status: s})[:1] + "n"
	case Read:
		return "*n"
	}
	return mark(Cell{Status: s})
}

// elemText formats element i of x, cut to maxValueWidth characters.
func elemText(x tensor.Tensor, i int) string {
	s := tensor.FormatElem(x.At(i))
	if utf8.RuneCountInString(s) > maxValueWidth {
		r := []rune(s)
		s = string(r[:maxValueWidth-1]) + "…"
	}
	return s
}

// gridRow is one printed row of a grid: its label and the flat offsets of
// its cells.
type gridRow struct {
	label string
	cells []int
}

// rows splits a tensor into printed blocks of rows, one block per 2-D
// slice (over its last two dimensions), with the block titles and the
// number of columns.
func rows(shape tensor.Shape, wrap int) (titles []string, blocks [][]gridRow, cols int) {
	n, _ := shape.NumElements()
	switch len(shape) {
	case 0:
		return []string{""}, [][]gridRow{{{cells: []int{0}}}}, 1
	case 1:
		var block []gridRow
		for start := 0; start < n; start += wrap {
			r := gridRow{cells: seq(start, min(start+wrap, n))}
			if n > wrap {
				r.label = strconv.Itoa(start)
			}
			block = append(block, r)
		}
		return []string{""}, [][]gridRow{block}, min(n, wrap)
	}
	lead := shape[:len(shape)-2]
	r, c := shape[len(shape)-2], shape[len(shape)-1]
	count, _ := lead.NumElements()
	for s := range count {
		var block []gridRow
		for i := range r {
			start := (s*r + i) * c
			block = append(block, gridRow{label: strconv.Itoa(i), cells: seq(start, start+c)})
		}
		titles = append(titles, sliceTitle(s, lead))
		blocks = append(blocks, block)
	}
	return titles, blocks, c
}

// sliceTitle names 2-D slice s of a tensor whose leading dimensions are
// lead: "[1,:,:]", "[0,2,:,:]"; "" when there are none.
func sliceTitle(s int, lead tensor.Shape) string {
	if len(lead) == 0 {
		return ""
	}
	return strings.TrimSuffix(tensor.Shape(lead.Coords(s)).String(), "]") + ",:,:]"
}

func seq(lo, hi int) []int {
	s := make([]int, hi-lo)
	for i := range s {
		s[i] = lo + i
	}
	return s
}

// writeGrid prints o's name, type and shape, then its cells.
func writeGrid(b *strings.Builder, o *Operand, color bool) {
	x := o.Tensor
	fmt.Fprintf(b, "%s %v%v\n", o.Name, x.DType(), x.Shape())
	if x.Len() == 0 {
		b.WriteString("  (no elements)\n")
		return
	}
	texts := make([]string, x.Len())
	marks := make([]string, x.Len())
	vw, mw := 1, 0
	for i := range texts {
		texts[i] = elemText(x, i)
		marks[i] = mark(o.Cells[i])
		vw = max(vw, utf8.RuneCountInString(texts[i]))
		mw = max(mw, len(marks[i]))
	}
	wrap := textWrap
	for cw := vw + mw + min(mw, 1) + 2; wrap > 5 && wrap*cw > textWidth; {
		wrap /= 2
	}
	titles, blocks, cols := rows(x.Shape(), wrap)
	if x.Rank() >= 1 {
		vw = max(vw, len(strconv.Itoa(cols-1)))
	}
	lw := 0
	for _, block := range blocks {
		for _, r := range block {
			lw = max(lw, len(r.label))
		}
	}
	indent := "  "
	if lw > 0 {
		indent += strings.Repeat(" ", lw) + "  "
	}
	cell := func(i int) string {
		s := fmt.Sprintf("%*s", vw, texts[i])
		if mw > 0 {
			s += " " + marks[i] + strings.Repeat(" ", mw-len(marks[i]))
		}
		if code := ansi[o.Cells[i].Status]; color && code != "" {
			s = code + s + ansiReset
		}
		return s
	}
	for k, block := range blocks {
		if titles[k] != "" {
			b.WriteString("  " + titles[k] + "\n")
		}
		if x.Rank() >= 1 {
			header := make([]string, cols)
			for j := range header {
				header[j] = fmt.Sprintf("%*d", vw, j) + strings.Repeat(" ", mw+min(mw, 1))
			}
			b.WriteString(strings.TrimRight(indent+strings.Join(header, "  "), " ") + "\n")
		}
		for _, r := range block {
			line := "  "
			if lw > 0 {
				line += fmt.Sprintf("%*s  ", lw, r.label)
			}
			parts := make([]string, len(r.cells))
			for j, i := range r.cells {
				parts[j] = cell(i)
			}
			b.WriteString(strings.TrimRight(line+strings.Join(parts, "  "), " ") + "\n")
		}
	}
}

// ref names the cell at flat offset i of o: "output[1,3]", or just the
// name for a 0-d tensor.
func ref(o *Operand, i int) string {
	pos := o.Tensor.Shape().Coords(i)
	if len(pos) == 0 {
		return o.Name
	}
	return o.Name + tensor.Shape(pos).String()
}

// indexRef describes the index values of l: "indices[2,:] = [1, 0]" for a
// tuple, "indices[0,3] = -1" for one value, "" for none.
func (t *Trace) indexRef(l Link) string {
	ind := t.Indices
	if l.IndexLen == 0 {
		return ""
	}
	if t.VectorDim < 0 {
		return ref(ind, l.Index) + " = " + elemText(ind.Tensor, l.Index)
	}
	name := ind.Name
	if pos := ind.Tensor.Shape().Coords(l.Index); len(pos) > 0 {
		parts := make([]string, len(pos))
		for i, p := range pos {
			parts[i] = strconv.Itoa(p)
		}
		parts[t.VectorDim] = ":"
		name += "[" + strings.Join(parts, ",") + "]"
	}
	values := make([]string, l.IndexLen)
	for j := range values {
		values[j] = elemText(ind.Tensor, l.Index+j*max(l.IndexStride, 1))
	}
	return name + " = [" + strings.Join(values, ", ") + "]"
}

// writeLinks prints one aligned line per move.
func (t *Trace) writeLinks(b *strings.Builder) {
	src := t.source()
	table := make([][4]string, len(t.Links))
	for k, l := range t.Links {
		row := &table[k]
		row[0], row[1] = "(skipped)", "(skipped)"
		if l.From >= 0 {
			row[0] = ref(src, l.From) + " = " + elemText(src.Tensor, l.From)
		}
		if l.To >= 0 {
			row[1] = ref(t.Output, l.To)
		}
		if ix := t.indexRef(l); ix != "" {
			row[2] = "by " + ix
		}
		switch {
		case l.From < 0:
			row[3] = "index out of range: skipped, " + t.filler() + " written"
		case l.To < 0 && t.Segments:
			row[3] = "its id names no segment: dropped"
		case l.To < 0:
			row[3] = "index out of range: skipped"
		case l.Lost:
			row[3] = "lost: a later update overwrites it"
		}
	}
	var width [3]int
	for _, row := range table {
		for j := range width {
			width[j] = max(width[j], utf8.RuneCountInString(row[j]))
		}
	}
	for _, row := range table {
		line := fmt.Sprintf("  %-*s -> %-*s  %-*s  %s", width[0], row[0], width[1], row[1], width[2], row[2], row[3])
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
}

// legendEntry is one line of the legend: a status as it appears in one
// role.
type legendEntry struct {
	role   Role
	name   string // the tensor's name in the framework
	status Status
}

// legend returns the statuses that occur, by role in the order tensors
// are shown, then by status.
func (t *Trace) legend() []legendEntry {
	var entries []legendEntry
	for _, o := range t.Operands() {
		var seen []Status
		for _, c := range o.Cells {
			if c.Status != Plain && !slices.Contains(seen, c.Status) {
				seen = append(seen, c.Status)
			}
		}
		slices.Sort(seen)
		for _, s := range seen {
			entries = append(entries, legendEntry{o.Role, o.Name, s})
		}
	}
	return entries
}

// describe says what a status means for a cell of the given role.
func (t *Trace) describe(e legendEntry) string {
	switch e.status {
	case Untouched:
		switch {
		case t.Segments && e.role == Updates:
			return "in no run: before the first start"
		case e.role == Data:
			return "not read"
		case e.role == Updates:
			return "not used: beyond the extent of the indices"
		case t.FromZeros:
			return "no update reaches it: it stays zero"
		}
		return "no update reaches it: it keeps its value"
	case Written:
		return "written by one update"
	case Overwritten:
		return "written by n updates: the last in index order wins"
	case Reduced:
		if t.Segments {
			return "a segment: its n rows combined by " + t.Combine.String() + ", in index order"
		}
		if t.ExcludeSelf {
			return "its n updates combined by " + t.Combine.String() + ", in index order; its own value left out"
		}
		return "combined with its n updates by " + t.Combine.String() + ", in index order"
	case Gathered:
		return "copied from a data cell"
	case Read:
		return "copied into the output (n times)"
	case Applied:
		return "takes part in the output"
	case Lost:
		return "overwritten by a later update to the same cell"
	case Skipped:
		if t.Segments {
			return "its segment id names no segment: dropped"
		}
		if e.role == Output {
			return "its index is out of range and skipped: " + t.filler() + " written"
		}
		return "its index is out of range and skipped"
	case Failed:
		return "out of range: the operator's error"
	case Empty:
		return "an empty segment: no row reaches it, it holds " + t.Fill
	}
	return e.status.String()
}

// writeLegend prints the marks (or colours) of the statuses that occur.
func (t *Trace) writeLegend(b *strings.Builder, color bool) {
	entries := t.legend()
	if len(entries) == 0 {
		return
	}
	width := 0
	for _, e := range entries {
		width = max(width, len(e.name))
	}
	b.WriteString("legend:\n")
	for _, e := range entries {
		key := fmt.Sprintf(" %-3s", legendMark(e.status))
		if code := ansi[e.status]; color && code != "" {
			key = code + key + ansiReset
		}
		fmt.Fprintf(b, "  %s  %-*s  %-11s  %s\n", key, width, e.name, e.status.String(), t.describe(e))
	}
}

// failedAt returns the flat offset in Indices of the Failed value, or -1.
func (t *Trace) failedAt() int {
	return slices.IndexFunc(t.Indices.Cells, func(c Cell) bool { return c.Status == Failed })
}

// writeSummary prints the tensors' shapes and the Summary.
func (t *Trace) writeSummary(b *strings.Builder) {
	b.WriteByte('\n')
	for _, o := range t.Operands() {
		fmt.Fprintf(b, "%s %v%v\n", o.Name, o.Tensor.DType(), o.Tensor.Shape())
	}
	fmt.Fprintf(b, "\ntoo large to show cell by cell (a tensor has more than %d elements); in sum:\n", MaxCells)
	if t.Output == nil {
		if at := t.failedAt(); at >= 0 {
			fmt.Fprintf(b, "  the value at %s is out of range\n", ref(t.Indices, at))
		}
		return
	}
	s := t.Summary()
	what, verb, cells := "updates", "went to", "output"
	if !t.Scatter {
		what, verb, cells = "output elements", "came from", "data"
	}
	fmt.Fprintf(b, "  %d %s, %d of them skipped\n", s.Moves, what, s.Skipped)
	fmt.Fprintf(b, "  %d of the %d %s cells were hit; %d %s %s a cell already hit\n",
		s.Hit, s.Cells, cells, s.Duplicates, what, verb)
	if len(s.Top) == 0 {
		b.WriteString("  no cell was hit more than once\n")
		return
	}
	parts := make([]string, len(s.Top))
	for i, c := range s.Top {
		parts[i] = fmt.Sprintf("%s%s %d times", t.counted().Name, tensor.Shape(c.Pos), c.Hits)
	}
	b.WriteString("  most hit: " + strings.Join(parts, ", ") + "\n")
}

// filler names what a gather writes where it skips an index.
func (t *Trace) filler() string {
	if t.Fills {
		return "the fill value"
	}
	return "zero"
}
