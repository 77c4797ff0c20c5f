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

// ZeroScatter is implemented by a Call whose operator may scatter onto
// zeros of a shape it is given (tf.scatter_nd, mindspore.scatter_nd)
// rather than read an input tensor.
type ZeroScatter interface {
	// Zeros reports the type and shape of the output when the call is
	// such a scatter.
	Zeros() (dt tensor.DType, shape tensor.Shape, ok bool)
}

// Checker is implemented by a Call that checks more of an outcome than
// Check does (which index an error names, say); its Check replaces
// optest.Check for it.
type Checker interface {
	Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error)
}

// Forms runs c in each of its forms and checks each outcome with Check
// (or c's own, if c is a Checker): allocating, which must leave the input
// alone; Into a dst full of junk, which a failed scatter onto zeros must
// leave as it was; and for a scatter in place, where a failed call must
// leave the input as it was.
func Forms(t *testing.T, c Call) {
	t.Helper()
	check := func(form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
		t.Helper()
		if ck, ok := c.(Checker); ok {
			ck.Check(t, form, got, err, want, wantErr)
			return
		}
		Check(t, form, c.Name(), got, err, want, wantErr, c)
	}
	var (
		zeros bool
		dt    tensor.DType
		zs    tensor.Shape
	)
	if z, ok := c.(ZeroScatter); ok {
		dt, zs, zeros = z.Zeros()
	}
	want, shape, wantErr := c.Model(c.ViaRun())
	var input tensor.Tensor
	if !zeros {
		input = c.Input().Clone()
		dt = input.DType()
	}
	got, err := c.Call()
	check("call", got, err, want, wantErr)
	if !zeros && !tensor.Equal(c.Input(), input) {
		t.Fatalf("the call changed its input\n%v", c)
	}
	if c.ViaRun() {
		want, shape, wantErr = c.Model(false)
	}
	switch {
	case zeros:
		if _, err := zs.NumElements(); err != nil {
			return // no dst of that shape
		}
		shape = zs
	case shape == nil:
		shape = tensor.Shape{}
	}
	dst := tensortest.Junk(dt, shape)
	err = c.Into(dst, c.Input())
	if zeros && err != nil && !tensor.Equal(dst, tensortest.Junk(dt, shape)) {
		t.Fatalf("Into: the failed call (%v) changed dst to %v\n%v", err, dst, c)
	}
	check("Into", dst, err, want, wantErr)
	if c.Scatter() {
		x := input.Clone()
		err := c.Into(x, x)
		if err != nil && !tensor.Equal(x, input) {
			t.Fatalf("in place: the failed call (%v) changed the input to %v\n%v", err, x, c)
		}
		check("in place", x, err, want, wantErr)
	}
}
