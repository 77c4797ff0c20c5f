package conformance

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/scatter-dev/scatter/format/stablehlo"
	"github.com/scatter-dev/scatter/tensor"
)

// The operations the StableHLO runner computes itself: plain loops over
// small tensors, checking what StableHLO requires of their operands.

// copyElem copies element si of src into element di of dst, a tensor of
// the same element type, bit for bit.
func copyElem(dst tensor.Tensor, di int, src tensor.Tensor, si int) {
	reflect.Copy(reflect.ValueOf(dst.Data()).Slice(di, di+1), reflect.ValueOf(src.Data()).Slice(si, si+1))
}

// sameTypes fails unless every tensor has the type of the first.
func sameTypes(name string, ts ...tensor.Tensor) error {
	for _, t := range ts[1:] {
		if t.DType() != ts[0].DType() || !t.SameShape(ts[0]) {
			return fmt.Errorf("%s of %v and %v: the types must be equal", name, stablehlo.TypeOf(ts[0]), stablehlo.TypeOf(t))
		}
	}
	return nil
}

// elementwise applies the element-wise operation name to x and y.
func elementwise(name string, x, y tensor.Tensor) (tensor.Tensor, error) {
	if err := sameTypes(name, x, y); err != nil {
		return tensor.Tensor{}, err
	}
	out, err := tensor.New(x.DType(), x.Shape())
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i := range out.Len() {
		if err := binary(name, out, i, x, i, y, i); err != nil {
			return tensor.Tensor{}, err
		}
	}
	return out, nil
}

func compareOp(op *stablehlo.Op, x, y tensor.Tensor) (tensor.Tensor, error) {
	if err := sameTypes("compare", x, y); err != nil {
		return tensor.Tensor{}, err
	}
	out, err := tensor.New(tensor.Bool, x.Shape())
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i := range out.Len() {
		b, err := compareElem(op.Direction, op.CompareType, x, i, y, i)
		if err != nil {
			return tensor.Tensor{}, err
		}
		setBool(out, i, b)
	}
	return out, nil
}

// selectOp picks on_true where pred holds and on_false elsewhere; pred is
// a scalar or has their shape.
func selectOp(pred, onTrue, onFalse tensor.Tensor) (tensor.Tensor, error) {
	if err := sameTypes("select", onTrue, onFalse); err != nil {
		return tensor.Tensor{}, err
	}
	if pred.DType() != tensor.Bool || pred.Rank() != 0 && !pred.SameShape(onTrue) {
		return tensor.Tensor{}, fmt.Errorf("the predicate %v must be i1 and a scalar or of shape %v",
			stablehlo.TypeOf(pred), onTrue.Shape())
	}
	out := onFalse.Clone()
	for i := range out.Len() {
		if getBool(pred, min(i, pred.Len()-1)) {
			copyElem(out, i, onTrue, i)
		}
	}
	return out, nil
}

// convertOp converts every element of x to the element type of to, which
// has x's shape.
func convertOp(x tensor.Tensor, to stablehlo.Type) (tensor.Tensor, error) {
	if !x.HasShape(to.Shape) {
		return tensor.Tensor{}, fmt.Errorf("converting %v to %v: the shapes must be equal", stablehlo.TypeOf(x), to)
	}
	out, err := tensor.New(to.DType, to.Shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i := range out.Len() {
		if err := convertElem(out, i, x, i); err != nil {
			return tensor.Tensor{}, err
		}
	}
	return out, nil
}

// broadcastInDim makes a tensor of type to whose dimension dims[k] comes
// from dimension k of x (which has size 1, broadcast, or to's size).
func broadcastInDim(x tensor.Tensor, dims []int64, to stablehlo.Type) (tensor.Tensor, error) {
	if to.DType != x.DType() || len(dims) != x.Rank() {
		return tensor.Tensor{}, fmt.Errorf("broadcasting %v to %v along dims %v: want the same element type and one dim per dimension",
			stablehlo.TypeOf(x), to, dims)
	}
	for k, d := range dims {
		if d < 0 || d >= int64(len(to.Shape)) || slices.Contains(dims[:k], d) ||
			x.Dim(k) != 1 && x.Dim(k) != to.Shape[d] {
			return tensor.Tensor{}, fmt.Errorf("broadcasting %v to %v: dims %v do not fit", stablehlo.TypeOf(x), to, dims)
		}
	}
	out, err := tensor.New(to.DType, to.Shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	xs := x.Shape()
	src := make([]int, x.Rank())
	for i := range out.Len() {
		c := to.Shape.Coords(i)
		for k, d := range dims {
			src[k] = min(c[d], xs[k]-1)
		}
		copyElem(out, i, x, xs.Offset(src))
	}
	return out, nil
}

// concatenate joins xs along dimension dim into a tensor of type to.
func concatenate(xs []tensor.Tensor, dim int64, to stablehlo.Type) (tensor.Tensor, error) {
	if len(xs) == 0 || dim < 0 || dim >= int64(xs[0].Rank()) {
		return tensor.Tensor{}, fmt.Errorf("dimension %d is out of range for %d operands", dim, len(xs))
	}
	d := int(dim)
	want := xs[0].Shape()
	want[d] = 0
	for _, x := range xs {
		s := x.Shape()
		if x.DType() != xs[0].DType() || x.Rank() != len(want) {
			return tensor.Tensor{}, fmt.Errorf("operands %v and %v differ in element type or rank", stablehlo.TypeOf(xs[0]), stablehlo.TypeOf(x))
		}
		want[d] += s[d]
		s[d] = want[d]
		if !s.Equal(want) {
			return tensor.Tensor{}, fmt.Errorf("operand %v differs from the others outside dimension %d", stablehlo.TypeOf(x), d)
		}
	}
	if !to.Equal(stablehlo.Type{DType: xs[0].DType(), Shape: want}) {
		return tensor.Tensor{}, fmt.Errorf("the result is %v, declared %v", stablehlo.Type{DType: xs[0].DType(), Shape: want}, to)
	}
	out, err := tensor.New(to.DType, to.Shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i := range out.Len() {
		c := to.Shape.Coords(i)
		k := 0
		for ; c[d] >= xs[k].Dim(d); k++ {
			c[d] -= xs[k].Dim(d)
		}
		copyElem(out, i, xs[k], xs[k].Shape().Offset(c))
	}
	return out, nil
}

// reduce folds the dimensions dims of x with the computation comp,
// starting from the scalar init, in row-major order.
func reduce(x, init tensor.Tensor, dims []int64, comp string, to stablehlo.Type) (tensor.Tensor, error) {
	if init.Rank() != 0 || init.DType() != x.DType() {
		return tensor.Tensor{}, fmt.Errorf("init %v must be a scalar of %v's element type", stablehlo.TypeOf(init), stablehlo.TypeOf(x))
	}
	xs := x.Shape()
	var keep tensor.Shape
	for d := range xs {
		if !slices.Contains(dims, int64(d)) {
			keep = append(keep, xs[d])
		}
	}
	for k, d := range dims {
		if d < 0 || d >= int64(len(xs)) || slices.Contains(dims[:k], d) {
			return tensor.Tensor{}, fmt.Errorf("dimensions %v do not fit %v", dims, stablehlo.TypeOf(x))
		}
	}
	if !to.Equal(stablehlo.Type{DType: x.DType(), Shape: keep}) {
		return tensor.Tensor{}, fmt.Errorf("the result is %v, declared %v", stablehlo.Type{DType: x.DType(), Shape: keep}, to)
	}
	out, err := tensor.New(to.DType, to.Shape)
	if err != nil {
		return tensor.Tensor{}, err
	}
	for i := range out.Len() {
		copyElem(out, i, init, 0)
	}
	// stride[d] is how far the output offset moves along x's dimension d:
	// 0 for a dimension reduced. The coordinates c of x's element i are
	// counted up as i is, with the output offset o.
	stride := make([]int, len(xs))
	for d, k := len(xs)-1, 1; d >= 0; d-- {
		if !slices.Contains(dims, int64(d)) {
			stride[d], k = k, k*xs[d]
		}
	}
	c, o := make([]int, len(xs)), 0
	for i := range x.Len() {
		if err := binary(comp, out, o, out, o, x, i); err != nil {
			return tensor.Tensor{}, err
		}
		for d := len(xs) - 1; d >= 0; d-- {
			if c[d]++; c[d] < xs[d] {
				o += stride[d]
				break
			}
			o -= (xs[d] - 1) * stride[d]
			c[d] = 0
		}
	}
	return out, nil
}
