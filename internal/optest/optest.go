// Package optest holds what the dialects' differential tests share: the
// check of one operator outcome against the reference's.
package optest

import (
	"errors"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/reftest"
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
