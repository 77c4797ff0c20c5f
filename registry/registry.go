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
	"github.com/scatter-dev/scatter/dialect/numpy"
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
	for _, ops := range [][]*dialect.Op{onnx.Ops(), tf.Ops(), torch.Ops(), openvino.Ops(), mindspore.Ops(), stablehlo.Ops(), jax.Ops(), numpy.Ops()} {
		all = append(all, ops...)
	}
	slices.SortFunc(all, func(a, b *dialect.Op) int { return strings.Compare(a.Name, b.Name) })
	return all
}

// Lookup returns the operator with the given name. Names are matched
// exactly; the error for an unknown name suggests the operators whose
// names it most likely misspells (suggest.Near's rule, ignoring case).
// A name is compared whole and by its last part, after the last dot, with
// each operator's name whole and by its last part; a name that begins with
// a dialect ("jax.") is compared with that dialect's operators first, and
// with every dialect's only if none of that dialect is close:
// "onnx.ScaterND" suggests onnx.ScatterND, "jax.gather" jax.lax.gather,
// "gather_nd" tf.gather_nd and mindspore.gather_nd.
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

// nearOps returns the names of the operators of ops nearest to name, if
// they are close enough for name to be a misspelling: those of name's
// dialect if it names one and any of them is close, else those of every
// dialect.
func nearOps(ops []*dialect.Op, name string) []string {
	if d, _, ok := strings.Cut(name, "."); ok {
		var same []*dialect.Op
		for _, op := range ops {
			if strings.HasPrefix(op.Name, d+".") {
				same = append(same, op)
			}
		}
		if near := nearestOps(same, name); len(near) > 0 {
			return near
		}
	}
	return nearestOps(ops, name)
}

// nearestOps returns the names of the operators of ops nearest to name by
// edit distance, whole name to whole name or last part to last part, that
// are close enough for name to be a misspelling.
func nearestOps(ops []*dialect.Op, name string) []string {
	best := -1
	var near []string
	for _, op := range ops {
		short := lastPart(op.Name)
		d := min(suggest.Distance(name, op.Name), suggest.Distance(lastPart(name), short))
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

// lastPart returns what follows the last dot of an operator's name:
// "gather" of "jax.lax.gather".
func lastPart(name string) string {
	return name[strings.LastIndexByte(name, '.')+1:]
}
