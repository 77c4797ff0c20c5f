package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/internal/tensortest"
	"github.com/scatter-dev/scatter/tensor"
)

// TestGeneralMatchesReference runs the reference tests of the forms with
// the form functions going through the general kernels: the general
// gather and scatter then meet the same reference, on the same cases.
func TestGeneralMatchesReference(t *testing.T) {
	defer func() { forceGeneral = false }()
	forceGeneral = true
	for name, test := range map[string]func(*testing.T){
		"ScatterND":       TestScatterNDMatchesReference,
		"ScatterElements": TestScatterElementsMatchesReference,
		"GatherND":        TestGatherNDMatchesReference,
		"Gather":          TestGatherMatchesReference,
		"GatherElements":  TestGatherElementsMatchesReference,
	} {
		t.Run(name, test)
	}
}

// TestFormsAreRecognised checks that the general kernels know the forms'
// dimension numbers, so that they take the forms' fast paths, and only
// those.
func TestFormsAreRecognised(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 500 {
		ds := randShape(rng, 1+rng.IntN(4), 4)
		r := len(ds)
		axis := rng.IntN(r)

		// GatherND and ScatterND, with tuples of k components.
		b := rng.IntN(r)
		k := rng.IntN(r - b + 1)
		is := tensortest.Join(ds[:b], randShape(rng, rng.IntN(2), 3), tensor.Shape{k})
		g := GatherNDDims(ds, is, b)
		if got, ok := g.ndForm(ds, is); !ok || got != b {
			t.Fatalf("GatherNDDims(%v, %v, %d) = %v: ndForm gives %d, %v", ds, is, b, g.String(), got, ok)
		}
		if b == 0 {
			s := ScatterNDDims(r, is)
			us := tensortest.Join(is[:len(is)-1], ds[k:])
			if !s.ndForm(ds, is, us) {
				t.Fatalf("ScatterNDDims(%d, %v) = %v: not recognised", r, is, s.String())
			}
			if _, ok := s.elementsForm(ds, is); ok && k != 1 {
				t.Fatalf("ScatterNDDims(%d, %v) = %v: taken for ScatterElements", r, is, s.String())
			}
		}

		// GatherElements and ScatterElements.
		ie := ds.Clone()
		ge := GatherElementsDims(ds, axis)
		if got, ok := ge.elementsForm(ds, ie); !ok || got != axis {
			t.Fatalf("GatherElementsDims(%v, %d) = %v: elementsForm gives %d, %v", ds, axis, ge.String(), got, ok)
		}
		se := ScatterElementsDims(r, axis)
		if got, ok := se.elementsForm(ds, ie); !ok || got != axis {
			t.Fatalf("ScatterElementsDims(%d, %d) = %v: elementsForm gives %d, %v", r, axis, se.String(), got, ok)
		}

		// GatherAxis, with batch dimensions.
		bb := rng.IntN(axis + 1)
		ia := tensortest.Join(ds[:bb], randShape(rng, rng.IntN(3), 3))
		ga := GatherAxisDims(ds, len(ia), axis, bb)
		if a, b, ok := ga.axisForm(ds, ia); !ok || a != axis || b != bb {
			t.Fatalf("GatherAxisDims(%v, %d, %d, %d) = %v: axisForm gives %d, %d, %v", ds, len(ia), axis, bb, ga.String(), a, b, ok)
		}
		// A slice one element smaller in a dimension the form takes
		// whole is a general gather.
		for d := range ds {
			if ga.SliceSizes[d] > 1 && d != axis {
				ga.SliceSizes[d]--
				if _, _, ok := ga.axisForm(ds, ia); ok {
					t.Fatalf("%v with a smaller slice in dimension %d: taken for GatherAxis", ga.String(), d)
				}
				break
			}
		}
	}
}
