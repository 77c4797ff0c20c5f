package conformance

import (
	"errors"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/scatter-dev/scatter/tensor"
)

// ErrTimeout is matched (with errors.Is) by the error of a test that ran
// longer than the timeout SetTimeout sets.
var ErrTimeout = errors.New("timed out")

var timeout atomic.Int64 // a time.Duration; 0 for none

// SetTimeout sets how long one test may run, and returns the previous
// setting; 0, the setting until it is changed, lets a test run as long as
// it takes, and a negative d changes nothing. A test that runs longer
// stops at its next operation (or node) and fails with an ErrTimeout
// error; an operation under way is not interrupted, but it is bounded by
// the test's budget of elements (see RunMLIR and RunTest).
//
// It is safe to call from several goroutines; a change applies to tests
// that start after it.
func SetTimeout(d time.Duration) time.Duration {
	if d < 0 {
		return time.Duration(timeout.Load())
	}
	return time.Duration(timeout.Swap(int64(d)))
}

// The budget of one test, as a multiple of the limit of tensor.SetMaxBytes
// on one tensor: the bytes of all the tensors it makes, and the bytes of
// the elements its operations read and write, which bounds its time.
const (
	maxTensors = 8
	maxTouched = 8
)

// budget counts what one test spends.
type budget struct {
	deadline       time.Time // the zero Time for none
	made, touched  int64     // bytes of the tensors made, of the elements read and written
	madeMax, touch int64     // their bounds
}

// newBudget returns the budget of a test that starts now, from the limit
// of tensor.SetMaxBytes and SetTimeout.
func newBudget() *budget {
	limit := tensor.SetMaxBytes(-1)
	b := &budget{madeMax: times(limit, maxTensors), touch: times(limit, maxTouched)}
	if d := SetTimeout(-1); d > 0 {
		b.deadline = time.Now().Add(d)
	}
	return b
}

// times returns n*k, or math.MaxInt64 where that overflows.
func times(n, k int64) int64 {
	if n > math.MaxInt64/k {
		return math.MaxInt64
	}
	return n * k
}

// bytesOf returns the bytes of t's elements, a string counting its header.
func bytesOf(t tensor.Tensor) int64 {
	size := t.DType().Size()
	if t.DType() == tensor.String {
		size = tensor.StringHeaderBytes
	}
	return int64(t.Len()) * int64(max(size, 1))
}

// add adds n to *total, saturating.
func add(total *int64, n int64) {
	if *total > math.MaxInt64-n {
		*total = math.MaxInt64
		return
	}
	*total += n
}

// due returns an ErrTimeout error once the test's time is up.
func (b *budget) due() error {
	if !b.deadline.IsZero() && time.Now().After(b.deadline) {
		return fmt.Errorf("the test %w after its timeout of %v", ErrTimeout, SetTimeout(-1))
	}
	return nil
}

// spend counts an operation that read in and made out, and fails when the
// test's tensors, or the elements its operations read and write, exceed
// the budget.
func (b *budget) spend(in, out []tensor.Tensor) error {
	for _, t := range out {
		add(&b.made, bytesOf(t))
		add(&b.touched, bytesOf(t))
	}
	for _, t := range in {
		add(&b.touched, bytesOf(t))
	}
	switch {
	case b.made > b.madeMax:
		return fmt.Errorf("%w: the test's tensors take more than %d bytes, %d times the limit of one", tensor.ErrTooLarge, b.madeMax, maxTensors)
	case b.touched > b.touch:
		return fmt.Errorf("%w: the test's operations read and write more than %d bytes of elements, %d times the limit of one tensor",
			tensor.ErrTooLarge, b.touch, maxTouched)
	}
	return nil
}
