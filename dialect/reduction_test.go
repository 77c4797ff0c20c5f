package dialect_test

import (
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/registry"
)

// TestBehaviorReduction: Behavior.Reduction answers as the Reductions map
// does, for every name of every version of every operator, both in the
// Behaviors that Shared builds (which look the name up in a list) and in
// one built by hand (in the map), and refuses the names that are not
// there, "" and a name in the wrong case among them.
func TestBehaviorReduction(t *testing.T) {
	names := 0
	for _, op := range registry.Ops() {
		for _, v := range op.Versions {
			_, shared, err := op.Shared(v)
			if err != nil {
				t.Fatalf("%s version %d: %v", op.Name, v, err)
			}
			byHand := &dialect.Behavior{Reductions: shared.Reductions}
			for _, b := range []*dialect.Behavior{shared, byHand} {
				for name, want := range b.Reductions {
					if got, ok := b.Reduction(name); !ok || got != want {
						t.Errorf("%s version %d: Reduction(%q) = %v, %v; want %v, true", op.Name, v, name, got, ok, want)
					}
					names++
				}
				for _, name := range []string{"", "nonesuch", "Add", "add ", "SUM"} {
					_, want := b.Reductions[name]
					if _, ok := b.Reduction(name); ok != want {
						t.Errorf("%s version %d: Reduction(%q) found %v, want %v", op.Name, v, name, ok, want)
					}
				}
			}
		}
	}
	if names == 0 {
		t.Fatal("no operator has a reduction")
	}
}
