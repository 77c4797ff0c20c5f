// Package registry finds every operator of every dialect by its name
// ("onnx.ScatterND").
package registry

import (
	"fmt"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/internal/suggest"
)

// Ops returns every operator of every dialect, sorted by name.
func Ops() []*dialect.Op {
	var all []*dialect.Op
	for _, ops := range [][]*dialect.Op{onnx.Ops(), tf.Ops(), torch.Ops(), openvino.Ops(), mindspore.Ops(), stablehlo.Ops(), jax.Ops()} {
		all = append(all, ops...)
	}
	slices.SortFunc(all, func(a, b *dialect.Op) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Lookup returns the operator with the given name. Names are matched
// exactly; the error for an unknown name suggests the operators whose
// names it most likely misspells (suggest.Near's rule, ignoring case, with
// a name without a dialect compared to the part after the dot):
// "onnx.ScaterND" suggests onnx.ScatterND, "gather_nd" tf.gather_nd and
// mindspore.gather_nd.
func Lookup(name string) (*dialect.Op, error) {
	ops := Ops()
	for _, op := range ops {
		if op.Name == name {
			return op, nil
		}
	}
	if near := nearOps(ops, name); len(near) > 0 {
		return nil, fmt.Errorf("%w %q: did you mean %s?", dialect.ErrUnknownOp, name, strings.Join(near, " or "))
	}
	return nil, fmt.Errorf("%w %q (run 'scatter ops' for the list)", dialect.ErrUnknownOp, name)
}

// nearOps returns the names of the operators of ops nearest to name by
// edit distance, if they are close enough for name to be a misspelling.
func nearOps(ops []*dialect.Op, name string) []string {
	best := -1
	var near []string
	for _, op := range ops {
		short := op.Name[strings.IndexByte(op.Name, '.')+1:]
		d := suggest.Distance(name, op.Name)
		if !strings.Contains(name, ".") {
			d = min(d, suggest.Distance(name, short))
		}
		switch {
		case !suggest.Close(d, short) || best >= 0 && d > best:
			continue
		case best < 0 || d < best:
			best, near = d, near[:0]
		}
		near = append(near, op.Name)
	}
	return near
}
