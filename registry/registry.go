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
// exactly; the error for an unknown name suggests operators whose names
// match it without regard to case.
func Lookup(name string) (*dialect.Op, error) {
	var near []string
	for _, op := range Ops() {
		if op.Name == name {
			return op, nil
		}
		if strings.EqualFold(op.Name, name) || strings.EqualFold(op.Name[strings.IndexByte(op.Name, '.')+1:], name) {
			near = append(near, op.Name)
		}
	}
	if len(near) > 0 {
		return nil, fmt.Errorf("%w %q: did you mean %s?", dialect.ErrUnknownOp, name, strings.Join(near, " or "))
	}
	return nil, fmt.Errorf("%w %q (run 'scatter ops' for the list)", dialect.ErrUnknownOp, name)
}
