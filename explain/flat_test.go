package explain

import (
	"strconv"
	"strings"
	"testing"
)

// TestRunFlat traces the puts of the flattened tensor by their gathers
// (numpy.take, torch.take, with the call's mode): each value goes to the
// cell of the flattened output its index names, NumPy's v repeating, a
// put with an empty v moving nothing.
func TestRunFlat(t *testing.T) {
	for _, c := range []struct {
		name, op        string
		args            []string
		moves, out, src string
	}{
		{"numpy.put of a 2-D a, v repeating", "numpy.put",
			[]string{"a=float32:[[1,2],[3,4]]", "ind=int64:[[3],[0],[-2]]", "v=float32:[7,8]"},
			"0>3 1>0 0>2", "wuww", "aa"},
		{"numpy.put, mode wrap", "numpy.put",
			[]string{"a=int32:[1,2,3,4]", "ind=int64:[9,-1,2]", "v=int32:[5,6,7]", "mode=wrap"},
			"0>1 1>3 2>2", "uwww", "aaa"},
		{"numpy.put, mode clip", "numpy.put",
			[]string{"a=int32:[1,2,3,4]", "ind=int64:[9,-7]", "v=int32:[5,6]", "mode=clip"},
			"0>3 1>0", "wuuw", "aa"},
		{"numpy.put, an empty v", "numpy.put",
			[]string{"a=int32:[1,2]", "ind=int64:[1]", "v=int32:[]"},
			"", "uu", ""},
		{"torch.put of a 2-D input, duplicates", "torch.put",
			[]string{"input=float32:[[1,2],[3,4]]", "index=int64:[[1],[1]]", "source=float32:[[7],[8]]"},
			"0>1 1>1", "uouu", "la"},
	} {
		t.Run(c.name, func(t *testing.T) {
			checkMoves(t, trace(t, c.op, 0, c.args...), c.moves, c.out, c.src)
		})
	}
}

// TestRunTuple traces the scatters by index arrays (NumPy's ufunc.at,
// PyTorch's index_put): one array selects rows of a 2-D a, a tuple
// (broadcast, stacked) selects cells; the updates broadcast to the
// indexed shape, so one value may land on several cells.
func TestRunTuple(t *testing.T) {
	for _, c := range []struct {
		name, op        string
		args            []string
		moves, out, src string
		indices         string // the shape of the indices shown
	}{
		{"add.at of rows", "numpy.add.at",
			[]string{"a=float32:[[1,2],[3,4]]", "indices=int64:[1,0,1]", "b=float32:[[1,2],[3,4],[5,6]]"},
			"0>2 1>3 2>0 3>1 4>2 5>3", "rrrr", "aaaaaa", "[3]"},
		{"maximum.at of rows, b broadcast", "numpy.maximum.at",
			[]string{"a=int32:[[1,2],[3,4],[5,6]]", "indices=int64:[2]", "b=int32:[9]"},
			"0>4 0>5", "uuuurr", "a", "[1]"},
		{"add.at of a tuple, broadcast", "numpy.add.at",
			[]string{"a=float32:[[1,2],[3,4]]", "indices.0=int64:[1,0]", "indices.1=int64:[-1]", "b=float32:[5]"},
			"0>3 0>1", "urur", "a", "[2,2]"},
		{"index_put of rows", "torch.index_put",
			[]string{"input=float32:[[1,2],[3,4],[5,6]]", "indices.0=int64:[2,0]", "values=float32:[7,8]"},
			"0>4 1>5 0>0 1>1", "wwuuww", "aa", "[2]"},
		{"index_put by a mask", "torch.index_put",
			[]string{"input=float32:[[1,2],[3,4]]", "indices.0=bool:[[true,false],[false,true]]", "values=float32:[7,8]"},
			"0>0 1>3", "wuuw", "aa", "[2,2]"},
		{"index_put by a row mask", "torch.index_put",
			[]string{"input=float32:[[1,2],[3,4],[5,6]]", "indices.0=bool:[false,true,true]", "values=float32:[7,8]"},
			"0>2 1>3 0>4 1>5", "uuwwww", "aa", "[2]"},
		{"index_put of cells, accumulate", "torch.index_put",
			[]string{"input=float32:[[1,2],[3,4]]", "indices.0=int64:[1,1]", "indices.1=int64:[0]", "values=float32:[7,8]", "accumulate=true"},
			"0>2 1>2", "uuru", "aa", "[2,2]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := trace(t, c.op, 0, c.args...)
			checkMoves(t, tr, c.moves, c.out, c.src)
			if got := tr.Indices.Tensor.Shape().String(); got != c.indices {
				t.Errorf("indices shown of shape %s, want %s", got, c.indices)
			}
		})
	}
}

// TestRunMore traces the scatters that explain refused or mis-traced:
// index_fill's value into every cell of the slices index selects (a
// negative index from the end), masked_scatter's source in order into
// the cells where the broadcast mask is true, bincount without weights
// as a count of ones (with binary_output, ones written: the first of a
// bin lost), and the element-wise gathers that broadcast their
// indices (each output element's index value named).
func TestRunMore(t *testing.T) {
	for _, c := range []struct {
		name, op        string
		args            []string
		moves, out, src string
		index           string // the index position of each link
	}{
		{"index_fill along dim 1", "torch.index_fill",
			[]string{"input=float32:[[1,2,3],[4,5,6]]", "index=int64:[2,-3]", "dim=1", "value=9"},
			"0>2 0>0 0>5 0>3", "wuwwuw", "a", "0 1 0 1"},
		{"masked_scatter, a mask broadcast", "torch.masked_scatter",
			[]string{"input=float32:[[1,2],[3,4]]", "mask=bool:[false,true]", "source=float32:[7,8,9]"},
			"0>1 1>3", "uwuw", "aau", "1 1"},
		{"masked_scatter, a full mask", "torch.masked_scatter",
			[]string{"input=int32:[[1,2],[3,4]]", "mask=bool:[[true,false],[true,true]]", "source=int32:[7,8,9,10]"},
			"0>0 1>2 2>3", "wuww", "aaau", "0 2 3"},
		{"bincount without weights", "tf.math.bincount",
			[]string{"arr=int32:[1,3,1]"},
			"0>1 1>3 2>1", "urur", "aaa", "0 1 2"},
		{"bincount, binary_output", "tf.math.bincount",
			[]string{"arr=int32:[1,3,1]", "binary_output=true"},
			"0>1 1>3 2>1", "uouw", "laa", "0 1 2"},
		{"put_along_axis, indices and values broadcast", "numpy.put_along_axis",
			[]string{"arr=float32:[[1,2,3],[4,5,6],[7,8,9]]", "indices=int64:[[2]]", "values=float32:[5]", "axis=0"},
			"0>6 0>7 0>8", "uuuuuuwww", "a", "0 0 0"},
		{"take_along_dim, indices broadcast", "torch.take_along_dim",
			[]string{"input=float32:[[1,2],[3,4]]", "indices=int64:[[1],[0]]", "dim=1"},
			"1>0 2>1", "gg", "uRRu", "0 1"},
		{"take_along_axis, indices broadcast", "numpy.take_along_axis",
			[]string{"arr=float32:[[1,2],[3,4]]", "indices=int64:[[1,0]]", "axis=0"},
			"2>0 1>1", "gg", "uRRu", "0 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := trace(t, c.op, 0, c.args...)
			checkMoves(t, tr, c.moves, c.out, c.src)
			var idx []string
			for _, l := range tr.Links {
				idx = append(idx, strconv.Itoa(l.Index))
			}
			if got := strings.Join(idx, " "); got != c.index {
				t.Errorf("index positions %q, want %q", got, c.index)
			}
		})
	}
}

// checkMoves checks a trace's links (From>To), the statuses of its output
// and of the tensor its moves start from, and that moves() counted its
// links.
func checkMoves(t *testing.T, tr *Trace, want, out, src string) {
	t.Helper()
	if got := moves(tr.Links); got != want {
		t.Errorf("moves %q, want %q", got, want)
	}
	if got := statuses(tr.Output); got != out {
		t.Errorf("output %s, want %s", got, out)
	}
	if got := statuses(tr.source()); got != src {
		t.Errorf("source %s, want %s", got, src)
	}
	if tr.moves() != len(tr.Links) {
		t.Errorf("moves() %d for %d links", tr.moves(), len(tr.Links))
	}
}
