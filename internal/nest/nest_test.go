package nest

import (
	"slices"
	"strings"
	"testing"
)

// read feeds a literal of brackets, commas and one-letter elements to a
// Shape, as a reader would, and returns its Dims or its error's text.
func read(text string) ([]int, string) {
	var s Shape
	pos := 0
	var list func(dim int) error
	list = func(dim int) error {
		pos++ // '['
		n := 0
		for text[pos] != ']' {
			if text[pos] == ',' {
				pos++
			}
			nested := text[pos] == '['
			if err := s.Item(dim, nested); err != nil {
				return err
			}
			if nested {
				if err := list(dim + 1); err != nil {
					return err
				}
			} else {
				pos++
			}
			n++
		}
		pos++ // ']'
		return s.End(dim, n)
	}
	if err := list(0); err != nil {
		return nil, err.Error()
	}
	return s.Dims, ""
}

// TestShape checks the shapes of regular literals, empty lists among
// them, and that each way of being ragged is found at its depth.
func TestShape(t *testing.T) {
	for _, c := range []struct {
		text string
		dims []int
		err  string
	}{
		{"[]", []int{0}, ""},
		{"[a,b,c]", []int{3}, ""},
		{"[[a,b],[c,d],[e,f]]", []int{3, 2}, ""},
		{"[[],[]]", []int{2, 0}, ""},
		{"[[[a]],[[b]]]", []int{2, 1, 1}, ""},
		{"[[a,b],[c]]", nil, "a list at depth 1 has 1 items, another 2"},
		{"[[a],[b,c]]", nil, "a list at depth 1 has 2 items, another 1"},
		{"[[a],b]", nil, "lists and elements mixed at depth 0"},
		{"[a,[b]]", nil, "lists and elements mixed at depth 0"},
		{"[[],[a]]", nil, "a list at depth 1 has 1 items, another 0"},
		{"[[],[[a]]]", nil, "lists and elements mixed at depth 1"},
		{"[[[a],[b]],[[c]]]", nil, "a list at depth 1 has 1 items, another 2"},
	} {
		dims, err := read(c.text)
		if c.err != "" {
			if !strings.Contains(err, c.err) {
				t.Errorf("%s: error %q, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != "" || !slices.Equal(dims, c.dims) {
			t.Errorf("%s: dims %v, error %q; want %v", c.text, dims, err, c.dims)
		}
	}
}
