package dialect

import "github.com/scatter-dev/scatter/engine"

// The sentences below say what a field of a Behavior does, for the
// documents and explanations that are made from the tables (docs/dialects.md,
// scatter compare), so that they read the fields rather than the notes.

// ReportRule says which bad index an error names under r.
func ReportRule(r engine.Report) string {
	return sentences{"an index error names the first bad index", "an index error names the last bad index tuple"}.say(r == engine.ReportLast)
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
	case engine.MinMaxStdUpdate:
		return "max and min compare as std::max(update, value) and std::min(update, value): a NaN update replaces the value, a NaN in place is replaced by the next update, and of equals the update wins"
	}
	return "max and min propagate NaN: a NaN in place stays, else the first NaN update"
}

// sentences holds what a rule says when its condition does not hold and
// when it holds.
type sentences [2]string

// say returns the sentence for cond.
func (s sentences) say(cond bool) string {
	if cond {
		return s[1]
	}
	return s[0]
}

// The sentences of the two-way rules.
var (
	halfRule = sentences{
		"float16 and bfloat16 compute each step in float32 and round after every step",
		"float16 and bfloat16 sums and products accumulate in float32 and round once, at the end"}
	meanRule = sentences{
		"a mean divides by the exact count; integer mean rounds toward negative infinity",
		"a mean counts its values in the element's type (an int8 count wraps, a float32 one stops at 2^24)"}
	complexRule = sentences{
		"complex products and quotients are Go's: a complex64 one is computed in float64 and rounded once",
		"complex products and quotients round every operation to the precision of the parts, as c10::complex does: " +
			"(a+bi)(c+di) = (ac-bd) + (ad+bc)i, and a quotient is Smith's algorithm with the reciprocal multiplied in"}
	stringsRule = sentences{
		"strings take no reduction but none",
		"strings are added by concatenation, in index order"}
	zeroStartRule = sentences{
		"without the existing value, a sum or mean starts from -0 (a sum of -0 updates is -0)",
		"without the existing value, a sum or mean starts from +0 (a sum of -0 updates is +0)"}
	divideRule = sentences{
		"a mean divides only the elements that updates land in",
		"a mean divides every element, by 1 where no update lands (a complex value with a NaN or infinite part becomes NaN)"}
	sqrtRule = sentences{
		"a mean divides by its count",
		"a mean divides by the square root of its count, taken in the element's type (sqrt_n)"}
	boolRule = sentences{
		"for bool elements add is OR, mul is AND and sub is XOR",
		"add, sub and mul take numbers: bool elements are refused"}
	towardZeroRule = sentences{
		"an integer mean rounds toward negative infinity",
		"an integer mean rounds toward zero, as C++'s / does"}
)

// HalfRule says how float16 and bfloat16 sums and products round.
func HalfRule(once bool) string { return halfRule.say(once) }

// MeanRule says how a mean counts the values it divides by.
func MeanRule(countInType bool) string { return meanRule.say(countInType) }

// ComplexRule says how complex products and quotients are computed.
func ComplexRule(c engine.ComplexArith) string { return complexRule.say(c == engine.ComplexC10) }

// StringsRule says what reduction strings take.
func StringsRule(concat bool) string { return stringsRule.say(concat) }

// ZeroStartRule says where a sum or mean without the existing value
// starts.
func ZeroStartRule(zero bool) string { return zeroStartRule.say(zero) }

// DivideRule says which elements a mean divides.
func DivideRule(all bool) string { return divideRule.say(all) }

// BoolRule says what add, sub and mul do to bool elements.
func BoolRule(numbersOnly bool) string { return boolRule.say(numbersOnly) }

// TowardZeroRule says how a signed integer mean rounds.
func TowardZeroRule(towardZero bool) string { return towardZeroRule.say(towardZero) }

// ArithRules says, a rule each, what a's fields choose where they are not
// the zero Arith's (the arithmetic every dialect shares unless its
// Behavior says otherwise), in the order of Arith's fields.
func ArithRules(a engine.Arith) []string {
	var rules []string
	for _, r := range []struct {
		chosen bool
		rule   string
	}{
		{a.Complex != engine.ComplexGo, ComplexRule(a.Complex)},
		{a.ConcatStrings, stringsRule[1]},
		{a.MinMax != engine.MinMaxNaN, MinMaxRule(a.MinMax)},
		{a.HalfOnce, halfRule[1]},
		{a.ZeroStart, zeroStartRule[1]},
		{a.CountInType, meanRule[1]},
		{a.DivideAll, divideRule[1]},
		{a.NumbersOnly, boolRule[1]},
		{a.MeanTowardZero && !a.CountInType, towardZeroRule[1]},
		{a.SqrtCount, sqrtRule[1]},
	} {
		if r.chosen {
			rules = append(rules, r.rule)
		}
	}
	return rules
}

// ruleWords are what a value of an index rule is called: word in a table's
// column, sentence in a text.
type ruleWords struct{ word, sentence string }

// negativeWords and outOfRangeWords name the values of IndexRules' fields;
// a value missing from them reads as the zero value's words. A negative
// index under NegativeError has no word of its own: it does what an index
// out of range does.
var (
	negativeWords = map[engine.Negative]ruleWords{
		engine.NegativeError:   {"", "a negative index is out of range"},
		engine.NegativeFromEnd: {"from the end", "a negative index counts from the end (-1 is the last)"},
		engine.NegativeSkip:    {"dropped", "a negative index is dropped"},
		engine.NegativeRefused: {"error", "a negative index is an error"},
	}
	outOfRangeWords = map[engine.OutOfRange]ruleWords{
		engine.OutOfRangeError: {"error", "an index out of range is an error"},
		engine.OutOfRangeSkip:  {"skipped", "an index out of range is skipped"},
		engine.OutOfRangeClamp: {"clamped", "an index out of range is clamped, so that its slice lies within the tensor"},
		engine.OutOfRangeWrap:  {"wrapped", "an index out of range wraps around, taken modulo the size of its dimension"},
	}
)

// indexRuleWords returns the words for r's two fields.
func indexRuleWords(r engine.IndexRules) (negative, outOfRange ruleWords) {
	negative, ok := negativeWords[r.Negative]
	if !ok {
		negative = negativeWords[engine.NegativeError]
	}
	outOfRange, ok = outOfRangeWords[r.OutOfRange]
	if !ok {
		outOfRange = outOfRangeWords[engine.OutOfRangeError]
	}
	return negative, outOfRange
}

// IndexRuleWords says in a word each what a negative index and an index
// out of range do under r, for a table's columns.
func IndexRuleWords(r engine.IndexRules) (negative, outOfRange string) {
	neg, out := indexRuleWords(r)
	if neg.word == "" {
		return out.word, out.word
	}
	return neg.word, out.word
}

// IndexRule says in a sentence what a negative index and an index out
// of range do under r.
func IndexRule(r engine.IndexRules) string {
	neg, out := indexRuleWords(r)
	return neg.sentence + "; " + out.sentence
}
