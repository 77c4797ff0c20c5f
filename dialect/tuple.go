package dialect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/scatter-dev/scatter/tensor"
)

// tupleItem returns K for a name "base.K" (K a decimal number without
// leading zeros), the name of item K of the tuple input base, or -1.
func tupleItem(name, base string) int {
	rest, ok := strings.CutPrefix(name, base+".")
	if !ok || rest == "" || len(rest) > 1 && rest[0] == '0' {
		return -1
	}
	k, err := strconv.Atoi(rest)
	if err != nil || k < 0 {
		return -1
	}
	return k
}

// hasTuple reports whether c gives an item of the tuple input base.
func hasTuple(c Call, base string) bool {
	for name := range c.Inputs {
		if tupleItem(name, base) >= 0 {
			return true
		}
	}
	return false
}

// TupleInputs returns the tensors that call c gives for the input name of
// a Param with Tuple set: the one tensor given as name itself, or the
// items name.0, name.1, ... in that order, which must have no gaps; nil
// when neither is given. Giving both is an ErrInput error, as is a gap.
func TupleInputs(c Call, name string) ([]tensor.Tensor, error) {
	n := -1
	for in := range c.Inputs {
		n = max(n, tupleItem(in, name))
	}
	t, whole := c.Inputs[name]
	switch {
	case n < 0 && !whole:
		return nil, nil
	case n < 0:
		return []tensor.Tensor{t}, nil
	case whole:
		return nil, fmt.Errorf("%w: %q is given both whole and as a tuple (%s.0, ...)", ErrInput, name, name)
	}
	items := make([]tensor.Tensor, n+1)
	for k := range items {
		it, ok := c.Inputs[name+"."+strconv.Itoa(k)]
		if !ok {
			return nil, fmt.Errorf("%w: the tuple %q has %s.%d but no %s.%d", ErrInput, name, name, n, name, k)
		}
		items[k] = it
	}
	return items, nil
}
