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
	// is an *IndexError, or for ReduceRuns' segment ids out of order a
	// *SegmentError.
	ErrIndex = errors.New("index out of range")
	// ErrShape: the shapes of the arguments do not fit together.
	ErrShape = errors.New("shape mismatch")
	// ErrType: an element type the operation does not accept (of data,
	// indices, updates or any other input), or element types that differ
	// where they must be equal. Every such mistake matches it, the
	// dialects' refusals of an input's type too (dialect.TypeError, which
	// also matches dialect.ErrInput).
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
	// Tuple is, for the ND operators and the general gather and scatter
	// with an index vector dimension, the whole index tuple the value
	// belongs to, which lies along dimension TupleDim of indices (the
	// last for the ND operators): Pos[TupleDim] says which component.
	// Tuple is nil for the other operators.
	Tuple    []int64
	TupleDim int
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
	// Window is, for the general gather and scatter, the size of the
	// slice or window that starts at the value along Dim. When it is more
	// than 1 and Min is negative (values counted from the end), the
	// values from Min+Max+1 to -1 are not allowed either: their windows
	// would end past the dimension.
	Window int
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
	switch {
	case e.Window > 1 && e.Max < 0:
		return fmt.Sprintf("a window of %d does not fit in dimension %d of data %v", e.Window, e.Dim, e.DataShape)
	case e.Max < e.Min:
		return fmt.Sprintf("dimension %d of data %v is empty and has no valid index", e.Dim, e.DataShape)
	case e.Window > 1 && e.Min < 0:
		return fmt.Sprintf("a window of %d in dimension %d of data %v starts in [0, %d] or [%d, %d]",
			e.Window, e.Dim, e.DataShape, e.Max, e.Min, e.Min+e.Max)
	case e.Window > 1:
		return fmt.Sprintf("a window of %d in dimension %d of data %v starts in [%d, %d]", e.Window, e.Dim, e.DataShape, e.Min, e.Max)
	}
	return fmt.Sprintf("allowed range [%d, %d] for dimension %d of data %v", e.Min, e.Max, e.Dim, e.DataShape)
}

// Error describes the value, where it is and what was allowed.
func (e *IndexError) Error() string {
	if e.Tuple != nil && 0 <= e.TupleDim && e.TupleDim < len(e.Pos) {
		return fmt.Sprintf("index out of range: indices%s = %s: component %d is %s, %s",
			e.tuplePos(), e.formatTuple(), e.Pos[e.TupleDim], e.ValueString(), e.allowed())
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

// tuplePos formats the position of Tuple in indices: Pos without its
// coordinate along TupleDim when that is the last ("[i]"), with ":" in
// its place otherwise ("[:,j]").
func (e *IndexError) tuplePos() string {
	if e.TupleDim == len(e.Pos)-1 {
		return formatPos(e.Pos[:e.TupleDim])
	}
	parts := make([]string, len(e.Pos))
	for i, p := range e.Pos {
		parts[i] = strconv.Itoa(p)
	}
	parts[e.TupleDim] = ":"
	return "[" + strings.Join(parts, ",") + "]"
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
