package dialect

import "github.com/scatter-dev/scatter/engine"

// The sentences below say what a field of a Behavior does, for the
// documents and explanations that are made from the tables (docs/dialects.md,
// scatter compare), so that they read the fields rather than the notes.

// ReportRule says which bad index an error names under r.
func ReportRule(r engine.Report) string {
	if r == engine.ReportLast {
		return "an index error names the last bad index tuple"
	}
	return "an index error names the first bad index"
}

// MinMaxRule says how max and min treat NaN (and signed zeros) under m.
func MinMaxRule(m engine.MinMax) string {
	switch m {
	case engine.MinMaxStd:
		return "max and min compare as std::max and std::min: a NaN update is ignored, a NaN in place stays"
	case engine.MinMaxLastNaN:
		return "a position that ends as NaN under max or min holds the last NaN update it received"
	case engine.MinMaxIEEE:
		return "max and min are IEEE 754's maximum and minimum: NaN propagates, and -0 < +0"
	}
	return "max and min propagate NaN: a NaN in place stays, else the first NaN update"
}

// HalfRule says how float16 and bfloat16 sums and products round.
func HalfRule(once bool) string {
	if once {
		return "float16 and bfloat16 sums and products accumulate in float32 and round once, at the end"
	}
	return "float16 and bfloat16 compute each step in float32 and round after every step"
}

// MeanRule says how a mean counts the values it divides by.
func MeanRule(countInType bool) string {
	if countInType {
		return "a mean counts its values in the element's type (an int8 count wraps, a float32 one stops at 2^24)"
	}
	return "a mean divides by the exact count; integer mean rounds toward negative infinity"
}

// ComplexRule says how complex products and quotients are computed.
func ComplexRule(c engine.ComplexArith) string {
	if c == engine.ComplexC10 {
		return "complex products and quotients round every operation to the precision of the parts, as c10::complex does: " +
			"(a+bi)(c+di) = (ac-bd) + (ad+bc)i, and a quotient is Smith's algorithm with the reciprocal multiplied in"
	}
	return "complex products and quotients are Go's: a complex64 one is computed in float64 and rounded once"
}

// StringsRule says what reduction strings take.
func StringsRule(concat bool) string {
	if concat {
		return "strings are added by concatenation, in index order"
	}
	return "strings take no reduction but none"
}

// ZeroStartRule says where a sum or mean without the existing value
// starts.
func ZeroStartRule(zero bool) string {
	if zero {
		return "without the existing value, a sum or mean starts from +0 (a sum of -0 updates is +0)"
	}
	return "without the existing value, a sum or mean starts from -0 (a sum of -0 updates is -0)"
}

// DivideRule says which elements a mean divides.
func DivideRule(all bool) string {
	if all {
		return "a mean divides every element, by 1 where no update lands (a complex value with a NaN or infinite part becomes NaN)"
	}
	return "a mean divides only the elements that updates land in"
}

// BoolRule says what add, sub and mul do to bool elements.
func BoolRule(numbersOnly bool) string {
	if numbersOnly {
		return "add, sub and mul take numbers: bool elements are refused"
	}
	return "for bool elements add is OR, mul is AND and sub is XOR"
}

// ArithRules says, a rule each, what a's fields choose where they are not
// the zero Arith's (the arithmetic every dialect shares unless its
// Behavior says otherwise), in the order of Arith's fields.
func ArithRules(a engine.Arith) []string {
	var rules []string
	if a.Complex != engine.ComplexGo {
		rules = append(rules, ComplexRule(a.Complex))
	}
	if a.ConcatStrings {
		rules = append(rules, StringsRule(true))
	}
	if a.MinMax != engine.MinMaxNaN {
		rules = append(rules, MinMaxRule(a.MinMax))
	}
	if a.HalfOnce {
		rules = append(rules, HalfRule(true))
	}
	if a.ZeroStart {
		rules = append(rules, ZeroStartRule(true))
	}
	if a.CountInType {
		rules = append(rules, MeanRule(true))
	}
	if a.DivideAll {
		rules = append(rules, DivideRule(true))
	}
	if a.NumbersOnly {
		rules = append(rules, BoolRule(true))
	}
	return rules
}
