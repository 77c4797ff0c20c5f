package suggest

import (
	"slices"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"ScaterND", "ScatterND", 1},
		{"scatternd", "ScatterND", 0},
		{"reduce", "reduction", 4},
		{"axis", "axes", 1},
		{"kitten", "sitting", 3},
		{"flaw", "lawn", 2},
		{"über", "uber", 1},
	} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestNear(t *testing.T) {
	attrs := []string{"axis", "reduction"}
	for _, c := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"reduce", attrs, []string{"reduction"}},
		{"reductoin", attrs, []string{"reduction"}},
		{"axes", attrs, []string{"axis"}},
		{"AXIS", attrs, []string{"axis"}},
		{"dim", attrs, nil},
		{"zzzzzzzzz", attrs, nil},
		{"indice", []string{"data", "indices", "updates"}, []string{"indices"}},
		// The nearest only, each once, in the candidates' order.
		{"ab", []string{"abd", "abc", "xy", "abd"}, []string{"abd", "abc"}},
		{"abc", []string{"abd", "abc"}, []string{"abc"}},
		{"x", nil, nil},
	} {
		if got := Near(c.name, c.candidates); !slices.Equal(got, c.want) {
			t.Errorf("Near(%q, %q) = %q, want %q", c.name, c.candidates, got, c.want)
		}
	}
}

func TestPhrase(t *testing.T) {
	if got, want := Phrase("ab", []string{"abd", "abc"}), ": did you mean abd or abc?"; got != want {
		t.Errorf("Phrase = %q, want %q", got, want)
	}
	if got := Phrase("q", []string{"abc"}); got != "" {
		t.Errorf("Phrase without a near name = %q", got)
	}
}
