// Package chart draws benchmark results (bench.Result) as a PNG or SVG
// chart: one panel per workload, this module's times beside the peers'
// and a bulk workload's memory-bandwidth bound, under a caption that says
// lower is better and where each set of figures was measured. It is a
// package of its own so that only the command, which draws charts,
// imports the plotting libraries.
package chart

import (
	"errors"
	"fmt"
	"image/color"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/bench"
	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Layout of a chart.
const (
	chartCols   = 3                // panels per row, at most
	panelWidth  = 5 * vg.Inch      // each panel's share of the width
	panelHeight = 3 * vg.Inch      // and of the height
	chartPad    = vg.Length(12)    // around and between panels, in points
	barWidth    = vg.Length(14)    // thickness of a bar, in points
	chartDPI    = vgimg.DefaultDPI // PNG resolution: a 3×3 chart is 1504×928 pixels
	fontFace    = font.Typeface("Liberation")
	fontVariant = font.Variant("Sans")
)

// boundLabel is the name of the row that shows the memory bound.
const boundLabel = "memory bound"

// Colours: a fixed sequence of impl colours, Okabe and Ito's palette for
// colour-blind readers, given out in the order of chartImpls; a bench.Fresh
// bar is its impl's colour lightened.
var (
	implColors = []color.RGBA{
		{0x00, 0x72, 0xb2, 0xff}, // blue
		{0xe6, 0x9f, 0x00, 0xff}, // orange
		{0x00, 0x9e, 0x73, 0xff}, // bluish green
		{0xd5, 0x5e, 0x00, 0xff}, // vermilion
		{0xcc, 0x79, 0xa7, 0xff}, // reddish purple
		{0x56, 0xb4, 0xe9, 0xff}, // sky blue
		{0xf0, 0xe4, 0x42, 0xff}, // yellow
	}
	boundColor     = color.RGBA{0xbb, 0xbb, 0xbb, 0xff}
	boundLineColor = color.RGBA{0x33, 0x33, 0x33, 0xff}
	warnColor      = color.RGBA{0xc0, 0x00, 0x00, 0xff}
)

// captionSize is the size of the caption's text, in points, and
// captionLead the distance between its lines.
const (
	captionSize = vg.Length(11)
	captionLead = vg.Length(15)
)

// Chart is a bar chart of results: one panel per workload, in the order
// of bench.Workloads, with a horizontal bar per impl and bench.API giving the median
// time per call (milliseconds for a bulk workload, nanoseconds for a small
// call), and a bulk workload's BoundMS as a grey bar and a dashed line
// across the panel. The bars of bench.Impl come first, then those of the other
// impls in alphabetical order, each impl in one colour, lighter for bench.Fresh.
// Above the panels a caption says that lower is better, followed by the
// notes given to NewChart (where the figures come from); a panel whose
// results of bench.Impl spread wider than bench.TooWide says so in red under its
// title. The same results, in any order, make the same image.
type Chart struct {
	panels  []panel
	caption []string
}

// panel is the content of one workload's panel.
type panel struct {
	workload bench.Workload
	bars     []bar    // top to bottom
	wide     []string // the bars of bench.Impl whose spread is too wide, with it
}

// bar is one bar of a panel.
type bar struct {
	label string
	value float64 // the median, in the workload's unit
	fill  color.Color
	edge  color.Color
}

// NewChart checks results as bench.ReadResults does and lays them out as a
// chart, with a panel for each workload that has at least one result.
// notes are lines of the caption, after the first, which says what the
// bars are and that lower is better: say there where the figures were
// measured and when.
func NewChart(results []bench.Result, notes ...string) (*Chart, error) {
	if len(results) == 0 {
		return nil, errors.New("bench: no results to plot")
	}
	if err := bench.CheckResults(results); err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	impls := chartImpls(results)
	c := &Chart{caption: append([]string{"Median time per call: lower is better. " +
		"Bulk workloads (W) in milliseconds, small calls (S) in nanoseconds."}, notes...)}
	for _, w := range bench.Workloads() {
		p := panel{workload: w}
		for i, impl := range impls {
			base := implColors[i%len(implColors)]
			for _, api := range bench.APIs() {
				j := slices.IndexFunc(results, func(r bench.Result) bool {
					return r.Workload == w.ID && r.Impl == impl && r.API == api
				})
				if j < 0 {
					continue
				}
				fill := color.Color(base)
				if api == bench.Fresh {
					fill = lighten(base)
				}
				r := results[j]
				label := impl + " " + string(api)
				p.bars = append(p.bars, bar{label: label, value: r.Median(), fill: fill, edge: base})
				if r.Impl == bench.Impl && r.Spread() > bench.TooWide {
					p.wide = append(p.wide, fmt.Sprintf("%s %.0f%%", label, 100*r.Spread()))
				}
			}
		}
		if len(p.bars) > 0 {
			c.panels = append(c.panels, p)
		}
	}
	return c, nil
}

// chartImpls returns the impls of results, each once: bench.Impl first if
// present, then the others sorted.
func chartImpls(results []bench.Result) []string {
	var others []string
	ours := false
	for _, r := range results {
		switch {
		case r.Impl == bench.Impl:
			ours = true
		case !slices.Contains(others, r.Impl):
			others = append(others, r.Impl)
		}
	}
	slices.Sort(others)
	if ours {
		return append([]string{bench.Impl}, others...)
	}
	return others
}

// lighten mixes c with white, half and half.
func lighten(c color.RGBA) color.RGBA {
	mix := func(v uint8) uint8 { return uint8((uint16(v) + 0xff) / 2) }
	return color.RGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}

// grid returns the number of rows and columns of panels.
func (c *Chart) grid() (rows, cols int) {
	cols = min(len(c.panels), chartCols)
	return (len(c.panels) + cols - 1) / cols, cols
}

// size returns the size of the whole chart.
func (c *Chart) size() (width, height vg.Length) {
	rows, cols := c.grid()
	width = vg.Length(cols)*panelWidth + vg.Length(cols+1)*chartPad
	height = c.header() + vg.Length(rows)*panelHeight + vg.Length(rows+1)*chartPad
	return width, height
}

// header returns the height of the caption above the panels.
func (c *Chart) header() vg.Length {
	return chartPad + vg.Length(len(c.caption))*captionLead
}

// WritePNG writes the chart to w as a PNG image at 96 dots per inch.
func (c *Chart) WritePNG(w io.Writer) error {
	width, height := c.size()
	img := vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(chartDPI))
	if err := c.draw(draw.New(img)); err != nil {
		return err
	}
	_, err := vgimg.PngCanvas{Canvas: img}.WriteTo(w)
	return err
}

// WriteSVG writes the chart to w as an SVG image, its fonts named but not
// embedded.
func (c *Chart) WriteSVG(w io.Writer) error {
	width, height := c.size()
	svg := vgsvg.New(width, height)
	if err := c.draw(draw.New(svg)); err != nil {
		return err
	}
	_, err := svg.WriteTo(w)
	return err
}

// draw draws the caption, then the panels on dc in a grid, row by row, on
// white.
func (c *Chart) draw(dc draw.Canvas) error {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	style := draw.TextStyle{Color: color.Black, Font: chartFont(captionSize, xfont.WeightNormal),
		XAlign: draw.XLeft, YAlign: draw.YTop, Handler: plot.DefaultTextHandler}
	for i, line := range c.caption {
		top := dc.Max.Y - chartPad - vg.Length(i)*captionLead
		dc.FillText(style, vg.Point{X: dc.Min.X + chartPad, Y: top}, line)
	}
	dc = draw.Crop(dc, 0, 0, 0, -c.header())
	rows, cols := c.grid()
	plots := make([][]*plot.Plot, rows)
	for r := range plots {
		plots[r] = make([]*plot.Plot, cols)
	}
	for i, p := range c.panels {
		pl, err := p.plot()
		if err != nil {
			return fmt.Errorf("bench: plotting %s: %w", p.workload.ID, err)
		}
		plots[i/cols][i%cols] = pl
	}
	tiles := draw.Tiles{
		Rows: rows, Cols: cols,
		PadTop: chartPad, PadBottom: chartPad, PadLeft: chartPad, PadRight: chartPad,
		PadX: chartPad, PadY: chartPad,
	}
	canvases := plot.Align(plots, tiles, dc)
	for r, row := range plots {
		for col, pl := range row {
			if pl != nil {
				pl.Draw(canvases[r][col])
			}
		}
	}
	return nil
}

// plot makes the panel's plot: the bars from the top, then (for a bulk
// workload) the bound's row at the bottom, each labelled with its time.
func (p panel) plot() (*plot.Plot, error) {
	pl := plot.New()
	pl.Title.Text = fmt.Sprintf("%s %s (%s)", p.workload.ID, p.workload.Name, p.workload.Op)
	pl.Title.TextStyle.Font = chartFont(12, xfont.WeightBold)
	if len(p.wide) > 0 {
		// A second line, in red: which bars to distrust.
		pl.Title.Text += "\nspread (max-min)/median too wide to trust: " + strings.Join(p.wide, ", ")
		pl.Title.TextStyle.Color = warnColor
	}
	pl.X.Label.Text = "milliseconds per call (median)"
	if p.workload.Small {
		pl.X.Label.Text = "nanoseconds per call (median)"
	}
	pl.X.Label.TextStyle.Font = chartFont(10, xfont.WeightNormal)
	pl.X.Tick.Label.Font = chartFont(9, xfont.WeightNormal)
	pl.Y.Tick.Label.Font = chartFont(10, xfont.WeightNormal)

	grid := plotter.NewGrid()
	grid.Horizontal.Color = nil
	pl.Add(grid)

	bound := p.workload.BoundMS
	first := 1 // the first bar's row; row 0, at the bottom, is the bound's
	if bound == 0 {
		first = 0
	}
	n := len(p.bars) + first // rows
	names := make([]string, n)
	values := plotter.XYLabels{XYs: make(plotter.XYs, n), Labels: make([]string, n)}
	addBar := func(row int, v float64, fill, edge color.Color) error {
		b, err := plotter.NewBarChart(plotter.Values{v}, barWidth)
		if err != nil {
			return err
		}
		b.Horizontal = true
		b.XMin = float64(row)
		b.Color = fill
		b.LineStyle.Color = edge
		b.LineStyle.Width = vg.Points(0.5)
		pl.Add(b)
		values.XYs[row] = plotter.XY{X: v, Y: float64(row)}
		values.Labels[row] = formatMS(v)
		return nil
	}
	for i, b := range p.bars {
		row := n - 1 - i
		names[row] = b.label
		if err := addBar(row, b.value, b.fill, b.edge); err != nil {
			return nil, err
		}
	}
	if bound > 0 {
		names[0] = boundLabel
		if err := addBar(0, bound, boundColor, boundLineColor); err != nil {
			return nil, err
		}
		line, err := plotter.NewLine(plotter.XYs{{X: bound, Y: -0.5}, {X: bound, Y: float64(n) - 0.5}})
		if err != nil {
			return nil, err
		}
		line.Color = boundLineColor
		line.Width = vg.Points(1)
		line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		pl.Add(line)
	}

	labels, err := plotter.NewLabels(values)
	if err != nil {
		return nil, err
	}
	for i := range labels.TextStyle {
		labels.TextStyle[i].Font = chartFont(9, xfont.WeightNormal)
		labels.TextStyle[i].YAlign = text.YCenter
	}
	labels.Offset = vg.Point{X: vg.Points(3)}
	pl.Add(labels)

	pl.NominalY(names...)
	longest := bound
	for _, b := range p.bars {
		longest = max(longest, b.value)
	}
	ticks := msTicks(longest)
	pl.X.Min, pl.X.Max = 0, ticks[len(ticks)-1].Value
	pl.X.Tick.Marker = plot.ConstantTicks(ticks)
	return pl, nil
}

// msTicks returns the labelled ticks of an axis from 0 to at least
// longest, which must be above 0: four to ten steps of 1, 2 or 5 times a
// power of ten, the last one reaching longest.
func msTicks(longest float64) []plot.Tick {
	// longest/mag is in [4, 40), so the steps are in [4, 10] with a step
	// of mag, in (5, 10] with 2*mag, in (4, 8) with 5*mag.
	mag := math.Pow(10, math.Floor(math.Log10(longest/4)))
	step := mag
	if longest/step > 10 {
		step = 2 * mag
	}
	if longest/step > 10 {
		step = 5 * mag
	}
	decimals := max(0, -int(math.Floor(math.Log10(step))))
	n := int(math.Ceil(longest/step - 1e-9))
	ticks := make([]plot.Tick, n+1)
	for i := range ticks {
		v := float64(i) * step
		ticks[i] = plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)}
	}
	return ticks
}

// chartFont returns the chart's font at the given size and weight.
func chartFont(size vg.Length, weight xfont.Weight) font.Font {
	return font.Font{Typeface: fontFace, Variant: fontVariant, Weight: weight, Size: size}
}

// formatMS formats a time in milliseconds to three significant digits,
// or as a whole number from 100 up: "0.512", "7.50", "66.2", "270",
// "1234". The limits between the cases are where rounding would carry
// into a new digit.
func formatMS(ms float64) string {
	prec := 0
	switch {
	case ms < 0.9995:
		prec = 3
	case ms < 9.995:
		prec = 2
	case ms < 99.95:
		prec = 1
	}
	return strconv.FormatFloat(ms, 'f', prec, 64)
}
