package registry

import (
	"fmt"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
)

// torchFollows names the PyTorch releases that the torch dialect follows,
// as its package documentation does too (a test checks it).
const torchFollows = "PyTorch 2.1 and later"

// Comparison returns a Markdown document that sets the dialects side by
// side, family by family: for each operator version, what negative and
// out-of-range indices do, which index and data types it takes, its reductions and
// their engine meaning, and its other rules. It is generated from each
// operator's Behavior, the same table its evaluation reads, so it cannot
// drift from what the code does.
func Comparison() string {
	var b strings.Builder
	b.WriteString(`# How the dialects differ

Generated from the operators' Behavior tables by ` + "`go test ./registry -update`" + `; do not edit.
Each row is one operator version (or a run of versions that behave alike). "from the end"
means -1 is the last position and -size the first; "skipped" means the update is ignored
(a gather writes zeros). Reductions are given in the framework's spelling, with the engine's
meaning where the names differ.

Shared by every dialect unless a row's notes say otherwise: duplicate indices are applied in row-major index order, so a plain
update keeps the last one and every reduction equals sequential accumulation in that order;
integers wrap; integer mean rounds toward negative infinity; float16 and bfloat16 compute each
step in float32 and round after every step (PyTorch's sums and products round once, at the end); complex
arithmetic is Go's (a complex64 product or quotient is computed in float64 and rounded once); max and min
propagate NaN (a NaN already in place stays, else the first NaN update wins) and keep the existing
value when the two are equal (+0 and -0); bool add and max are OR, mul and min AND, sub XOR; strings take
no reduction but none unless a row says otherwise.

The ` + "`torch`" + ` rows follow ` + torchFollows + ` on the CPU, whose kernels accumulate float16 and
bfloat16 sums in float32 and round once, at the end (earlier releases rounded after every step).
`)
	ops := Ops()
	for _, family := range dialect.Families {
		fmt.Fprintf(&b, "\n## %s\n\n", family)
		b.WriteString("| operator | versions | negative index | out of range | index types | data types | reductions | notes |\n")
		b.WriteString("| --- | --- | --- | --- | --- | --- | --- | --- |\n")
		for _, op := range ops {
			if op.Family != family {
				continue
			}
			for _, row := range behaviorRows(op) {
				fmt.Fprintf(&b, "| `%s` | %s | %s |\n", op.Name, row.versions, row.text)
			}
		}
	}
	return b.String()
}

type behaviorRow struct{ versions, text string }

// behaviorRows renders an operator's behavior per version, merging
// consecutive versions that render alike.
func behaviorRows(op *dialect.Op) []behaviorRow {
	var rows []behaviorRow
	for i, v := range op.Versions {
		text := "(no behavior table) | | | | | "
		if op.Behavior != nil {
			text = renderBehavior(op.Behavior(v))
		}
		if n := len(rows); n > 0 && rows[n-1].text == text {
			rows[n-1].versions += fmt.Sprintf(", %d", v)
			continue
		}
		label := fmt.Sprint(v)
		if len(op.Versions) == 1 && v == 1 && op.Removed == 0 {
			label = "-"
		}
		if i == len(op.Versions)-1 && op.Removed != 0 {
			label += fmt.Sprintf(" (removed in %d)", op.Removed)
		}
		rows = append(rows, behaviorRow{versions: label, text: text})
	}
	return rows
}

func renderBehavior(b dialect.Behavior) string {
	negative, outOfRange := dialect.IndexRuleWords(b.Index)
	types := b.IndexTypes.Names()
	if b.IndexTypes == dialect.IntegerTypes {
		types = "any integer"
	}
	reductions := "-"
	if len(b.Reductions) > 0 {
		names := dialect.ReductionNames(b.Reductions)
		for i, name := range names {
			if meaning := b.Reductions[name].String(); meaning != name {
				names[i] = fmt.Sprintf("%s (%s)", name, meaning)
			}
		}
		reductions = strings.Join(names, ", ")
		if b.IncludeSelf != "" {
			reductions += fmt.Sprintf("; `%s` says whether the existing value takes part", b.IncludeSelf)
		}
	}
	var notes []string
	for _, rule := range append(ruleNotes(b.Index), dialect.ArithRules(b.Arith)...) {
		notes = append(notes, sentence(rule))
	}
	notes = append(notes, b.Notes...)
	return strings.Join([]string{negative, outOfRange, types, b.DataTypes.String(), reductions, strings.Join(notes, " ")}, " | ")
}

// sentence returns s capitalised and ended with a full stop.
func sentence(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// ruleNotes states what the index rules say beyond the negative and
// out-of-range columns.
func ruleNotes(r engine.IndexRules) []string {
	if r.Report == engine.ReportLast {
		return []string{dialect.ReportRule(r.Report)}
	}
	return nil
}
