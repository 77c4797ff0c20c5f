package engine_test

import (
	"errors"
	"slices"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// TestScatterNDChecksAsItGoes: ScatterND of more single updates than dst
// has elements, into a dst that is not data, checks each index as it
// applies it (no offsets pass). It reports the first bad index in index
// order, or under ReportLast the last bad tuple, and leaves data as it
// was; into a fresh dst it has written part of it by then (had the
// indices been validated first, dst would still be all zero); in place it
// writes nothing; with OutOfRangeSkip it applies the others; and without
// a bad index it equals the in-place result, which goes through the
// offsets.
func TestScatterNDChecksAsItGoes(t *testing.T) {
	defer SetMinWork(64)() // not a small call, so not the small calls' path
	const size, n = 100, 400
	fresh := func() (data, upd []float32, idx []int64) {
		data, upd, idx = make([]float32, size), make([]float32, n), make([]int64, n)
		for i := range data {
			data[i] = float32(i)
		}
		for i := range upd {
			upd[i] = float32(i%7) + 0.5
			idx[i] = int64(i*37) % size
			if i%5 == 0 {
				idx[i] -= size // counts from the end
			}
		}
		return data, upd, idx
	}
	f32 := func(v []float32) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v)}, v)) }
	ind := func(v []int64) tensor.Tensor { return tensor.Must(tensor.From(tensor.Shape{len(v), 1}, v)) }
	fromEnd := IndexRules{Negative: NegativeFromEnd}

	data, upd, idx := fresh()
	want := slices.Clone(data)
	opt := ScatterOptions{Reduction: Add, Rules: fromEnd}
	if err := ScatterND(f32(want), f32(want), ind(idx), f32(upd), opt); err != nil {
		t.Fatal(err)
	}
	got := make([]float32, size)
	if err := ScatterND(f32(got), f32(data), ind(idx), f32(upd), opt); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("into another dst: %v, want %v (in place)", got, want)
	}

	first, last := 150, 333
	for _, c := range []struct {
		name    string
		rules   IndexRules
		pos     int // of the reported index; -1 for none
		inPlace bool
	}{
		{"first", fromEnd, first, false},
		{"last", IndexRules{Negative: NegativeFromEnd, Report: ReportLast}, last, false},
		{"in place", fromEnd, first, true},
		{"skip", IndexRules{Negative: NegativeFromEnd, OutOfRange: OutOfRangeSkip}, -1, false},
	} {
		data, upd, idx := fresh()
		idx[first], idx[last] = size, -size-1
		before := slices.Clone(data)
		dst := make([]float32, size)
		if c.inPlace {
			dst = data
		}
		opt := ScatterOptions{Reduction: Add, Rules: c.rules}
		err := ScatterND(f32(dst), f32(data), ind(idx), f32(upd), opt)
		if c.pos < 0 {
			skipped, refErr := reftest.ScatterND(f32(data), ind(idx), f32(upd), opt)
			if refErr != nil {
				t.Fatalf("%s: the reference fails: %v", c.name, refErr)
			}
			if d := reftest.Diff(f32(dst), skipped); err != nil || d != "" {
				t.Errorf("%s: %v %s", c.name, err, d)
			}
			continue
		}
		var ie *IndexError
		if !errors.As(err, &ie) || !slices.Equal(ie.Pos, []int{c.pos, 0}) {
			t.Errorf("%s: %v, want an IndexError at [%d 0]", c.name, err, c.pos)
		}
		if !slices.Equal(data, before) {
			t.Errorf("%s: data changed", c.name)
		}
		if !c.inPlace && !slices.ContainsFunc(dst, func(v float32) bool { return v != 0 }) {
			t.Errorf("%s: dst untouched: the indices were validated first", c.name)
		}
	}
}

// TestMove64: rows of 64 bytes, whatever the element size, move as one
// fixed-size copy (move64); a skipped index fills its row with zeros.
// Gather and GatherND give the reference's rows.
func TestMove64(t *testing.T) {
	skip := IndexRules{OutOfRange: OutOfRangeSkip}
	for _, dt := range []tensor.DType{tensor.Int8, tensor.Float16, tensor.Float32, tensor.Float64, tensor.Complex128} {
		width := 64 / dt.Size()
		vals := make([]int, 8*width)
		for i := range vals {
			vals[i] = i%100 + 1
		}
		data := tensortest.FromInts(dt, tensor.Shape{8, width}, vals...)
		rows := []int{3, 0, 9, 7, 3, -1, 5}
		for _, nd := range []bool{false, true} {
			shape := tensor.Shape{len(rows)}
			if nd {
				shape = tensor.Shape{len(rows), 1}
			}
			indices := tensortest.FromInts(tensor.Int64, shape, rows...)
			out := tensortest.Junk(dt, tensor.Shape{len(rows), width})
			var err error
			var want tensor.Tensor
			var refErr error
			if nd {
				err = GatherND(out, data, indices, 0, skip)
				want, refErr = reftest.GatherND(data, indices, 0, skip)
			} else {
				err = Gather(out, data, indices, 0, 0, skip)
				want, refErr = reftest.Gather(data, indices, 0, 0, skip)
			}
			if refErr != nil {
				t.Fatalf("%v rows of %d, GatherND %v: the reference fails: %v", dt, width, nd, refErr)
			}
			if d := reftest.Diff(out, want); err != nil || d != "" {
				t.Errorf("%v rows of %d, GatherND %v: %v %s", dt, width, nd, err, d)
			}
		}
	}
}
