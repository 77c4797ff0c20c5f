package main

import (
	"flag"
	"fmt"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestSynopsis checks the usage line of a made-up command that has every
// kind of flag: optional and required, with and without an argument,
// repeatable, and in each kind of group.
func TestSynopsis(t *testing.T) {
	c := &command{
		name:     "demo",
		args:     "OP [DIR...]",
		required: []string{"out", "in"},
		groups:   []group{oneOf("svg", "png"), with("plot", "peers", "dpi")},
		define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
			fs.Bool("verbose", false, "say more")
			fs.Bool("Dry-run2", false, "do nothing")
			fs.String("out", "", "the output `FILE`")
			fs.Var(&pairs{}, "in", "an input `NAME=FILE` (repeatable)")
			fs.Var(&pairs{}, "attr", "an attribute `NAME=VALUE` (repeatable)")
			fs.Int("n2", 0, "the number `N`")
			fs.String("svg", "", "an SVG `FILE`")
			fs.String("png", "", "a PNG `FILE`")
			fs.String("plot", "", "a chart `FILE.png`")
			fs.String("peers", "", "the peers' `FILE`")
			fs.Int("dpi", 96, "the chart's resolution") // no backquotes: "int"
			fs.String("zone", "", "a time zone")        // no backquotes: "string"
			return nil
		},
	}
	fs, _ := c.flagSet(io.Discard)
	want := "scatter demo OP [DIR...] [--Dry-run2] [--attr NAME=VALUE]... [--n2 N]" +
		" [--plot FILE.png [--peers FILE] [--dpi int]] [--svg FILE | --png FILE] [--verbose] [--zone string]" +
		" --in NAME=FILE... --out FILE"
	if got := c.synopsis(fs); got != want {
		t.Errorf("synopsis:\n got %s\nwant %s", got, want)
	}

	bare := &command{name: "bare", define: func(*flag.FlagSet) func([]string, io.Writer, io.Writer) error { return nil }}
	fs, _ = bare.flagSet(io.Discard)
	if got := bare.synopsis(fs); got != "scatter bare" {
		t.Errorf("synopsis of a command without flags or arguments: %q", got)
	}
}

// TestCommandsWellFormed checks that each command's required flags and
// groups name flags it defines, that no flag is in two groups, and that
// no group holds a required flag or fewer than two flags.
func TestCommandsWellFormed(t *testing.T) {
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		for _, name := range c.required {
			if fs.Lookup(name) == nil {
				t.Errorf("%s: required flag --%s is not defined", c.name, name)
			}
		}
		grouped := map[string]bool{}
		for _, g := range c.groups {
			if len(g.flags) < 2 {
				t.Errorf("%s: group %q has fewer than two flags", c.name, g.flags)
			}
			for _, name := range g.flags {
				switch {
				case fs.Lookup(name) == nil:
					t.Errorf("%s: group %q: --%s is not defined", c.name, g.flags, name)
				case slices.Contains(c.required, name):
					t.Errorf("%s: group %q: --%s is required", c.name, g.flags, name)
				case grouped[name]:
					t.Errorf("%s: --%s is in two groups", c.name, name)
				}
				grouped[name] = true
			}
		}
	}
}

// flagName matches a flag on a usage line, capturing its name.
var flagName = regexp.MustCompile(`(?:^|[\s\[|])--([^\s\[\]|=]+)`)

// TestUsageNamesEveryFlag checks, for every command, that the usage line
// its --help prints is its synopsis, and names each flag the command
// defines once and no other, in brackets unless the flag is required.
func TestUsageNamesEveryFlag(t *testing.T) {
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		syn := c.synopsis(fs)
		code, out, _ := runArgs(c.name, "-h")
		if line, _, _ := strings.Cut(out, "\n"); code != exitOK || line != "usage: "+syn {
			t.Errorf("%s -h: exit %d, first line %q, want %q", c.name, code, line, "usage: "+syn)
		}
		// depth[name] is how deep in brackets each showing of --name is.
		depth := map[string][]int{}
		for _, m := range flagName.FindAllStringSubmatchIndex(syn, -1) {
			before := syn[:m[2]]
			name := syn[m[2]:m[3]]
			depth[name] = append(depth[name], strings.Count(before, "[")-strings.Count(before, "]"))
		}
		fs.VisitAll(func(f *flag.Flag) {
			d := depth[f.Name]
			delete(depth, f.Name)
			switch required := slices.Contains(c.required, f.Name); {
			case len(d) != 1:
				t.Errorf("%s: usage line %q shows --%s %d times", c.name, syn, f.Name, len(d))
			case required && d[0] != 0:
				t.Errorf("%s: usage line %q shows required --%s in brackets", c.name, syn, f.Name)
			case !required && d[0] == 0:
				t.Errorf("%s: usage line %q shows optional --%s outside brackets", c.name, syn, f.Name)
			}
		})
		for name := range depth {
			t.Errorf("%s: usage line %q shows --%s, which is not defined", c.name, syn, name)
		}
	}
}

// TestFlagHelp checks that the flags of a command's help are spelt as its
// usage line spells them, each with its usage text and default.
func TestFlagHelp(t *testing.T) {
	_, out, _ := runArgs("help", "explain")
	for _, want := range []string{
		"\n  --attr NAME=VALUE...\n        an attribute NAME=VALUE (repeatable)",
		"\n  --color WHEN\n        colour the printed cells WHEN: always, never, or auto, which colours them on a terminal unless NO_COLOR is set (default \"auto\")\n",
		"\n  --max-bytes SIZE\n        refuse any input or output tensor larger than SIZE bytes",
		"(default 16GiB)\n",
		"\n  --svg FILE\n        draw the picture into FILE (.svg) instead of printing\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("help explain lacks %q:\n%s", want, out)
		}
	}
	_, out, _ = runArgs("conform", "-h")
	if !strings.Contains(out, "\n  --quiet\n        print the failed tests and the summary only\n") {
		t.Errorf("conform -h: a boolean flag is not shown without a value or default:\n%s", out)
	}
	for _, c := range commands {
		_, out, _ := runArgs("help", c.name)
		for line := range strings.SplitSeq(out, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "-") && !strings.HasPrefix(strings.TrimSpace(line), "--") {
				t.Errorf("help %s spells a flag with one dash: %q", c.name, line)
			}
		}
		// The flags come last, after a blank line: each line a flag or an
		// indented line of its text, a text of several lines too.
		if i := strings.LastIndex(out, "\n\n"); i >= 0 && strings.HasPrefix(out[i+2:], "  --") {
			for line := range strings.SplitSeq(strings.TrimSuffix(out[i+2:], "\n"), "\n") {
				if !strings.HasPrefix(line, "  --") && !strings.HasPrefix(line, "        ") {
					t.Errorf("help %s: line %q of the flags is neither a flag nor its text", c.name, line)
				}
			}
		}
	}
}

// TestHelpListsCommands checks that scatter help says in a line what
// each command does, after the usage lines.
func TestHelpListsCommands(t *testing.T) {
	_, out, _ := runArgs("help")
	_, list, ok := strings.Cut(out, "\ncommands:\n")
	if !ok {
		t.Fatalf("scatter help has no commands: list:\n%s", out)
	}
	for _, c := range commands {
		if c.short == "" || strings.HasSuffix(c.short, ".") || strings.Contains(c.short, "\n") {
			t.Errorf("%s: short %q is not one line without a full stop", c.name, c.short)
		}
		if !regexp.MustCompile(`(?m)^  ` + c.name + ` +` + regexp.QuoteMeta(c.short) + `$`).MatchString(list) {
			t.Errorf("scatter help does not list %s with %q:\n%s", c.name, c.short, list)
		}
	}
	if !strings.Contains(out, "'scatter help COMMAND' or 'scatter COMMAND -h' for a command's flags") {
		t.Errorf("scatter help does not say how to get a command's flags:\n%s", out)
	}
}

// TestHelpLayout checks that NAME -h prints the usage line, then the about
// text and the flags, each after a blank line when there are any, and no
// blank line at the end.
func TestHelpLayout(t *testing.T) {
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		want := "usage: " + c.synopsis(fs) + "\n"
		if c.about != "" {
			want += "\n" + c.about
		}
		var flags strings.Builder
		printFlags(&flags, fs)
		if flags.Len() > 0 {
			want += "\n" + flags.String()
		}
		_, out, _ := runArgs(c.name, "-h")
		if out != want {
			t.Errorf("%s -h:\n%s\nwant:\n%s", c.name, out, want)
		}
		if strings.HasSuffix(out, "\n\n") {
			t.Errorf("%s -h ends in a blank line", c.name)
		}
	}
}

// usageLines returns the usage line of every command, in order, after
// checking that scatter help lists those.
func usageLines(t *testing.T) []string {
	t.Helper()
	var want []string
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		want = append(want, c.synopsis(fs))
	}
	code, out, _ := runArgs("help")
	body, ok := strings.CutPrefix(out, "usage:\n")
	if code != exitOK || !ok {
		t.Fatalf("scatter help: exit %d, output:\n%s", code, out)
	}
	body, _, _ = strings.Cut(body, "\n\n")
	var got []string
	for line := range strings.SplitSeq(body, "\n") {
		got = append(got, strings.TrimPrefix(line, "  "))
	}
	if d := diffLines(got, want); d != "" {
		t.Fatalf("scatter help's usage lines are not the commands' synopses:\n%s", d)
	}
	return want
}

// TestDocumentedUsage checks that the command-line block of README.md and
// the usage section of the package documentation hold the usage lines
// of scatter help, and nothing else, in the same order.
func TestDocumentedUsage(t *testing.T) {
	want := usageLines(t)

	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readmeUsage(string(readme)); err != nil {
		t.Errorf("README.md: %v", err)
	} else if d := diffLines(got, want); d != "" {
		t.Errorf("README.md's command-line block differs from scatter help's usage lines:\n%s", d)
	}

	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := docUsage(f.Doc.Text()); err != nil {
		t.Errorf("package documentation: %v", err)
	} else if d := diffLines(got, want); d != "" {
		t.Errorf("the package documentation's usage lines differ from scatter help's:\n%s", d)
	}
}

// readmeUsage returns the lines of the first fenced code block under the
// heading "## The command line" in readme.
func readmeUsage(readme string) ([]string, error) {
	_, section, ok := strings.Cut(readme, "\n## The command line\n")
	if !ok {
		return nil, fmt.Errorf("no heading \"## The command line\"")
	}
	if next := strings.Index(section, "\n## "); next >= 0 {
		section = section[:next]
	}
	_, block, ok := strings.Cut(section, "```\n")
	if !ok {
		return nil, fmt.Errorf("no code block under \"## The command line\"")
	}
	block, _, ok = strings.Cut(block, "```\n")
	if !ok {
		return nil, fmt.Errorf("the code block under \"## The command line\" is not closed")
	}
	return strings.Split(strings.TrimSuffix(block, "\n"), "\n"), nil
}

// docUsage returns the lines of the code block that follows the line
// "Usage:" in doc, the text of a doc comment, without their indentation.
func docUsage(doc string) ([]string, error) {
	_, rest, ok := strings.Cut(doc, "\nUsage:\n\n")
	if !ok && strings.HasPrefix(doc, "Usage:\n\n") {
		rest, ok = strings.TrimPrefix(doc, "Usage:\n\n"), true
	}
	if !ok {
		return nil, fmt.Errorf("no \"Usage:\" paragraph")
	}
	block, _, _ := strings.Cut(rest, "\n\n")
	var lines []string
	for line := range strings.SplitSeq(block, "\n") {
		code, ok := strings.CutPrefix(line, "\t")
		if !ok {
			return nil, fmt.Errorf("usage line %q is not indented as code", line)
		}
		lines = append(lines, code)
	}
	return lines, nil
}

// diffLines describes how got differs from want, line by line, or returns
// "" if they are the same.
func diffLines(got, want []string) string {
	var b strings.Builder
	for i := range max(len(got), len(want)) {
		switch {
		case i >= len(got):
			fmt.Fprintf(&b, "line %d: missing, want %q\n", i+1, want[i])
		case i >= len(want):
			fmt.Fprintf(&b, "line %d: %q, want no line\n", i+1, got[i])
		case got[i] != want[i]:
			fmt.Fprintf(&b, "line %d: %q\n   want %q\n", i+1, got[i], want[i])
		}
	}
	return b.String()
}

// TestDocumentedUsageCatches checks that the extraction and comparison
// that TestDocumentedUsage relies on notice a stale line, an extra one, a
// missing one and a change of order.
func TestDocumentedUsageCatches(t *testing.T) {
	want := []string{"scatter a [--x N]", "scatter b"}
	readme := func(block string) string {
		return "# T\n\n## The command line\n\n```\n" + block + "```\n\n- prose\n\n## Next\n\n```\nscatter c\n```\n"
	}
	doc := func(block string) string {
		return "Command t does things.\n\nUsage:\n\n" + block + "\nt runs.\n"
	}
	cases := []struct {
		name  string
		lines []string
		ok    bool
	}{
		{"same", want, true},
		{"stale", []string{"scatter a [--x N] [--y]", "scatter b"}, false},
		{"extra", []string{"scatter a [--x N]", "scatter b", "scatter a --x N"}, false},
		{"missing", []string{"scatter a [--x N]"}, false},
		{"reordered", []string{"scatter b", "scatter a [--x N]"}, false},
	}
	for _, tc := range cases {
		var md, dc strings.Builder
		for _, l := range tc.lines {
			md.WriteString(l + "\n")
			dc.WriteString("\t" + l + "\n")
		}
		got, err := readmeUsage(readme(md.String()))
		if err != nil {
			t.Fatalf("%s: README: %v", tc.name, err)
		}
		if same := diffLines(got, want) == ""; same != tc.ok {
			t.Errorf("%s: README block %q: same %v, want %v", tc.name, got, same, tc.ok)
		}
		got, err = docUsage(doc(dc.String()))
		if err != nil {
			t.Fatalf("%s: doc: %v", tc.name, err)
		}
		if same := diffLines(got, want) == ""; same != tc.ok {
			t.Errorf("%s: doc block %q: same %v, want %v", tc.name, got, same, tc.ok)
		}
	}
}
