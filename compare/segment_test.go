package compare

import (
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// The segment families compare TensorFlow's unsorted segment reductions
// with JAX's: the reduction is the family's, num_segments maps by role,
// and a difference in an empty segment is explained by the operators'
// fills; an id past the end, by their index rules.
func TestSegmentFamilies(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))
	rep, err := Run(Request{Family: "segment_max", Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids},
		Attrs: map[string]dialect.Value{"num_segments": {Kind: dialect.Int, Int: 4}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 2 || rep.Differing != 2 || len(rep.Cells) != 1 {
		t.Fatalf("runs %d, differing cells %d, groups %d; want 2, 2 (segments 1 and 3), 1", len(rep.Runs), rep.Differing, len(rep.Cells))
	}
	why := rep.Cells[0].Why[0].String()
	for _, want := range []string{"no index lands here", "jax.ops.segment_max: an empty segment holds -inf",
		"tf.math.unsorted_segment_max: an empty segment holds the lowest finite value"} {
		if !strings.Contains(why, want) {
			t.Errorf("why %q lacks %q", why, want)
		}
	}
	past := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 5, 2}))
	rep, err = Run(Request{Family: "segment_sum", Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": past,
		"num_segments": tensor.Scalar(int64(3))}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.OutcomeWhy) == 0 || !strings.Contains(rep.OutcomeWhy[0].String(), "tf.math.unsorted_segment_sum: an out-of-range index is an error") {
		t.Errorf("outcome why: %v", rep.OutcomeWhy)
	}
}
