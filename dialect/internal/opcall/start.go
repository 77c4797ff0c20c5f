package opcall

import (
	"fmt"
	"reflect"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// StartValues appends to buf the values of starts, the start index of a
// dynamic slice of operand given as one integer scalar per dimension, all
// of one type, and returns them. A uint64 value too large for int64 is
// read as the largest int64, which lies past the end of any dimension
// all the same. Its errors wrap dialect.ErrInput.
func StartValues(buf []int64, operand tensor.Tensor, starts []tensor.Tensor) ([]int64, error) {
	if err := perDimension(operand, len(starts), "start indices", dialect.ErrInput); err != nil {
		return nil, err
	}
	for i, s := range starts {
		switch {
		case s.IsZero():
			return nil, fmt.Errorf("%w: start index %d is missing", dialect.ErrInput, i)
		case !s.DType().IsInteger():
			return nil, dialect.TypeError(fmt.Sprintf("start index %d must be an integer, got %v", i, s.DType()))
		case s.DType() != starts[0].DType():
			return nil, dialect.TypeError(fmt.Sprintf("start indices must have one type, got %v and %v", starts[0].DType(), s.DType()))
		case s.Rank() != 0:
			return nil, fmt.Errorf("%w: start index %d must be a scalar, got shape %v", dialect.ErrInput, i, s.Shape())
		}
		v, _ := s.IntAt(0)
		if v < 0 && s.DType() == tensor.Uint64 {
			v = 1<<63 - 1
		}
		buf = append(buf, v)
	}
	return buf, nil
}

// SliceShape checks the sizes of a dynamic slice of operand and returns
// them as the slice's shape. Its errors wrap dialect.ErrAttribute.
func SliceShape(operand tensor.Tensor, sizes []int) (tensor.Shape, error) {
	if err := perDimension(operand, len(sizes), "slice_sizes", dialect.ErrAttribute); err != nil {
		return nil, err
	}
	for d, s := range sizes {
		if s < 0 || s > operand.Dim(d) {
			return nil, fmt.Errorf("%w: slice_sizes[%d] = %d is out of range [0, %d] for operand %v",
				dialect.ErrAttribute, d, s, operand.Dim(d), operand.Shape())
		}
	}
	return tensor.Shape(sizes).Clone(), nil
}

// perDimension checks that operand is given (an error wrapping
// dialect.ErrInput) and that n, the number of values given one per
// dimension of operand (what they are: "start indices", ...), is its rank
// (an error wrapping class).
func perDimension(operand tensor.Tensor, n int, what string, class error) error {
	if operand.IsZero() {
		return fmt.Errorf("%w: missing input \"operand\"", dialect.ErrInput)
	}
	if n != operand.Rank() {
		return fmt.Errorf("%w: %d %s for operand %v of rank %d", class, n, what, operand.Shape(), operand.Rank())
	}
	return nil
}

// MaxInlineRank is the rank up to which the dialects read a start index
// into an array on the stack rather than a new slice.
const MaxInlineRank = 16

// StartScalars splits a 1-D tensor of start indices, as the generic
// callers give a dynamic slice's start, into the scalars the operators
// take. Its error wraps dialect.ErrInput.
func StartScalars(t tensor.Tensor) ([]tensor.Tensor, error) {
	if t.Rank() != 1 {
		return nil, fmt.Errorf("%w: start_indices must be a 1-D tensor, got shape %v", dialect.ErrInput, t.Shape())
	}
	v := reflect.ValueOf(t.Data())
	out := make([]tensor.Tensor, t.Len())
	for i := range out {
		out[i] = tensor.Must(tensor.Wrap(tensor.Shape{}, v.Slice(i, i+1).Interface()))
	}
	return out, nil
}

// IntList returns the values of an Ints attribute as ints.
func IntList(v dialect.Value) []int {
	out := make([]int, len(v.Ints))
	for i, x := range v.Ints {
		out[i] = int(x)
	}
	return out
}

// NoStrings refuses element type d, of the input called name, for a
// framework, named for the error, that has no string tensors, as
// StringsRefusal words it: its error is a dialect.TypeError.
func NoStrings(framework, name string, d tensor.DType) error {
	if d != tensor.String {
		return nil
	}
	b := dialect.Behavior{DataTypes: dialect.AnyType.Without(tensor.String), TypeRefusals: []dialect.Refusal{StringsRefusal(framework)}}
	return b.CheckType(name, d)
}

// StringsRefusal is the refusal of string tensors by a framework, named
// for the error, that has none.
func StringsRefusal(framework string) dialect.Refusal {
	return dialect.Refusal{Types: dialect.Types(tensor.String), Text: "{input} is a string tensor; " + framework + " has no string tensors"}
}

// CheckGeneral checks the inputs of a general gather or scatter of
// Behavior b: data (the input called dataName) is given, indices
// (indName) pass CheckIndices with b's index types, and data is of one
// of b's data types.
func CheckGeneral(b *dialect.Behavior, data, indices tensor.Tensor, dataName, indName string) error {
	if data.IsZero() {
		return fmt.Errorf("%w: missing input %q", dialect.ErrInput, dataName)
	}
	if err := CheckIndices(indices, indName, b.IndexTypes); err != nil {
		return err
	}
	return b.CheckType(dataName, data.DType())
}

// DynamicSliceInto runs the dynamic slice op of a framework without string
// tensors (JAX's and StableHLO's): the slice of operand that starts at
// starts (one integer scalar per dimension, all of one type) goes into
// dst, whose shape gives its sizes, under rules. Errors name op.
func DynamicSliceInto(op, framework string, dst, operand tensor.Tensor, starts []tensor.Tensor, rules engine.IndexRules) error {
	var buf [MaxInlineRank]int64
	start, err := StartValues(buf[:0], operand, starts)
	if err == nil {
		err = NoStrings(framework, "operand", operand.DType())
	}
	if err == nil {
		err = engine.DynamicSlice(dst, operand, start, rules)
	}
	return Wrap(op, err)
}

// DynamicUpdateSliceInto runs the dynamic update slice op of a framework
// without string tensors: dst, which has operand's type and shape and may
// be operand itself, receives operand with the slice that starts at
// starts replaced by update, under rules. Errors name op.
func DynamicUpdateSliceInto(op, framework string, dst, operand, update tensor.Tensor, starts []tensor.Tensor, rules engine.IndexRules) error {
	var buf [MaxInlineRank]int64
	start, err := StartValues(buf[:0], operand, starts)
	if err == nil && update.IsZero() {
		err = fmt.Errorf("%w: missing input \"update\"", dialect.ErrInput)
	}
	if err == nil {
		err = NoStrings(framework, "operand", operand.DType())
	}
	if err == nil {
		err = NoStrings(framework, "update", update.DType())
	}
	if err == nil {
		err = engine.DynamicUpdateSlice(dst, operand, update, start, rules)
	}
	return Wrap(op, err)
}
