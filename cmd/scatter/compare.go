package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/compare"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/tensor"
)

// compareCommand runs the same inputs through several operators and prints
// where their results differ.
var compareCommand = &command{
	name:     "compare",
	short:    "run the same inputs through several dialects' operators and say where they differ",
	args:     "[OP...]",
	required: []string{"in"},
	about: `Runs the same inputs through each operator named (all of one family), or
through every dialect's member of family F, and prints where the results or
errors differ, cell by cell, with the rule behind each difference.

NAMEs are any dialect's spelling or the role they stand for:
  data (params, tensor, input, input_x), indices (index, segment_ids),
  updates (src), value, shape, axis (dim), batch_dims, reduction (reduce),
  include_self (use_init_val), num_segments.
A reduction may be spelled as any dialect spells it (add, sum, mul, prod,
amax, update, ...). shape and value may be given with --in or --attr.

A segment family (segment_sum, segment_max, ...) takes data's rows,
segment_ids and num_segments, as TensorFlow and JAX do; its scatters
(numpy.add.at, torch.index_add, ...) get the rows as their updates, onto
num_segments rows of zeros (ones for segment_prod) that compare builds.
take compares onnx.Gather of the flattened data too, take_along_axis
torch.gather and onnx.GatherElements.

Exit status: 0 when all agree, 1 when they differ or every one was refused
as too large for --max-bytes, 2 on a usage error
(including an input file that cannot be read, or fewer than two operators
that can take the inputs).
`,
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &compareOptions{}
		fs.StringVar(&o.family, "family", "", "compare every dialect's member of family `F` ("+strings.Join(dialect.Families, ", ")+")")
		fs.IntVar(&o.cells, "cells", 20, "list at most `N` differing cells (0: all)")
		fs.Var(&o.opsets, "opset", "run a dialect's operators at opset `DIALECT=N` (repeatable; default: the newest)")
		addAttrsAndInputs(fs, &o.attrs, &o.ins)
		addMaxBytes(fs, &o.maxBytes)
		return o.run
	},
}

// compareOptions are the flags of compare.
type compareOptions struct {
	family             string
	cells              int
	opsets, attrs, ins pairs
	maxBytes           byteSize
}

// run maps the inputs onto each operator, runs them, and prints the
// comparison. Differences make it return errFailed, after printing them.
func (o *compareOptions) run(ops []string, stdout, _ io.Writer) error {
	switch {
	case len(ops) == 0 && o.family == "":
		return usagef("compare: name two operators or more, or give --family")
	case len(ops) > 0 && o.family != "":
		return usagef("compare: give operators or --family, not both")
	case len(ops) == 1:
		return usagef("compare: one operator, %s: name two or more", ops[0])
	case len(o.ins.names) == 0:
		return usagef("compare: no --in inputs")
	}
	tensor.SetMaxBytes(int64(o.maxBytes))
	req := compare.Request{Ops: ops, Family: o.family, Opsets: map[string]int{},
		Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	for i, d := range o.opsets.names {
		n, err := parseOpset(o.opsets.values[i])
		switch {
		case err != nil:
			return usagef("compare: --opset %s=%s: %v", d, o.opsets.values[i], err)
		case n < 1:
			return usagef("compare: --opset %s=%d: an opset is 1 or more (leave --opset out for the newest)", d, n)
		}
		req.Opsets[d] = n
	}
	for i, name := range o.attrs.names {
		role, ok := compare.RoleOf(name)
		if !ok || compare.Kind(role) == 0 {
			return usagef("compare: --attr %s: not an attribute name (%s)", name,
				roleNames(func(r compare.Role) bool { return compare.Kind(r) != 0 }))
		}
		v, err := dialect.ParseValue(compare.Kind(role), o.attrs.values[i])
		if err != nil {
			return usagef("compare: --attr %s: %v", name, err)
		}
		req.Attrs[name] = v
	}
	for i, name := range o.ins.names {
		role, ok := compare.RoleOf(name)
		if !ok || !role.IsInput() {
			return usagef("compare: --in %s: not an input name (%s)", name, roleNames(compare.Role.IsInput))
		}
		t, err := readInput(o.ins.values[i], role)
		if err != nil {
			return usagef("compare: --in %s: %w", name, err)
		}
		req.Inputs[name] = t
	}
	rep, err := compare.Run(req)
	if errors.Is(err, compare.ErrRequest) {
		return usagef("compare: %v", err)
	}
	if err != nil {
		return err
	}
	// Operators that all refused to run, as too large for --max-bytes,
	// compared nothing: that is no agreement.
	if !slices.ContainsFunc(rep.Runs, func(r *compare.OpRun) bool { return !errors.Is(r.Err, tensor.ErrTooLarge) }) {
		return fmt.Errorf("compare: every operator refused the call, so nothing was compared; %s: %w", rep.Runs[0].Label(), rep.Runs[0].Err)
	}
	if err := rep.WriteText(stdout, o.cells); err != nil {
		return err
	}
	if !rep.Agree() {
		return errFailed
	}
	return nil
}

// roleNames lists the spellings of the roles that keep picks.
func roleNames(keep func(compare.Role) bool) string {
	var names []string
	for _, r := range compare.Roles {
		if keep(r) {
			names = append(names, compare.Names(r)...)
		}
	}
	return strings.Join(names, ", ")
}
