package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
)

// conformCommand runs ONNX node tests.
var conformCommand = &command{
	name:  "conform",
	short: "run ONNX node tests and StableHLO test files, the bundled ones by default",
	args:  "[DIR...]",
	about: "Runs ONNX node-test directories and StableHLO .mlir test files, or directories of them; with no\n" +
		"DIR, the bundled official tests of both.\n",
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &conformOptions{}
		addMaxBytes(fs, &o.maxBytes)
		fs.DurationVar(&o.timeout, "timeout", defaultTimeout, "fail a test that runs longer than `DURATION` (such as 90s or 5m; 0 for no limit)")
		fs.BoolVar(&o.quiet, "quiet", false, "print the failed tests and the summary only")
		fs.StringVar(&o.run, "run", "", "count and print only the tests whose name matches the regular expression `PATTERN`, as go test -run does")
		return o.runTests
	},
}

// defaultTimeout is how long conform lets one test run by default: far
// longer than any of the bundled tests takes.
const defaultTimeout = 5 * time.Minute

// conformOptions are the flags of conform.
type conformOptions struct {
	maxBytes byteSize
	timeout  time.Duration
	quiet    bool
	run      string
}

func (o *conformOptions) runTests(dirs []string, stdout, _ io.Writer) error {
	if o.timeout < 0 {
		return usagef("conform: --timeout %v: a timeout is 0 (none) or more", o.timeout)
	}
	pattern, err := regexp.Compile(o.run)
	if err != nil {
		return usagef("conform: --run %q: not a regular expression: %v", o.run, strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	tensor.SetMaxBytes(int64(o.maxBytes))
	conformance.SetTimeout(o.timeout)
	var all []conformance.Result
	if len(dirs) == 0 {
		results, err := conformance.Run(conformance.Suite(), ".")
		if err != nil {
			return err
		}
		hlo, err := conformance.RunStableHLO(conformance.StableHLOSuite(), ".", conformance.Exec)
		if err != nil {
			return err
		}
		all = append(results, hlo...)
	}
	for _, dir := range dirs {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return fmt.Errorf("conform: %w", err)
		}
		if !fi.IsDir() && !strings.HasSuffix(dir, ".mlir") {
			return fmt.Errorf("conform: %s is neither a directory nor a .mlir file", dir)
		}
		// Root the file system at the parent so that a test directory
		// given directly keeps its name.
		fsys := os.DirFS(filepath.Dir(abs))
		results, err := conformance.RunAll(fsys, filepath.Base(abs))
		if err != nil {
			return err
		}
		all = append(all, results...)
	}
	// Every test runs, and --run picks the ones counted: a .mlir file
	// holds several tests, named only once they have run.
	var picked []conformance.Result
	for _, r := range all {
		if pattern.MatchString(r.Name) {
			picked = append(picked, r)
		}
	}
	if len(picked) == 0 && len(all) > 0 {
		return usagef("conform: --run %q matches none of the %d tests", o.run, len(all))
	}
	failed := false
	for _, r := range picked {
		failed = failed || r.Err != nil
		if r.Err != nil { // the error is clipped, the test's name is not
			r.Err = errors.New(clip(r.Err.Error()))
		}
		if r.Err != nil || !o.quiet {
			fmt.Fprintln(stdout, conformance.Line(r))
		}
	}
	fmt.Fprintln(stdout, conformance.Summary(picked))
	if failed {
		return errFailed
	}
	return nil
}

// opsCommand lists the operators.
var opsCommand = &command{
	name:  "ops",
	short: "list the operators with their versions, inputs and attributes",
	args:  "[PATTERN]",
	about: "Lists every operator with its versions, inputs and attributes; with PATTERN, those whose\n" +
		"name contains it, ignoring case (onnx., scatter), or whose family it is (gather_nd).\n",
	define: noFlags(opsCmd),
}

func opsCmd(args []string, stdout, _ io.Writer) error {
	if len(args) > 1 {
		return usagef("ops takes one PATTERN, got %s", strings.Join(args, " "))
	}
	var ops []*dialect.Op
	for _, op := range registry.Ops() {
		if len(args) == 0 || op.Family == args[0] || strings.Contains(strings.ToLower(op.Name), strings.ToLower(args[0])) {
			ops = append(ops, op)
		}
	}
	if len(ops) == 0 {
		return fmt.Errorf("ops: no operator name contains %q, and no family is called so (families: %s)",
			args[0], strings.Join(dialect.Families, ", "))
	}
	for i, op := range ops {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		versions := make([]string, len(op.Versions))
		for j, v := range op.Versions {
			versions[j] = fmt.Sprint(v)
		}
		fmt.Fprintf(stdout, "%s  (versions %s", op.Name, strings.Join(versions, ", "))
		if op.Removed != 0 {
			fmt.Fprintf(stdout, "; removed in %d", op.Removed)
		}
		fmt.Fprintf(stdout, ")\n  %s\n", op.Summary)
		// The names in one column, at least 10 wide, as wide as the longest.
		width := 10
		for _, p := range op.Inputs {
			width = max(width, len(p.Name))
		}
		for _, a := range op.Attrs {
			width = max(width, len(a.Name))
		}
		for _, p := range op.Inputs {
			opt := ""
			if p.Optional {
				opt = ", optional"
			}
			fmt.Fprintf(stdout, "  input  %-*s %s%s: %s\n", width, p.Name, op.InputTypes(p), opt, p.Doc)
		}
		for _, a := range op.Attrs {
			def := ""
			switch {
			case a.Default != "":
				def = " = " + a.Default
			case a.Required:
				def = ", required"
			}
			since := ""
			if a.Since != 0 {
				since = fmt.Sprintf(" (from version %d)", a.Since)
			}
			fmt.Fprintf(stdout, "  attr   %-*s %s%s%s: %s\n", width, a.Name, a.Kind, def, since, a.Doc)
		}
		fmt.Fprintf(stdout, "  output %s\n", op.Output)
	}
	return nil
}
