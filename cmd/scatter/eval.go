package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/scatter-dev/scatter/format"
	"github.com/scatter-dev/scatter/format/npy"
)

// evalCommand runs one operator and writes its output to a file.
var evalCommand = &command{
	name:     "eval",
	short:    "run an operator on tensor files or literals and write its output",
	required: []string{"out"},
	args:     "OP",
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &evalOptions{call: addCallFlags(fs)}
		fs.StringVar(&o.out, "out", "", "the output `FILE`, .npy or .pb, or - for .npy on standard output")
		return o.run
	},
}

// evalOptions are the flags of eval.
type evalOptions struct {
	call *callFlags
	out  string
}

func (o *evalOptions) run(pos []string, stdout, stderr io.Writer) error {
	op, err := lookupOp("eval", pos)
	if err != nil {
		return err
	}
	if o.out == "" {
		return usagef("eval: missing --out FILE")
	}
	if err := format.Check(o.out); err != nil && o.out != "-" {
		return usagef("eval: --out %s: want a %s file, or - for .npy on standard output", o.out, strings.Join(format.Extensions(), " or "))
	}
	if o.out == "-" && isTerminal(stdout) {
		return usagef("eval: --out -: standard output is a terminal, which .npy bytes would garble; pipe it on, as in 'scatter eval %s ... --out - | scatter show -'", op.Name)
	}
	if o.out != "-" {
		if err := checkOutput("out", o.out); err != nil {
			return fmt.Errorf("%s: %w", op.Name, err)
		}
	}
	call, err := o.call.call("eval", op)
	if err != nil {
		return err
	}
	result, err := op.Run(call)
	if err != nil {
		return err
	}
	if o.out == "-" {
		// npy.Write refuses a tensor that .npy cannot hold (bfloat16)
		// before it writes anything.
		if err := npy.Write(stdout, result); err != nil {
			return fmt.Errorf("%s: output: %w", op.Name, err)
		}
		return nil
	}
	if err := format.WriteFile(o.out, result, op.Output); err != nil {
		return fmt.Errorf("%s: output: %w", op.Name, err)
	}
	fmt.Fprintf(stderr, "scatter eval: %s: wrote %s: %v%v\n", op.Name, o.out, result.DType(), result.Shape())
	return nil
}
