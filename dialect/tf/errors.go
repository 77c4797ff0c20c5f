package tf

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// indexError is an index error worded as TensorFlow words it. It unwraps
// to the engine's *engine.IndexError, and through it to engine.ErrIndex.
type indexError struct {
	msg string
	err *engine.IndexError
}

func (e *indexError) Error() string { return e.msg }

func (e *indexError) Unwrap() error { return e.err }

func isIndexErr(err error) bool { return errors.Is(err, engine.ErrIndex) }

func asIndexErr(err error) (*engine.IndexError, bool) {
	if err == nil {
		return nil, false // before ie, which errors.As makes escape
	}
	var ie *engine.IndexError
	ok := errors.As(err, &ie)
	return ie, ok
}

// rowIndexError words err, when it is an index error of a ScatterND whose
// index tuples are the values of the input name with a dimension of one
// added (a row each), as TensorFlow does: "segment_ids[3] = 9 is out of
// range [0, 4)", with the position in name as given, without the tuple's
// own dimension, and its words for a value out of [0, size).
func rowIndexError(err error, name, words string) error {
	ie, ok := asIndexErr(err)
	if !ok {
		return err
	}
	ie.Pos, ie.Tuple, ie.TupleDim = ie.Pos[:len(ie.Pos)-1], nil, 0
	return &indexError{
		msg: fmt.Sprintf("%s%s = %s %s [0, %d)", name, slicePos(ie.Pos), ie.ValueString(), words, ie.Size),
		err: ie,
	}
}

// ndIndexError words err, when it is an index error of an ND operator,
// as TensorFlow does: "indices[1] = [7, 0] does not index into param
// shape [4,4]". The engine names the last bad tuple, as TensorFlow's CPU
// kernels do (ndRules). seen is the indices tensor the engine read, and
// orig the one the caller gave, whose coordinates the error's Pos takes
// (TensorFlow's gather_nd reshapes its batch dimensions); at is the shape
// TensorFlow reports the tuple's position in, prefix (when not nil) the
// coordinates it prepends to tuple t, and into names what the tuple does
// not index into. Other errors pass as they are.
func ndIndexError(err error, seen, orig tensor.Tensor, at tensor.Shape, prefix func(t int) []int64, into string, shape tensor.Shape) error {
	ie, ok := asIndexErr(err)
	if !ok || len(ie.Tuple) == 0 {
		return err
	}
	flat := seen.Shape().Offset(ie.Pos)
	t := flat / len(ie.Tuple)
	ie.Pos = orig.Shape().Coords(flat)
	shown := ie.Tuple
	if prefix != nil {
		shown = append(prefix(t), ie.Tuple...)
	}
	parts := make([]string, len(shown))
	for i, v := range shown {
		parts[i] = strconv.FormatInt(v, 10)
	}
	return &indexError{
		msg: fmt.Sprintf("indices%s = [%s] does not index into %s %v",
			slicePos(at.Coords(t)), strings.Join(parts, ", "), into, shape),
		err: ie,
	}
}

// slicePos formats a position in an indices tensor as TensorFlow does:
// nothing for a scalar, "[i]" or "[i,j,...]" otherwise.
func slicePos(pos []int) string {
	if len(pos) == 0 {
		return ""
	}
	return tensor.Shape(pos).String()
}
