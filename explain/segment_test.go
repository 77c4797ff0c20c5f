package explain

import (
	"strings"
	"testing"
)

// TestRunSegments traces the segment reductions: each element of data's
// rows links to the cell of the segment its id names, ids outside the
// segments dropped (JAX's mode clip clamping them, by the call's plan);
// an output row no row reaches is empty, and holds the
// operator's fill, which the trace names. The sorted reductions' rows
// are their runs; reduceat's output j reduces the run from indices[j] to
// indices[j+1], or the slice at indices[j] alone where they go back.
func TestRunSegments(t *testing.T) {
	for _, c := range []struct {
		name, op       string
		args           []string
		moves, out     string
		src, ids, fill string
	}{
		{name: "unsorted sum, a negative id dropped", op: "tf.math.unsorted_segment_sum",
			args:  []string{"data=float32:[[1,2],[3,4],[5,6]]", "segment_ids=int64:[2,-1,0]", "num_segments=4"},
			moves: "0>4 1>5 2>- 3>- 4>0 5>1", out: "rreerree", src: "aassaa", ids: ".s.", fill: "0"},
		{name: "unsorted max, the lowest finite value", op: "tf.math.unsorted_segment_max",
			args:  []string{"data=int32:[7,8,9]", "segment_ids=int32:[1,1,1]", "num_segments=3"},
			moves: "0>1 1>1 2>1", out: "ere", src: "aaa", ids: "...", fill: "the lowest finite value of the type"},
		{name: "unsorted, ids of rank 2", op: "tf.math.unsorted_segment_sum",
			args:  []string{"data=float32:[[1,2],[3,4]]", "segment_ids=int64:[[1,0],[0,2]]", "num_segments=3"},
			moves: "0>1 1>0 2>0 3>2", out: "rrr", src: "aaaa", ids: "....", fill: "0"},
		{name: "jax max, an id past the end dropped", op: "jax.ops.segment_max",
			args:  []string{"data=float32:[4,5,6]", "segment_ids=int32:[3,0,-2]", "num_segments=3"},
			moves: "0>- 1>0 2>-", out: "ree", src: "sas", ids: "s.s", fill: "-inf (the lowest integer, false)"},
		{name: "jax sum, mode clip: ids clamped to the nearest segment", op: "jax.ops.segment_sum",
			args:  []string{"data=float32:[1,2,4]", "segment_ids=int64:[0,5,-1]", "num_segments=2", "mode=clip"},
			moves: "0>0 1>1 2>0", out: "rr", src: "aaa", ids: "...", fill: "0"},
		{name: "sorted sum, a gap", op: "tf.math.segment_sum",
			args:  []string{"data=float32:[1,2,3,4]", "segment_ids=int64:[0,0,2,3]"},
			moves: "0>0 1>0 2>2 3>3", out: "rerr", src: "aaaa", ids: "....", fill: "0"},
		{name: "reduceat, a start that goes back", op: "numpy.add.reduceat",
			args:  []string{"array=float32:[1,2,3,4,5]", "indices=int64:[0,3,1]"},
			moves: "0>0 1>0 2>0 3>1 1>2 2>2 3>2 4>2", out: "rrr", src: "aaaaa", ids: "..."},
		{name: "reduceat along axis 1, the head in no run", op: "numpy.maximum.reduceat",
			args:  []string{"array=int32:[[1,2,3],[4,5,6]]", "indices=int64:[1,2]", "axis=1"},
			moves: "1>0 2>1 4>2 5>3", out: "rrrr", src: "uaauaa", ids: ".."},
	} {
		t.Run(c.name, func(t *testing.T) {
			tr := trace(t, c.op, 0, c.args...)
			if !tr.Segments || !tr.Scatter || tr.Data != nil {
				t.Fatalf("segments %t, scatter %t, data %v: want a segment trace without data", tr.Segments, tr.Scatter, tr.Data)
			}
			if got := moves(tr.Links); got != c.moves {
				t.Errorf("moves %s, want %s", got, c.moves)
			}
			if got := statuses(tr.Output); got != c.out {
				t.Errorf("output %s, want %s", got, c.out)
			}
			if got := statuses(tr.Updates); got != c.src {
				t.Errorf("rows %s, want %s", got, c.src)
			}
			if got := statuses(tr.Indices); got != c.ids {
				t.Errorf("ids %s, want %s", got, c.ids)
			}
			if got := tr.size(); got <= 0 || tr.moves() != len(tr.Links) {
				t.Errorf("moves() %d for %d links", tr.moves(), len(tr.Links))
			}
			var b strings.Builder
			if err := tr.WriteText(&b, false); err != nil {
				t.Fatal(err)
			}
			text := b.String()
			if c.fill != "" {
				for _, want := range []string{"an empty segment holds " + c.fill} {
					if !strings.Contains(text, want) {
						t.Errorf("text lacks %q:\n%s", want, text)
					}
				}
			}
			if strings.Contains(c.out, "e") && !strings.Contains(text, " E ") {
				t.Errorf("text marks no empty segment:\n%s", text)
			}
		})
	}
}
