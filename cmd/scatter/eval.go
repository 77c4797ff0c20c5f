package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/scatter-dev/scatter/format"
)

func evalCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stdout)
	cf := addCallFlags(fs)
	out := fs.String("out", "", "the output `FILE`, .npy or .pb")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: scatter eval OP [--opset N] [--attr NAME=VALUE]... [--in NAME=FILE|TYPE:VALUES]... --out FILE")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	op, err := lookupOp("eval", pos)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("eval: missing --out FILE")
	}
	if err := format.Check(*out); err != nil {
		return usagef("eval: --out: %v", err)
	}
	call, err := cf.call("eval", op)
	if err != nil {
		return err
	}
	result, err := op.Run(call)
	if err != nil {
		return err
	}
	if err := format.WriteFile(*out, result, op.Output); err != nil {
		return fmt.Errorf("%s: output: %w", op.Name, err)
	}
	fmt.Fprintf(stdout, "%s: wrote %s: %v%v\n", op.Name, *out, result.DType(), result.Shape())
	return nil
}
