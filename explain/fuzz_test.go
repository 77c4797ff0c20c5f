package explain

import (
	"errors"
	"io"
	"maps"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// fuzzCall builds a call of op from the fuzzer's bytes: small float32
// tensors, int32 or int64 indices with values in [-5, 5], shapes that
// mostly fit, and attributes from the operator's own tables.
func fuzzCall(fz *tensortest.Fuzz, op *dialect.Op) dialect.Call {
	v := op.Versions[fz.Pick(len(op.Versions))]
	c := dialect.Call{Opset: v, Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	dataShape := fz.Shape()
	indexType := tensor.Int64
	if fz.Bool() {
		indexType = tensor.Int32
	}
	if op.Plan != nil {
		return fuzzGeneralCall(fz, op, c, dataShape, indexType)
	}
	var indexShape tensor.Shape
	for _, p := range op.Inputs {
		switch {
		case p.Role == dialect.RoleData:
			c.Inputs[p.Name] = fz.Values(tensor.Float32, dataShape)
		case p.Role == dialect.RoleIndices && isSegmentOp(op) && op.Family != "reduceat":
			indexShape = dataShape[:fz.Pick(len(dataShape)+1)] // ids of a prefix of data's shape
			c.Inputs[p.Name] = fz.Indices(indexType, indexShape)
		case p.Role == dialect.RoleNumSegments:
			c.Inputs[p.Name] = tensor.Scalar(int64(fz.Pick(5)))
		case p.Role == dialect.RoleIndices:
			indexShape = fz.Fit(fz.Within(dataShape, 0))
			if op.Family == "scatter_nd" || op.Family == "gather_nd" {
				k := min(fz.Pick(3)+1, max(len(dataShape), 1))
				indexShape = append(fz.Shape(), k)
			}
			c.Inputs[p.Name] = fz.Indices(indexType, indexShape)
		case p.Role == dialect.RoleUpdates:
			want := indexShape
			if op.Family == "scatter_nd" && len(indexShape) > 0 {
				k := indexShape[len(indexShape)-1]
				want = append(indexShape[:len(indexShape)-1].Clone(), dataShape[min(k, len(dataShape)):]...)
			}
			c.Inputs[p.Name] = fz.Values(tensor.Float32, fz.Fit(want))
		case p.Role == dialect.RoleShape:
			c.Attrs[p.Name] = dialect.Value{Kind: dialect.Ints, Ints: toInt64(dataShape)}
		case p.Role == dialect.RoleAxis:
			c.Attrs[p.Name] = dialect.Value{Kind: dialect.Int, Int: int64(fz.Next() % 3)}
		}
	}
	b := op.Behavior(v)
	for _, a := range op.Attrs {
		switch {
		case a.Since > v:
		case a.Role == dialect.RoleAxis:
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.Int, Int: int64(fz.Next() % 3)}
		case a.Role == dialect.RoleBatchDims:
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.Int, Int: int64(fz.Pick(2))}
		case a.Role == dialect.RoleReduction:
			names := slices.Sorted(maps.Keys(b.Reductions))
			if len(names) > 0 {
				c.Attrs[a.Name] = dialect.Value{Kind: dialect.String, Str: names[fz.Pick(len(names))]}
			}
		case a.Kind == dialect.Bool:
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.Bool, Bool: fz.Bool()}
		}
	}
	return c
}

// fuzzGeneralCall builds a call of a general operator (one with a plan):
// the dimension numbers of ScatterND or GatherND for the scatters and
// gathers, set by role, and a start index and sizes for the dynamic
// slices.
func fuzzGeneralCall(fz *tensortest.Fuzz, op *dialect.Op, c dialect.Call, ds tensor.Shape, it tensor.DType) dialect.Call {
	set := func(role dialect.Role, v []int) {
		for _, a := range op.Attrs {
			if a.Role == role {
				c.Attrs[a.Name] = dialect.Value{Kind: dialect.Ints, Ints: toInt64(v)}
			}
		}
	}
	setInt := func(role dialect.Role, v int) {
		for _, a := range op.Attrs {
			if a.Role == role {
				c.Attrs[a.Name] = dialect.Value{Kind: dialect.Int, Int: int64(v)}
			}
		}
	}
	sizes := make([]int, len(ds))
	for d := range sizes {
		sizes[d] = fz.Pick(ds[d] + 1)
	}
	start := make([]int64, len(ds))
	for d := range start {
		start[d] = int64(fz.Pick(11) - 5)
	}
	for _, p := range op.Inputs {
		switch {
		case p.Role == dialect.RoleData:
			c.Inputs[p.Name] = fz.Values(tensor.Float32, ds)
		case p.Role == dialect.RoleIndices && (op.Family == "dynamic_slice" || op.Family == "dynamic_update_slice"):
			c.Inputs[p.Name] = tensor.Must(tensor.From(tensor.Shape{len(start)}, start))
		case p.Role == dialect.RoleUpdates && op.Family == "dynamic_update_slice":
			c.Inputs[p.Name] = fz.Values(tensor.Float32, sizes)
		}
	}
	switch op.Family {
	case "dynamic_slice":
		set(dialect.RoleSliceSizes, sizes)
	case "general_scatter":
		indices, us := fz.ND(it, ds, 0, true)
		c.Inputs[op.Inputs[1].Name] = indices
		c.Inputs[op.Inputs[2].Name] = fz.Values(tensor.Float32, us)
		d := engine.ScatterNDDims(len(ds), indices.Shape())
		set(dialect.RoleUpdateWindowDims, d.UpdateWindowDims)
		set(dialect.RoleInsertedWindowDims, d.InsertedWindowDims)
		set(dialect.RoleScatterDimsToOperandDims, d.ScatterDimsToOperandDims)
		setInt(dialect.RoleIndexVectorDim, d.IndexVectorDim)
	case "general_gather":
		indices, _ := fz.ND(it, ds, 0, false)
		c.Inputs[op.Inputs[1].Name] = indices
		d := engine.GatherNDDims(ds, indices.Shape(), 0)
		set(dialect.RoleOffsetDims, d.OffsetDims)
		set(dialect.RoleCollapsedSliceDims, d.CollapsedSliceDims)
		set(dialect.RoleStartIndexMap, d.StartIndexMap)
		set(dialect.RoleSliceSizes, d.SliceSizes)
		setInt(dialect.RoleIndexVectorDim, d.IndexVectorDim)
	}
	return c
}

func toInt64(s tensor.Shape) []int64 {
	v := make([]int64, len(s))
	for i, d := range s {
		v[i] = int64(d)
	}
	return v
}

// FuzzRun traces random calls of every operator and checks the trace
// against the output the operator computed.
func FuzzRun(f *testing.F) {
	for i := range 40 {
		f.Add([]byte{byte(i), 2, 2, 3, 1, 0, 2, 1, 1, 2, 2, 1, 0, 1, 2, 3, 4, 5, 6, 7})
	}
	ops := registry.Ops()
	f.Fuzz(func(t *testing.T, b []byte) {
		fz := tensortest.NewFuzz(b)
		op := ops[fz.Pick(len(ops))]
		tr, err := Run(op, fuzzCall(fz, op))
		var ie *engine.IndexError
		switch {
		case err != nil && errors.As(err, &ie) && tr != nil:
			if tr.Output != nil || tr.Err != err {
				t.Fatalf("%s: failed trace %+v", op.Name, tr)
			}
		case err != nil:
			if tr != nil {
				t.Fatalf("%s: trace with error %v", op.Name, err)
			}
			return
		default:
			checkTrace(t, op, tr)
		}
		if err := tr.WriteText(io.Discard, true); err != nil {
			t.Fatal(err)
		}
		err = tr.WriteSVG(io.Discard)
		if tr.Fits() != nil {
			// A tensor too large to draw (a general gather's result can
			// be): the picture is refused, as Fits says.
			if !errors.Is(err, ErrTooLarge) {
				t.Fatalf("%s: a trace that does not fit drew with %v", op.Name, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
	})
}

// checkTrace checks a trace's links and statuses against its output: a
// gathered element equals its data cell, and without reduction an output
// cell holds the update that reached it last. It returns the number of
// links whose values it checked.
func checkTrace(t *testing.T, op *dialect.Op, tr *Trace) (checked int) {
	t.Helper()
	hits := make([]int, tr.Output.Tensor.Len())
	for _, l := range tr.Links {
		if l.To >= 0 {
			hits[l.To]++
		}
		switch {
		case !tr.Scatter && l.From >= 0:
			checked++
			if got, want := tr.Output.Tensor.At(l.To), tr.Data.Tensor.At(l.From); got != want {
				t.Fatalf("%s: output cell %d is %v, its source %d holds %v", op.Name, l.To, got, l.From, want)
			}
		case tr.Scatter && tr.Combine == engine.None && l.To >= 0 && !l.Lost && tr.Updates.Name != "value":
			checked++
			if got, want := tr.Output.Tensor.At(l.To), tr.Updates.Tensor.At(l.From); got != want {
				t.Fatalf("%s: output cell %d is %v, its last update %d is %v", op.Name, l.To, got, l.From, want)
			}
		}
	}
	if tr.Segments {
		checked += checkSegments(t, op, tr)
	}
	for i, c := range tr.Output.Cells {
		if tr.Scatter && c.Hits != hits[i] || c.Status == Plain {
			t.Fatalf("%s: output cell %d is %+v, with %d links", op.Name, i, c, hits[i])
		}
		if tr.Scatter && c.Hits == 0 && tr.Data != nil && tr.Output.Tensor.At(i) != tr.Data.Tensor.At(i) {
			t.Fatalf("%s: untouched cell %d changed", op.Name, i)
		}
	}
	return checked
}

// checkSegments checks a segment reduction's trace against its ids: each
// link of a row goes to the row its id names (reduceat aside, whose links
// follow its runs), and an empty segment holds the operator's fill.
func checkSegments(t *testing.T, op *dialect.Op, tr *Trace) (checked int) {
	t.Helper()
	out := tr.Output.Tensor
	if op.Family != "reduceat" && out.Rank() > 0 {
		slice, _ := out.Shape()[1:].NumElements()
		for _, l := range tr.Links {
			id, _ := tr.Indices.Tensor.IntAt(l.Index)
			if l.To >= 0 && int64(l.To/max(slice, 1)) != id {
				t.Fatalf("%s: %s[%d] = %d, but its row's element %d links to output cell %d", op.Name, tr.Indices.Name, l.Index, id, l.From, l.To)
			}
			checked++
		}
	}
	_, b, err := op.Resolve(tr.Version)
	if err != nil {
		t.Fatal(err)
	}
	f, _, named := segmentFill(op, b, tr.Combine)
	fill, ok := dialect.FillValue(f, out.DType())
	ok = ok && named
	for i, c := range tr.Output.Cells {
		if c.Status == Empty && ok && out.At(i) != fill.At(0) {
			t.Fatalf("%s: empty segment cell %d holds %v, not the fill %v", op.Name, i, out.At(i), fill.At(0))
		}
	}
	return checked
}
