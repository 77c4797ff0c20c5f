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
	"reflect"
	"unsafe"

	"github.com/scatter-dev/scatter/internal/hugepage"
	"github.com/scatter-dev/scatter/tensor"
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
// PoisonByte (see Poison).
var poison bool

// New returns a tensor of the given type and shape for an Into form to
// overwrite whole. A tensor of at least MinBytes of fixed-size elements
// other than bool is not zeroed: its elements are whatever the memory
// held, so the caller must write every one of them before any is read,
// and drop the tensor if the Into form fails. Other tensors, and every
// error, are those of tensor.New. Both are on huge pages where large (see
// tensor.SetHugePages).
func New(d tensor.DType, s tensor.Shape) (tensor.Tensor, error) {
	n, err := s.NumElements()
	if err != nil || !d.Valid() || d == tensor.String || d == tensor.Bool || n < minBytes/d.Size() || n == 0 {
		return tensor.New(d, s) // which says what is wrong, if anything is
	}
	if err := tensor.CheckSize(d, s); err != nil {
		return tensor.Tensor{}, err
	}
	bytes := uintptr(n) * uintptr(d.Size())
	p := mallocgc(bytes, nil, false)
	hugepage.Advise(p, bytes) // as tensor.New does
	if poison {
		b := unsafe.Slice((*byte)(p), bytes)
		for i := range b {
			b[i] = PoisonByte
		}
	}
	return tensor.Wrap(s, reflect.SliceAt(elemTypes[d], p, n).Interface())
}

// elemTypes are the Go element types of the tensor types, by DType.
var elemTypes = func() map[tensor.DType]reflect.Type {
	ts := map[tensor.DType]reflect.Type{}
	for _, d := range tensor.DTypes() {
		ts[d] = reflect.TypeOf(tensor.Must(tensor.New(d, tensor.Shape{0})).Data()).Elem()
	}
	return ts
}()

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
