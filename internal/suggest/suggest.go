// Package suggest finds, for a name that matches nothing, the known names
// it is most likely a misspelling of.
package suggest

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Distance is the edit distance between a and b, ignoring case: the least
// number of runes to insert, delete or replace to turn one into the other.
func Distance(a, b string) int {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	row := make([]int, len(y)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(x); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(y)]
}

// Close reports whether a name at distance d from candidate is near
// enough to be taken for a misspelling of it: d is at most half the
// candidate's length, and at least 1 is allowed.
func Close(d int, candidate string) bool {
	return d <= max(1, utf8.RuneCountInString(candidate)/2)
}

// Near returns the candidates nearest to name that are Close to it, in
// the order of candidates and without repeats; none if no candidate is
// close. A candidate equal to name but for case is at distance 0.
func Near(name string, candidates []string) []string {
	best := -1
	var near []string
	for _, c := range candidates {
		d := Distance(name, c)
		switch {
		case !Close(d, c) || best >= 0 && d > best:
			continue
		case d < best || best < 0:
			best, near = d, near[:0]
		}
		if !slices.Contains(near, c) {
			near = append(near, c)
		}
	}
	return near
}

// Phrase returns ": did you mean A?", ": did you mean A or B?" and so on
// for the names of Near, to follow an error message, or "" if there are
// none.
func Phrase(name string, candidates []string) string {
	near := Near(name, candidates)
	if len(near) == 0 {
		return ""
	}
	return ": did you mean " + strings.Join(near, " or ") + "?"
}
