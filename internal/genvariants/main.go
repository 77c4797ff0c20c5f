// Command genvariants writes the functions of a dialect that differ only
// in the reduction they apply (jax.ScatterAdd, tf.TensorScatterMax, ...)
// and their Into forms, with their doc comments, from the tables below:
// run by go:generate in the dialect's directory as
//
//	go run ../../internal/genvariants DIALECT
//
// it writes the dialect's one file of variants there, zvariants.go, its
// families in the order the dialect's row of the table lists them. A test
// checks that each file is what this program writes.
package main

import (
	"bytes"
	"fmt"
	"go/format"
	"io"
	"os"
	"slices"
	"strings"
	"text/template"

	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// variant is one function of a family and its Into form.
type variant struct {
	Name string // the function's name
	Op   string // the operator it runs, as an expression of the dialect's package
	Red  string // the engine's reduction it applies, where the family's bodies name one
	Doc  string // its doc comment, without its name: what it returns (refilled, so written as prose)
}

// family is a dialect's functions of one shape.
type family struct {
	imports []string // the packages its functions use
	// alloc and into are the function and its Into form, as templates of
	// a variant (the generated file is gofmt'ed after); into is empty for
	// a family of functions that have no Into form.
	alloc, into string
	// intoDoc is the doc comment of an Into form after "XInto is X".
	intoDoc  string
	variants []variant
}

// fileName is the name of a dialect's file of variants: a z file, as the
// Go project names its generated files.
const fileName = "zvariants.go"

// dialects holds each dialect's families, in the order its file of
// variants holds them. A dialect's name is its package's and its
// directory's.
var dialects = map[string][]family{
	"jax":   {jaxScatter, jaxSegments},
	"tf":    {tfScatter, tfScatterV1, tfUnsortedSegments, tfSortedSegments},
	"numpy": {numpyAt, numpyReduceat},
}

// The families, named by dialect and function.
var (
	jaxScatter = family{
		imports: []string{"github.com/scatter-dev/scatter/engine", "github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(operand, scatterIndices, updates tensor.Tensor, dims ScatterDimensionNumbers, mode Mode) (tensor.Tensor, error) {
			return scatterAlloc({{.Op}}, {{.Red}}, operand, scatterIndices, updates, scatterDims(dims, scatterIndices), mode)
		}`,
		into: `func {{.Name}}Into(dst, operand, scatterIndices, updates tensor.Tensor, dims ScatterDimensionNumbers, mode Mode) error {
			return scatterInto({{.Op}}, {{.Red}}, dst, operand, scatterIndices, updates, scatterDims(dims, scatterIndices), mode)
		}`,
		intoDoc: "writing into dst, which has operand's type and shape and may be operand itself.",
		variants: []variant{
			{"Scatter", "opScatter", "engine.None", `returns a copy of operand in which each window of updates
				replaces the slice at the start index that the last dimension of scatterIndices gives for it, as the
				dimension numbers say; mode says what an out-of-bounds start does.`},
			{"ScatterAdd", "opScatterAdd", "engine.Add", `is Scatter adding each update to the operand's value.`},
			{"ScatterSub", "opScatterSub", "engine.Sub", `is Scatter subtracting each update from the operand's value.`},
			{"ScatterMul", "opScatterMul", "engine.Mul", `is Scatter multiplying the operand's value by each update.`},
			{"ScatterMin", "opScatterMin", "engine.Min", `is Scatter keeping the smaller of the operand's value and
				each update.`},
			{"ScatterMax", "opScatterMax", "engine.Max", `is Scatter keeping the larger of the operand's value and
				each update.`},
		},
	}
	tfScatter = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(t, indices, updates tensor.Tensor) (tensor.Tensor, error) {
			return tensorScatter({{.Op}}, t, indices, updates)
		}`,
		into: `func {{.Name}}Into(dst, t, indices, updates tensor.Tensor) error {
			return tensorScatterInto({{.Op}}, dst, t, indices, updates)
		}`,
		intoDoc: "writing into dst, which has t's type and shape and may be t itself for an in-place update.",
		variants: []variant{
			{"TensorScatterUpdate", "opUpdate", "", `returns a copy of t with the elements or slices at the index
				tuples in indices replaced by updates, as tf.tensor_scatter_nd_update(t, indices, updates). With
				duplicate indices the last update in row-major index order wins.`},
			{"TensorScatterAdd", "opAdd", "", `returns a copy of t with updates added at the index tuples in
				indices, one at a time in row-major index order, as tf.tensor_scatter_nd_add(t, indices, updates).`},
			{"TensorScatterSub", "opSub", "", `returns a copy of t with updates subtracted at the index tuples in
				indices, one at a time in row-major index order, as tf.tensor_scatter_nd_sub(t, indices, updates).`},
			{"TensorScatterMin", "opMin", "", `returns a copy of t in which each element at an index tuple in
				indices becomes the smaller of itself and the update, one update at a time in row-major index order,
				as tf.tensor_scatter_nd_min(t, indices, updates). A NaN in t stays; a NaN in updates is ignored.`},
			{"TensorScatterMax", "opMax", "", `returns a copy of t in which each element at an index tuple in
				indices becomes the larger of itself and the update, one update at a time in row-major index order,
				as tf.tensor_scatter_nd_max(t, indices, updates). A NaN in t stays; a NaN in updates is ignored.`},
		},
	}
	numpyAt = family{
		imports: []string{"github.com/scatter-dev/scatter/dialect/internal/opcall", "github.com/scatter-dev/scatter/engine",
			"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(a tensor.Tensor, indices Indices, b tensor.Tensor) error {
			return {{.Name}}Into(a, a, indices, b)
		}`,
		into: `func {{.Name}}Into(dst, a tensor.Tensor, indices Indices, b tensor.Tensor) error {
			return opcall.Wrap({{.Op}}Name, ufuncAt({{.Op}}B, {{.Red}}, dst, a, indices, b))
		}`,
		intoDoc: "writing the updated copy of a into dst, which has a's element type and shape and may be a itself " +
			"(an in-place call). It allocates nothing when indices is one array and b has the indexed shape.",
		variants: []variant{
			{"AddAt", "addAt", "engine.Add", `adds b into a at indices, in place: np.add.at(a, indices, b).
				Unbuffered: each of duplicate indices adds, in row-major index order, every step rounded to a's
				element type (bool addition is OR; integers wrap). indices is one integer array, which indexes a's
				first axis, or a tuple of them (see Indices); b has a's element type and broadcasts to the indexed
				shape (the indices' broadcast shape followed by the dimensions of a they leave). Every index is
				checked before anything is written.`},
			{"SubtractAt", "subtractAt", "engine.Sub", `subtracts b from a at indices, in place: np.subtract.at(a, indices, b).
				It is AddAt with subtraction; bool a is refused, as NumPy's subtract refuses it.`},
			{"MultiplyAt", "multiplyAt", "engine.Mul", `multiplies a by b at indices, in place: np.multiply.at(a, indices, b).
				It is AddAt with multiplication (AND on bool; complex products as NumPy's loop computes them, every operation in
				the precision of the parts).`},
			{"MaximumAt", "maximumAt", "engine.Max", `sets a at indices to the larger of its value and b's, in
				place: np.maximum.at(a, indices, b). A NaN on either side gives NaN (the one in place, if both are);
				of +0 and -0 the value in place stays. Complex a is refused.`},
			{"MinimumAt", "minimumAt", "engine.Min", `sets a at indices to the smaller of its value and b's, in
				place: np.minimum.at(a, indices, b), with MaximumAt's rules for NaN and signed zeros.`},
		},
	}
	tfUnsortedSegments = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(data, segmentIDs tensor.Tensor, numSegments int) (tensor.Tensor, error) {
			return unsortedSegment({{.Op}}, data, segmentIDs, numSegments)
		}`,
		into: `func {{.Name}}Into(dst, data, segmentIDs tensor.Tensor) error {
			return unsortedSegmentInto({{.Op}}, dst, data, segmentIDs)
		}`,
		intoDoc: "writing into dst, which has the output's type (data's, but float64 or float32 for an integer mean) and shape: its first dimension is num_segments.",
		variants: []variant{
			{"UnsortedSegmentSum", "opSegmentSum", "", `returns the sums of the slices of data by segment, as
				tf.math.unsorted_segment_sum(data, segment_ids, num_segments): the slice data[p...] at each position
				p of segmentIDs, whose shape is a prefix of data's, is added to segment segmentIDs[p] of an output
				of shape [numSegments] + data.shape[segmentIDs.rank:], in row-major order of segmentIDs. A negative
				id is dropped; one at or past numSegments is an error. An empty segment holds 0.`},
			{"UnsortedSegmentProd", "opSegmentProd", "", `is UnsortedSegmentSum multiplying, as
				tf.math.unsorted_segment_prod; an empty segment holds 1.`},
			{"UnsortedSegmentMax", "opSegmentMax", "", `is UnsortedSegmentSum taking the maximum, as
				tf.math.unsorted_segment_max, comparing as std::max(update, value) (a NaN update wins, a NaN in place gives way to
				the next update); an empty segment holds the lowest finite value of the type.`},
			{"UnsortedSegmentMin", "opSegmentMin", "", `is UnsortedSegmentMax taking the minimum, as
				tf.math.unsorted_segment_min; an empty segment holds the highest finite value of the type.`},
			{"UnsortedSegmentMean", "opSegmentMean", "", `is UnsortedSegmentSum divided by the number of slices in
				each segment, as tf.math.unsorted_segment_mean, counted in data's type; an empty segment holds 0.
				Integer data gives float64 (float32 for 8- and 16-bit integers), as TensorFlow's true division of
				the integer sum by the integer count makes it; complex data is refused.`},
			{"UnsortedSegmentSqrtN", "opSegmentSqrtN", "", `is UnsortedSegmentSum divided by the square root of the
				number of slices in each segment, as tf.math.unsorted_segment_sqrt_n; an empty segment holds 0. data
				must be floating-point.`},
		},
	}
	jaxSegments = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(data, segmentIDs tensor.Tensor, numSegments int, opt SegmentOptions) (tensor.Tensor, error) {
			return segment({{.Op}}, data, segmentIDs, numSegments, opt)
		}`,
		into: `func {{.Name}}Into(dst, data, segmentIDs tensor.Tensor, opt SegmentOptions) error {
			return segmentInto({{.Op}}, dst, data, segmentIDs, opt)
		}`,
		intoDoc: "writing into dst, which has data's type and the output's shape: its first dimension is num_segments.",
		variants: []variant{
			{"SegmentSum", "segSum", "", `returns the sums of the rows of data by segment, as
				jax.ops.segment_sum(data, segment_ids, num_segments, ...): row i of data is added to row
				segmentIDs[i] of an output of shape [numSegments] + data.shape[1:] that starts as zeros, in order.
				segmentIDs is 1-D, a segment id per row of data. JAX's num_segments=None is NumSegments(segmentIDs).`},
			{"SegmentProd", "segProd", "", `is SegmentSum multiplying, as jax.ops.segment_prod; an empty segment
				holds 1.`},
			{"SegmentMax", "segMax", "", `is SegmentSum taking the maximum (IEEE 754's, as XLA's: NaN propagates, -0 < +0),
				as jax.ops.segment_max; an empty segment holds -inf, the lowest integer or false.`},
			{"SegmentMin", "segMin", "", `is SegmentMax taking the minimum, as jax.ops.segment_min; an empty segment
				holds +inf, the highest integer or true.`},
		},
	}
	tfScatterV1 = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(ref, indices, updates tensor.Tensor) error {
			return scatterV1({{.Op}}, ref, indices, updates)
		}`,
		variants: []variant{
			{"ScatterUpdate", "v1Update", "", `writes updates into the rows of ref that indices name, in place, as
				tf.compat.v1.scatter_update(ref, indices, updates): ref[indices[i, ..., j], ...] = updates[i, ..., j, ...].
				Of duplicate indices the last in row-major index order wins (TensorFlow leaves the order undefined).` + v1Rule},
			{"ScatterAdd", "v1Add", "", `adds updates to the rows of ref that indices name, in place, one at a time
				in row-major index order, as tf.compat.v1.scatter_add(ref, indices, updates).` + v1Rule},
			{"ScatterSub", "v1Sub", "", `subtracts updates from the rows of ref that indices name, in place, one at
				a time in row-major index order, as tf.compat.v1.scatter_sub(ref, indices, updates).` + v1Rule},
			{"ScatterMul", "v1Mul", "", `multiplies the rows of ref that indices name by updates, in place, one at a
				time in row-major index order, as tf.compat.v1.scatter_mul(ref, indices, updates).` + v1Rule},
			{"ScatterDiv", "v1Div", "", `divides the rows of ref that indices name by updates, in place, one at a
				time in row-major index order, as tf.compat.v1.scatter_div(ref, indices, updates). Integers truncate
				toward zero; an integer update of 0 is an error of class engine.ErrArgument naming it, where
				TensorFlow's CPU kernel divides by zero.` + v1Rule},
			{"ScatterMin", "v1Min", "", `keeps the smaller of each element of the rows of ref that indices name and
				its update, in place, one at a time in row-major index order, as tf.compat.v1.scatter_min(ref, indices, updates).
				A NaN in ref stays; a NaN in updates is ignored.` + v1Rule},
			{"ScatterMax", "v1Max", "", `keeps the larger of each element of the rows of ref that indices name and
				its update, in place, one at a time in row-major index order, as tf.compat.v1.scatter_max(ref, indices, updates).
				A NaN in ref stays; a NaN in updates is ignored.` + v1Rule},
		},
	}
	tfSortedSegments = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(data, segmentIDs tensor.Tensor) (tensor.Tensor, error) {
			return {{.Op}}.call(data, segmentIDs)
		}`,
		into: `func {{.Name}}Into(dst, data, segmentIDs tensor.Tensor) error {
			return {{.Op}}.into(dst, data, segmentIDs)
		}`,
		intoDoc: "writing into dst, which has data's type and the output's shape, segment_ids[-1] + 1 rows, " +
			"and shares no memory with the inputs.",
		variants: []variant{
			{"SegmentSum", "segSum", "", `returns the sums of the rows of data that share a segment id, as
				tf.math.segment_sum(data, segment_ids): segment_ids is sorted, one id per row, and output row k (of
				segment_ids[-1] + 1) is the sum of the rows whose id is k, in row order, or 0.`},
			{"SegmentProd", "segProd", "", `is SegmentSum with products, as tf.math.segment_prod: an empty segment
				holds 1.`},
			{"SegmentMin", "segMin", "", `is SegmentSum with minimums, as tf.math.segment_min: a NaN in a segment
				makes its minimum NaN, and an empty segment holds 0.`},
			{"SegmentMax", "segMax", "", `is SegmentSum with maximums, as tf.math.segment_max: a NaN in a segment
				makes its maximum NaN, and an empty segment holds 0.`},
			{"SegmentMean", "segMean", "", `is SegmentSum with means, as tf.math.segment_mean: the sum divided by
				the number of rows, an integer mean rounded toward zero as the CPU kernel's C++ division rounds, and
				an empty segment 0.`},
		},
	}
	numpyReduceat = family{
		imports: []string{"github.com/scatter-dev/scatter/tensor"},
		alloc: `func {{.Name}}(array, indices tensor.Tensor, axis int) (tensor.Tensor, error) {
			return {{.Op}}.call(array, indices, axis)
		}`,
		into: `func {{.Name}}Into(dst, array, indices tensor.Tensor, axis int) error {
			return {{.Op}}.into(dst, array, indices, axis)
		}`,
		intoDoc: "writing into dst, which has the output's type and shape and shares no memory with the inputs.",
		variants: []variant{
			{"AddReduceat", "opAddReduceat", "", `returns the sums of the runs of array along axis that start at
				indices, as numpy.add.reduceat(array, indices, axis): output slice i along axis is the sum of
				array's slices indices[i] to indices[i+1]-1 (to the end of axis for the last), or slice indices[i]
				alone when indices[i] >= indices[i+1]. bool, int8, int16 and int32 arrays are summed in int64,
				uint8, uint16 and uint32 in uint64, the output's type; floats and complex numbers pairwise, as
				NumPy's add loop sums.`},
			{"MultiplyReduceat", "opMulReduceat", "", `is AddReduceat with products, as numpy.multiply.reduceat,
				widened as AddReduceat widens, multiplied in order.`},
			{"MaximumReduceat", "opMaxReduceat", "", `is AddReduceat with maximums, as numpy.maximum.reduceat: in
				array's type, a NaN in a run making its maximum NaN.`},
			{"MinimumReduceat", "opMinReduceat", "", `is AddReduceat with minimums, as numpy.minimum.reduceat: in
				array's type, a NaN in a run making its minimum NaN.`},
		},
	}
)

// v1Rule is what the doc comment of every tf.compat.v1 scatter says after
// what it does, beginning with the space that follows that sentence.
const v1Rule = ` updates has shape indices.shape + ref.shape[1:], or is a scalar applied at
	every index. A negative or out-of-range index is an error naming the first one, and ref is left as it was
	(TensorFlow's CPU kernel has applied the updates before it). The call allocates nothing once warm, but for a
	scalar updates, which it spreads.`

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: genvariants DIALECT")
		os.Exit(2)
	}
	src, err := generate(os.Args[1])
	if err == nil {
		// Into a temporary file renamed over the old one: an error or a
		// stop halfway leaves the old file whole.
		err = atomicfile.Write(fileName, func(w io.Writer) error {
			_, err := w.Write(src)
			return err
		})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genvariants:", err)
		os.Exit(1)
	}
}

// generate returns the file of variants of the named dialect, formatted.
func generate(dialect string) ([]byte, error) {
	families, ok := dialects[dialect]
	if !ok {
		return nil, fmt.Errorf("no dialect %q", dialect)
	}
	var imports []string
	for _, f := range families {
		imports = append(imports, f.imports...)
	}
	slices.Sort(imports)
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by genvariants %s; DO NOT EDIT.\n\npackage %s\n\nimport (\n", dialect, dialect)
	for _, imp := range slices.Compact(imports) {
		fmt.Fprintf(&b, "\t%q\n", imp)
	}
	b.WriteString(")\n")
	for _, f := range families {
		if err := f.write(&b); err != nil {
			return nil, err
		}
	}
	return format.Source(b.Bytes())
}

// write writes f's functions, each variant's followed by its Into form.
func (f family) write(b *bytes.Buffer) error {
	alloc, err := template.New("alloc").Parse(f.alloc)
	if err != nil {
		return err
	}
	into, err := template.New("into").Parse(f.into)
	if err != nil {
		return err
	}
	for _, v := range f.variants {
		b.WriteString("\n")
		comment(b, v.Name+" "+v.Doc)
		if err := alloc.Execute(b, v); err != nil {
			return err
		}
		b.WriteString("\n")
		if f.into == "" {
			continue
		}
		b.WriteString("\n")
		comment(b, v.Name+"Into is "+v.Name+" "+f.intoDoc)
		if err := into.Execute(b, v); err != nil {
			return err
		}
		b.WriteString("\n")
	}
	return nil
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
