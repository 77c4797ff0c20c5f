package explain

import "testing"

// TestRunScatterRows traces the tf.compat.v1 scatters, the family
// scatter_rows, by their plan: each row of updates lands on the row of
// ref its index names, the duplicates of scatter_update overwritten in
// index order, those of scatter_add reduced.
func TestRunScatterRows(t *testing.T) {
	args := []string{"ref=float32:[[1,2],[3,4],[5,6]]", "indices=int64:[2,0,2]", "updates=float32:[[7,8],[9,10],[11,12]]"}
	for _, c := range []struct {
		op, out, src, reduction string
	}{
		{"tf.compat.v1.scatter_update", "wwuuoo", "llaaaa", "update"},
		{"tf.compat.v1.scatter_add", "rruurr", "aaaaaa", "add"},
	} {
		tr := trace(t, c.op, 0, args...)
		if got, want := moves(tr.Links), "0>4 1>5 2>0 3>1 4>4 5>5"; got != want {
			t.Errorf("%s: moves %s, want %s", c.op, got, want)
		}
		if got := statuses(tr.Output); got != c.out {
			t.Errorf("%s: output %s, want %s", c.op, got, c.out)
		}
		if got := statuses(tr.source()); got != c.src {
			t.Errorf("%s: updates %s, want %s", c.op, got, c.src)
		}
		if tr.Reduction != c.reduction {
			t.Errorf("%s: reduction %q, want %q", c.op, tr.Reduction, c.reduction)
		}
	}
}

// TestRunBincount traces tf.math.bincount with weights by its plan: each
// weight lands on the bin its value names, onto zeros, a value past
// maxlength skipped; with axis -1 each row into its own row of bins.
func TestRunBincount(t *testing.T) {
	for _, c := range []struct {
		name       string
		args       []string
		moves, out string
	}{
		{"flat, maxlength 4", []string{"arr=int32:[1,3,1,7]", "weights=float32:[0.5,2,1,9]", "maxlength=4"},
			"0>1 1>3 2>1 3>-", "urur"},
		{"rows, axis -1", []string{"arr=int32:[[1,0],[2,2]]", "weights=float32:[[1,2],[3,4]]", "axis=-1"},
			"0>1 1>0 2>5 3>5", "rruuur"},
	} {
		tr := trace(t, "tf.math.bincount", 0, c.args...)
		if got := moves(tr.Links); got != c.moves {
			t.Errorf("%s: moves %s, want %s", c.name, got, c.moves)
		}
		if got := statuses(tr.Output); got != c.out {
			t.Errorf("%s: output %s, want %s", c.name, got, c.out)
		}
		if !tr.FromZeros {
			t.Errorf("%s: not from zeros", c.name)
		}
	}
}
