// Command scatter runs the scatter and gather operators of every dialect on
// tensor files, and runs ONNX node tests.
//
// Usage:
//
//	scatter eval OP [--attr NAME=VALUE]... [--in NAME=FILE|TYPE:VALUES]... [--max-bytes SIZE] [--opset N] --out FILE
//	scatter compare [OP...] [--attr NAME=VALUE]... [--cells N] [--family F] [--max-bytes SIZE] [--opset DIALECT=N]... --in NAME=FILE|TYPE:VALUES...
//	scatter explain OP [--attr NAME=VALUE]... [--color WHEN] [--in NAME=FILE|TYPE:VALUES]... [--max-bytes SIZE] [--opset N] [--svg FILE | --png FILE]
//	scatter show FILE... [--max-bytes SIZE]
//	scatter conform [DIR...] [--max-bytes SIZE] [--quiet] [--run PATTERN] [--timeout DURATION]
//	scatter ops [PATTERN]
//	scatter bench [--json FILE] [--peers FILE.json|none]... [--plot FILE.png] [--reps N] [--threads N] [--workload W1,W3]...
//	scatter completion bash|zsh|fish
//	scatter version
//
// scatter help lists these usage lines, then each command with a line on
// what it does. scatter help COMMAND, or COMMAND -h, prints a command's
// flags, spelt as the usage lines spell them (--attr). A mistake in the
// command line (an unknown operator, flag, attribute or input, a missing
// input, an opset the operator does not have, a file name without a known
// extension, a literal without a known element type) prints one line on
// standard error that says what is wrong, with the name meant where a
// misspelling is likely (an operator's name is compared whole and by its
// last part, its own dialect's first: jax.gather suggests jax.lax.gather;
// a literal without a type is shown with the type its input's role takes,
// int64 for indices and float32 for data), and the help command to run,
// and exits 2. Every message on standard error begins "scatter COMMAND:";
// results go to standard output, and what a command says besides (the
// files it wrote) to standard error.
//
// eval runs the operator OP ("onnx.ScatterND") on the inputs given under
// the operator's own input names, and writes its output to --out (.npy or
// .pb; - writes .npy to standard output, which eval refuses when that is a
// terminal: pipe it to scatter show -). An input is a file (.npy or .pb,
// by extension) or a literal such as int64:[[4],[3]] (see tensor.Parse).
// --opset, if given, is an opset of OP's dialect (1 or more); OP runs as
// its newest version not newer than it, and without --opset as its newest.
// It exits 0 on success; 1 when the inputs are invalid, after one line on
// standard error that names the operator and what is wrong, and without
// creating or changing the output file; 2 on a usage error. --max-bytes
// (default 16GiB) bounds every input and output tensor: a larger one is
// refused before it is allocated.
//
// explain runs OP as eval does and shows what it did: the attributes in
// force, then data, indices, updates and output as grids of cells marked
// (coloured on a terminal unless NO_COLOR is set, or as --color says) by
// what happened to them, one line per update or gathered element
// ("updates[2] = 11 -> output[1] by indices[2,:] = [1]") and a legend;
// with --svg or --png it draws the same as a picture into FILE instead. A
// tensor of more than 400 elements is summarised (cells hit, duplicates,
// the most-hit cells) and not drawn. When an index is out of range it
// prints the inputs with the offending value marked, then the operator's
// error, and exits 1.
//
// compare runs the same inputs through the operators named (all of one
// family), or through every dialect's member of family F that can take
// them and do what the attributes ask. Names may be any dialect's
// spelling or the roles data, indices, updates, value, shape, axis,
// batch_dims, reduction and include_self; a reduction may be spelled as
// any dialect spells it. It prints each operator's call and outcome, the
// operators left out and why, then where the outcomes, shapes or cells
// differ, each with the rule of the operators' Behavior tables behind it.
// It exits 0 when all agree, 1 when they differ or all were refused as
// too large for --max-bytes, 2 on a usage error (an unreadable input file
// included).
//
// show prints each tensor file (- reads .npy from standard input): its
// element type, shape and (.pb) name, then its elements nested in brackets
// by dimension, a row per line, as NumPy prints an array; of a tensor of
// more than 1000 elements, the first and last 3 positions of each
// dimension.
//
// conform runs ONNX node-test directories and StableHLO .mlir test files
// (or directories of them) and prints one line per test and "N passed, M
// failed" with a count per suite; with no DIR it runs the official tests
// of both bundled into the binary. --quiet prints the failed tests and the
// summary only; --run PATTERN counts and prints only the tests whose name
// the regular expression matches (all of them run). It exits 1 if any
// failed. A test that
// makes a tensor over --max-bytes, tensors over 8 times it in all, or
// reads and writes elements over 8 times it in all fails, as does one
// still running after --timeout (default 5m): see conformance.RunMLIR.
//
// ops lists every operator with its versions, inputs and attributes; with
// PATTERN, those whose name contains it (ignoring case) or whose family it
// is.
//
// bench times the benchmark workloads (all of them, or those given to
// --workload) through the public API: W1 to W9 and S1 to S6 through the
// ONNX dialect, W10 to W12 and S7 through tf's segment reductions, S8
// through numpy.put. A bulk workload, W1 to W12, it runs
// first writing into a reused destination, then allocating a fresh output
// each call, and prints one line per API with the median, minimum and
// maximum of --reps timed calls (after one warm-up call, and for fresh
// outputs more until the Go heap has settled: see bench.Run) and the
// memory throughput that the median implies. A small call, S1 to S8, it
// runs through the Into form in loops of calls, and prints the median,
// minimum and maximum of --reps loops in nanoseconds per call, with the
// heap allocations per call. Each line ends with its median's ratio to
// the fastest peer's on that workload ("0.42x the best peer (torch
// zeros+index_add_(0), 672.95 ms)"), through either API. --json writes the
// results to FILE as a JSON list. --threads sets GOMAXPROCS for the run (default: the number of
// CPUs). --plot also draws the results as a PNG chart in FILE.png: one
// panel per workload with this run's times, the peers' times and a bulk
// workload's memory-bandwidth bound, under a caption that says lower is
// better and where the figures come from, and a panel whose times spread
// too widely to trust says so. The peers, of the ratios and the chart,
// are by default the bundled figures of NumPy, PyTorch and ONNX Runtime
// (bench.Peers); each --peers FILE.json adds those of a file the peers'
// scripts write (their results.json, raw/IMPL.json, small.json or
// family.json) or --json writes instead, and --peers none leaves them out. The chart is written whole or not at all.
//
// completion prints the completion script of bash, zsh or fish: command
// names, each command's flags, the operator names after eval, explain,
// compare and ops, and file names for the flags that take a file.
//
// version (or --version) prints the module version the binary was built
// from, its VCS revision and time, and the Go version and platform.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/internal/suggest"
	"github.com/scatter-dev/scatter/tensor"
)

func main() {
	cleanUpOnSignal()
	exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1 // invalid input, or a failed conformance test
	exitUsage   = 2
)

// usageError is a mistake in the command line, as opposed to in the data.
type usageError struct {
	cmd string // the command it is about, or "" for scatter itself
	msg string
	err error // what usagef made of msg, which wraps the errors its %w verbs name
}

// Unwrap returns the errors that the message wraps, so that errors.Is and
// errors.As see the cause of a usage error (tensor.ErrTooLarge, ...).
func (e *usageError) Unwrap() error { return e.err }

func (e *usageError) Error() string {
	if e.cmd == "" {
		return e.msg
	}
	return e.cmd + ": " + e.msg
}

// tooLargeHint follows every error that is tensor.ErrTooLarge, usage
// errors too (compare's --in).
const tooLargeHint = "(raise the limit with --max-bytes)"

// line is what scatter prints for e: the problem, on one line, and the
// command that shows the usage.
func (e *usageError) line() string {
	who, help := "scatter", "scatter help"
	if e.cmd != "" {
		who += " " + e.cmd
		help += " " + e.cmd
	}
	msg := oneLine(errors.New(e.msg))
	if errors.Is(e.err, tensor.ErrTooLarge) {
		msg += " " + tooLargeHint
	}
	if !strings.HasSuffix(msg, "?") && !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return fmt.Sprintf("%s: %s Run '%s' for usage.", who, msg, help)
}

// usagef returns a usage error with the message that format and args make,
// as fmt.Errorf makes it: with %w, the error wraps its argument.
func usagef(format string, args ...any) error {
	err := fmt.Errorf(format, args...)
	return &usageError{msg: err.Error(), err: err}
}

// run is the whole command, with its streams, returning the exit code.
// A write to stdout that fails (a full disk, a closed pipe) fails the
// command: what it printed is not all there.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	out := &checkedWriter{w: stdout}
	var err error
	name := args[0] // the command, as messages name it
	switch name {
	case "help", "-h", "-help", "--help":
		name = "help"
		err = help(args[1:], out)
	case "-version", "--version":
		name = "version"
		err = versionCommand.run(args[1:], out, stderr)
	default:
		if c := lookupCommand(name); c != nil {
			err = c.run(args[1:], out, stderr)
		} else {
			err = unknownCommand(name)
		}
	}
	var ue *usageError
	switch {
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, ue.line())
		return exitUsage
	case out.err != nil:
		fmt.Fprintf(stderr, "scatter %s: writing standard output: %s\n", name, oneLine(out.err))
		return exitInvalid
	case err == nil:
		return exitOK
	case errors.Is(err, errFailed):
		return exitInvalid
	case errors.Is(err, tensor.ErrTooLarge):
		fmt.Fprintf(stderr, "%s %s\n", message(name, err), tooLargeHint)
		return exitInvalid
	default:
		fmt.Fprintln(stderr, message(name, err))
		return exitInvalid
	}
}

// message returns the line that scatter prints for err, an error of the
// command name: "scatter NAME: " and the error on one line (oneLine),
// less the "NAME: " that the command's own errors begin with.
func message(name string, err error) string {
	return "scatter " + name + ": " + strings.TrimPrefix(oneLine(err), name+": ")
}

// help prints scatter's usage, or with one argument that command's help.
func help(args []string, stdout io.Writer) error {
	switch len(args) {
	case 0:
		fmt.Fprint(stdout, usage())
		return nil
	case 1:
		c := lookupCommand(args[0])
		if c == nil {
			return unknownCommand(args[0])
		}
		fs, _ := c.flagSet(stdout)
		fs.Usage()
		return nil
	}
	return usagef("help takes one command, got %s", strings.Join(args, " "))
}

// unknownCommand is the error for a command name that scatter lacks.
func unknownCommand(name string) error {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return usagef("unknown command %q%s", name, suggest.Phrase(name, names))
}

// checkedWriter passes writes on to w until one fails, and keeps that
// failure: the writes after it fail with the same error, unattempted.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	c.err = err
	return n, err
}

// errFailed reports a failure that the command has already printed.
var errFailed = errors.New("failed")

// oneLine flattens an error message onto a single line, clipped (clip).
func oneLine(err error) string {
	return clip(strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " "))
}

// Bounds of what scatter echoes of its input in a line: a word (a value as
// given, quoted or not) and the whole line.
const (
	maxWord = 64
	maxLine = 1024
)

// clip shortens a line that may echo hostile input (a literal of 100 KB, a
// dimension of 5000 digits): each word longer than maxWord bytes keeps its
// start and end around "..." and says how long it was, and a line still
// longer than maxLine keeps its start and end likewise.
func clip(line string) string {
	if len(line) <= maxWord {
		return line
	}
	words := strings.Split(line, " ")
	for i, w := range words {
		if len(w) > maxWord {
			words[i] = shorten(w, maxWord/2, maxWord/4)
		}
	}
	line = strings.Join(words, " ")
	if len(line) > maxLine {
		line = shorten(line, maxLine/2, maxLine/4)
	}
	return line
}

// shorten returns the first head and last tail bytes of s (fewer, to cut
// between runes) around "...", and s's length in bytes.
func shorten(s string, head, tail int) string {
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	end := len(s) - tail
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return fmt.Sprintf("%s...%s (%d bytes)", s[:head], s[end:], len(s))
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments, and returns the positional ones. fs must print
// nothing (its output io.Discard): a mistake comes back as a usage error,
// and -h as flag.ErrHelp.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// invalidValue matches the error of package flag for a value that a flag
// refused.
var invalidValue = regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-(\S+): (.*)$`)

// flagError restates an error of fs.Parse as a usage error that spells
// flags as scatter's usage does (--name) and suggests the flag meant by an
// unknown one.
func flagError(fs *flag.FlagSet, err error) error {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		var names []string
		fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
		hint := ""
		if near := suggest.Near(name, names); len(near) > 0 {
			hint = ": did you mean --" + strings.Join(near, " or --") + "?"
		}
		return usagef("unknown flag --%s%s", name, hint)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return usagef("--%s needs a value", name)
	}
	if m := invalidValue.FindStringSubmatch(msg); m != nil {
		reason := m[3]
		if reason == "parse error" {
			reason = "not a number"
		}
		return usagef("--%s %s: %s", m[2], m[1], reason)
	}
	return usagef("%s", msg)
}

// pairs collects repeated NAME=VALUE flags in order.
type pairs struct {
	names  []string
	values []string
}

func (p *pairs) repeatable() {}

func (p *pairs) String() string { return strings.Join(p.names, ",") }

func (p *pairs) Set(s string) error {
	name, value, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("%q is not NAME=VALUE", s)
	}
	for _, n := range p.names {
		if n == name {
			return fmt.Errorf("%q is given twice", name)
		}
	}
	p.names = append(p.names, name)
	p.values = append(p.values, value)
	return nil
}
