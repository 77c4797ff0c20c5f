package numpy_test

import (
	"testing"

	"github.com/scatter-dev/scatter/testkit/optest"
)

// TestMain runs the tests with every allocated output poisoned, so that
// an element an operator leaves unwritten fails them (see optest.Main).
func TestMain(m *testing.M) { optest.Main(m) }
