package explain

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"
	"sync"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/font/liberation"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Sizes of the picture, in points.
const (
	margin    = vg.Length(16)
	cellH     = vg.Length(17)
	minCellW  = vg.Length(22)
	cellPad   = vg.Length(5)
	labelH    = vg.Length(15) // a tensor's name line
	coordH    = vg.Length(10) // the column coordinates
	sliceH    = vg.Length(11) // a 3-D tensor's slice titles
	sliceGap  = vg.Length(14)
	colGap    = vg.Length(36) // between the index column and the others
	bandGap   = vg.Length(60) // between sources and destinations, where links run
	legendRow = vg.Length(13)
	swatch    = vg.Length(9)
	pngDPI    = 144
)

// Colours of the cells by status, of the links, and of the text.
var (
	fills = map[Status]color.Color{
		Plain:       color.White,
		Untouched:   rgb(0xee, 0xee, 0xee),
		Written:     rgb(0xb2, 0xf2, 0xbb),
		Overwritten: rgb(0xff, 0xc0, 0x78),
		Reduced:     rgb(0xd0, 0xbf, 0xff),
		Gathered:    rgb(0xa5, 0xd8, 0xff),
		Read:        rgb(0xd0, 0xeb, 0xff),
		Applied:     rgb(0xd3, 0xf9, 0xd8),
		Lost:        rgb(0xff, 0xc9, 0xc9),
		Skipped:     rgb(0xff, 0xec, 0x99),
		Failed:      rgb(0xfa, 0x52, 0x52),
		Empty:       rgb(0xe9, 0xec, 0xef),
	}
	borderColor = rgb(0x86, 0x8e, 0x96)
	greyText    = rgb(0x49, 0x50, 0x57)
	appliedLink = color.NRGBA{R: 0x2f, G: 0x9e, B: 0x44, A: 0xc0}
	lostLink    = color.NRGBA{R: 0xe0, G: 0x31, B: 0x31, A: 0xc0}
	gatherLink  = color.NRGBA{R: 0x19, G: 0x71, B: 0xc2, A: 0xc0}
)

func rgb(r, g, b uint8) color.Color { return color.NRGBA{R: r, G: g, B: b, A: 0xff} }

// faces are the fonts of the picture: Liberation, bundled with gonum's
// plot, so that sizes are measured the same everywhere.
type faces struct {
	title, text, label, value, coord font.Face
}

var loadFaces = sync.OnceValue(func() faces {
	cache := font.NewCache(liberation.Collection())
	sans := font.Font{Typeface: "Liberation", Variant: "Sans"}
	bold := sans
	bold.Weight = xfont.WeightBold
	mono := font.Font{Typeface: "Liberation", Variant: "Mono"}
	return faces{
		title: cache.Lookup(bold, 11),
		text:  cache.Lookup(sans, 8.5),
		label: cache.Lookup(bold, 9),
		value: cache.Lookup(mono, 8),
		coord: cache.Lookup(sans, 6.5),
	}
})

// grid is the place of one tensor in the picture. Coordinates run from
// the top left corner down. A tensor of rank 3 or more is drawn as its
// 2-D slices over the last two dimensions, side by side along its third
// dimension from the end and in rows along the others.
type grid struct {
	o          *Operand
	x, y, w, h vg.Length
	cellW      vg.Length
	badgeW     vg.Length // room for the count badge at a cell's right
	rowLabW    vg.Length
	rows, cols int // of one 2-D slice, or of the wrapped rows of a 1-D tensor
	slices     int
	perRow     int // slices side by side
	// coordsBelow puts the column coordinates under the cells, where the
	// links do not arrive.
	coordsBelow bool
	texts       []string
	badges      []string
}

func newGrid(o *Operand, f faces, coordsBelow bool) *grid {
	g := &grid{o: o, coordsBelow: coordsBelow, texts: make([]string, o.Tensor.Len()), badges: make([]string, o.Tensor.Len())}
	widest := vg.Length(0)
	for i := range g.texts {
		g.texts[i] = elemText(o.Tensor, i)
		widest = max(widest, f.value.Width(g.texts[i]))
		if c := o.Cells[i]; c.Hits > 1 && (c.Status == Overwritten || c.Status == Reduced || c.Status == Read) {
			g.badges[i] = "×" + strconv.Itoa(c.Hits)
			g.badgeW = max(g.badgeW, f.coord.Width(g.badges[i])+2)
		}
	}
	g.cellW = max(minCellW, widest+2*cellPad+g.badgeW)
	shape := o.Tensor.Shape()
	g.rows, g.cols, g.slices, g.perRow = 1, 1, 1, 1
	switch n := len(shape); {
	case n == 1:
		g.cols = min(shape[0], textWrap)
		if shape[0] > textWrap {
			g.rows = (shape[0] + textWrap - 1) / textWrap
			g.rowLabW = f.coord.Width(strconv.Itoa((g.rows-1)*textWrap)) + 4
		}
	case n >= 2:
		g.rows, g.cols = shape[n-2], shape[n-1]
		g.rowLabW = f.coord.Width(strconv.Itoa(max(g.rows-1, 0))) + 4
		g.slices, _ = shape[:n-2].NumElements()
		if n >= 3 {
			g.perRow = max(shape[n-3], 1)
		}
	}
	sliceRows := (g.slices + g.perRow - 1) / g.perRow
	g.w = max(f.label.Width(g.title()), vg.Length(g.perRow)*(g.sliceW()+sliceGap)-sliceGap)
	g.h = labelH + vg.Length(sliceRows)*(g.sliceH()+sliceGap) - sliceGap
	if o.Tensor.Len() == 0 {
		g.h = labelH + cellH
	}
	return g
}

func (g *grid) title() string {
	x := g.o.Tensor
	return fmt.Sprintf("%s %v%v", g.o.Name, x.DType(), x.Shape())
}

// sliceW is the width of one 2-D slice with its row labels.
func (g *grid) sliceW() vg.Length { return g.rowLabW + vg.Length(g.cols)*g.cellW }

// sliceH is the height of one 2-D slice with its title and coordinates.
func (g *grid) sliceH() vg.Length {
	h := g.head() + vg.Length(g.rows)*cellH
	if g.coordsBelow && g.o.Tensor.Rank() >= 1 {
		h += coordH
	}
	return h
}

// head is the height above a slice's first row of cells: its title and
// its column coordinates unless they go below.
func (g *grid) head() vg.Length {
	h := vg.Length(0)
	if g.o.Tensor.Rank() >= 1 && !g.coordsBelow {
		h += coordH
	}
	if g.o.Tensor.Rank() >= 3 {
		h += sliceH
	}
	return h
}

// slice returns the top left corner of 2-D slice s.
func (g *grid) slice(s int) (x, y vg.Length) {
	return g.x + vg.Length(s%g.perRow)*(g.sliceW()+sliceGap), g.y + labelH + vg.Length(s/g.perRow)*(g.sliceH()+sliceGap)
}

// cell returns the top left corner of cell i.
func (g *grid) cell(i int) (x, y vg.Length) {
	per := g.rows * g.cols
	sx, sy := g.slice(i / per)
	r, c := i%per/g.cols, i%g.cols
	return sx + g.rowLabW + vg.Length(c)*g.cellW, sy + g.head() + vg.Length(r)*cellH
}

// painter draws on a canvas with the origin at the top left, y down.
type painter struct {
	c vg.Canvas
	h vg.Length
}

func (p *painter) pt(x, y vg.Length) vg.Point { return vg.Point{X: x, Y: p.h - y} }

func (p *painter) rect(x, y, w, h vg.Length, fill, stroke color.Color) {
	var path vg.Path
	path.Move(p.pt(x, y))
	path.Line(p.pt(x+w, y))
	path.Line(p.pt(x+w, y+h))
	path.Line(p.pt(x, y+h))
	path.Close()
	if fill != nil {
		p.c.SetColor(fill)
		p.c.Fill(path)
	}
	if stroke != nil {
		p.c.SetColor(stroke)
		p.c.SetLineWidth(0.5)
		p.c.Stroke(path)
	}
}

// text writes s with its left end at x and its middle at height y.
func (p *painter) text(face font.Face, clr color.Color, x, y vg.Length, s string) {
	e := face.Extents()
	p.c.SetColor(clr)
	p.c.FillString(face, p.pt(x, y+(e.Ascent-e.Descent)/2), s)
}

// patched writes s as text does, on a white patch.
func (p *painter) patched(face font.Face, clr color.Color, x, y vg.Length, s string) {
	e := face.Extents()
	p.rect(x-1, y-e.Ascent/2-1, face.Width(s)+2, e.Ascent+2, color.White, nil)
	p.text(face, clr, x, y, s)
}

// centered writes s centred on (x, y).
func (p *painter) centered(face font.Face, clr color.Color, x, y vg.Length, s string) {
	p.text(face, clr, x-face.Width(s)/2, y, s)
}

// layout is the whole picture: where each grid goes and the size.
type layout struct {
	t        *Trace
	f        faces
	w, h     vg.Length
	grids    []*grid
	src, dst *grid // the ends of the links
	lines    []string
	legendY  vg.Length
	legend   []legendEntry
	linkKeys []linkKey
}

// linkKey is a kind of link shown in the legend.
type linkKey struct {
	color  color.Color
	dashed bool
	text   string
}

func (t *Trace) layout() *layout {
	f := loadFaces()
	l := &layout{t: t, f: f, lines: t.headline(), legend: t.legend()}
	gridOf := func(o *Operand) *grid {
		if o == nil {
			return nil
		}
		g := newGrid(o, f, o.Role == Output)
		l.grids = append(l.grids, g)
		return g
	}
	// Sources above destinations; the indices beside the tensor whose
	// leading shape they share (updates, or a gather's output).
	var topLeft, topRight, bottomLeft, bottomRight *grid
	if t.Scatter {
		topLeft, topRight = gridOf(t.Indices), gridOf(t.Updates)
		bottomLeft, bottomRight = gridOf(t.Data), gridOf(t.Output)
	} else {
		topRight = gridOf(t.Data)
		bottomLeft, bottomRight = gridOf(t.Indices), gridOf(t.Output)
	}
	l.src, l.dst = topRight, bottomRight
	width := func(g *grid) vg.Length {
		if g == nil {
			return 0
		}
		return g.w
	}
	height := func(g *grid) vg.Length {
		if g == nil {
			return 0
		}
		return g.h
	}
	x2 := margin
	if col1 := max(width(topLeft), width(bottomLeft)); col1 > 0 {
		x2 += col1 + colGap
	}
	y := margin + 18 + vg.Length(len(l.lines)-1)*legendRow + 12
	place := func(g *grid, x, y vg.Length) {
		if g != nil {
			g.x, g.y = x, y
		}
	}
	place(topLeft, margin, y)
	place(topRight, x2, y)
	y += max(height(topLeft), height(topRight)) + bandGap
	place(bottomLeft, margin, y)
	place(bottomRight, x2, y)
	y += max(height(bottomLeft), height(bottomRight)) + 18
	l.legendY = y
	l.linkKeys = t.linkKeys()
	l.h = y + vg.Length(len(l.legend)+len(l.linkKeys))*legendRow + margin
	l.w = x2 + max(width(topRight), width(bottomRight))
	l.w = max(l.w, margin+f.title.Width(l.lines[0]))
	for _, s := range l.lines[1:] {
		l.w = max(l.w, margin+f.text.Width(s))
	}
	for _, e := range l.legend {
		l.w = max(l.w, margin+swatch+6+f.text.Width(legendText(t, e)))
	}
	for _, k := range l.linkKeys {
		l.w = max(l.w, margin+swatch+6+f.text.Width(k.text))
	}
	l.w += margin
	return l
}

// linkKeys returns the kinds of links that occur.
func (t *Trace) linkKeys() []linkKey {
	if !t.Scatter {
		if t.Output != nil && len(t.Links) > 0 {
			return []linkKey{{gatherLink, false, "data cell → the output element that copies it"}}
		}
		return nil
	}
	var applied, lost bool
	for _, l := range t.Links {
		if l.To < 0 {
			continue
		}
		if l.Lost {
			lost = true
		} else {
			applied = true
		}
	}
	var keys []linkKey
	if applied {
		keys = append(keys, linkKey{appliedLink, false, "update → the output cell it goes to"})
	}
	if lost {
		keys = append(keys, linkKey{lostLink, true, "lost update → the cell a later update overwrites"})
	}
	return keys
}

func legendText(t *Trace, e legendEntry) string {
	return e.name + " " + e.status.String() + ": " + t.describe(e)
}

// Size returns the size of t's picture.
func (t *Trace) Size() (w, h vg.Length) {
	l := t.layout()
	return l.w, l.h
}

// Draw draws t's picture on c, whose size should be Size's: the tensors
// as labelled grids of cells coloured by status, with their coordinates
// and values, a line from each update (or data cell) to the output cell
// it goes to, and a legend.
func (t *Trace) Draw(c vg.Canvas) {
	t.layout().draw(c)
}

func (l *layout) draw(c vg.Canvas) {
	p := &painter{c: c, h: l.h}
	p.rect(0, 0, l.w, l.h, color.White, nil)
	p.text(l.f.title, color.Black, margin, margin+6, l.lines[0])
	for i, s := range l.lines[1:] {
		p.text(l.f.text, greyText, margin, margin+18+vg.Length(i)*legendRow, s)
	}
	for _, g := range l.grids {
		l.drawCells(p, g)
	}
	ends := l.ends()
	l.drawLinks(p, ends)
	for _, g := range l.grids {
		l.drawLabels(p, g)
		l.drawTexts(p, g)
	}
	l.drawTails(p, ends)
	l.drawArrowheads(p, ends)
	l.drawLegend(p)
}

// drawCells draws a grid's coloured cells.
func (l *layout) drawCells(p *painter, g *grid) {
	for i, c := range g.o.Cells {
		cx, cy := g.cell(i)
		p.rect(cx, cy, g.cellW, cellH, fills[c.Status], borderColor)
	}
}

// drawLabels writes a grid's name line, slice titles and coordinates, each
// on a white patch, so that links passing under stay legible.
func (l *layout) drawLabels(p *painter, g *grid) {
	f := l.f
	p.patched(f.label, color.Black, g.x, g.y+labelH/2-2, g.title())
	x := g.o.Tensor
	if x.Len() == 0 {
		p.text(f.text, greyText, g.x, g.y+labelH+cellH/2, "(no elements)")
		return
	}
	shape := x.Shape()
	for s := range g.slices {
		sx, sy := g.slice(s)
		cy := sy + coordH/2
		if x.Rank() >= 3 {
			p.patched(f.coord, greyText, sx+g.rowLabW, sy+sliceH/2, sliceTitle(s, shape[:len(shape)-2]))
			cy += sliceH
		}
		if g.coordsBelow {
			cy = sy + g.head() + vg.Length(g.rows)*cellH + coordH/2
		}
		if x.Rank() >= 1 {
			for j := range g.cols {
				label := strconv.Itoa(j)
				p.patched(f.coord, greyText, sx+g.rowLabW+(vg.Length(j)+0.5)*g.cellW-f.coord.Width(label)/2, cy, label)
			}
		}
		if g.rowLabW > 0 {
			for r := range g.rows {
				label := r
				if x.Rank() == 1 {
					label = r * textWrap
				}
				s := strconv.Itoa(label)
				p.patched(f.coord, greyText, sx+g.rowLabW-4-f.coord.Width(s), sy+g.head()+(vg.Length(r)+0.5)*cellH, s)
			}
		}
	}
}

// drawTexts writes the values (and counts) over the cells, each on a
// patch of its cell's colour, so that links passing under stay legible.
func (l *layout) drawTexts(p *painter, g *grid) {
	f := l.f
	e := f.value.Extents()
	for i, c := range g.o.Cells {
		cx, cy := g.cell(i)
		mid := cx + (g.cellW-g.badgeW)/2
		tw := f.value.Width(g.texts[i])
		p.rect(mid-tw/2-1, cy+cellH/2-e.Ascent/2-1, tw+2, e.Ascent+2, fills[c.Status], nil)
		p.centered(f.value, color.Black, mid, cy+cellH/2, g.texts[i])
		if b := g.badges[i]; b != "" {
			bw := f.coord.Width(b)
			p.text(f.coord, color.Black, cx+g.cellW-bw-2, cy+5, b)
		}
	}
}

// end is where a link arrives: on the top edge of its destination cell,
// the links into one cell spread along the edge in the order they are
// applied.
type end struct {
	link Link
	x, y vg.Length
}

// ends returns the arrival of each link that has both ends.
func (l *layout) ends() []end {
	if l.src == nil || l.dst == nil {
		return nil
	}
	var ends []end
	seen := make([]int, len(l.t.Output.Cells))
	for _, k := range l.t.Links {
		if k.From < 0 || k.To < 0 {
			continue
		}
		n := max(l.t.Output.Cells[k.To].Hits, 1)
		x, y := l.dst.cell(k.To)
		seen[k.To]++
		x += (l.dst.cellW - l.dst.badgeW) * vg.Length(seen[k.To]) / vg.Length(n+1)
		ends = append(ends, end{k, x, y})
	}
	return ends
}

// drawLinks draws a curve from each source cell to its destination.
func (l *layout) drawLinks(p *painter, ends []end) {
	for _, e := range ends {
		clr := l.linkColor(e.link)
		sx, sy := l.start(e.link.From)
		p.curve(sx, sy, e.x, e.y, clr, clr == lostLink)
	}
}

// tailInset is how far above the bottom edge of its cell a link starts.
const tailInset = vg.Length(3)

// start returns where the links of source cell i start: inside the cell,
// below its value, at a dot. In a grid of several rows, the row's place
// among the rows stacked in the grid's column picks the point across the
// cell's width, so that a link passing down over the cells below its own
// runs apart from theirs and is not taken for one leaving them.
func (l *layout) start(i int) (x, y vg.Length) {
	g := l.src
	cx, cy := g.cell(i)
	per := g.rows * g.cols
	s := i / per
	row := s/g.perRow*g.rows + i%per/g.cols
	rows := (g.slices + g.perRow - 1) / g.perRow * g.rows
	return cx + (g.cellW-g.badgeW)*vg.Length(row+1)/vg.Length(rows+1), cy + cellH - tailInset
}

// drawTails marks the start of each link with a dot, over the values.
func (l *layout) drawTails(p *painter, ends []end) {
	for _, e := range ends {
		x, y := l.start(e.link.From)
		p.dot(x, y, l.linkColor(e.link))
	}
}

// dot fills a small disc centred on (x, y).
func (p *painter) dot(x, y vg.Length, clr color.Color) {
	const r = 1.5
	var path vg.Path
	path.Move(p.pt(x+r, y))
	path.Arc(p.pt(x, y), r, 0, 2*math.Pi)
	path.Close()
	p.c.SetColor(clr)
	p.c.Fill(path)
}

// drawArrowheads ends the links, over everything else. A tip lies inside
// its cell, above the value, so that it tells rows apart.
func (l *layout) drawArrowheads(p *painter, ends []end) {
	for _, e := range ends {
		p.arrowhead(e.x, e.y+4, l.linkColor(e.link))
	}
}

// linkColor is the colour of link k: of a gather, of an update that takes
// part in the output, or of an update that a later one overwrites.
func (l *layout) linkColor(k Link) color.Color {
	switch {
	case !l.t.Scatter:
		return gatherLink
	case k.Lost:
		return lostLink
	}
	return appliedLink
}

// curve strokes a curve from (x1, y1) down to (x2, y2), leaving and
// arriving vertically.
func (p *painter) curve(x1, y1, x2, y2 vg.Length, clr color.Color, dashed bool) {
	mid := (y1 + y2) / 2
	var path vg.Path
	path.Move(p.pt(x1, y1))
	path.CubeTo(p.pt(x1, mid), p.pt(x2, mid), p.pt(x2, y2))
	p.stroke(path, clr, 1, dashed)
}

// stroke strokes path in clr, width wide, solid or dashed.
func (p *painter) stroke(path vg.Path, clr color.Color, width vg.Length, dashed bool) {
	p.c.Push()
	p.c.SetColor(clr)
	p.c.SetLineWidth(width)
	if dashed {
		p.c.SetLineDash([]vg.Length{3, 2}, 0)
	}
	p.c.Stroke(path)
	p.c.Pop()
}

// arrowhead fills a small triangle pointing down at (x, y).
func (p *painter) arrowhead(x, y vg.Length, clr color.Color) {
	var path vg.Path
	path.Move(p.pt(x, y))
	path.Line(p.pt(x-2.5, y-5))
	path.Line(p.pt(x+2.5, y-5))
	path.Close()
	p.c.SetColor(clr)
	p.c.Fill(path)
}

// drawLegend draws a swatch and a line of text per status that occurs,
// then a sample and a line per kind of link.
func (l *layout) drawLegend(p *painter) {
	y := l.legendY
	for _, e := range l.legend {
		p.rect(margin, y-swatch/2, swatch, swatch, fills[e.status], borderColor)
		p.text(l.f.text, color.Black, margin+swatch+6, y, legendText(l.t, e))
		y += legendRow
	}
	for _, k := range l.linkKeys {
		var path vg.Path
		path.Move(p.pt(margin, y))
		path.Line(p.pt(margin+swatch, y))
		p.stroke(path, k.color, 1.5, k.dashed)
		p.text(l.f.text, color.Black, margin+swatch+6, y, k.text)
		y += legendRow
	}
}

// WriteSVG writes t's picture as an SVG document. It fails with an error
// matching ErrTooLarge when a tensor is too large (see Fits).
func (t *Trace) WriteSVG(w io.Writer) error {
	if err := t.Fits(); err != nil {
		return err
	}
	l := t.layout()
	c := vgsvg.New(l.w, l.h)
	l.draw(c)
	_, err := c.WriteTo(w)
	return err
}

// WritePNG writes t's picture as a PNG image at 144 dots per inch. It
// fails with an error matching ErrTooLarge when a tensor is too large
// (see Fits).
func (t *Trace) WritePNG(w io.Writer) error {
	if err := t.Fits(); err != nil {
		return err
	}
	l := t.layout()
	c := vgimg.NewWith(vgimg.UseWH(l.w, l.h), vgimg.UseDPI(pngDPI))
	l.draw(c)
	_, err := vgimg.PngCanvas{Canvas: c}.WriteTo(w)
	return err
}
