// Package tensor holds the element types and the dense, row-major tensor
// value that every operator of this module reads and writes.
//
// A Tensor wraps a plain Go slice ([]float32, []int64, []string, ...) and a
// shape. Wrapping copies nothing, so a caller that already has its data in a
// slice passes it to the operators as it is, and reads results the same way.
package tensor

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/internal/floatfmt"
	"github.com/x448/float16"
)

// ErrDType is matched (with errors.Is) by errors about a value that is not a
// slice of a supported element type, or whose type does not match.
var ErrDType = errors.New("unsupported element type")

// Tensor is a dense, row-major tensor: an element type, a shape and a slice
// of exactly as many elements as the shape holds. The zero Tensor has type
// Undefined and holds nothing; it is what functions return with an error.
//
// A Tensor is a small value. Copies of it share the element slice, so
// writing through one is seen by all; use Clone for an independent copy.
type Tensor struct {
	dtype DType
	// shape points at the shape, which no method changes: a pointer
	// rather than the slice keeps a Tensor at four words, small enough
	// for the compiler to keep in registers; passed by value, a larger
	// one was stored and copied back on every call that took one.
	shape *Shape
	data  any
}

// shapeBox holds a shape and, for a few dimensions, its elements, so
// that a constructor allocates one object for both.
type shapeBox struct {
	s     Shape
	small [4]int
}

// boxed returns a pointer to a copy of s.
func boxed(s Shape) *Shape {
	b := &shapeBox{}
	if len(s) <= len(b.small) {
		b.s = b.small[:len(s):len(s)]
	} else {
		b.s = make(Shape, len(s))
	}
	copy(b.s, s)
	return &b.s
}

// scalarShape is the shape of every rank-0 tensor, shared: no method
// changes a shape.
var scalarShape = Shape{}

// dims returns t's shape, shared; nil for the zero Tensor.
func (t Tensor) dims() Shape {
	if t.shape == nil {
		return nil
	}
	return *t.shape
}

// New returns a tensor of the given type and shape with every element zero
// (false, "", +0). Before anything is allocated, the element count is
// checked for overflow and the size against the limit of SetMaxBytes.
func New(dtype DType, shape Shape) (Tensor, error) {
	if !dtype.Valid() {
		return Tensor{}, fmt.Errorf("tensor: %w: %v", ErrDType, dtype)
	}
	if err := CheckSize(dtype, shape); err != nil {
		return Tensor{}, err
	}
	n, _ := shape.NumElements()
	return Tensor{dtype: dtype, shape: boxed(shape), data: makeSlice(dtype, n)}, nil
}

// From returns a tensor of the given shape that wraps data without copying
// it. len(data) must equal the number of elements the shape holds.
func From[T Elem](shape Shape, data []T) (Tensor, error) {
	return Wrap(shape, data)
}

// Wrap is From for a slice whose element type is known only at run time:
// data must be a slice of one of the Elem types. It copies nothing.
func Wrap(shape Shape, data any) (Tensor, error) {
	dtype := dtypeOfSlice(data)
	if dtype == Undefined {
		return Tensor{}, fmt.Errorf("tensor: %w: cannot wrap a %T", ErrDType, data)
	}
	n, err := shape.NumElements()
	if err != nil {
		return Tensor{}, err
	}
	if l := reflect.ValueOf(data).Len(); l != n {
		return Tensor{}, fmt.Errorf("tensor: %w: shape %v holds %d elements, the %s slice has %d",
			ErrShape, shape, n, dtype, l)
	}
	if data == nil || reflect.ValueOf(data).IsNil() {
		data = makeSlice(dtype, 0)
	}
	return Tensor{dtype: dtype, shape: boxed(shape), data: data}, nil
}

// Scalar returns a rank-0 tensor holding v.
func Scalar[T Elem](v T) Tensor {
	return Tensor{dtype: DTypeOf[T](), shape: &scalarShape, data: []T{v}}
}

// Must returns t, and panics if err is not nil. It is meant for tensors
// built from constants in tests and examples.
func Must(t Tensor, err error) Tensor {
	if err != nil {
		panic(err)
	}
	return t
}

// Values returns the element slice of t if its elements are of type T. The
// slice is shared with t, not copied.
func Values[T Elem](t Tensor) ([]T, error) {
	v, ok := t.data.([]T)
	if !ok {
		var zero T
		return nil, fmt.Errorf("tensor: %w: want %T elements, the tensor holds %v", ErrDType, zero, t.dtype)
	}
	return v, nil
}

// DType returns the element type.
func (t Tensor) DType() DType { return t.dtype }

// Shape returns a copy of the shape. The copy is made with make, not
// append, so that a caller that does not keep it gets it on its stack
// (the compiler does so for a few dimensions), and asking for a shape
// allocates nothing.
func (t Tensor) Shape() Shape {
	d := t.dims()
	s := make(Shape, len(d))
	copy(s, d)
	return s
}

// AppendShape appends t's dimensions to s and returns the result, as the
// strconv Append functions do: a caller that keeps a buffer reads shapes
// without allocating or asking for one dimension at a time.
func (t Tensor) AppendShape(s Shape) Shape { return append(s, t.dims()...) }

// HasShape reports whether t has shape s. Unlike t.Shape().Equal(s) it
// copies nothing.
func (t Tensor) HasShape(s Shape) bool { return t.dims().Equal(s) }

// SameShape reports whether t and u have the same shape.
func (t Tensor) SameShape(u Tensor) bool { return t.dims().Equal(u.dims()) }

// Rank returns the number of dimensions (0 for a scalar).
func (t Tensor) Rank() int { return len(t.dims()) }

// Dim returns the size of dimension i.
func (t Tensor) Dim(i int) int { return (*t.shape)[i] }

// Len returns the number of elements.
func (t Tensor) Len() int {
	if t.data == nil {
		return 0
	}
	// Every constructor checks that the slice holds as many elements as
	// the shape, so the product of the dimensions is its length, and
	// costs less to compute than reflection does to read it.
	n := 1
	for _, d := range *t.shape {
		n *= d
	}
	return n
}

// Data returns the element slice ([]float32, []string, ...), shared with t.
func (t Tensor) Data() any { return t.data }

// IsZero reports whether t is the zero Tensor, which holds no value at all
// (as opposed to a tensor with a zero dimension).
func (t Tensor) IsZero() bool { return t.dtype == Undefined }

// Reshape returns a tensor that shares t's elements under another shape with
// the same element count.
func (t Tensor) Reshape(shape Shape) (Tensor, error) {
	n, err := shape.NumElements()
	if err != nil {
		return Tensor{}, err
	}
	if n != t.Len() {
		return Tensor{}, fmt.Errorf("tensor: %w: cannot reshape %v (%d elements) to %v (%d elements)",
			ErrShape, t.dims(), t.Len(), shape, n)
	}
	return Tensor{dtype: t.dtype, shape: boxed(shape), data: t.data}, nil
}

// View is Reshape without the copy of the shape: the tensor it returns
// holds *shape itself, which must therefore not change while that tensor
// is in use. It is for code that reshapes on every call, into shapes kept
// in memory of its own, and so allocates nothing.
func (t Tensor) View(shape *Shape) (Tensor, error) {
	n, err := shape.NumElements()
	if err != nil {
		return Tensor{}, err
	}
	if n != t.Len() {
		return Tensor{}, fmt.Errorf("tensor: %w: cannot view %v (%d elements) as %v (%d elements)",
			ErrShape, t.dims(), t.Len(), *shape, n)
	}
	return Tensor{dtype: t.dtype, shape: shape, data: t.data}, nil
}

// Clone returns a deep copy of t.
func (t Tensor) Clone() Tensor {
	if t.data == nil {
		return t
	}
	v := reflect.ValueOf(t.data)
	c := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
	reflect.Copy(c, v)
	return Tensor{dtype: t.dtype, shape: boxed(t.dims()), data: c.Interface()}
}

// At returns the element at flat (row-major) position i as a Go value of
// the tensor's element type.
func (t Tensor) At(i int) any { return reflect.ValueOf(t.data).Index(i).Interface() }

// IntAt returns element i of an integer tensor as an int64, widened (a
// uint64 as its bits, so that one above MaxInt64 reads as negative), with
// ok set; 0 and false for a tensor of another type.
func (t Tensor) IntAt(i int) (v int64, ok bool) {
	if get := t.dtype.info().intAt; get != nil {
		return get(t.data, i), true
	}
	return 0, false
}

// Equal reports whether a and b have the same type, shape and elements.
// Floating-point and complex elements are compared by their bits, so NaN
// equals a NaN with the same bits and +0 differs from -0.
func Equal(a, b Tensor) bool {
	return a.dtype == b.dtype && a.dims().Equal(b.dims()) && a.Len() == b.Len() && FirstDiff(a, b) < 0
}

// FirstDiff returns the flat position of the first element in which a and
// b differ, comparing floating-point and complex elements by their bits,
// or -1 when they have equal elements. Tensors of different types or
// element counts differ at 0 (or at the end of the shorter one).
func FirstDiff(a, b Tensor) int {
	if a.dtype != b.dtype {
		return 0
	}
	if diff := a.dtype.info().firstDiff; diff != nil {
		return diff(a.data, b.data)
	}
	if a.Len() != b.Len() {
		return 0
	}
	return -1
}

// firstDiff returns the first i where a[i] != b[i], or -1.
func firstDiff[T comparable](a, b []T) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return n
	}
	return -1
}

// String formats t as its type and shape followed by its elements nested by
// dimension, e.g. "float32[2,2] [[1 2] [3 4]]", each as FormatElem formats
// it. A tensor of more than 1000 elements is elided: its elements are
// replaced by their count, e.g. "int64[1001] (1001 elements)".
func (t Tensor) String() string {
	if t.IsZero() {
		return "<undefined>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%v%v ", t.dtype, t.dims())
	const limit = 1000
	if t.Len() > limit {
		fmt.Fprintf(&b, "(%d elements)", t.Len())
		return b.String()
	}
	pos := 0
	t.format(&b, 0, &pos)
	return b.String()
}

func (t Tensor) format(b *strings.Builder, dim int, pos *int) {
	if dim == t.Rank() {
		b.WriteString(FormatElem(t.At(*pos)))
		*pos++
		return
	}
	b.WriteByte('[')
	for i := 0; i < t.Dim(dim); i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		t.format(b, dim+1, pos)
	}
	b.WriteByte(']')
}

// FormatElem formats one element value the way Tensor.String does, and Parse
// reads it back: strings quoted, and a floating-point value as the shortest
// decimal that reads back as the same value of its own type. For float16
// and bfloat16 that is often shorter than the shortest decimal of the
// float32 value (0.1, not 0.099975586, for the float16 nearest to 0.1).
// float16 values are chosen by the rules of bfloat16.BFloat16.String:
// 4110 for 4112 (0x6c04), halfway to its neighbour 4108, and 0.2188 for
// 0.21875, halfway between 0.2187 and 0.2188.
func FormatElem(v any) string {
	switch x := v.(type) {
	case float16.Float16:
		return floatfmt.Shortest16(x, float16.Float16.Float32)
	case bfloat16.BFloat16:
		return x.String()
	case string:
		return fmt.Sprintf("%q", x)
	}
	return fmt.Sprint(v)
}
