// Package rawalloc hands out memory without zeroing it first, for
// tensor.Empty, whose callers overwrite every element before reading one.
//
// The operators' allocating forms (onnx.ScatterND, torch.Gather, ...) make
// a new tensor and run their Into form on it, and every Into form writes
// every element of its destination. Zeroing the memory first is then
// wasted, and for a large output it is not cheap: the runtime clears it on
// one core at memory speed, which can take as long as the operator itself.
package rawalloc

import (
	"unsafe"

	"github.com/scatter-dev/scatter/internal/hugepage"
)

// mallocgc is the Go runtime's allocator. The runtime keeps its name and
// signature for the packages that link to it (go.dev/issue/67401: "Do
// not remove or change the type signature"). A nil type allocates memory
// that the garbage collector does not scan, and needzero false leaves the
// memory as it was.
//
//go:linkname mallocgc runtime.mallocgc
func mallocgc(size uintptr, typ unsafe.Pointer, needzero bool) unsafe.Pointer

// MinBytes is the size from which Unzeroed leaves memory unzeroed: below
// it, clearing costs little next to the call that fills it.
const MinBytes = 1 << 20

// minBytes is MinBytes but while Poison is in effect.
var minBytes = MinBytes

// poison says whether Unzeroed fills the memory it hands out with
// PoisonByte (see Poison).
var poison bool

// Unzeroed returns n bytes that the garbage collector does not scan (so
// they must hold no pointers), as the allocator hands them over, on huge
// pages where large (see hugepage.Advise); it returns nil for fewer than
// MinBytes bytes, which the caller allocates zeroed as usual.
func Unzeroed(n uintptr) unsafe.Pointer {
	if n == 0 || n < uintptr(minBytes) {
		return nil
	}
	p := mallocgc(n, nil, false)
	hugepage.Advise(p, n)
	if poison {
		b := unsafe.Slice((*byte)(p), n)
		for i := range b {
			b[i] = PoisonByte
		}
	}
	return p
}

// PoisonByte is what Poison fills memory with: 0xa5 bytes are no zero,
// no NaN (a fill value or a propagated NaN a test may expect) and no
// small integer, but -2.9e-16 in a float32, for example.
const PoisonByte = 0xa5

// Poison makes Unzeroed hand out every block of at least min bytes (every
// one for 0) filled with PoisonByte: a test run under it sees an element
// an Into form failed to write as a value it would not otherwise get. It
// returns the function that undoes it. Not for concurrent use with
// Unzeroed.
func Poison(min int) (undo func()) {
	oldMin, oldPoison := minBytes, poison
	minBytes, poison = min, true
	return func() { minBytes, poison = oldMin, oldPoison }
}
