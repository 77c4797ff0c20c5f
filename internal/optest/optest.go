// Package optest holds what the dialects' differential tests share: the
// check of one operator outcome against the reference's, in every form of
// the call.
package optest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/reftest"
	"github.com/scatter-dev/scatter/internal/tensortest"
	"github.com/scatter-dev/scatter/tensor"
)

// IsIndex reports whether err is an index error of the engine.
func IsIndex(err error) bool { return errors.Is(err, engine.ErrIndex) }

// Check fails t unless the outcome (got, err) of the operator named op
// agrees with the reference's (want, wantErr): the same error or not, an
// index error exactly where the reference has one, and the same values,
// bit for bit but for NaN payloads. An error must be a *dialect.OpError
// naming op, and an index error also an *engine.IndexError. form says
// which form of the call this was ("call", "Into", "in place"), call
// describes the inputs for the failure message.
func Check(t testing.TB, form, op string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error, call any) {
	t.Helper()
	if err != nil {
		var oe *dialect.OpError
		var ie *engine.IndexError
		switch {
		case !errors.As(err, &oe) || oe.Op != op:
			t.Fatalf("%s: error %v does not name %s\n%v", form, err, op, call)
		case IsIndex(err) && !errors.As(err, &ie):
			t.Fatalf("%s: index error %v is not an *engine.IndexError\n%v", form, err, call)
		}
	}
	if d := reftest.Disagreement(got, err, want, wantErr, IsIndex); d != "" {
		t.Fatalf("%s: %s\n%v", form, d, call)
	}
}

// Call is one fuzzer-chosen call of an operator that reads one tensor and
// may update it in place (a scatter) or not (a gather).
type Call interface {
	fmt.Stringer
	// Name is the operator's registry name ("onnx.ScatterND").
	Name() string
	// Model is the reference outcome and the output's shape (nil when the
	// reference refuses the call before it has one); viaRun asks for the
	// outcome through the operator's dialect.Op rather than its typed
	// function, which may differ in how attributes are checked.
	Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error)
	// ViaRun reports whether Call goes through the dialect.Op.
	ViaRun() bool
	// Call runs the allocating form.
	Call() (tensor.Tensor, error)
	// Into runs the Into form with dst and the given input tensor.
	Into(dst, input tensor.Tensor) error
	// Input is the tensor read (or updated, for a scatter).
	Input() tensor.Tensor
	// Scatter reports whether the operator may run in place.
	Scatter() bool
}

// Forms runs c in each of its forms and checks each outcome with Check:
// allocating (which must leave the input alone), Into a dst full of junk,
// and for a scatter in place, where a failed call must leave the input as
// it was.
func Forms(t *testing.T, c Call) {
	t.Helper()
	want, shape, wantErr := c.Model(c.ViaRun())
	input := c.Input().Clone()
	got, err := c.Call()
	Check(t, "call", c.Name(), got, err, want, wantErr, c)
	if !tensor.Equal(c.Input(), input) {
		t.Fatalf("the call changed its input\n%v", c)
	}
	if c.ViaRun() {
		want, shape, wantErr = c.Model(false)
	}
	if shape == nil {
		shape = tensor.Shape{}
	}
	dst := tensortest.Junk(input.DType(), shape)
	err = c.Into(dst, c.Input())
	Check(t, "Into", c.Name(), dst, err, want, wantErr, c)
	if c.Scatter() {
		x := input.Clone()
		err := c.Into(x, x)
		if err != nil && !tensor.Equal(x, input) {
			t.Fatalf("in place: the failed call (%v) changed the input to %v\n%v", err, x, c)
		}
		Check(t, "in place", c.Name(), x, err, want, wantErr, c)
	}
}
