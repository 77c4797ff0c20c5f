package compare

import (
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// segRequest is a request of a segment family: data's rows, their ids
// and num_segments.
func segRequest(family string, data, ids tensor.Tensor, n int64) Request {
	return Request{Family: family, Inputs: map[string]tensor.Tensor{"data": data, "segment_ids": ids},
		Attrs: map[string]dialect.Value{"num_segments": {Kind: dialect.Int, Int: n}}}
}

// runByName returns the run of the named operator.
func runByName(t *testing.T, rep *Report, name string) *OpRun {
	t.Helper()
	for _, r := range rep.Runs {
		if r.Op.Name == name {
			return r
		}
	}
	t.Fatalf("no run of %s among %d runs (skipped: %v)", name, len(rep.Runs), rep.Skipped)
	return nil
}

// whyText joins every explanation of the report, outcomes and cells.
func whyText(rep *Report) string {
	var b strings.Builder
	for _, r := range rep.OutcomeWhy {
		b.WriteString(r.String() + "\n")
	}
	for _, g := range rep.Cells {
		for _, r := range g.Why {
			b.WriteString(r.String() + "\n")
		}
	}
	return b.String()
}

// The segment families compare TensorFlow's unsorted segment reductions
// with JAX's: the reduction is the family's, num_segments maps by role,
// and a difference in an empty segment is explained by the operators'
// fills; an id past the end, by their index rules.
func TestSegmentFamilies(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))
	rep, err := Run(segRequest("segment_max", data, ids, 4))
	if err != nil {
		t.Fatal(err)
	}
	// NumPy's maximum.at and PyTorch's index_reduce run into zeros: 4
	// runs, which all differ in the empty segments 1 and 3.
	if len(rep.Runs) != 4 || rep.Differing != 2 || len(rep.Cells) != 1 {
		t.Fatalf("runs %d, differing cells %d, groups %d; want 4, 2 (segments 1 and 3), 1", len(rep.Runs), rep.Differing, len(rep.Cells))
	}
	why := rep.Cells[0].Why[0].String()
	for _, want := range []string{"no index lands here", "jax.ops.segment_max: an empty segment holds -inf",
		"tf.math.unsorted_segment_max: an empty segment holds the lowest finite value",
		"numpy.maximum.at, torch.index_reduce: an empty segment holds 0: the destination compare starts it from"} {
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
	if len(rep.OutcomeWhy) == 0 || !strings.Contains(rep.OutcomeWhy[0].String(), "jax.ops.segment_sum: it is skipped: the update is ignored; numpy.add.at, tf.math.unsorted_segment_sum, torch.index_add: an out-of-range index is an error") {
		t.Errorf("outcome why: %v", rep.OutcomeWhy)
	}
}

// The scatters of a segment family run into a destination the family's
// rule builds (num_segments rows of data's row shape, every element the
// family's start), with data as their updates and include_self false.
func TestSegmentRowsDestination(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{3, 2}, []float32{1, -2, 3, 4, -5, 6}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{2, 0, 2}))
	rep, err := Run(segRequest("segment_sum", data, ids, 4))
	if err != nil {
		t.Fatal(err)
	}
	want := tensor.Must(tensor.From(tensor.Shape{4, 2}, []float32{3, 4, 0, 0, -4, 4, 0, 0}))
	for _, name := range []string{"jax.ops.segment_sum", "numpy.add.at", "tf.math.unsorted_segment_sum", "torch.index_add"} {
		r := runByName(t, rep, name)
		if r.Err != nil || !tensor.Equal(r.Out, want) {
			t.Errorf("%s: %v, %v; want %v", name, r.Out, r.Err, want)
		}
	}
	if !rep.Agree() {
		t.Errorf("segment_sum does not agree: %+v", rep.Outcomes)
	}
	add := runByName(t, rep, "numpy.add.at")
	if got := add.Call.Inputs["a"]; !got.Shape().Equal(tensor.Shape{4, 2}) || !allZero(got) || !tensor.Equal(add.Call.Inputs["b"], data) {
		t.Errorf("numpy.add.at's a %v, b %v; want zeros [4,2] and data", got, add.Call.Inputs["b"])
	}
	// A 0-d id puts the whole of data in one segment: the destination
	// has num_segments rows of data's shape, where NumPy and TensorFlow
	// agree.
	rep, err = Run(segRequest("segment_sum", data, tensor.Scalar(int64(1)), 2))
	if err != nil {
		t.Fatal(err)
	}
	whole := tensor.Must(tensor.From(tensor.Shape{2, 3, 2}, []float32{0, 0, 0, 0, 0, 0, 1, -2, 3, 4, -5, 6}))
	for _, name := range []string{"numpy.add.at", "tf.math.unsorted_segment_sum"} {
		if r := runByName(t, rep, name); r.Err != nil || !tensor.Equal(r.Out, whole) {
			t.Errorf("0-d id: %s: %v, %v; want %v", name, r.Out, r.Err, whole)
		}
	}
	// segment_prod starts from ones: numpy.multiply.at and index_reduce
	// (include_self false) agree with TensorFlow and JAX, whose empty
	// segment holds 1.
	prodData := tensor.Must(tensor.From(tensor.Shape{3}, []int32{2, 3, 5}))
	rep, err = Run(segRequest("segment_prod", prodData, tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 2, 0})), 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 4 || !rep.Agree() {
		t.Fatalf("segment_prod: %d runs, agree %t; want 4 that agree (%v)", len(rep.Runs), rep.Agree(), rep.Skipped)
	}
	if got := runByName(t, rep, "torch.index_reduce").Out; !tensor.Equal(got, tensor.Must(tensor.From(tensor.Shape{3}, []int32{10, 1, 3}))) {
		t.Errorf("torch.index_reduce prod: %v, want [10 1 3]", got)
	}
	if got := runByName(t, rep, "torch.index_reduce").Call.Attrs["include_self"]; got.Kind != dialect.Bool || got.Bool {
		t.Errorf("torch.index_reduce include_self %v, want false", got)
	}
}

// Each difference of the segment families is explained by the tables:
// a negative id, dropped by TensorFlow and JAX, counted from the end by
// NumPy, an error for PyTorch; the destination's 0 taking part in NumPy's
// maximum.at.
func TestSegmentExplanations(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{4}, []float32{7, -2, 5, -11}))
	tests := []struct {
		name    string
		family  string
		ids     []int64
		n       int64
		outcome []string // in the outcome's explanation
		cells   []string // in the cells' explanations
		absent  []string // in no explanation
		diffs   int
	}{
		{name: "negative id", family: "segment_sum", ids: []int64{0, -1, 1, 1}, n: 3,
			outcome: []string{"negative index indices[1] = -1 (dimension 0 of size 3)",
				"tf.math.unsorted_segment_sum: a negative index is dropped",
				"jax.ops.segment_sum: a negative index is dropped, as every index out of range",
				"numpy.add.at: it counts from the end", "torch.index_add: a negative index is an error"},
			cells: []string{"a negative index lands here: indices[1] = -1"},
			// NumPy's destination takes part, but its 0 is add's identity.
			absent: []string{"the value already here"}, diffs: 1},
		{name: "destination takes part", family: "segment_max", ids: []int64{0, 1, 0, 1}, n: 2,
			cells: []string{"the value already here", "numpy.maximum.at: the existing value always takes part (no include_self): the 0 compare starts from",
				"a segment reduces its own rows only"}, diffs: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ids := tensor.Must(tensor.From(tensor.Shape{len(tc.ids)}, tc.ids))
			rep, err := Run(segRequest(tc.family, data, ids, tc.n))
			if err != nil {
				t.Fatal(err)
			}
			if rep.Differing != tc.diffs {
				t.Errorf("differing cells %d, want %d", rep.Differing, tc.diffs)
			}
			why := whyText(rep)
			for _, w := range append(tc.outcome, tc.cells...) {
				if !strings.Contains(why, w) {
					t.Errorf("explanations lack %q:\n%s", w, why)
				}
			}
			for _, w := range tc.absent {
				if strings.Contains(why, w) {
					t.Errorf("explanations hold %q:\n%s", w, why)
				}
			}
		})
	}
}

// onnx.Gather is a take of the flattened data when no axis is asked, and
// with an axis a take along it (torch.take, which has none, left out);
// torch.gather and onnx.GatherElements are members of take_along_axis.
func TestFamilyAliases(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{10, 20, 30, 40, 50, 60}))
	flat := tensor.Must(tensor.From(tensor.Shape{3}, []int64{4, -1, 0}))
	rep, err := Run(Request{Family: "take", Inputs: map[string]tensor.Tensor{"data": data, "indices": flat}})
	if err != nil {
		t.Fatal(err)
	}
	want := tensor.Must(tensor.From(tensor.Shape{3}, []int32{50, 60, 10}))
	for _, name := range []string{"numpy.take", "onnx.Gather", "torch.take"} {
		if r := runByName(t, rep, name); r.Err != nil || !tensor.Equal(r.Out, want) {
			t.Errorf("%s: %v, %v; want %v", name, r.Out, r.Err, want)
		}
	}
	if _, ok := runByName(t, rep, "numpy.take").Call.Attrs["axis"]; ok {
		t.Error("numpy.take was given an axis: it takes from the flattened array without one")
	}
	if got := runByName(t, rep, "onnx.Gather").Call.Inputs["data"].Shape(); !got.Equal(tensor.Shape{6}) {
		t.Errorf("onnx.Gather's data has shape %v, want [6]", got)
	}
	rep, err = Run(Request{Family: "take", Inputs: map[string]tensor.Tensor{"data": data, "indices": tensor.Must(tensor.From(tensor.Shape{1}, []int64{2}))},
		Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rep.Skipped, func(s Skipped) bool { return s.Op == "torch.take" && strings.Contains(s.Reason, "has no axis") }) {
		t.Errorf("torch.take not left out for its missing axis: %v", rep.Skipped)
	}
	if r := runByName(t, rep, "onnx.Gather"); !tensor.Equal(r.Out, tensor.Must(tensor.From(tensor.Shape{2, 1}, []int32{30, 60}))) {
		t.Errorf("onnx.Gather axis 1: %v", r.Out)
	}

	idx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{2, -3}))
	rep, err = Run(Request{Family: "take_along_axis", Inputs: map[string]tensor.Tensor{"data": data, "indices": idx},
		Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Runs) != 4 {
		t.Fatalf("take_along_axis ran %d operators, want 4", len(rep.Runs))
	}
	why := whyText(rep)
	for _, w := range []string{"negative index indices[1,0] = -3", "numpy.take_along_axis, onnx.GatherElements-13: it counts from the end",
		"torch.gather, torch.take_along_dim: a negative index is an error"} {
		if !strings.Contains(why, w) {
			t.Errorf("explanations lack %q:\n%s", w, why)
		}
	}

	// Operators named one by one share a family through the table too.
	for _, ops := range [][]string{{"numpy.take", "onnx.Gather"}, {"torch.gather", "numpy.take_along_axis"}} {
		if _, fam, err := candidates(Request{Ops: ops}); err != nil || fam == "" {
			t.Errorf("%v: family %q, %v", ops, fam, err)
		}
	}
	if _, _, err := candidates(Request{Ops: []string{"torch.take", "onnx.GatherElements"}}); err == nil {
		t.Error("torch.take and onnx.GatherElements share no family, yet were accepted")
	}
}

// torch.put chooses its reduction by accumulate: false for a write, true
// for add, which numpy.put has not.
func TestFlagReductions(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{2, 2}, []float64{1, 2, 3, 4}))
	ind := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, -1, 0}))
	v := tensor.Must(tensor.From(tensor.Shape{3}, []float64{7, 8, 9}))
	in := map[string]tensor.Tensor{"data": data, "indices": ind, "updates": v}
	rep, err := Run(Request{Family: "put", Inputs: in})
	if err != nil {
		t.Fatal(err)
	}
	if r := runByName(t, rep, "torch.put"); r.Call.Attrs["accumulate"].Bool || !rep.Agree() {
		t.Errorf("put without reduction: accumulate %v, agree %t", r.Call.Attrs["accumulate"], rep.Agree())
	}
	_, err = Run(Request{Family: "put", Inputs: in, Attrs: map[string]dialect.Value{"reduction": {Kind: dialect.String, Str: "add"}}})
	if err == nil || !strings.Contains(err.Error(), "only torch.put can") {
		t.Errorf("put with add: %v; want only torch.put", err)
	}
	rep, err = Run(Request{Ops: []string{"torch.put", "numpy.put"}, Inputs: in, Attrs: map[string]dialect.Value{"reduction": {Kind: dialect.String, Str: "add"}}})
	if err != nil {
		t.Fatal(err)
	}
	if r := runByName(t, rep, "torch.put"); !r.Call.Attrs["accumulate"].Bool ||
		!tensor.Equal(r.Out, tensor.Must(tensor.From(tensor.Shape{2, 2}, []float64{17, 2, 3, 12}))) {
		t.Errorf("torch.put with add: accumulate %v, %v", r.Call.Attrs["accumulate"], r.Out)
	}
}

// TestSegmentDestinationRefused checks that a member that scatters into a
// destination compare builds from num_segments rows says why it cannot
// build it: a negative num_segments, and one too large for the size
// limit, each named in the member's reason for being left out.
func TestSegmentDestinationRefused(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{3}, []float32{1, 2, 3}))
	ids := tensor.Must(tensor.From(tensor.Shape{3}, []int64{0, 0, 2}))
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	for _, c := range []struct {
		n    int64
		want string
	}{
		{-2, "num_segments = -2 is negative"},
		{1 << 20, "its destination [1048576] of float32"}, // 4 MiB, past the limit set below
	} {
		rep, err := Run(segRequest("segment_sum", data, ids, c.n))
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, s := range rep.Skipped {
			if s.Op == "torch.index_add" {
				found = strings.Contains(s.Reason, c.want)
				if !found {
					t.Errorf("num_segments %d: torch.index_add left out because %q, want it to say %q", c.n, s.Reason, c.want)
				}
			}
		}
		if !found && !t.Failed() {
			t.Errorf("num_segments %d: torch.index_add not left out (skipped: %v)", c.n, rep.Skipped)
		}
	}
}
