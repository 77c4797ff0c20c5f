package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// command is one subcommand of scatter. Its usage line is made from the
// flags it defines, so that the two cannot drift apart.
type command struct {
	name string
	// args are the positional arguments as the usage line shows them,
	// e.g. "OP" or "[DIR...]"; empty for none.
	args string
	// required names the flags that must be given; the usage line shows
	// them last, and the others in brackets.
	required []string
	// groups put some of the optional flags together on the usage line;
	// they change nothing else (the command checks its flags itself).
	groups []group
	// short says in one line, lower case and without a full stop, what
	// the command does; scatter help lists it by the command's name.
	short string
	// about, lines of text ending in a newline, is printed by NAME --help
	// between the usage line and the flags.
	about string
	// define defines the command's flags on fs and returns the function
	// that runs the command on its positional arguments once fs has parsed
	// the command line.
	define func(fs *flag.FlagSet) func(pos []string, stdout, stderr io.Writer) error
}

// noFlags returns the define of a command without flags, which runs run.
func noFlags(run func(pos []string, stdout, stderr io.Writer) error) func(*flag.FlagSet) func([]string, io.Writer, io.Writer) error {
	return func(*flag.FlagSet) func([]string, io.Writer, io.Writer) error { return run }
}

// commands are scatter's subcommands, in the order its usage lists them.
var commands = []*command{evalCommand, compareCommand, explainCommand, showCommand, conformCommand, opsCommand, benchCommand, completionCommand, versionCommand}

// repeatable is implemented by the values of flags that may be given more
// than once, each use adding to the value; the usage line marks them "...".
type repeatable interface {
	flag.Value
	repeatable()
}

// A group is a set of optional flags that the usage line shows in one pair
// of brackets, where the first of them would stand. Make one with oneOf or
// with.
type group struct {
	flags []string
	// nested: flags[1:] go only with flags[0], and are shown inside its
	// brackets. Otherwise the flags are alternatives, at most one given.
	nested bool
}

// oneOf groups flags of which at most one may be given:
// "[--svg FILE | --png FILE]".
func oneOf(flags ...string) group { return group{flags: flags} }

// with groups the flags inner, which are only for use with the flag
// outer, inside its brackets: "[--plot FILE [--peers FILE]]".
func with(outer string, inner ...string) group {
	return group{flags: append([]string{outer}, inner...), nested: true}
}

// flagSet returns a new flag set holding c's flags, whose Usage prints
// c's help to out, and the function that runs c once the flag set has
// parsed. Package flag's own messages go to out too.
func (c *command) flagSet(out io.Writer) (*flag.FlagSet, func(pos []string, stdout, stderr io.Writer) error) {
	fs := flag.NewFlagSet(c.name, flag.ContinueOnError)
	fs.SetOutput(out)
	runCmd := c.define(fs)
	fs.Usage = func() {
		fmt.Fprintf(out, "usage: %s\n", c.synopsis(fs))
		if c.about != "" {
			fmt.Fprintf(out, "\n%s", c.about)
		}
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintln(out)
			printFlags(out, fs)
		}
	}
	return fs, runCmd
}

// run parses args, flags and positional arguments in any order, and runs
// c, which writes its results to stdout and what it has to say besides
// (the files it wrote) to stderr. -h prints c's help to stdout. A mistake
// in the command line comes back as a usage error about c, with nothing
// printed.
func (c *command) run(args []string, stdout, stderr io.Writer) error {
	fs, runCmd := c.flagSet(io.Discard)
	pos, err := parseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		help, _ := c.flagSet(stdout)
		help.Usage()
		return nil
	case err == nil:
		err = runCmd(pos, stdout, stderr)
	}
	var ue *usageError
	if errors.As(err, &ue) && ue.cmd == "" {
		ue.cmd = c.name
		// Messages that name the command already lose the name.
		ue.msg = strings.TrimPrefix(ue.msg, c.name+": ")
	}
	return err
}

// synopsis returns c's usage line: "scatter", the name, the positional
// arguments, then every flag defined on fs, the optional ones in brackets
// and in the order of their names, except that the flags of a group are
// shown together where its first flag would stand, and then the required
// ones, also in the order of their names. A flag is shown with the argument
// named in its usage text (as flag.PrintDefaults shows it), and followed
// by "..." if it is repeatable.
func (c *command) synopsis(fs *flag.FlagSet) string {
	inGroup := map[string]bool{}
	first := map[string]group{}
	for _, g := range c.groups {
		if len(g.flags) == 0 {
			continue
		}
		for _, name := range g.flags {
			inGroup[name] = true
		}
		first[g.flags[0]] = g
	}
	words := []string{"scatter", c.name}
	if c.args != "" {
		words = append(words, c.args)
	}
	var required []string
	fs.VisitAll(func(f *flag.Flag) {
		switch g, ok := first[f.Name]; {
		case slices.Contains(c.required, f.Name):
			required = append(required, flagWord(f))
		case ok:
			words = append(words, groupWord(fs, g))
		case !inGroup[f.Name]:
			words = append(words, optionalWord(f))
		}
	})
	return strings.Join(append(words, required...), " ")
}

// flagWord returns "--NAME ARG", or "--NAME" for a flag without an
// argument, followed by "..." if f is repeatable.
func flagWord(f *flag.Flag) string {
	w := "--" + f.Name
	if arg, _ := flag.UnquoteUsage(f); arg != "" {
		w += " " + arg
	}
	if _, ok := f.Value.(repeatable); ok {
		w += "..."
	}
	return w
}

// printFlags writes the flags of fs to out in the order of their names,
// each spelt as the usage line spells it (flagWord: "--attr
// NAME=VALUE...") on a line of its own, then its usage text, each of its
// lines indented, and its default unless that is the zero value.
func printFlags(out io.Writer, fs *flag.FlagSet) {
	fs.VisitAll(func(f *flag.Flag) {
		_, text := flag.UnquoteUsage(f)
		if def := f.DefValue; def != "" && def != "0" && def != "false" && def != "0s" {
			if g, ok := f.Value.(flag.Getter); ok {
				if _, isString := g.Get().(string); isString {
					def = strconv.Quote(def)
				}
			}
			text += " (default " + def + ")"
		}
		fmt.Fprintf(out, "  %s\n        %s\n", flagWord(f), strings.ReplaceAll(text, "\n", "\n        "))
	})
}

// optionalWord returns flagWord in brackets: "[--NAME ARG]", or
// "[--NAME ARG]..." if f is repeatable.
func optionalWord(f *flag.Flag) string {
	w, rep := strings.CutSuffix(flagWord(f), "...")
	if rep {
		return "[" + w + "]..."
	}
	return "[" + w + "]"
}

// groupWord returns g's flags in one pair of brackets: "[--a X | --b Y]",
// or if g is nested "[--a X [--b Y]]". Flags that fs does not define are
// left out.
func groupWord(fs *flag.FlagSet, g group) string {
	var ws []string
	for i, name := range g.flags {
		f := fs.Lookup(name)
		switch {
		case f == nil:
		case g.nested && i > 0:
			ws = append(ws, optionalWord(f))
		default:
			ws = append(ws, flagWord(f))
		}
	}
	sep := " | "
	if g.nested {
		sep = " "
	}
	return "[" + strings.Join(ws, sep) + "]"
}

// usage returns scatter's usage text: the usage line of every command,
// then each command's name and what it does, then where to read more.
func usage() string {
	var b strings.Builder
	b.WriteString("usage:\n")
	width := 0
	for _, c := range commands {
		fs, _ := c.flagSet(io.Discard)
		fmt.Fprintf(&b, "  %s\n", c.synopsis(fs))
		width = max(width, len(c.name))
	}
	b.WriteString("\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.name, c.short)
	}
	b.WriteString("\nRun 'scatter help COMMAND' or 'scatter COMMAND -h' for a command's flags, 'scatter ops\n" +
		"[PATTERN]' for the operators, their inputs and attributes, and 'scatter completion SHELL'\n" +
		"for completion in bash, zsh or fish.\n")
	return b.String()
}

// lookupCommand returns the command called name, or nil.
func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}
