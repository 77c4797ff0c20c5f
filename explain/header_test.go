package explain

import (
	"slices"
	"testing"

	"gonum.org/v1/plot/vg"
)

// TestHeadline checks the lines above the grids: the attributes in force,
// given or by default, and a sentence on the reduction that says whether
// the cell's own value takes part, as the attributes decide.
func TestHeadline(t *testing.T) {
	for _, c := range []struct {
		op    string
		opset int
		args  []string
		want  []string
	}{
		{"torch.scatter_reduce", 0, []string{"input=float32:[5,4,3,2]", "index=int64:[0,1,0,1,2,1]", "src=float32:[1,2,3,4,5,6]",
			"dim=0", "reduce=amax", "include_self=false"},
			[]string{"torch.scatter_reduce", "attributes: dim=0, reduce=amax, include_self=false",
				"reduction amax (max): a cell that updates reach becomes the largest of them; its own value takes no part",
				"indices: a negative index is out of range; an index out of range is an error"}},
		{"torch.scatter_reduce", 0, []string{"input=float32:[5,4,3,2]", "index=int64:[0,1,0,1,2,1]", "src=float32:[1,2,3,4,5,6]",
			"dim=0", "reduce=mean"},
			[]string{"torch.scatter_reduce", "attributes: dim=0, reduce=mean, include_self=true (default)",
				"reduction mean: a cell becomes the mean of its value and its updates",
				"indices: a negative index is out of range; an index out of range is an error"}},
		{"torch.scatter_reduce", 0, []string{"input=float32:[5,4]", "index=int64:[0,1,0]", "src=float32:[1,2,3]",
			"dim=0", "reduce=mean", "include_self=false"},
			[]string{"torch.scatter_reduce", "attributes: dim=0, reduce=mean, include_self=false",
				"reduction mean: a cell that updates reach becomes the mean of them; its own value takes no part",
				"indices: a negative index is out of range; an index out of range is an error"}},
		{"onnx.GatherND", 0, []string{"data=int32:[[[0,1],[2,3]],[[4,5],[6,7]]]", "indices=int64:[[1],[0]]", "batch_dims=1"},
			[]string{"onnx.GatherND, version 13", "attributes: batch_dims=1",
				"each output element is copied from the data cell that its index selects",
				"indices: a negative index counts from the end (-1 is the last); an index out of range is an error"}},
		{"onnx.ScatterND", 13, []string{"data=float32:[1,2]", "indices=int64:[[1]]", "updates=float32:[5]"},
			[]string{"onnx.ScatterND, version 13",
				"reduction none: each update replaces the value of its cell; of duplicates, the last in index order wins",
				"indices: a negative index counts from the end (-1 is the last); an index out of range is an error"}},
		{"openvino.ScatterElementsUpdate", 0, []string{"data=float32:[2,3,4,6]", "indices=int64:[1,0]", "updates=float32:[10,20]",
			"axis=0", "reduction=sum"},
			[]string{"openvino.ScatterElementsUpdate, version 12", "attributes: reduction=sum, use_init_val=true (default), axis=0",
				"reduction sum (add): updates are added to their cell one at a time, in index order",
				"indices: a negative index counts from the end (-1 is the last); an index out of range is an error"}},
		{"tf.scatter_nd", 0, []string{"indices=int32:[[1]]", "updates=int32:[9]", "shape=3"},
			[]string{"tf.scatter_nd", "attributes: shape=3",
				"reduction add: the output starts as zeros; updates are added to their cell one at a time, in index order",
				"indices: a negative index is out of range; an index out of range is an error"}},
	} {
		tr := trace(t, c.op, c.opset, c.args...)
		if got := tr.headline(); !slices.Equal(got, c.want) {
			t.Errorf("%s %q headline:\n got %q\nwant %q", c.op, c.args, got, c.want)
		}
	}
}

// TestLinksStartInTheirCell checks that every link of a picture starts
// strictly inside the cell it leaves, and that links leaving cells of one
// column in different rows start at different points across it, so that
// none seems to leave a cell it only passes over.
func TestLinksStartInTheirCell(t *testing.T) {
	for _, c := range []struct {
		op   string
		args []string
	}{
		{"onnx.ScatterElements", []string{"data=float32:[[0,0,0],[0,0,0],[0,0,0]]", "indices=int64:[[1,0,2],[0,2,1]]",
			"updates=float32:[[1,1.1,1.2],[2,2.1,2.2]]"}},
		{"onnx.ScatterND", []string{"data=float32:[[1,2],[3,4],[5,6]]", "indices=int64:[[2],[0],[2]]", "updates=float32:[[7,8],[9,10],[11,12]]"}},
		{"onnx.GatherElements", []string{"data=float32:[[1,2],[3,4]]", "indices=int64:[[0,0],[1,0]]", "axis=1"}},
		{"torch.scatter", []string{"input=float32:[[[0,0],[0,0]],[[0,0],[0,0]]]", "index=int64:[[[1,0],[0,1]],[[1,1],[0,0]]]",
			"src=float32:[[[1,2],[3,4]],[[5,6],[7,8]]]", "dim=2"}},
		{"onnx.Gather", []string{"data=float32:[" + longList(45) + "]", "indices=int64:[0,21,44]"}},
	} {
		l := trace(t, c.op, 0, c.args...).layout()
		ends := l.ends()
		if len(ends) == 0 {
			t.Fatalf("%s: no links", c.op)
		}
		column := map[vg.Length]map[vg.Length]bool{} // cell x -> start xs
		for _, e := range ends {
			x, y := l.start(e.link.From)
			cx, cy := l.src.cell(e.link.From)
			if x <= cx || x >= cx+l.src.cellW || y <= cy || y >= cy+cellH {
				t.Errorf("%s: the link from %s[%d] starts at (%v, %v), outside its cell (%v, %v)-(%v, %v)",
					c.op, l.src.o.Name, e.link.From, x, y, cx, cy, cx+l.src.cellW, cy+cellH)
			}
			if column[cx] == nil {
				column[cx] = map[vg.Length]bool{}
			}
			column[cx][x] = true
		}
		for cx, xs := range column {
			rows := map[vg.Length]bool{}
			for _, e := range ends {
				if x, _ := l.src.cell(e.link.From); x == cx {
					_, y := l.src.cell(e.link.From)
					rows[y] = true
				}
			}
			if len(xs) != len(rows) {
				t.Errorf("%s: links from %d rows of the column at %v start at %d points across it", c.op, len(rows), cx, len(xs))
			}
		}
	}
}

// longList returns "0,1,...,n-1".
func longList(n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += string(rune('0' + i%10))
	}
	return s
}
