// Package rawalloc allocates the outputs of the operators' allocating
// forms without zeroing them first.
//
// An allocating form (onnx.ScatterND, torch.Gather, ...) makes a new
// tensor and runs its Into form on it, and every Into form writes every
// element of its destination. Zeroing the memory first is then wasted,
// and for a large output it is not cheap: the runtime clears it on one
// core at memory speed (64 MiB: 7 to 12 ms on a 2-vCPU Xeon, where the
// operator itself takes 5). New leaves large outputs of fixed-size
// elements as the allocator hands them over; the Into form overwrites
// them whole before anyone can read them.
package rawalloc

import (
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/internal/hugepage"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// mallocgc is the Go runtime's allocator. The runtime keeps its name and
// signature for the packages that link to it (go.dev/issue/67401: "Do
// not remove or change the type signature"). A nil type allocates memory
// that the garbage collector does not scan, and needzero false leaves the
// memory as it was.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// MinBytes is the size from which New leaves an output unzeroed: below
// it, clearing costs little next to the call.
const MinBytes = 1 << 20

// minBytes is MinBytes but while Poison is in effect.
var minBytes = MinBytes

// poison says whether New fills the memory it leaves unzeroed with
// poisonByte (see Poison).
var poison bool

// New returns a tensor of the given type and shape for an Into form to
// overwrite whole. A tensor of at least MinBytes of fixed-size elements
// other than bool is not zeroed: its elements are whatever the memory
// held, so the caller must write every one of them before any is read,
// and drop the tensor if the Into form fails. Other tensors, and every
// error, are those of tensor.New.
func New(d tensor.DType, s tensor.Shape) (tensor.Tensor, error) {
	if err := tensor.CheckSize(d, s); err != nil || !d.Valid() || d == tensor.String || d == tensor.Bool {
		return tensor.New(d, s)
	}
	n, err := s.NumElements()
	if err != nil || n*d.Size() < minBytes || n == 0 {
		return tensor.New(d, s)
	}
	var data any
	switch d {
	case tensor.Float32:
		data = raw[float32](n)
	case tensor.Float64:
		data = raw[float64](n)
	case tensor.Float16:
		data = raw[float16.Float16](n)
	case tensor.BFloat16:
		data = raw[bfloat16.BFloat16](n)
	case tensor.Int8:
		data = raw[int8](n)
	case tensor.Int16:
		data = raw[int16](n)
	case tensor.Int32:
		data = raw[int32](n)
	case tensor.Int64:
		data = raw[int64](n)
	case tensor.Uint8:
		data = raw[uint8](n)
	case tensor.Uint16:
		data = raw[uint16](n)
	case tensor.Uint32:
		data = raw[uint32](n)
	case tensor.Uint64:
		data = raw[uint64](n)
	case tensor.Complex64:
		data = raw[complex64](n)
	case tensor.Complex128:
		data = raw[complex128](n)
	default:
		return tensor.New(d, s)
	}
	return tensor.Wrap(s, data)
}

// raw returns n elements of T, which holds no pointers, unzeroed (or
// poisoned).
func raw[T any](n int) []T {
	var zero T
	bytes := uintptr(n) * unsafe.Sizeof(zero)
	p := mallocgc(bytes, nil, false)
	hugepage.Advise(p, bytes) // as tensor.New does
	s := unsafe.Slice((*T)(p), n)
	if poison {
		b := unsafe.Slice((*byte)(p), bytes)
		for i := range b {
			b[i] = PoisonByte
		}
	}
	return s
}

// PoisonByte is what Poison fills memory with: 0xa5 bytes are no zero,
// no NaN (a fill value or a propagated NaN a test may expect) and no
// small integer, but -2.9e-16 in a float32, for example.
const PoisonByte = 0xa5

// Poison makes New leave every output of at least min bytes unzeroed
// (every one for 0) and fill it with PoisonByte: a test run under it sees
// an element an Into form failed to write as a value it would not
// otherwise get. It returns the function that undoes it. Not for
// concurrent use with New.
func Poison(min int) (undo func()) {
	oldMin, oldPoison := minBytes, poison
	minBytes, poison = min, true
	return func() { minBytes, poison = oldMin, oldPoison }
}
