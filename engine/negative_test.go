package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestNegativeRefused: under NegativeRefused a negative index is an error
// naming the first one, before anything is written, while an index past
// the end is skipped (a scatter drops it, a gather fills); with
// OutOfRangeError it is NegativeError.
func TestNegativeRefused(t *testing.T) {
	refuse := IndexRules{Negative: NegativeRefused, OutOfRange: OutOfRangeSkip}
	for _, k := range bothKernels {
		data := tensor.Must(tensor.From(tensor.Shape{4}, []int32{1, 2, 3, 4}))
		upd := tensor.Must(tensor.From(tensor.Shape{4}, []int32{10, 20, 30, 40}))
		skip := tensor.Must(tensor.From(tensor.Shape{4}, []int64{0, 9, 3, 0}))
		if err := k.ScatterElements(data, data, skip, upd, 0, ScatterOptions{Reduction: Add, Rules: refuse}); err != nil {
			t.Fatalf("%s: %v", k.name, err)
		}
		if got := data.Data().([]int32); !slices.Equal(got, []int32{51, 2, 3, 34}) {
			t.Errorf("%s: scatter skipping 9: got %v", k.name, got)
		}
		before := data.Clone()
		neg := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int64{0, 9, -1, -2}))
		upd2 := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{1, 1, 1, 1}))
		ind := tensor.Must(neg.Reshape(tensor.Shape{4}))
		err := k.ScatterElements(data, data, ind, tensor.Must(upd2.Reshape(tensor.Shape{4})), 0, ScatterOptions{Reduction: Add, Rules: refuse})
		var ie *IndexError
		if !errors.As(err, &ie) || ie.Value != -1 || !slices.Equal(ie.Pos, []int{2}) {
			t.Errorf("%s: scatter of a negative index: %v (%+v)", k.name, err, ie)
		}
		if !tensor.Equal(data, before) {
			t.Errorf("%s: the refused scatter changed data to %v", k.name, data)
		}
		// ScatterND by tuples, ReportLast: the last tuple holding a
		// negative component.
		nd := tensor.Must(tensor.From(tensor.Shape{3, 1}, []int64{-3, 9, -1}))
		last := IndexRules{Negative: NegativeRefused, OutOfRange: OutOfRangeSkip, Report: ReportLast}
		err = k.ScatterND(data, data, nd, tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, 1, 1})), ScatterOptions{Reduction: Add, Rules: last})
		if !errors.As(err, &ie) || ie.Value != -1 || !slices.Equal(ie.Pos, []int{2, 0}) {
			t.Errorf("%s: ScatterND ReportLast: %v (%+v)", k.name, err, ie)
		}
		// A gather fills for 9 and refuses -1.
		out := tensor.Must(tensor.New(tensor.Int32, tensor.Shape{2}))
		if err := k.Gather(out, data, tensor.Must(tensor.From(tensor.Shape{2}, []int64{9, 3})), 0, 0, refuse); err != nil {
			t.Fatalf("%s: gather: %v", k.name, err)
		}
		if got := out.Data().([]int32); !slices.Equal(got, []int32{0, 34}) {
			t.Errorf("%s: gather: got %v", k.name, got)
		}
		err = k.Gather(out, data, tensor.Must(tensor.From(tensor.Shape{2}, []int64{9, -4})), 0, 0, refuse)
		if !errors.As(err, &ie) || ie.Value != -4 {
			t.Errorf("%s: gather of -4: %v", k.name, err)
		}
		// With OutOfRangeError, as NegativeError: 9 is an error too.
		strict := IndexRules{Negative: NegativeRefused}
		err = k.Gather(out, data, tensor.Must(tensor.From(tensor.Shape{2}, []int64{9, -4})), 0, 0, strict)
		if !errors.As(err, &ie) || ie.Value != 9 {
			t.Errorf("%s: strict gather: %v", k.name, err)
		}
	}
}
