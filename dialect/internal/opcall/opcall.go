// Package opcall holds what the dialects share in running an operator
// call: reading integers, axes and shapes from tensors, checking indices
// and destinations, allocating an output and naming the operator in an
// error. It is internal: a user calls the dialects' operators, which use
// it.
package opcall

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/scatter-dev/scatter/dialect"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// ShapeOf reads a shape given as a tensor, the input called name: a 1-D
// int32 or int64 tensor, as TensorFlow's and MindSpore's scatter_nd take
// it. Whether its dimensions are valid is the caller's to check.
func ShapeOf(t tensor.Tensor, name string) (tensor.Shape, error) {
	if t.IsZero() {
		return nil, fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
	}
	if t.Rank() != 1 {
		return nil, fmt.Errorf("%w: %s must be a vector, got a tensor of shape %v", dialect.ErrInput, name, t.Shape())
	}
	if d := t.DType(); d != tensor.Int32 && d != tensor.Int64 {
		return nil, fmt.Errorf("%w: %s must be int32 or int64, got %v", dialect.ErrInput, name, d)
	}
	dims, err := dialect.IntsOf(t, name)
	return tensor.Shape(dims), err
}

// Wrap returns err as an *dialect.OpError naming the operator op ("onnx.Gather"),
// or err itself when it is nil or already names an operator.
func Wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var oe *dialect.OpError
	if errors.As(err, &oe) {
		return err
	}
	return &dialect.OpError{Op: op, Err: err}
}

// Alloc returns a new tensor of the given type and shape after into has
// written it, for the operators that allocate their output. into must
// write every element: a large tensor is not zeroed first (tensor.Empty).
// Errors name op.
func Alloc(op string, dtype tensor.DType, shape tensor.Shape, into func(dst tensor.Tensor) error) (tensor.Tensor, error) {
	dst, err := tensor.Empty(dtype, shape)
	if err != nil {
		return tensor.Tensor{}, Wrap(op, err)
	}
	if err := into(dst); err != nil {
		return tensor.Tensor{}, Wrap(op, err)
	}
	return dst, nil
}

// AllocLike is Alloc for a scatter's output, of the type and shape of its
// input like, which is named name; a missing input is an dialect.ErrInput error.
func AllocLike(op string, like tensor.Tensor, name string, into func(dst tensor.Tensor) error) (tensor.Tensor, error) {
	if like.IsZero() {
		return tensor.Tensor{}, Wrap(op, fmt.Errorf("%w: missing input %q", dialect.ErrInput, name))
	}
	return Alloc(op, like.DType(), like.Shape(), into)
}

// Shapes lends shapes from pooled memory to the Into forms, which read
// and build shapes on every call: a shape taken from it, or a view of a
// tensor under such a shape (tensor.Tensor.View), allocates nothing. Get
// one with GetShapes, and Release it once those shapes are no longer used.
type Shapes struct {
	arena []int
	hdrs  []tensor.Shape // for Ptr
}

var shapesPool = sync.Pool{New: func() any { return new(Shapes) }}

// GetShapes returns a Shapes from the pool.
func GetShapes() *Shapes { return shapesPool.Get().(*Shapes) }

// Release gives s back to the pool; the shapes it lent must no longer be
// used.
func (s *Shapes) Release() {
	s.arena = s.arena[:0]
	clear(s.hdrs)
	s.hdrs = s.hdrs[:0]
	shapesPool.Put(s)
}

// Ptr returns a pointer to a copy of the shape header sh (whose elements
// it shares), for tensor.Tensor.View.
func (s *Shapes) Ptr(sh tensor.Shape) *tensor.Shape {
	if len(s.hdrs) == cap(s.hdrs) {
		// A new block; the pointers already lent keep the old one.
		s.hdrs = make([]tensor.Shape, 0, max(2*cap(s.hdrs), 8))
	}
	s.hdrs = append(s.hdrs, sh)
	return &s.hdrs[len(s.hdrs)-1]
}

// Buf returns an empty shape with room for n dimensions, to append to.
func (s *Shapes) Buf(n int) tensor.Shape {
	if cap(s.arena)-len(s.arena) < n {
		// A new arena; the shapes already lent keep the old one.
		s.arena = make([]int, 0, max(2*cap(s.arena), 64, n))
	}
	start := len(s.arena)
	s.arena = s.arena[:start+n]
	return tensor.Shape(s.arena[start : start : start+n])
}

// Of returns a copy of t's shape.
func (s *Shapes) Of(t tensor.Tensor) tensor.Shape {
	return t.AppendShape(s.Buf(t.Rank()))
}

// CheckIndices checks an operator's index input, the input called name:
// it must be given, and its element type must be one of types, the
// IndexTypes of the operator version's Behavior. Both errors wrap
// dialect.ErrInput; the refusal of a type is a dialect.TypeError, which
// matches engine.ErrType too.
func CheckIndices(indices tensor.Tensor, name string, types dialect.TypeSet) error {
	if indices.IsZero() {
		return fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
	}
	if d := indices.DType(); !types.Has(d) {
		return dialect.TypeError(fmt.Sprintf("%s must be %s, got %v", name, typeNames(types), d))
	}
	return nil
}

// CheckInputs checks an operator's data and index inputs, called dataName
// and indName, against the types of the operator version's Behavior b
// (b.CheckData, then CheckIndices with b.IndexTypes).
func CheckInputs(b *dialect.Behavior, data tensor.Tensor, dataName string, indices tensor.Tensor, indName string) error {
	// Zero tensors have the type Undefined, which no set holds.
	if b.DataTypes.Has(data.DType()) && b.IndexTypes.Has(indices.DType()) {
		return nil // the common case, without the calls that word a refusal
	}
	if err := b.CheckData(dataName, data); err != nil {
		return err
	}
	return CheckIndices(indices, indName, b.IndexTypes)
}

// typeNames names a set of element types for an error: "int64", "int32
// or int64", or "of an integer type" for every integer type.
func typeNames(types dialect.TypeSet) string {
	if types == dialect.IntegerTypes {
		return "of an integer type"
	}
	return strings.ReplaceAll(types.Names(), ", ", " or ")
}

// IntRange returns the range of integer type d, from its size and
// signedness: its lowest value, and its largest as a uint64; ok is false
// for a type that is not an integer type.
func IntRange(d tensor.DType) (lo int64, hi uint64, ok bool) {
	if !d.IsInteger() {
		return 0, 0, false
	}
	bits := uint(8 * d.Size())
	if d.IsUnsigned() {
		return 0, math.MaxUint64 >> (64 - bits), true
	}
	return -1 << (bits - 1), math.MaxInt64 >> (64 - bits), true
}

// CheckUpdatesShape checks that updates has exactly the shape of indices,
// as ONNX's ScatterElements, OpenVINO's ScatterElementsUpdate and
// MindSpore's tensor_scatter_elements require (the engine also takes a
// larger updates, as PyTorch does). Its error wraps engine.ErrShape.
func CheckUpdatesShape(indices, updates tensor.Tensor) error {
	if !updates.SameShape(indices) {
		return fmt.Errorf("%w: updates has shape %v, indices has shape %v; they must be equal",
			engine.ErrShape, updates.Shape(), indices.Shape())
	}
	return nil
}

// CheckDst checks dst, the destination an Into form writes, against the
// element type and shape of the output it is to receive, for the
// operators that do not leave that check to an engine kernel. As the
// engine's kernels report them, a missing dst is an engine.ErrArgument
// error, one of another element type an engine.ErrType error and one of
// another shape an engine.ErrShape error.
func CheckDst(dst tensor.Tensor, dtype tensor.DType, shape tensor.Shape) error {
	if err := CheckDstType(dst, dtype); err != nil {
		return err
	}
	if !dst.HasShape(shape) {
		return fmt.Errorf("%w: dst has shape %v, want %v", engine.ErrShape, dst.Shape(), shape)
	}
	return nil
}

// CheckDstType is CheckDst without the shape, for the Into forms whose
// output shape is dst's (TensorFlow's and MindSpore's scatter_nd, where
// dst stands for the shape argument).
func CheckDstType(dst tensor.Tensor, dtype tensor.DType) error {
	if dst.IsZero() {
		return fmt.Errorf("%w: dst must be given", engine.ErrArgument)
	}
	if dst.DType() != dtype {
		return fmt.Errorf("%w: dst has type %v, want %v", engine.ErrType, dst.DType(), dtype)
	}
	return nil
}

// CheckDstLike is CheckDst for an output of like's element type and shape
// (a scatter's, whose output has its input's): it reads like's shape in
// place, so it needs no copy of it.
func CheckDstLike(dst, like tensor.Tensor) error {
	if err := CheckDstType(dst, like.DType()); err != nil {
		return err
	}
	if !dst.SameShape(like) {
		return fmt.Errorf("%w: dst has shape %v, want %v", engine.ErrShape, dst.Shape(), like.Shape())
	}
	return nil
}
