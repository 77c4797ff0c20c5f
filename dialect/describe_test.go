package dialect_test

import (
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
)

// TestIndexRuleWords checks the words the tables' columns (docs/dialects.md)
// and the sentences explain's text give each pair of index rules.
func TestIndexRuleWords(t *testing.T) {
	for _, c := range []struct {
		rules                      engine.IndexRules
		negative, outOfRange, text string
	}{
		{engine.IndexRules{}, "error", "error", "a negative index is out of range; an index out of range is an error"},
		{engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeClamp}, "from the end", "clamped",
			"a negative index counts from the end (-1 is the last); an index out of range is clamped, so that its slice lies within the tensor"},
		{engine.IndexRules{Negative: engine.NegativeSkip}, "dropped", "error",
			"a negative index is dropped; an index out of range is an error"},
		{engine.IndexRules{Negative: engine.NegativeRefused, OutOfRange: engine.OutOfRangeSkip}, "error", "skipped",
			"a negative index is an error; an index out of range is skipped"},
		{engine.IndexRules{OutOfRange: engine.OutOfRangeSkip}, "skipped", "skipped",
			"a negative index is out of range; an index out of range is skipped"},
		{engine.IndexRules{Negative: engine.NegativeFromEnd, OutOfRange: engine.OutOfRangeWrap}, "from the end", "wrapped",
			"a negative index counts from the end (-1 is the last); an index out of range wraps around, taken modulo the size of its dimension"},
	} {
		neg, out := dialect.IndexRuleWords(c.rules)
		if neg != c.negative || out != c.outOfRange {
			t.Errorf("IndexRuleWords(%+v) = %q, %q, want %q, %q", c.rules, neg, out, c.negative, c.outOfRange)
		}
		if got := dialect.IndexRule(c.rules); got != c.text {
			t.Errorf("IndexRule(%+v) = %q, want %q", c.rules, got, c.text)
		}
	}
}
