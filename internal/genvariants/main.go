// Command genvariants writes the functions of a dialect that differ only
// in the reduction they apply (jax.ScatterAdd, tf.TensorScatterMax, ...)
// and their Into forms, with their doc comments, from the tables below:
// run by go:generate in the dialect's directory as
//
//	go run ../../internal/genvariants DIALECT
//
// it writes the dialect's file of variants there (zscatter.go, or the
// file a family names). A test checks that each file is what this program
// writes.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"os"
	"strings"
	"text/template"
)

// variant is one function of a family and its Into form.
type variant struct {
	Name string // the function's name
	Op   string // the operator it runs, as an expression of the dialect's package
	Red  string // the engine's reduction it applies, where the family's bodies name one
	Doc  string // its doc comment, without its name: what it returns
}

// family is a dialect's functions of one shape.
type family struct {
	pkg     string // the package name
	imports []string
	// intoDoc is the doc comment of an Into form after "XInto is X".
	intoDoc string
	// alloc and into are the two functions' signatures and bodies, as
	// templates of a variant; into is empty for a family of functions
	// that have no Into form (they update their input in place).
	alloc, into string
	variants    []variant
	// dir and file are the family's directory under dialect and its file
	// there, when they are not the family's key and fileName.
	dir, file string
}

// path returns the family's file, relative to the dialect directory
// (dialect/), for the family called key.
func (f family) path(key string) (dir, file string) {
	dir, file = key, fileName
	if f.dir != "" {
		dir = f.dir
	}
	if f.file != "" {
		file = f.file
	}
	return dir, file
}

// fileName is the name of every dialect's file of variants, a z file as
// the Go project names its generated files.
const fileName = "zscatter.go"

var families = map[string]family{
	"jax": {
		pkg:     "jax",
		imports: []string{"github.com/scatter-dev/scatter/engine", "github.com/scatter-dev/scatter/tensor"},
		intoDoc: "writing into dst, which has operand's type and shape and may be operand itself.",
		alloc: `func {{.Name}}(operand, scatterIndices, updates tensor.Tensor, dims ScatterDimensionNumbers, mode Mode) (tensor.Tensor, error) {
	return scatterAlloc({{.Op}}, {{.Red}}, operand, scatterIndices, updates, scatterDims(dims, scatterIndices), mode)
}`,
		into: `func {{.Name}}Into(dst, operand, scatterIndices, updates tensor.Tensor, dims ScatterDimensionNumbers, mode Mode) error {
	return scatterInto({{.Op}}, {{.Red}}, dst, operand, scatterIndices, updates, scatterDims(dims, scatterIndices), mode)
}`,
		variants: []variant{
			{"Scatter", "opScatter", "engine.None", "returns a copy of operand in which each window of updates replaces the slice at the start index " +
				"that the last dimension of scatterIndices gives for it, as the dimension numbers say; mode says what an out-of-bounds start does."},
			{"ScatterAdd", "opScatterAdd", "engine.Add", "is Scatter adding each update to the operand's value."},
			{"ScatterSub", "opScatterSub", "engine.Sub", "is Scatter subtracting each update from the operand's value."},
			{"ScatterMul", "opScatterMul", "engine.Mul", "is Scatter multiplying the operand's value by each update."},
			{"ScatterMin", "opScatterMin", "engine.Min", "is Scatter keeping the smaller of the operand's value and each update."},
			{"ScatterMax", "opScatterMax", "engine.Max", "is Scatter keeping the larger of the operand's value and each update."},
		},
	},
	"tf": {
		pkg:     "tf",
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		intoDoc: "writing into dst, which has t's type and shape and may be t itself for an in-place update.",
		alloc: `func {{.Name}}(t, indices, updates tensor.Tensor) (tensor.Tensor, error) {
	return tensorScatter({{.Op}}, t, indices, updates)
}`,
		into: `func {{.Name}}Into(dst, t, indices, updates tensor.Tensor) error {
	return tensorScatterInto({{.Op}}, dst, t, indices, updates)
}`,
		variants: []variant{
			{"TensorScatterUpdate", "opUpdate", "", "returns a copy of t with the elements or slices at the index tuples in indices replaced by updates, " +
				"as tf.tensor_scatter_nd_update(t, indices, updates). With duplicate indices the last update in row-major index order wins."},
			{"TensorScatterAdd", "opAdd", "", "returns a copy of t with updates added at the index tuples in indices, " +
				"one at a time in row-major index order, as tf.tensor_scatter_nd_add(t, indices, updates)."},
			{"TensorScatterSub", "opSub", "", "returns a copy of t with updates subtracted at the index tuples in indices, " +
				"one at a time in row-major index order, as tf.tensor_scatter_nd_sub(t, indices, updates)."},
			{"TensorScatterMin", "opMin", "", "returns a copy of t in which each element at an index tuple in indices becomes the smaller of itself and the update, " +
				"one update at a time in row-major index order, as tf.tensor_scatter_nd_min(t, indices, updates). " +
				"A NaN in t stays; a NaN in updates is ignored."},
			{"TensorScatterMax", "opMax", "", "returns a copy of t in which each element at an index tuple in indices becomes the larger of itself and the update, " +
				"one update at a time in row-major index order, as tf.tensor_scatter_nd_max(t, indices, updates). " +
				"A NaN in t stays; a NaN in updates is ignored."},
		},
	},
	"tfv1": {
		pkg:     "tf",
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(ref, indices, updates tensor.Tensor) error {
	return scatterV1({{.Op}}, ref, indices, updates)
}`,
		dir: "tf", file: "zscatter_v1.go",
		variants: []variant{
			{"ScatterUpdate", "v1Update", "", "writes updates into the rows of ref that indices name, in place, " +
				"as tf.compat.v1.scatter_update(ref, indices, updates): ref[indices[i, ..., j], ...] = updates[i, ..., j, ...]. " +
				"Of duplicate indices the last in row-major index order wins (TensorFlow leaves the order undefined)." + v1Rule},
			{"ScatterAdd", "v1Add", "", "adds updates to the rows of ref that indices name, in place, one at a time " +
				"in row-major index order, as tf.compat.v1.scatter_add(ref, indices, updates)." + v1Rule},
			{"ScatterSub", "v1Sub", "", "subtracts updates from the rows of ref that indices name, in place, one at a time " +
				"in row-major index order, as tf.compat.v1.scatter_sub(ref, indices, updates)." + v1Rule},
			{"ScatterMul", "v1Mul", "", "multiplies the rows of ref that indices name by updates, in place, one at a time " +
				"in row-major index order, as tf.compat.v1.scatter_mul(ref, indices, updates)." + v1Rule},
			{"ScatterDiv", "v1Div", "", "divides the rows of ref that indices name by updates, in place, one at a time " +
				"in row-major index order, as tf.compat.v1.scatter_div(ref, indices, updates). Integers truncate toward zero; " +
				"an integer update of 0 is an error of class engine.ErrArgument naming it, where TensorFlow's CPU kernel " +
				"divides by zero." + v1Rule},
			{"ScatterMin", "v1Min", "", "keeps the smaller of each element of the rows of ref that indices name and its update, " +
				"in place, one at a time in row-major index order, as tf.compat.v1.scatter_min(ref, indices, updates). " +
				"A NaN in ref stays; a NaN in updates is ignored." + v1Rule},
			{"ScatterMax", "v1Max", "", "keeps the larger of each element of the rows of ref that indices name and its update, " +
				"in place, one at a time in row-major index order, as tf.compat.v1.scatter_max(ref, indices, updates). " +
				"A NaN in ref stays; a NaN in updates is ignored." + v1Rule},
		},
	},
}

// v1Rule is what the doc comment of every tf.compat.v1 scatter says after
// what it does.
const v1Rule = " updates has shape indices.shape + ref.shape[1:], or is a scalar applied at every index. " +
	"A negative or out-of-range index is an error naming the first one, and ref is left as it was " +
	"(TensorFlow's CPU kernel has applied the updates before it). " +
	"The call allocates nothing once warm, but for a scalar updates, which it spreads."

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genvariants DIALECT")
		os.Exit(2)
	}
	src, err := generate(os.Args[1])
	if err == nil {
		_, file := families[os.Args[1]].path(os.Args[1])
		err = os.WriteFile(file, src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvariants:", err)
		os.Exit(1)
	}
}

// generate returns the file of variants of the named dialect, formatted.
func generate(dialect string) ([]byte, error) {
	f, ok := families[dialect]
	if !ok {
		return nil, fmt.Errorf("no dialect %q", dialect)
	}
	alloc, err := template.New("alloc").Parse(f.alloc)
	if err != nil {
		return nil, err
	}
	into, err := template.New("into").Parse(f.into)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genvariants %s; DO NOT EDIT.\n\npackage %s\n\nimport (\n", dialect, f.pkg)
	for _, imp := range f.imports {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n")
	for _, v := range f.variants {
		b.WriteString("\n")
		comment(&b, v.Name+" "+v.Doc)
		if err := alloc.Execute(&b, v); err != nil {
			return nil, err
		}
		b.WriteString("\n")
		if f.into == "" {
			continue
		}
		b.WriteString("\n")
		comment(&b, v.Name+"Into is "+v.Name+" "+f.intoDoc)
		if err := into.Execute(&b, v); err != nil {
			return nil, err
		}
		b.WriteString("\n")
	}
	return format.Source(b.Bytes())
}

// comment writes text as a doc comment, its lines filled to 76 columns.
func comment(b *bytes.Buffer, text string) {
	line := "//"
	for _, w := range strings.Fields(text) {
		if len(line)+1+len(w) > 76 && line != "//" {
			b.WriteString(line + "\n")
			line = "//"
		}
		line += " " + w
	}
	b.WriteString(line + "\n")
}
