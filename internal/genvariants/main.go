// Command genvariants writes the functions of a dialect that differ only
// in the reduction they apply (jax.ScatterAdd, tf.TensorScatterMax, ...)
// and their Into forms, with their doc comments, from the tables below:
// run by go:generate in the dialect's directory as
//
//	go run ../../internal/genvariants DIALECT
//
// it writes the dialect's file of variants there (zscatter.go). A family
// of another shape has a key of its own and a file of its own (tf-segments
// writes tf's zsegment.go). A test checks that each file is what this
// program writes.
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
	pkg string // the package name
	// dir and file are where the family's file goes: by default the
	// dialect's directory named by the family's key, and fileName.
	dir, file string
	imports   []string
	// intoDoc is the doc comment of an Into form after "XInto is X".
	intoDoc string
	// alloc and into are the two functions' signatures and bodies, as
	// templates of a variant.
	alloc, into string
	variants    []variant
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
}

// The families of other shapes, each in a file of its own.
func init() {
	families["tf-segments"] = family{
		pkg: "tf", dir: "tf", file: "zsegment.go",
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		intoDoc: "writing into dst, which has data's type and the output's shape, segment_ids[-1] + 1 rows, " +
			"and shares no memory with the inputs.",
		alloc: `func {{.Name}}(data, segmentIDs tensor.Tensor) (tensor.Tensor, error) {
	return {{.Op}}.call(data, segmentIDs)
}`,
		into: `func {{.Name}}Into(dst, data, segmentIDs tensor.Tensor) error {
	return {{.Op}}.into(dst, data, segmentIDs)
}`,
		variants: []variant{
			{"SegmentSum", "segSum", "", "returns the sums of the rows of data that share a segment id, as tf.math.segment_sum(data, segment_ids): " +
				"segment_ids is sorted, one id per row, and output row k (of segment_ids[-1] + 1) is the sum of the rows whose id is k, " +
				"in row order, or 0."},
			{"SegmentProd", "segProd", "", "is SegmentSum with products, as tf.math.segment_prod: an empty segment holds 1."},
			{"SegmentMin", "segMin", "", "is SegmentSum with minimums, as tf.math.segment_min: a NaN in a segment makes its minimum NaN, " +
				"and an empty segment holds 0."},
			{"SegmentMax", "segMax", "", "is SegmentSum with maximums, as tf.math.segment_max: a NaN in a segment makes its maximum NaN, " +
				"and an empty segment holds 0."},
			{"SegmentMean", "segMean", "", "is SegmentSum with means, as tf.math.segment_mean: the sum divided by the number of rows, " +
				"an integer mean rounded toward zero as the CPU kernel's C++ division rounds, and an empty segment 0."},
		},
	}
	families["numpy-reduceat"] = family{
		pkg: "numpy", dir: "numpy", file: "zreduceat.go",
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		intoDoc: "writing into dst, which has the output's type and shape and shares no memory with the inputs.",
		alloc: `func {{.Name}}(array, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
	return {{.Op}}.call(array, indices, axis)
}`,
		into: `func {{.Name}}Into(dst, array, indices tensor.Tensor, axis int) error {
	return {{.Op}}.into(dst, array, indices, axis)
}`,
		variants: []variant{
			{"AddReduceat", "opAddReduceat", "", "returns the sums of the runs of array along axis that start at indices, " +
				"as numpy.add.reduceat(array, indices, axis): output slice i along axis is the sum of array's slices indices[i] " +
				"to indices[i+1]-1 (to the end of axis for the last), or slice indices[i] alone when indices[i] >= indices[i+1]. " +
				"bool, int8, int16 and int32 arrays are summed in int64, uint8, uint16 and uint32 in uint64, the output's type; " +
				"floats and complex numbers pairwise, as NumPy's add loop sums."},
			{"MultiplyReduceat", "opMulReduceat", "", "is AddReduceat with products, as numpy.multiply.reduceat, " +
				"widened as AddReduceat widens, multiplied in order."},
			{"MaximumReduceat", "opMaxReduceat", "", "is AddReduceat with maximums, as numpy.maximum.reduceat: in array's type, " +
				"a NaN in a run making its maximum NaN."},
			{"MinimumReduceat", "opMinReduceat", "", "is AddReduceat with minimums, as numpy.minimum.reduceat: in array's type, " +
				"a NaN in a run making its minimum NaN."},
		},
	}
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genvariants DIALECT")
		os.Exit(2)
	}
	src, err := generate(os.Args[1])
	if err == nil {
		err = os.WriteFile(families[os.Args[1]].fileName(), src, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvariants:", err)
		os.Exit(1)
	}
}

// fileName returns the name of f's file in its directory.
func (f family) fileName() string {
	if f.file != "" {
		return f.file
	}
	return fileName
}

// dirOf returns the directory of the family called key under dialect/.
func (f family) dirOf(key string) string {
	if f.dir != "" {
		return f.dir
	}
	return key
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
		b.WriteString("\n\n")
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
