package chart

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bench"
)

var update = flag.Bool("update", false, "rewrite the golden charts in testdata")

// testResults returns the made-up timings of this module in
// testdata/results.json, filtered to the given workloads (all with none).
func testResults(t *testing.T, ids ...string) []bench.Result {
	t.Helper()
	rs, err := bench.ReadResultsFile(filepath.Join("..", "testdata", "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) == 0 {
		return rs
	}
	return slices.DeleteFunc(rs, func(r bench.Result) bool { return !slices.Contains(ids, r.Workload) })
}

// peersOf returns the bundled peers' results for the workloads of rs (the
// bundled figures of the other workloads would add panels of peers only).
func peersOf(rs []bench.Result) []bench.Result {
	var ids []string
	for _, r := range rs {
		ids = append(ids, r.Workload)
	}
	return onlyWorkloads(bench.Peers(), ids...)
}

// onlyWorkloads returns the results for the given workloads.
func onlyWorkloads(rs []bench.Result, ids ...string) []bench.Result {
	return slices.DeleteFunc(slices.Clone(rs), func(r bench.Result) bool { return !slices.Contains(ids, r.Workload) })
}

// TestChartGolden compares the SVG form of charts with the files in
// testdata; go test -run ChartGolden -update rewrites them. SVG rather
// than PNG, because its text is reviewable and does not depend on how
// the rasterizer rounds.
func TestChartGolden(t *testing.T) {
	for _, tc := range []struct {
		golden  string
		results []bench.Result
	}{
		{"chart.svg", append(testResults(t), peersOf(testResults(t))...)},
		{"chart-w3.svg", testResults(t, "W3")},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			c, err := NewChart(tc.results)
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := c.WriteSVG(&buf); err != nil {
				t.Fatal(err)
			}
			reversed := slices.Clone(tc.results)
			slices.Reverse(reversed)
			c, err = NewChart(reversed)
			if err != nil {
				t.Fatal(err)
			}
			var again bytes.Buffer
			if err := c.WriteSVG(&again); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), again.Bytes()) {
				t.Error("the results in reverse order make another chart")
			}
			path := filepath.Join("testdata", tc.golden)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got := buf.Bytes(); !bytes.Equal(got, want) {
				gotLines, wantLines := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gotLines), len(wantLines)) {
					if gotLines[i] != wantLines[i] {
						t.Fatalf("differs from %s at line %d:\ngot  %s\nwant %s\n(go test -run ChartGolden -update rewrites it)",
							path, i+1, gotLines[i], wantLines[i])
					}
				}
				t.Fatalf("differs from %s: %d lines, want %d", path, len(gotLines), len(wantLines))
			}
		})
	}
}

// TestChartPNG checks that the PNG form is the same on every call and
// decodes to an image of the expected size, with the expected bars.
func TestChartPNG(t *testing.T) {
	ours := testResults(t)
	all := append(slices.Clone(ours), peersOf(ours)...)
	blue, orange := implColors[0], implColors[1] // scatter, then numpy
	for _, tc := range []struct {
		name          string
		results       []bench.Result
		width, height int          // pixels at 96 dpi of 3-by-5-inch panels, 12-point gaps and a caption line
		colors        []color.RGBA // found in the image
		absent        []color.RGBA // not found
	}{
		{"fifteen workloads", all, 1504, 1572, []color.RGBA{blue, lighten(blue), lighten(orange), boundColor, warnColor}, nil},
		{"four", onlyWorkloads(all, "W1", "W2", "W8", "W9"), 1504, 660, []color.RGBA{blue, lighten(orange)}, []color.RGBA{warnColor}},
		{"one, ours only", onlyWorkloads(ours, "W5"), 512, 356, []color.RGBA{blue, lighten(blue), boundColor}, []color.RGBA{orange, lighten(orange)}},
		{"peers only", onlyWorkloads(bench.Peers(), "W6"), 512, 356, []color.RGBA{lighten(blue), implColors[1], lighten(implColors[2])}, []color.RGBA{blue}},
		{"a small call", onlyWorkloads(all, "S2"), 512, 356, []color.RGBA{blue, implColors[1]}, []color.RGBA{warnColor}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewChart(tc.results)
			if err != nil {
				t.Fatal(err)
			}
			var a, b bytes.Buffer
			if err := c.WritePNG(&a); err != nil {
				t.Fatal(err)
			}
			if err := c.WritePNG(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Error("two renderings differ")
			}
			img, err := png.Decode(&a)
			if err != nil {
				t.Fatal(err)
			}
			if got := img.Bounds(); got != image.Rect(0, 0, tc.width, tc.height) {
				t.Errorf("bounds %v, want %dx%d", got, tc.width, tc.height)
			}
			found := pixelColors(img)
			for _, col := range tc.colors {
				if !found[col] {
					t.Errorf("no pixel of colour %v", col)
				}
			}
			for _, col := range tc.absent {
				if found[col] {
					t.Errorf("a pixel of colour %v", col)
				}
			}
		})
	}
}

// pixelColors returns the set of colours of img's pixels.
func pixelColors(img image.Image) map[color.RGBA]bool {
	found := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			found[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return found
}

// TestNewChart checks the panels and bars a chart is made of.
func TestNewChart(t *testing.T) {
	r := func(workload, impl string, api bench.API, median float64) bench.Result {
		return bench.Result{Workload: workload, Impl: impl, API: api, MedianMS: median, MinMS: median, MaxMS: median, Reps: 1}
	}
	type wantBar struct {
		label string
		ms    float64
		fill  color.RGBA
	}
	blue, orange, green := implColors[0], implColors[1], implColors[2]
	for _, tc := range []struct {
		name    string
		results []bench.Result
		want    map[string][]wantBar // by workload
		order   []string             // the panels' workloads
	}{
		{
			name: "ours first, then the peers sorted, reuse before fresh",
			results: []bench.Result{
				r("W3", "zz", bench.Fresh, 3), r("W3", "aa", bench.Fresh, 4), r("W3", bench.Impl, bench.Fresh, 2),
				r("W3", "zz", bench.Reuse, 5), r("W3", bench.Impl, bench.Reuse, 1),
			},
			order: []string{"W3"},
			want: map[string][]wantBar{"W3": {
				{"scatter reuse", 1, blue}, {"scatter fresh", 2, lighten(blue)},
				{"aa fresh", 4, lighten(orange)}, {"zz reuse", 5, green}, {"zz fresh", 3, lighten(green)},
			}},
		},
		{
			name:    "panels in workload order, colours the same in every panel",
			results: []bench.Result{r("W9", "numpy", bench.Fresh, 9), r("W1", "pytorch", bench.Fresh, 8), r("W1", "numpy", bench.Fresh, 7)},
			order:   []string{"W1", "W9"},
			want: map[string][]wantBar{
				"W1": {{"numpy fresh", 7, lighten(blue)}, {"pytorch fresh", 8, lighten(orange)}},
				"W9": {{"numpy fresh", 9, lighten(blue)}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := NewChart(tc.results)
			if err != nil {
				t.Fatal(err)
			}
			var order []string
			for _, p := range c.panels {
				order = append(order, p.workload.ID)
				var got []wantBar
				for _, b := range p.bars {
					got = append(got, wantBar{b.label, b.value, color.RGBAModel.Convert(b.fill).(color.RGBA)})
				}
				if want := tc.want[p.workload.ID]; !slices.Equal(got, want) {
					t.Errorf("%s: bars %v\nwant %v", p.workload.ID, got, want)
				}
			}
			if !slices.Equal(order, tc.order) {
				t.Errorf("panels %v, want %v", order, tc.order)
			}
		})
	}
}

// TestChartCaptionAndSpread checks what a chart says besides its bars:
// the caption's lines, the unit of each panel, and which of ours are
// flagged for a spread too wide to trust.
func TestChartCaptionAndSpread(t *testing.T) {
	rs := []bench.Result{
		// spread (12-8)/10 = 0.4: fine
		{Workload: "W1", Impl: bench.Impl, API: bench.Reuse, MedianMS: 10, MinMS: 8, MaxMS: 12, Reps: 7, GBps: 1},
		// spread (30-10)/20 = 1: flagged
		{Workload: "W1", Impl: bench.Impl, API: bench.Fresh, MedianMS: 20, MinMS: 10, MaxMS: 30, Reps: 7, GBps: 1},
		// a peer's wide spread is not ours to flag
		{Workload: "W1", Impl: "numpy", API: bench.Fresh, MedianMS: 20, MinMS: 1, MaxMS: 300, Reps: 7, GBps: 1},
		// nanoseconds, spread (160-100)/100 = 0.6: flagged
		{Workload: "S6", Impl: bench.Impl, API: bench.Reuse, MedianNS: 100, MinNS: 100, MaxNS: 160, Reps: 7, Calls: 8},
	}
	c, err := NewChart(rs, "note one", "note two")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.caption) != 3 || !strings.Contains(c.caption[0], "lower is better") || c.caption[1] != "note one" || c.caption[2] != "note two" {
		t.Errorf("caption %q", c.caption)
	}
	if len(c.panels) != 2 {
		t.Fatalf("%d panels", len(c.panels))
	}
	w1, s6 := c.panels[0], c.panels[1]
	if !slices.Equal(w1.wide, []string{"scatter fresh 100%"}) || !slices.Equal(s6.wide, []string{"scatter reuse 60%"}) {
		t.Errorf("flagged: %q and %q", w1.wide, s6.wide)
	}
	if s6.bars[0].value != 100 || !s6.workload.Small || s6.workload.BoundMS != 0 {
		t.Errorf("S6 panel: %+v", s6)
	}
	for _, p := range c.panels {
		pl, err := p.plot()
		if err != nil {
			t.Fatal(err)
		}
		unit := map[bool]string{false: "milliseconds", true: "nanoseconds"}[p.workload.Small]
		if !strings.HasPrefix(pl.X.Label.Text, unit) || !strings.Contains(pl.Title.Text, "too wide to trust") {
			t.Errorf("%s: axis %q, title %q", p.workload.ID, pl.X.Label.Text, pl.Title.Text)
		}
	}
}

func TestNewChartErrors(t *testing.T) {
	good := bench.Result{Workload: "W1", Impl: bench.Impl, API: bench.Reuse, MedianMS: 2, MinMS: 1, MaxMS: 3, Reps: 3, GBps: 1}
	negative := good
	negative.MinMS = -1
	unknown := good
	unknown.Workload = "W0"
	for _, tc := range []struct {
		results []bench.Result
		want    string
	}{
		{nil, "bench: no results to plot"},
		{[]bench.Result{good, negative}, "bench: results[1]: W1 scatter reuse: min_ms is -1, want a finite number not below 0"},
		{[]bench.Result{unknown}, `bench: results[0]: unknown workload "W0"`},
		{[]bench.Result{good, good}, "bench: results[1]: W1 scatter reuse is also results[0]"},
	} {
		c, err := NewChart(tc.results)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || c != nil {
			t.Errorf("NewChart(%v) = %v, %v; want error %q", tc.results, c, err, tc.want)
		}
	}
}

func TestMSTicks(t *testing.T) {
	for _, tc := range []struct {
		longest float64
		want    string
	}{
		{270, "0 50 100 150 200 250 300"},
		{66.2, "0 10 20 30 40 50 60 70"},
		{40, "0 10 20 30 40"},
		{39.9, "0 5 10 15 20 25 30 35 40"},
		{16.3, "0 2 4 6 8 10 12 14 16 18"},
		{7.5, "0 1 2 3 4 5 6 7 8"},
		{0.5, "0.0 0.1 0.2 0.3 0.4 0.5"},
		{0.07, "0.00 0.01 0.02 0.03 0.04 0.05 0.06 0.07"},
		{1234, "0 200 400 600 800 1000 1200 1400"},
	} {
		ticks := msTicks(tc.longest)
		var labels []string
		for i, tk := range ticks {
			labels = append(labels, tk.Label)
			if tk.Value < 0 || (i > 0 && tk.Value <= ticks[i-1].Value) {
				t.Errorf("msTicks(%v): tick %d at %v", tc.longest, i, tk.Value)
			}
		}
		if got := strings.Join(labels, " "); got != tc.want || ticks[len(ticks)-1].Value < tc.longest {
			t.Errorf("msTicks(%v) = %s up to %v, want %s", tc.longest, got, ticks[len(ticks)-1].Value, tc.want)
		}
	}
}

func TestFormatMS(t *testing.T) {
	for _, tc := range []struct {
		ms   float64
		want string
	}{
		{0, "0.000"}, {0.5123, "0.512"}, {0.9996, "1.00"}, {7.5, "7.50"}, {9.994, "9.99"}, {9.996, "10.0"},
		{66.24, "66.2"}, {99.96, "100"}, {270, "270"}, {1234.5, "1234"},
	} {
		if got := formatMS(tc.ms); got != tc.want {
			t.Errorf("formatMS(%v) = %q, want %q", tc.ms, got, tc.want)
		}
	}
}
