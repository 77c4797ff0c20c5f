// Command scatter runs the scatter and gather operators of every dialect on
// tensor files, and runs ONNX node tests.
//
// Usage:
//
//	scatter eval OP [--attr NAME=VALUE]... [--in NAME=FILE|TYPE:VALUES]... [--max-bytes SIZE] [--opset N] --out FILE
//	scatter compare [OP...] [--attr NAME=VALUE]... [--cells N] [--family F] [--max-bytes SIZE] [--opset DIALECT=N]... --in NAME=FILE|TYPE:VALUES...
//	scatter explain OP [--attr NAME=VALUE]... [--color WHEN] [--in NAME=FILE|TYPE:VALUES]... [--max-bytes SIZE] [--opset N] [--svg FILE | --png FILE]
//	scatter conform [DIR...]
//	scatter ops
//	scatter bench [--json FILE] [--plot FILE.png [--peers FILE.json|none]...] [--reps N] [--threads N] [--workload W1,W3]...
//
// eval runs the operator OP ("onnx.ScatterND") on the inputs given under
// the operator's own input names, and writes its output to --out. An input
// is a file (.npy or .pb, by extension) or a literal such as
// int64:[[4],[3]] (see tensor.Parse). It exits 0 on success; 1 when the
// inputs are invalid, after one line on standard error that names the
// operator and what is wrong, and without creating or changing the output
// file; 2 on a usage error. --max-bytes (default 16GiB) bounds every input
// and output tensor: a larger one is refused before it is allocated.
//
// explain runs OP as eval does and shows what it did: data, indices,
// updates and output as grids of cells marked (coloured on a terminal
// unless NO_COLOR is set, or as --color says) by what happened to them,
// one line per update or gathered element ("updates[2] = 11 -> output[1]
// by indices[2,:] = [1]") and a legend;
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
// It exits 0 when all agree, 1 when they differ, 2 on a usage error (an
// unreadable input file included).
//
// conform runs ONNX node-test directories (or directories of them) and
// prints one line per test and "N passed, M failed"; with no DIR it runs
// the official tests bundled into the binary. It exits 1 if any failed.
//
// ops lists every operator with its versions, inputs and attributes.
//
// bench times the benchmark workloads (all of them, or those given to
// --workload) through the ONNX API. A bulk workload, W1 to W9, it runs
// first writing into a reused destination, then allocating a fresh output
// each call, and prints one line per API with the median, minimum and
// maximum of --reps timed calls (after one warm-up call, and for fresh
// outputs more until the Go heap has settled: see bench.Run) and the
// memory throughput that the median implies. A small call, S1 to S6, it
// runs through the Into form in loops of calls, and prints the median,
// minimum and maximum of --reps loops in nanoseconds per call, with the
// heap allocations per call. --json writes the results to FILE as a JSON
// list. --threads sets GOMAXPROCS for the run (default: the number of
// CPUs). --plot also draws the results as a PNG chart in FILE.png: one
// panel per workload with this run's times, the peers' times and a bulk
// workload's memory-bandwidth bound, under a caption that says lower is
// better and where the figures come from, and a panel whose times spread
// too widely to trust says so. The peers are by default the bundled
// figures of NumPy, PyTorch and ONNX Runtime (bench.Peers); each --peers
// FILE.json adds those of a file the peers' scripts write (their
// results.json, raw/IMPL.json or small.json) or --json writes instead, and
// --peers none leaves them out. The chart is written whole or not at all.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK      = 0
	exitInvalid = 1 // invalid input, or a failed conformance test
	exitUsage   = 2
)

// usageError is a mistake in the command line, as opposed to in the data.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// run is the whole command, with its streams, returning the exit code.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage())
		return exitUsage
	}
	var err error
	switch name := args[0]; name {
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage())
		return exitOK
	default:
		if c := lookupCommand(name); c != nil {
			err = c.run(args[1:], stdout)
		} else {
			err = usagef("unknown command %q", name)
		}
	}
	var ue *usageError
	switch {
	case err == nil:
		return exitOK
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "scatter: %s\n%s", oneLine(err), usage())
		return exitUsage
	case errors.Is(err, errFailed):
		return exitInvalid
	case errors.Is(err, tensor.ErrTooLarge):
		fmt.Fprintf(stderr, "%s (raise the limit with --max-bytes)\n", oneLine(err))
		return exitInvalid
	default:
		fmt.Fprintln(stderr, oneLine(err))
		return exitInvalid
	}
}

// errFailed reports a failure that the command has already printed.
var errFailed = errors.New("failed")

// oneLine flattens an error message onto a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", " ")), " ")
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
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
