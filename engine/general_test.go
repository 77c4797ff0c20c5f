package engine

import (
	"errors"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// TestFormsAreRecognised checks that the general kernels know the forms'
// dimension numbers, so that they take the forms' fast paths, and only
// those.
func TestFormsAreRecognised(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 500 {
		ds := RandShape(rng, 1+rng.IntN(4), 4)
		r := len(ds)
		axis := rng.IntN(r)

		// GatherND and ScatterND, with tuples of k components.
		b := rng.IntN(r)
		k := rng.IntN(r - b + 1)
		is := tensortest.Join(ds[:b], RandShape(rng, rng.IntN(2), 3), tensor.Shape{k})
		g := GatherNDDims(ds, is, b)
		if got, ok := gatherNDForm(&g, ds, is); !ok || got != b {
			t.Fatalf("GatherNDDims(%v, %v, %d) = %v: gatherNDForm gives %d, %v", ds, is, b, g.String(), got, ok)
		}
		if b == 0 {
			s := ScatterNDDims(r, is)
			us := tensortest.Join(is[:len(is)-1], ds[k:])
			if !scatterNDForm(&s, ds, is, us) {
				t.Fatalf("ScatterNDDims(%d, %v) = %v: not recognised", r, is, s.String())
			}
			if _, ok := scatterElementsForm(&s, ds, is); ok && k != 1 {
				t.Fatalf("ScatterNDDims(%d, %v) = %v: taken for ScatterElements", r, is, s.String())
			}
		}

		// GatherElements and ScatterElements.
		ie := ds.Clone()
		ge := GatherElementsDims(ds, axis)
		if got, ok := gatherElementsForm(&ge, ds, ie); !ok || got != axis {
			t.Fatalf("GatherElementsDims(%v, %d) = %v: gatherElementsForm gives %d, %v", ds, axis, ge.String(), got, ok)
		}
		se := ScatterElementsDims(r, axis)
		if got, ok := scatterElementsForm(&se, ds, ie); !ok || got != axis {
			t.Fatalf("ScatterElementsDims(%d, %d) = %v: scatterElementsForm gives %d, %v", r, axis, se.String(), got, ok)
		}

		// GatherAxis, with batch dimensions.
		bb := rng.IntN(axis + 1)
		ia := tensortest.Join(ds[:bb], RandShape(rng, rng.IntN(3), 3))
		ga := GatherAxisDims(ds, len(ia), axis, bb)
		if a, b, ok := gatherAxisForm(&ga, ds, ia); !ok || a != axis || b != bb {
			t.Fatalf("GatherAxisDims(%v, %d, %d, %d) = %v: gatherAxisForm gives %d, %d, %v", ds, len(ia), axis, bb, ga.String(), a, b, ok)
		}
		// A slice one element smaller in a dimension the form takes
		// whole is a general gather.
		for d := range ds {
			if ga.SliceSizes[d] > 1 && d != axis {
				ga.SliceSizes[d]--
				if _, _, ok := gatherAxisForm(&ga, ds, ia); ok {
					t.Fatalf("%v with a smaller slice in dimension %d: taken for GatherAxis", ga.String(), d)
				}
				break
			}
		}
	}
}

// TestFormDimsOfRejectedShapes checks that the form constructors, given
// shapes their form does not accept, return dimension numbers that the
// general kernels reject with an error of the shape or argument class.
func TestFormDimsOfRejectedShapes(t *testing.T) {
	operand := tensor.Shape{3, 4}
	gathers := []struct {
		name    string
		d       GatherDims
		indices tensor.Shape
	}{
		{"GatherND of scalar indices", GatherNDDims(operand, tensor.Shape{}, 0), tensor.Shape{}},
		{"GatherND of tuples longer than the rank", GatherNDDims(operand, tensor.Shape{2, 3}, 0), tensor.Shape{2, 3}},
		{"GatherND with more batch dims than the rank", GatherNDDims(operand, tensor.Shape{3, 4, 1}, 3), tensor.Shape{3, 4, 1}},
		{"GatherND with negative batch dims", GatherNDDims(operand, tensor.Shape{2, 1}, -1), tensor.Shape{2, 1}},
		{"Gather along an axis past the rank", GatherAxisDims(operand, 1, 2, 0), tensor.Shape{2}},
		{"Gather along a negative axis", GatherAxisDims(operand, 1, -1, 0), tensor.Shape{2}},
		{"Gather with more batch dims than the rank", GatherAxisDims(operand, 3, 1, 3), tensor.Shape{3, 4, 2}},
		{"GatherElements along an axis past the rank", GatherElementsDims(operand, 2), tensor.Shape{3, 4}},
		{"GatherElements of indices of another rank", GatherElementsDims(operand, 1), tensor.Shape{3}},
	}
	for _, c := range gathers {
		if _, err := c.d.Shape(operand, c.indices, true); !errors.Is(err, ErrShape) && !errors.Is(err, ErrArgument) {
			t.Errorf("%s: %v: got %v, want a shape or argument error", c.name, c.d.String(), err)
		}
	}
	scatters := []struct {
		name             string
		d                ScatterDims
		indices, updates tensor.Shape
	}{
		{"ScatterND of scalar indices", ScatterNDDims(2, tensor.Shape{}), tensor.Shape{}, tensor.Shape{4}},
		{"ScatterND of tuples longer than the rank", ScatterNDDims(2, tensor.Shape{2, 3}), tensor.Shape{2, 3}, tensor.Shape{2}},
		{"ScatterND of updates without their window", ScatterNDDims(2, tensor.Shape{2, 1}), tensor.Shape{2, 1}, tensor.Shape{2}},
		{"ScatterElements along an axis past the rank", ScatterElementsDims(2, 2), tensor.Shape{3, 4}, tensor.Shape{3, 4}},
		{"ScatterElements along a negative axis", ScatterElementsDims(2, -1), tensor.Shape{3, 4}, tensor.Shape{3, 4}},
	}
	for _, c := range scatters {
		if err := c.d.Check(operand, c.indices, c.updates, true); !errors.Is(err, ErrShape) && !errors.Is(err, ErrArgument) {
			t.Errorf("%s: %v: got %v, want a shape or argument error", c.name, c.d.String(), err)
		}
		g := c.d.Gather(operand, c.updates)
		if _, err := g.Shape(operand, c.indices, true); !errors.Is(err, ErrShape) && !errors.Is(err, ErrArgument) {
			t.Errorf("%s: its gather %v: got %v, want a shape or argument error", c.name, g.String(), err)
		}
	}
}

// TestGeneralIndexErrors checks what the general kernels' index errors
// say: the tuple of an index vector that is not the last dimension of the
// indices, the last bad tuple under ReportLast (as the forms' kernels
// name it), and the starts a window allows.
func TestGeneralIndexErrors(t *testing.T) {
	i64 := func(s tensor.Shape, v ...int64) tensor.Tensor { return tensor.Must(tensor.From(s, v)) }
	operand := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 3}))
	check := func(name string, err error, pos []int, msg string) {
		t.Helper()
		var ie *IndexError
		if !errors.As(err, &ie) || !slices.Equal(ie.Pos, pos) || !strings.Contains(err.Error(), msg) {
			t.Errorf("%s: %v, want an IndexError at %v saying %q", name, err, pos, msg)
		}
	}

	// Index vectors along dimension 0: the tuples are the columns.
	cols := GatherDims{CollapsedSliceDims: []int{0, 1}, StartIndexMap: []int{0, 1}, IndexVectorDim: 0, SliceSizes: []int{1, 1}}
	dst := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2}))
	err := GatherGeneral(dst, operand, i64(tensor.Shape{2, 2}, 0, 5, 0, 0), &cols, GatherOptions{})
	check("vector along dimension 0", err, []int{0, 1},
		"indices[:,1] = [5, 0]: component 0 is 5, allowed range [0, 3] for dimension 0 of data [4,3]")

	// ReportLast names the last bad tuple's first bad component, through
	// the general kernel as through ScatterND's.
	indices := i64(tensor.Shape{3, 2}, 9, 0, 0, 0, 0, 9)
	updates := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3}))
	opt := ScatterOptions{Rules: IndexRules{Report: ReportLast}}
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4, 3}))
	check("ScatterND, ReportLast", ScatterND(out, operand, indices, updates, opt), []int{2, 1}, "indices[2] = [0, 9]: component 1 is 9")
	check("general ScatterND, ReportLast", generalScatterND(out, operand, indices, updates, opt), []int{2, 1}, "indices[2] = [0, 9]: component 1 is 9")

	// A window of 2 along a dimension of 4, starts counted from the end:
	// -1 would end past it.
	win := GatherDims{OffsetDims: []int{1}, StartIndexMap: []int{0}, IndexVectorDim: 1, SliceSizes: []int{2}}
	row := tensor.Must(tensor.From(tensor.Shape{4}, []float32{1, 2, 3, 4}))
	dst = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1, 2}))
	err = GatherGeneral(dst, row, i64(tensor.Shape{1, 1}, -1), &win, GatherOptions{Rules: IndexRules{Negative: NegativeFromEnd}})
	check("window from the end", err, []int{0, 0}, "a window of 2 in dimension 0 of data [4] starts in [0, 2] or [-4, -2]")
	err = GatherGeneral(dst, row, i64(tensor.Shape{1, 1}, 3), &win, GatherOptions{})
	check("window", err, []int{0, 0}, "a window of 2 in dimension 0 of data [4] starts in [0, 2]")
}

// TestGeneralDivideAllWithoutUpdates checks that a mean with DivideAll
// divides every element by its count, 1, when no update has an element,
// whether the batch or the window is what is empty: a complex NaN part
// spreads to the other one.
func TestGeneralDivideAllWithoutUpdates(t *testing.T) {
	nan := float32(math.NaN())
	opt := ScatterOptions{Reduction: Mean, Arith: Arith{DivideAll: true, Complex: ComplexC10}}
	for _, c := range []struct {
		name             string
		indices, updates tensor.Shape
	}{
		{"empty batch", tensor.Shape{0, 1}, tensor.Shape{0, 2}},
		{"empty window", tensor.Shape{2, 1}, tensor.Shape{2, 0}},
	} {
		operand := tensor.Must(tensor.From(tensor.Shape{2, 2}, []complex64{complex(nan, 1), 2, 3, 4}))
		d := ScatterDims{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
		indices := tensor.Must(tensor.New(tensor.Int64, c.indices))
		updates := tensor.Must(tensor.New(tensor.Complex64, c.updates))
		dst := tensor.Must(tensor.New(tensor.Complex64, tensor.Shape{2, 2}))
		if err := ScatterGeneral(dst, operand, indices, updates, &d, opt); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := dst.Data().([]complex64)
		if v := got[0]; !math.IsNaN(float64(real(v))) || !math.IsNaN(float64(imag(v))) || got[1] != 2 || got[2] != 3 || got[3] != 4 {
			t.Errorf("%s: %v, want [NaN+NaNi 2 3 4]", c.name, got)
		}
	}
}

// TestGeneralScatterChecksAsItGoes checks the general scatter of single
// elements by slabs, which checks start indices as it applies them when
// dst is not the operand (a line along a row at a time when the index
// addresses the operand's last dimension, else a chunk of starts at a
// time): on several workers it reports the first bad index in index order
// (or, under ReportLast, the last bad tuple), leaves the operand as it
// was, into a fresh dst has written part of it by then (had the starts
// been checked first, dst would still be all zero), and in place writes
// nothing; and without a bad index it equals ScatterElements' own kernel.
func TestGeneralScatterChecksAsItGoes(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(8)) // parts caps the workers at GOMAXPROCS
	defer func(w, g int) { minWork, slabBytes = w, g }(minWork, slabBytes)
	minWork, slabBytes = 64, 64 // several workers, a slab at a time
	const rows, cols, per = 8, 16, 3 * startsChunk / 2
	for _, inner := range []int{0, 2} { // along the last axis, or the middle one
		ds, is := tensor.Shape{rows, cols}, tensor.Shape{rows, per}
		if inner > 0 {
			ds, is = append(ds, inner), append(is, inner)
		}
		fresh := func() (data, upd tensor.Tensor, idx []int64) {
			n, _ := ds.NumElements()
			m, _ := is.NumElements()
			d := make([]float32, n)
			for i := range d {
				d[i] = float32(i)
			}
			u := make([]float32, m)
			idx = make([]int64, m)
			for i := range u {
				u[i] = float32(i%7) + 0.5
				idx[i] = int64(i*5) % cols
			}
			return tensor.Must(tensor.From(ds, d)), tensor.Must(tensor.From(is, u)), idx
		}
		data, upd, idx := fresh()
		opt := ScatterOptions{Reduction: Add}
		want := tensor.Must(tensor.New(tensor.Float32, ds))
		if err := ScatterElements(want, data, tensor.Must(tensor.From(is, idx)), upd, 1, opt); err != nil {
			t.Fatal(err)
		}
		got := tensor.Must(tensor.New(tensor.Float32, ds))
		if err := generalScatterElements(got, data, tensor.Must(tensor.From(is, idx)), upd, 1, opt); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got.Data().([]float32), want.Data().([]float32)) {
			t.Fatalf("data %v: the general scatter by slabs differs from ScatterElements' kernel", ds)
		}

		// Bad indices in rows 2 (past its first chunk of starts) and 6:
		// the first is reported, or under ReportLast the last.
		row := len(idx) / rows
		first, last := 2*row+startsChunk+5, 6*row+1
		pos := func(flat int) []int {
			p := make([]int, len(is))
			for d := len(is) - 1; d >= 0; d-- {
				p[d], flat = flat%is[d], flat/is[d]
			}
			return p
		}
		for _, c := range []struct {
			name    string
			rules   IndexRules
			pos     []int
			inPlace bool
		}{
			{"first", IndexRules{}, pos(first), false},
			{"last", IndexRules{Report: ReportLast}, pos(last), false},
			{"in place", IndexRules{}, pos(first), true},
		} {
			data, upd, idx := fresh()
			idx[first], idx[last] = cols, -1
			before := slices.Clone(data.Data().([]float32))
			dst := tensor.Must(tensor.New(tensor.Float32, ds))
			if c.inPlace {
				dst = data
			}
			err := generalScatterElements(dst, data, tensor.Must(tensor.From(is, idx)), upd, 1, ScatterOptions{Reduction: Add, Rules: c.rules})
			var ie *IndexError
			if !errors.As(err, &ie) || !slices.Equal(ie.Pos, c.pos) {
				t.Errorf("data %v, %s: %v, want an IndexError at %v", ds, c.name, err, c.pos)
			}
			if !slices.Equal(data.Data().([]float32), before) {
				t.Errorf("data %v, %s: the operand changed", ds, c.name)
			}
			if !c.inPlace && !slices.ContainsFunc(dst.Data().([]float32), func(v float32) bool { return v != 0 }) {
				t.Errorf("data %v, %s: dst untouched: the indices were validated first", ds, c.name)
			}
		}
	}
}

// TestDimsSizeMessages: a size check of the dimension numbers says what
// it requires, which differs with Exact: equal sizes, or the engine's
// looser bound.
func TestDimsSizeMessages(t *testing.T) {
	scatter := ScatterDims{InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0}, IndexVectorDim: 1}
	gather := GatherDims{CollapsedSliceDims: []int{1}, OperandBatchingDims: []int{0}, StartIndicesBatchingDims: []int{0},
		StartIndexMap: []int{1}, IndexVectorDim: 1, SliceSizes: []int{1, 1}}
	for _, c := range []struct {
		name    string
		check   func(exact bool) error
		exact   bool
		message string // "" for none
	}{
		{"updates smaller", func(e bool) error { return scatter.Check(tensor.Shape{4}, tensor.Shape{3, 1}, tensor.Shape{2}, e) },
			false, "updates [2] has 2 in scatter dimension 0, indices [3,1] has 3 in dimension 0; updates must be at least as large"},
		{"updates larger", func(e bool) error { return scatter.Check(tensor.Shape{4}, tensor.Shape{3, 1}, tensor.Shape{4}, e) },
			false, ""},
		{"updates larger, exact", func(e bool) error { return scatter.Check(tensor.Shape{4}, tensor.Shape{3, 1}, tensor.Shape{4}, e) },
			true, "updates [4] has 4 in scatter dimension 0, indices [3,1] has 3 in dimension 0; they must be equal"},
		{"batch larger", func(e bool) error { _, err := gather.Shape(tensor.Shape{2, 4}, tensor.Shape{3, 1}, e); return err },
			false, "batching dimension 0 of indices [3,1] has size 3, batching dimension 0 of operand [2,4] has 2; indices' must be no larger"},
		{"batch smaller", func(e bool) error { _, err := gather.Shape(tensor.Shape{2, 4}, tensor.Shape{1, 1}, e); return err },
			false, ""},
		{"batch smaller, exact", func(e bool) error { _, err := gather.Shape(tensor.Shape{2, 4}, tensor.Shape{1, 1}, e); return err },
			true, "batching dimension 0 of indices [1,1] has size 1, batching dimension 0 of operand [2,4] has 2; they must be equal"},
	} {
		err := c.check(c.exact)
		switch {
		case c.message == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.name, err)
		case c.message != "" && (!errors.Is(err, ErrShape) || !strings.HasSuffix(err.Error(), c.message)):
			t.Errorf("%s: err = %v, want an ErrShape ending %q", c.name, err, c.message)
		}
	}
}

// TestGeneralAllocs checks that steady-state general gathers and scatters
// into a caller's dst allocate nothing, on each of their walks.
func TestGeneralAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what it keeps")
	}
	data := tensor.Must(tensor.From(tensor.Shape{4, 8}, make([]float32, 32)))
	dst := tensor.Must(tensor.From(tensor.Shape{4, 8}, make([]float32, 32)))
	idx := tensor.Must(tensor.From(tensor.Shape{4, 3}, []int64{7, 0, 3, 1, 1, 6, 5, 2, 0, 4, 7, 7}))
	lines := tensor.Must(tensor.From(tensor.Shape{4, 3}, make([]float32, 12)))
	rows := tensor.Must(tensor.From(tensor.Shape{2, 8}, make([]float32, 16)))
	rowIdx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{3, 0}))
	elems := GatherElementsDims(data.Shape(), 1)
	scatterElems := ScatterElementsDims(2, 1)
	rowDims := GatherNDDims(data.Shape(), rowIdx.Shape(), 0)
	calls := []struct {
		name string
		call func() error
	}{
		{"gather by lines", func() error { return generalGatherGeneral(lines, data, idx, &elems, GatherOptions{}) }},
		{"gather by windows", func() error { return generalGatherGeneral(rows, data, rowIdx, &rowDims, GatherOptions{}) }},
		{"scatter", func() error {
			return generalScatterGeneral(dst, data, idx, lines, &scatterElems, ScatterOptions{Reduction: Add})
		}},
	}
	for _, c := range calls {
		if err := c.call(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = c.call() }); n != 0 {
			t.Errorf("%s: %v allocations per call, want 0", c.name, n)
		}
	}
}
