package engine

import "testing"

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
