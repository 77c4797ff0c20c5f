package engine

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// Sentinel errors, matched with errors.Is. Every error the kernels return
// wraps exactly one of them.
var (
	// ErrIndex: an index value lies outside the allowed range. The error
	// is an *IndexError.
	ErrIndex = errors.New("index out of range")
	// ErrShape: the shapes of the arguments do not fit together.
	ErrShape = errors.New("shape mismatch")
	// ErrType: an element type the operation does not accept, or element
	// types that differ where they must be equal.
	ErrType = errors.New("unsupported element type")
	// ErrArgument: an invalid axis, batch dimension count, reduction, or a
	// destination that overlaps an input.
	ErrArgument = errors.New("invalid argument")
)

// IndexError reports an index value outside the range its dimension allows.
type IndexError struct {
	// Pos holds the coordinates of the offending element in the indices
	// tensor.
	Pos []int
	// Tuple is, for the ND operators, the whole index tuple the value
	// belongs to (the last coordinate of Pos says which component); nil
	// for the other operators.
	Tuple []int64
	// Value is the index value. Unsigned says the indices are uint64:
	// Value and Tuple then hold their bits, which may be too large for
	// int64.
	Value    int64
	Unsigned bool
	// Dim is the dimension of data the value indexes, and Size its size.
	Dim, Size int
	// DataShape is the shape of the tensor indexed.
	DataShape tensor.Shape
	// Min and Max bound the allowed values, inclusive. Max < Min when the
	// dimension is empty.
	Min, Max int64
}

// ValueString formats Value, as unsigned when Unsigned is set.
func (e *IndexError) ValueString() string { return e.format(e.Value) }

func (e *IndexError) format(v int64) string {
	if e.Unsigned {
		return strconv.FormatUint(uint64(v), 10)
	}
	return strconv.FormatInt(v, 10)
}

func (e *IndexError) allowed() string {
	if e.Max < e.Min {
		return fmt.Sprintf("dimension %d of data %v is empty and has no valid index", e.Dim, e.DataShape)
	}
	return fmt.Sprintf("allowed range [%d, %d] for dimension %d of data %v", e.Min, e.Max, e.Dim, e.DataShape)
}

// Error describes the value, where it is and what was allowed.
func (e *IndexError) Error() string {
	if e.Tuple != nil {
		return fmt.Sprintf("index out of range: indices%s = %s: component %d is %s, %s",
			formatPos(e.Pos[:len(e.Pos)-1]), e.formatTuple(), e.Pos[len(e.Pos)-1], e.ValueString(), e.allowed())
	}
	return fmt.Sprintf("index out of range: indices%s = %s, %s", formatPos(e.Pos), e.ValueString(), e.allowed())
}

// Unwrap returns ErrIndex.
func (e *IndexError) Unwrap() error { return ErrIndex }

// formatPos formats a position in indices: "" for a scalar's, "[i,j]"
// otherwise.
func formatPos(pos []int) string {
	if len(pos) == 0 {
		return ""
	}
	return tensor.Shape(pos).String()
}

func (e *IndexError) formatTuple() string {
	parts := make([]string, len(e.Tuple))
	for i, v := range e.Tuple {
		parts[i] = e.format(v)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func shapeErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrShape}, args...)...)
}

func typeErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrType}, args...)...)
}

func argErr(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrArgument}, args...)...)
}
