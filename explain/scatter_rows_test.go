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
