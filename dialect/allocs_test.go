package dialect_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/dialect/jax"
	"github.com/scatter-dev/scatter/dialect/mindspore"
	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/dialect/openvino"
	"github.com/scatter-dev/scatter/dialect/stablehlo"
	"github.com/scatter-dev/scatter/dialect/tf"
	"github.com/scatter-dev/scatter/dialect/torch"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// allocCase is one steady-state call of an operator's Into form.
type allocCase struct {
	op   string // the registry name of the operator called
	name string // what sets the call apart
	call func() error
}

// inputs are the tensors the calls of allocCases read and write, of n
// rows of m elements along the scatters' and gathers' axis 1 (k index
// values per row), with indices drawn to hit many duplicates.
type inputs struct {
	data, data2, dst, half, halfDst                 tensor.Tensor   // [n,m] float32 (two), float16
	dstInts, ints                                   tensor.Tensor   // [n,m] int32
	rowIdx, rowIdx32, rowUpd, rowUpdInts, rowUpdF16 tensor.Tensor   // along axis 1: [n,k]
	colIdx, colUpd                                  tensor.Tensor   // along axis 0: [k,m]
	ndElems, ndElemUpd, ndElemOut                   tensor.Tensor   // ScatterND/GatherND by element: [n*k,2], [n*k]
	ndRows, ndRows32, ndRowUpd, ndRowOut            tensor.Tensor   // by row: [k,1], [k,m]
	ndRowsF16                                       tensor.Tensor   // [k,m] float16
	gatherIdx, gatherIdx32, gatherOut               tensor.Tensor   // Gather axis 0: [k], [k,m]
	gatherElemOut                                   tensor.Tensor   // [n,k]
	nanUpd                                          tensor.Tensor   // [n*k] with NaNs
	putIdx                                          []tensor.Tensor // index_put's: ndElems' two columns, [n*k] each
	mask                                            tensor.Tensor   // [n,m] bool, every third element true
	one                                             tensor.Tensor   // a 0-d float32
	bins, binsF32, rowBins                          tensor.Tensor   // bincount's: int32 [n], float32 [m], int32 [n,m]
}

func newInputs(n, m, k int) *inputs {
	rng := rand.New(rand.NewPCG(5, 6))
	f32 := func(s tensor.Shape) tensor.Tensor {
		c, _ := s.NumElements()
		v := make([]float32, c)
		for i := range v {
			v[i] = rng.Float32()*2 - 1
		}
		return tensor.Must(tensor.From(s, v))
	}
	f16 := func(t tensor.Tensor) tensor.Tensor {
		v := make([]float16.Float16, t.Len())
		for i, x := range t.Data().([]float32) {
			v[i] = float16.Fromfloat32(x)
		}
		return tensor.Must(tensor.From(t.Shape(), v))
	}
	i32 := func(t tensor.Tensor) tensor.Tensor {
		v := make([]int32, t.Len())
		for i := range v {
			x, _ := t.IntAt(i)
			v[i] = int32(x)
		}
		return tensor.Must(tensor.From(t.Shape(), v))
	}
	ints := func(s tensor.Shape, below ...int) tensor.Tensor {
		c, _ := s.NumElements()
		v := make([]int64, c)
		for i := range v {
			v[i] = int64(rng.IntN(below[i%len(below)]))
		}
		return tensor.Must(tensor.From(s, v))
	}
	in := &inputs{
		data: f32(tensor.Shape{n, m}), data2: f32(tensor.Shape{n, m}), dst: f32(tensor.Shape{n, m}),
		rowIdx: ints(tensor.Shape{n, k}, m), rowUpd: f32(tensor.Shape{n, k}),
		colIdx: ints(tensor.Shape{k, m}, n), colUpd: f32(tensor.Shape{k, m}),
		ndElems: ints(tensor.Shape{n * k, 2}, n, m), ndElemUpd: f32(tensor.Shape{n * k}), ndElemOut: f32(tensor.Shape{n * k}),
		ndRows: ints(tensor.Shape{k, 1}, n), ndRowUpd: f32(tensor.Shape{k, m}), ndRowOut: f32(tensor.Shape{k, m}),
		gatherIdx: ints(tensor.Shape{k}, n), gatherOut: f32(tensor.Shape{k, m}),
		gatherElemOut: f32(tensor.Shape{n, k}),
		nanUpd:        f32(tensor.Shape{n * k}),
	}
	in.half, in.halfDst, in.rowUpdF16, in.ndRowsF16 = f16(in.data), f16(in.dst), f16(in.rowUpd), f16(in.ndRowUpd)
	in.ints, in.dstInts = i32(in.rowIdx), i32(in.data)
	in.ints = tensor.Must(tensor.New(tensor.Int32, tensor.Shape{n, m}))
	in.rowIdx32, in.ndRows32, in.gatherIdx32 = i32(in.rowIdx), i32(in.ndRows), i32(in.gatherIdx)
	in.rowUpdInts = i32(in.rowIdx)
	in.bins = tensor.Must(tensor.New(tensor.Int32, tensor.Shape{n}))
	in.binsF32 = tensor.Must(tensor.New(tensor.Float32, tensor.Shape{m}))
	in.rowBins = tensor.Must(tensor.New(tensor.Int32, tensor.Shape{n, m}))
	rows, cols := make([]int64, n*k), make([]int64, n*k)
	for i := range rows {
		rows[i], _ = in.ndElems.IntAt(2 * i)
		cols[i], _ = in.ndElems.IntAt(2*i + 1)
	}
	in.putIdx = []tensor.Tensor{tensor.Must(tensor.From(tensor.Shape{n * k}, rows)), tensor.Must(tensor.From(tensor.Shape{n * k}, cols))}
	mask := make([]bool, n*m)
	for i := range mask {
		mask[i] = i%3 == 0
	}
	in.mask, in.one = tensor.Must(tensor.From(tensor.Shape{n, m}, mask)), tensor.Scalar(float32(1.5))
	nan := in.nanUpd.Data().([]float32)
	for i := 0; i < len(nan); i += 3 {
		nan[i] = float32(0) / float32(len(nan)-len(nan)) // NaN
	}
	return in
}

// segments returns sorted segment ids for the rows of in.data, three
// rows a segment with every other id left out, as int64 and int32, and a
// float32 output for them.
func (in *inputs) segments() (ids, ids32, out tensor.Tensor) {
	n, m := in.data.Shape()[0], in.data.Shape()[1]
	v, v32 := make([]int64, n), make([]int32, n)
	for i := range v {
		v[i], v32[i] = int64(i/3*2), int32(i/3*2)
	}
	return tensor.Must(tensor.From(tensor.Shape{n}, v)), tensor.Must(tensor.From(tensor.Shape{n}, v32)),
		tensor.Must(tensor.New(tensor.Float32, tensor.Shape{int(v[n-1]) + 1, m}))
}

// allocCases returns a call of the Into form of every operator of every
// dialect, in each of its reductions, in place and into another dst, with
// int32 indices where the operator takes them, and in float16 where the
// dialect computes halves its own way.
func allocCases(in *inputs) []allocCase {
	var cs []allocCase
	add := func(op, name string, call func() error) { cs = append(cs, allocCase{op, name, call}) }

	// onnx
	o := onnx.Latest
	for _, red := range []onnx.Reduction{onnx.ReductionNone, onnx.ReductionAdd, onnx.ReductionMul, onnx.ReductionMax, onnx.ReductionMin} {
		name := string(red)
		add("onnx.ScatterND", name, func() error { return o.ScatterNDInto(in.dst, in.data, in.ndElems, in.ndElemUpd, red) })
		add("onnx.ScatterND", name+" rows in place", func() error { return o.ScatterNDInto(in.data, in.data, in.ndRows, in.ndRowUpd, red) })
		add("onnx.ScatterElements", name, func() error {
			return o.ScatterElementsInto(in.dst, in.data, in.rowIdx, in.rowUpd, 1, red)
		})
		add("onnx.ScatterElements", name+" in place int32", func() error {
			return o.ScatterElementsInto(in.data, in.data, in.rowIdx32, in.rowUpd, 1, red)
		})
		add("onnx.ScatterElements", name+" axis 0", func() error {
			return o.ScatterElementsInto(in.dst, in.data, in.colIdx, in.colUpd, 0, red)
		})
		add("onnx.ScatterElements", name+" axis 0 in place", func() error {
			return o.ScatterElementsInto(in.data, in.data, in.colIdx, in.colUpd, 0, red)
		})
	}
	add("onnx.Scatter", "opset 9", func() error { return onnx.Opset(9).ScatterInto(in.dst, in.data, in.rowIdx, in.rowUpd, 1) })
	add("onnx.GatherND", "elements", func() error { return o.GatherNDInto(in.ndElemOut, in.data, in.ndElems, 0) })
	add("onnx.GatherND", "rows", func() error { return o.GatherNDInto(in.ndRowOut, in.data, in.ndRows, 0) })
	add("onnx.GatherElements", "int64", func() error { return o.GatherElementsInto(in.gatherElemOut, in.data, in.rowIdx, 1) })
	add("onnx.GatherElements", "int32", func() error { return o.GatherElementsInto(in.gatherElemOut, in.data, in.rowIdx32, 1) })
	add("onnx.Gather", "int64", func() error { return o.GatherInto(in.gatherOut, in.data, in.gatherIdx, 0) })
	add("onnx.Gather", "int32", func() error { return o.GatherInto(in.gatherOut, in.data, in.gatherIdx32, 0) })

	// tf
	add("tf.gather_nd", "elements", func() error { return tf.GatherNDInto(in.ndElemOut, in.data, in.ndElems, 0) })
	add("tf.gather", "int32", func() error { return tf.GatherInto(in.gatherOut, in.data, in.gatherIdx32, 0, 0) })
	add("tf.scatter_nd", "rows", func() error { return tf.ScatterNDInto(in.dst, in.ndRows, in.ndRowUpd) })
	for _, op := range []struct {
		name string
		into func(dst, t, indices, updates tensor.Tensor) error
	}{
		{"update", tf.TensorScatterUpdateInto}, {"add", tf.TensorScatterAddInto}, {"sub", tf.TensorScatterSubInto},
		{"min", tf.TensorScatterMinInto}, {"max", tf.TensorScatterMaxInto},
	} {
		name := "tf.tensor_scatter_nd_" + op.name
		add(name, "", func() error { return op.into(in.dst, in.data, in.ndElems, in.ndElemUpd) })
		add(name, "in place rows", func() error { return op.into(in.data, in.data, in.ndRows, in.ndRowUpd) })
		add(name, "NaN updates", func() error { return op.into(in.dst, in.data, in.ndElems, in.nanUpd) })
	}
	segIDs, segIDs32, segOut := in.segments()
	// numpy's reduceat: runs starting at the ids (sorted, some repeated),
	// float32 into segOut's rows, int32 widened to int64.
	runStarts := segIDs
	startsOut := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{segIDs.Len(), in.data.Shape()[1]}))
	startsWide := tensor.Must(tensor.New(tensor.Int64, startsOut.Shape()))
	for _, op := range []struct {
		name string
		into func(dst, array, indices tensor.Tensor, axis int) error
	}{
		{"add", numpy.AddReduceatInto}, {"multiply", numpy.MultiplyReduceatInto},
		{"maximum", numpy.MaximumReduceatInto}, {"minimum", numpy.MinimumReduceatInto},
	} {
		name := "numpy." + op.name + ".reduceat"
		add(name, "float32", func() error { return op.into(startsOut, in.data, runStarts, 0) })
		if op.name == "add" || op.name == "multiply" {
			add(name, "int32 widened", func() error { return op.into(startsWide, in.ints, runStarts, 0) })
		}
	}
	for _, op := range []struct {
		name string
		into func(dst, data, ids tensor.Tensor) error
	}{
		{"sum", tf.SegmentSumInto}, {"prod", tf.SegmentProdInto}, {"min", tf.SegmentMinInto},
		{"max", tf.SegmentMaxInto}, {"mean", tf.SegmentMeanInto},
	} {
		name := "tf.math.segment_" + op.name
		add(name, "int64", func() error { return op.into(segOut, in.data, segIDs) })
		add(name, "int32", func() error { return op.into(segOut, in.data, segIDs32) })
	}
	for _, op := range []struct {
		name    string
		scatter func(ref, indices, updates tensor.Tensor) error
	}{
		{"update", tf.ScatterUpdate}, {"add", tf.ScatterAdd}, {"sub", tf.ScatterSub}, {"mul", tf.ScatterMul},
		{"div", tf.ScatterDiv}, {"min", tf.ScatterMin}, {"max", tf.ScatterMax},
	} {
		name := "tf.compat.v1.scatter_" + op.name
		add(name, "rows in place", func() error { return op.scatter(in.data, in.gatherIdx, in.ndRowUpd) })
		add(name, "rows in place int32", func() error { return op.scatter(in.data, in.gatherIdx32, in.ndRowUpd) })
	}
	add("tf.math.bincount", "counts", func() error {
		return tf.BincountInto(in.bins, in.gatherIdx, tf.BincountOptions{MinLength: in.bins.Len()})
	})
	add("tf.math.bincount", "weights int32 arr", func() error {
		return tf.BincountInto(in.binsF32, in.rowIdx32, tf.BincountOptions{Weights: in.rowUpd, MinLength: in.binsF32.Len()})
	})
	add("tf.math.bincount", "rows binary", func() error {
		return tf.BincountInto(in.rowBins, in.rowIdx, tf.BincountOptions{Axis: -1, BinaryOutput: true, MinLength: in.rowBins.Dim(1)})
	})

	// torch
	add("torch.scatter", "src", func() error { return torch.ScatterInto(in.dst, in.data, 1, in.rowIdx, in.rowUpd, "") })
	add("torch.scatter", "add in place", func() error { return torch.ScatterInto(in.data, in.data, 1, in.rowIdx, in.rowUpd, "add") })
	add("torch.scatter", "multiply float16", func() error {
		return torch.ScatterInto(in.halfDst, in.half, 1, in.rowIdx, in.rowUpdF16, "multiply")
	})
	add("torch.scatter", "value", func() error {
		return torch.ScatterValueInto(in.dst, in.data, 1, in.rowIdx, torch.Float(0.5), "")
	})
	add("torch.scatter", "value add in place", func() error {
		return torch.ScatterValueInto(in.data, in.data, 0, in.colIdx, torch.Float(0.5), "add")
	})
	add("torch.scatter_add", "", func() error { return torch.ScatterAddInto(in.dst, in.data, 1, in.rowIdx, in.rowUpd) })
	add("torch.scatter_add", "float16 in place", func() error {
		return torch.ScatterAddInto(in.half, in.half, 1, in.rowIdx, in.rowUpdF16)
	})
	for _, red := range []torch.Reduce{torch.ReduceSum, torch.ReduceProd, torch.ReduceMean, torch.ReduceAmax, torch.ReduceAmin} {
		for _, self := range []bool{true, false} {
			name := fmt.Sprintf("%s include_self=%v", red, self)
			add("torch.scatter_reduce", name, func() error {
				return torch.ScatterReduceInto(in.dst, in.data, 1, in.rowIdx, in.rowUpd, red, self)
			})
			add("torch.scatter_reduce", name+" axis 0 in place", func() error {
				return torch.ScatterReduceInto(in.data2, in.data2, 0, in.colIdx, in.colUpd, red, self)
			})
			add("torch.scatter_reduce", name+" float16", func() error {
				return torch.ScatterReduceInto(in.halfDst, in.half, 1, in.rowIdx, in.rowUpdF16, red, self)
			})
			add("torch.scatter_reduce", name+" int32", func() error {
				return torch.ScatterReduceInto(in.dstInts, in.ints, 1, in.rowIdx, in.rowUpdInts, red, self)
			})
		}
	}
	// An empty index: the input as it is, but a mean divides every element.
	noIdx, noSrc := tensor.Must(tensor.New(tensor.Int64, tensor.Shape{0})), tensor.Must(tensor.New(tensor.Float32, tensor.Shape{0}))
	for _, red := range []torch.Reduce{torch.ReduceMean, torch.ReduceSum} {
		add("torch.scatter_reduce", string(red)+" empty index", func() error {
			return torch.ScatterReduceInto(in.dst, in.data, 1, noIdx, noSrc, red, false)
		})
	}
	add("torch.gather", "", func() error { return torch.GatherInto(in.gatherElemOut, in.data, 1, in.rowIdx) })
	add("torch.index_select", "int32", func() error { return torch.IndexSelectInto(in.gatherOut, in.data, 0, in.gatherIdx32) })
	add("torch.index_add", "rows", func() error {
		return torch.IndexAddInto(in.dst, in.data, 0, in.gatherIdx, in.ndRowUpd, torch.Int(1))
	})
	add("torch.index_add", "alpha in place int32", func() error {
		return torch.IndexAddInto(in.data, in.data, 0, in.gatherIdx32, in.ndRowUpd, torch.Float(0.5))
	})
	add("torch.index_add", "alpha float16", func() error {
		return torch.IndexAddInto(in.halfDst, in.half, 1, in.gatherIdx, in.rowUpdF16, torch.Float(0.5))
	})
	add("torch.index_add", "dim 1 float16", func() error {
		return torch.IndexAddInto(in.halfDst, in.half, 1, in.gatherIdx, in.rowUpdF16, torch.Int(1))
	})
	add("torch.index_copy", "", func() error { return torch.IndexCopyInto(in.dst, in.data, 0, in.gatherIdx, in.ndRowUpd) })
	add("torch.index_fill", "dim 1", func() error { return torch.IndexFillInto(in.dst, in.data, 1, in.gatherIdx, torch.Float(0.5)) })
	for _, red := range []torch.Reduce{torch.ReduceProd, torch.ReduceMean, torch.ReduceAmax, torch.ReduceAmin} {
		for _, self := range []bool{true, false} {
			name := fmt.Sprintf("%s include_self %v", red, self)
			add("torch.index_reduce", name, func() error {
				return torch.IndexReduceInto(in.dst, in.data, 0, in.gatherIdx, in.ndRowUpd, red, self)
			})
			add("torch.index_reduce", name+" float16 in place", func() error {
				return torch.IndexReduceInto(in.half, in.half, 0, in.gatherIdx, in.ndRowsF16, red, self)
			})
		}
	}
	add("torch.take", "", func() error { return torch.TakeInto(in.gatherElemOut, in.data, in.rowIdx) })
	add("torch.take_along_dim", "dim 1", func() error { return torch.TakeAlongDimInto(in.gatherElemOut, in.data, in.rowIdx, 1) })
	add("torch.take_along_dim", "flat", func() error { return torch.TakeAlongDimFlatInto(in.ndElemOut, in.data, in.rowIdx) })
	add("torch.index_put", "rows", func() error {
		return torch.IndexPutInto(in.dst, in.data, []tensor.Tensor{in.gatherIdx}, in.ndRowUpd, false)
	})
	add("torch.index_put", "elements, accumulate", func() error {
		return torch.IndexPutInto(in.data2, in.data2, in.putIdx, in.ndElemUpd, true)
	})
	add("torch.index_put", "mask", func() error {
		return torch.IndexPutInto(in.dst, in.data, []tensor.Tensor{in.mask}, in.one, false)
	})
	add("torch.masked_scatter", "in place", func() error {
		return torch.MaskedScatterInto(in.data2, in.data2, in.mask, in.data)
	})
	for _, acc := range []bool{false, true} {
		add("torch.put", fmt.Sprint("in place, accumulate ", acc), func() error {
			return torch.PutInto(in.data2, in.data2, in.rowIdx, in.rowUpd, acc)
		})
	}

	// openvino
	ov := openvino.Latest
	for _, red := range []openvino.Reduction{openvino.ReductionNone, openvino.ReductionSum, openvino.ReductionProd, openvino.ReductionMin, openvino.ReductionMax, openvino.ReductionMean} {
		for _, init := range []bool{true, false} {
			name := fmt.Sprintf("%s use_init_val=%v", red, init)
			add("openvino.ScatterElementsUpdate", name, func() error {
				return ov.ScatterElementsUpdateInto(in.dst, in.data, in.rowIdx, in.rowUpd, 1, red, init)
			})
			add("openvino.ScatterElementsUpdate", name+" axis 0 in place", func() error {
				return ov.ScatterElementsUpdateInto(in.data2, in.data2, in.colIdx, in.colUpd, 0, red, init)
			})
		}
	}
	for _, red := range []openvino.Reduction{openvino.ReductionNone, openvino.ReductionSum, openvino.ReductionSub, openvino.ReductionProd, openvino.ReductionMin, openvino.ReductionMax} {
		add("openvino.ScatterNDUpdate", string(red), func() error { return ov.ScatterNDUpdateInto(in.dst, in.data, in.ndRows32, in.ndRowUpd, red) })
	}
	add("openvino.GatherND", "opset 5", func() error { return openvino.Opset(5).GatherNDInto(in.ndElemOut, in.data, in.ndElems, 0) })
	add("openvino.GatherND", "", func() error { return ov.GatherNDInto(in.ndRowOut, in.data, in.ndRows32, 0) })
	add("openvino.GatherElements", "", func() error { return ov.GatherElementsInto(in.gatherElemOut, in.data, in.rowIdx32, 1) })

	// mindspore
	add("mindspore.scatter_nd", "", func() error { return mindspore.ScatterNDInto(in.dst, in.ndElems, in.ndElemUpd) })
	add("mindspore.gather_nd", "", func() error { return mindspore.GatherNDInto(in.ndRowOut, in.data, in.ndRows32) })
	for _, red := range []mindspore.Reduction{mindspore.ReductionNone, mindspore.ReductionAdd} {
		add("mindspore.tensor_scatter_elements", string(red), func() error {
			return mindspore.TensorScatterElementsInto(in.dst, in.data, in.rowIdx32, in.rowUpd, 1, red)
		})
		add("mindspore.tensor_scatter_elements", string(red)+" in place", func() error {
			return mindspore.TensorScatterElementsInto(in.data, in.data, in.rowIdx, in.rowUpd, -1, red)
		})
	}
	// stablehlo: the forms' dimension numbers (rows), and general ones
	// (columns, the window's dimension first).
	rows := stablehlo.GatherDims{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0},
		IndexVectorDim: 1, SliceSizes: []int{1, in.data.Dim(1)}}
	cols := stablehlo.GatherDims{OffsetDims: []int{0}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1},
		IndexVectorDim: 1, SliceSizes: []int{in.data.Dim(0), 1}}
	add("stablehlo.gather", "rows", func() error { return stablehlo.GatherInto(in.ndRowOut, in.data, in.ndRows, rows) })
	add("stablehlo.gather", "columns", func() error { return stablehlo.GatherInto(in.gatherElemOut, in.data, in.gatherIdx, cols) })
	rowsS := stablehlo.ScatterDims{UpdateWindowDims: []int{1}, InsertedWindowDims: []int{0}, ScatterDimsToOperandDims: []int{0},
		IndexVectorDim: 1}
	colsS := stablehlo.ScatterDims{UpdateWindowDims: []int{0}, InsertedWindowDims: []int{1}, ScatterDimsToOperandDims: []int{1},
		IndexVectorDim: 1}
	for _, c := range []stablehlo.Computation{stablehlo.Replace, stablehlo.Add, stablehlo.Multiply, stablehlo.Maximum, stablehlo.Minimum} {
		add("stablehlo.scatter", string(c)+" rows", func() error {
			return stablehlo.ScatterInto(in.dst, in.data, in.ndRows, in.ndRowUpd, rowsS, c)
		})
		add("stablehlo.scatter", string(c)+" columns in place", func() error {
			return stablehlo.ScatterInto(in.data2, in.data2, in.gatherIdx, in.rowUpd, colsS, c)
		})
	}
	for _, c := range []stablehlo.Computation{stablehlo.And, stablehlo.Or, stablehlo.Xor} {
		add("stablehlo.scatter", string(c)+" int32 columns", func() error {
			return stablehlo.ScatterInto(in.ints, in.dstInts, in.gatherIdx, in.rowUpdInts, colsS, c)
		})
	}
	starts := []tensor.Tensor{tensor.Scalar(int64(1)), tensor.Scalar(int64(3))}
	add("stablehlo.dynamic_slice", "", func() error { return stablehlo.DynamicSliceInto(in.gatherOut, in.data, starts) })
	add("stablehlo.dynamic_update_slice", "in place", func() error {
		return stablehlo.DynamicUpdateSliceInto(in.data2, in.data2, in.ndRowUpd, starts)
	})

	// jax
	jrows := jax.GatherDimensionNumbers{OffsetDims: []int{1}, CollapsedSliceDims: []int{0}, StartIndexMap: []int{0}}
	jcols := jax.GatherDimensionNumbers{OffsetDims: []int{0}, CollapsedSliceDims: []int{1}, StartIndexMap: []int{1}}
	for _, mode := range []jax.Mode{jax.Default, jax.Clip, jax.Fill} {
		add("jax.lax.gather", string(mode)+" rows", func() error {
			return jax.GatherInto(in.ndRowOut, in.data, in.ndRows, jrows, rows.SliceSizes, mode, tensor.Tensor{})
		})
		add("jax.lax.gather", string(mode)+" columns", func() error {
			return jax.GatherInto(in.gatherElemOut, in.data, in.ndRows, jcols, cols.SliceSizes, mode, tensor.Tensor{})
		})
	}
	jcolsS := jax.ScatterDimensionNumbers{UpdateWindowDims: []int{0}, InsertedWindowDims: []int{1}, ScatterDimsToOperandDims: []int{1}}
	for op, f := range map[string]func(dst, operand, indices, updates tensor.Tensor, d jax.ScatterDimensionNumbers, m jax.Mode) error{
		"jax.lax.scatter": jax.ScatterInto, "jax.lax.scatter_add": jax.ScatterAddInto, "jax.lax.scatter_sub": jax.ScatterSubInto,
		"jax.lax.scatter_mul": jax.ScatterMulInto, "jax.lax.scatter_min": jax.ScatterMinInto, "jax.lax.scatter_max": jax.ScatterMaxInto,
	} {
		for _, mode := range []jax.Mode{jax.Default, jax.Clip} {
			add(op, string(mode)+" columns", func() error { return f(in.dst, in.data, in.ndRows, in.rowUpd, jcolsS, mode) })
		}
	}
	add("jax.lax.dynamic_slice", "", func() error { return jax.DynamicSliceInto(in.gatherOut, in.data, starts, true) })
	add("jax.lax.dynamic_update_slice", "in place", func() error {
		return jax.DynamicUpdateSliceInto(in.data2, in.data2, in.ndRowUpd, starts, true)
	})
	// numpy: every mode; one index array for ufunc.at, b of the indexed
	// shape.
	k := in.gatherIdx.Len()
	flatOut := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{k}))
	putV := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{k}))
	add("numpy.take", "axis 0", func() error {
		return numpy.TakeInto(in.gatherOut, in.data, in.gatherIdx, numpy.AxisAt(0), numpy.ModeRaise)
	})
	add("numpy.take", "flat", func() error { return numpy.TakeInto(flatOut, in.data, in.gatherIdx32, numpy.Flat, numpy.ModeRaise) })
	for _, mode := range []numpy.Mode{numpy.ModeWrap, numpy.ModeClip} {
		add("numpy.take", mode.String()+" axis 1", func() error {
			return numpy.TakeInto(in.gatherElemOut, in.data, in.gatherIdx, numpy.AxisAt(1), mode)
		})
		add("numpy.put", mode.String(), func() error { return numpy.PutInto(in.dst, in.data, in.gatherIdx, putV, mode) })
	}
	add("numpy.put", "in place", func() error { return numpy.Put(in.data2, in.gatherIdx, putV, numpy.ModeRaise) })
	add("numpy.put", "", func() error { return numpy.PutInto(in.dst, in.data, in.gatherIdx32, putV, numpy.ModeRaise) })
	add("numpy.take_along_axis", "", func() error {
		return numpy.TakeAlongAxisInto(in.gatherElemOut, in.data, in.rowIdx, numpy.AxisAt(1))
	})
	add("numpy.put_along_axis", "", func() error {
		return numpy.PutAlongAxisInto(in.dst, in.data, in.rowIdx32, in.rowUpd, numpy.AxisAt(-1))
	})
	add("numpy.put_along_axis", "in place", func() error {
		return numpy.PutAlongAxis(in.data2, in.rowIdx, in.rowUpd, numpy.AxisAt(1))
	})
	npRows := numpy.Indices{in.gatherIdx}
	for op, f := range map[string]func(dst, a tensor.Tensor, indices numpy.Indices, b tensor.Tensor) error{
		"numpy.add.at": numpy.AddAtInto, "numpy.subtract.at": numpy.SubtractAtInto, "numpy.multiply.at": numpy.MultiplyAtInto,
		"numpy.maximum.at": numpy.MaximumAtInto, "numpy.minimum.at": numpy.MinimumAtInto,
	} {
		add(op, "", func() error { return f(in.dst, in.data, npRows, in.ndRowUpd) })
		add(op, "in place", func() error { return f(in.data2, in.data2, npRows, in.ndRowUpd) })
	}
	segmentAllocCases(in, add)
	return cs
}

// TestIntoAllocatesNothing calls the Into form of every operator of every
// dialect (each reduction, in place and not, int32 indices, float16)
// repeatedly on inputs small enough for one goroutine, and requires that
// once warm a call makes no heap allocation.
func TestIntoAllocatesNothing(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop what it keeps")
	}
	cs := allocCases(newInputs(6, 16, 4))
	for _, op := range registry.Ops() {
		if !slices.ContainsFunc(cs, func(c allocCase) bool { return c.op == op.Name }) {
			t.Errorf("%s: no allocation case", op.Name)
		}
	}
	for _, c := range cs {
		if err := c.call(); err != nil {
			t.Fatalf("%s %s: %v", c.op, c.name, err)
		}
		if n := testing.AllocsPerRun(20, func() { _ = c.call() }); n != 0 {
			t.Errorf("%s %s: %v allocations per call, want 0", c.op, c.name, n)
		}
	}
}

// TestLargeIntoAllocatesFew calls the same on inputs large enough to be
// split among workers, at GOMAXPROCS 4: once warm, a call allocates only
// the goroutines it starts, at most two objects per worker, however large
// its inputs. Warming up takes longer than for a small call: a sync.Pool
// keeps what it is given per P, where a goroutine that has moved to
// another P does not see it, so each P warms a scratch of its own; the
// test takes the best of a few rounds of calls.
// AllocsPerRun runs at GOMAXPROCS 1, so this counts allocations itself.
func TestLargeIntoAllocatesFew(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("about 40 MB of inputs; and the race detector makes sync.Pool drop what it keeps")
	}
	const workers = 4
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(workers))
	for _, c := range allocCases(newInputs(256, 512, 128)) {
		for range 3 * workers {
			if err := c.call(); err != nil {
				t.Fatalf("%s %s: %v", c.op, c.name, err)
			}
		}
		n := mallocsPerCall(10, c.call)
		for round := 0; round < 4 && n > 2*workers; round++ {
			n = min(n, mallocsPerCall(10, c.call))
		}
		if n > 2*workers {
			t.Errorf("%s %s: %v allocations per call, want at most %d", c.op, c.name, n, 2*workers)
		}
	}
}

// mallocsPerCall returns the heap allocations per call of runs calls of
// f, at the current GOMAXPROCS.
func mallocsPerCall(runs int, f func() error) float64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		_ = f()
	}
	runtime.ReadMemStats(&after)
	return float64(after.Mallocs-before.Mallocs) / float64(runs)
}
