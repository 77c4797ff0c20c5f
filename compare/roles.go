package compare

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/registry"
)

// Role is the part an input or attribute plays in its family, whatever a
// dialect calls it: ONNX's data, TensorFlow's params and tensor, PyTorch's
// input and MindSpore's input_x are all Data.
type Role string

// The roles. Their names are also accepted wherever a dialect's spelling
// is.
const (
	Data        Role = "data"         // the tensor read or updated: data, params, tensor, input, input_x
	Indices     Role = "indices"      // indices, index
	Updates     Role = "updates"      // the values scattered: updates, src
	Value       Role = "value"        // one value scattered everywhere (torch.scatter's value)
	Shape       Role = "shape"        // the shape of a scatter onto zeros (tf.scatter_nd, mindspore.scatter_nd)
	Axis        Role = "axis"         // axis, dim
	BatchDims   Role = "batch_dims"   // the leading dimensions shared by data and indices
	Reduction   Role = "reduction"    // reduction, reduce; implied by the name of tf.tensor_scatter_nd_*
	IncludeSelf Role = "include_self" // include_self, use_init_val
)

// Roles lists every role, inputs first.
var Roles = []Role{Data, Indices, Updates, Value, Shape, Axis, BatchDims, Reduction, IncludeSelf}

// aliases are the spellings that differ from their role's name. Every
// input and attribute name of the registry's operators is either a role
// or one of these (a test checks it).
var aliases = map[string]Role{
	"params":       Data,
	"tensor":       Data,
	"input":        Data,
	"input_x":      Data,
	"index":        Indices,
	"src":          Updates,
	"dim":          Axis,
	"reduce":       Reduction,
	"use_init_val": IncludeSelf,
}

// RoleOf returns the role of an input or attribute name given in any
// dialect's spelling ("params", "src", "dim", "use_init_val") or as a
// role.
func RoleOf(name string) (Role, bool) {
	if r, ok := aliases[name]; ok {
		return r, true
	}
	if slices.Contains(Roles, Role(name)) {
		return Role(name), true
	}
	return "", false
}

// Names returns the spellings of role across the registry's operators,
// sorted, the role's own name included.
func Names(role Role) []string {
	names := []string{string(role)}
	for _, op := range registry.Ops() {
		for name, r := range opRoles(op) {
			if r.role == role && !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	sort.Strings(names)
	return names
}

// Kind returns the kind of value an attribute of role takes, or 0 for
// the roles that only tensors play (data, indices, updates). Shape and
// Value are inputs that may be given as attributes too. The kinds are
// those the registry's operators declare.
func (r Role) Kind() dialect.Kind {
	return roleKinds()[r]
}

// IsInput reports whether the role is an input tensor of the operators
// that have it (shape and value are, and may come as attributes).
func (r Role) IsInput() bool {
	switch r {
	case Data, Indices, Updates, Value, Shape:
		return true
	}
	return false
}

var roleKinds = sync.OnceValue(func() map[Role]dialect.Kind {
	kinds, _ := scanKinds()
	return kinds
})

// scanKinds reads the kind of every attribute role from the registry's
// operators, and reports the names whose kinds disagree with another
// spelling of the same role.
func scanKinds() (map[Role]dialect.Kind, []string) {
	kinds := map[Role]dialect.Kind{}
	var conflicts []string
	for _, op := range registry.Ops() {
		for name, sp := range opRoles(op) {
			kind, ok := op.AttrKind(name)
			if !ok {
				continue
			}
			if k, seen := kinds[sp.role]; seen && k != kind {
				conflicts = append(conflicts, fmt.Sprintf("%s %s is %v, another spelling of %s is %v", op.Name, name, kind, sp.role, k))
				continue
			}
			kinds[sp.role] = kind
		}
	}
	return kinds, conflicts
}

// spelling is how one operator names one role.
type spelling struct {
	role  Role
	param bool // an input (possibly also given as an attribute); false for an attribute
}

// opRoles maps each input and attribute name of op to its role. Names
// without a role are left out.
func opRoles(op *dialect.Op) map[string]spelling {
	m := map[string]spelling{}
	for _, p := range op.Inputs {
		if r, ok := RoleOf(p.Name); ok {
			m[p.Name] = spelling{role: r, param: true}
		}
	}
	for _, a := range op.Attrs {
		if r, ok := RoleOf(a.Name); ok {
			m[a.Name] = spelling{role: r}
		}
	}
	return m
}

// nameFor returns op's name for role, and whether op has the role at all.
func nameFor(op *dialect.Op, role Role) (string, bool) {
	for name, sp := range opRoles(op) {
		if sp.role == role {
			return name, true
		}
	}
	return "", false
}

// ReductionOf reads a reduction in any dialect's spelling ("add", "sum",
// "update", "amax", "multiply", "prod") as the engine's reduction. The
// spellings are those of the registry's operators' Behavior tables, at
// every version, and the engine's own names.
func ReductionOf(name string) (engine.Reduction, error) {
	spellings := reductionSpellings()
	if r, ok := spellings[name]; ok {
		return r, nil
	}
	return 0, fmt.Errorf("%w: reduction %q is not a reduction of any dialect (known: %s)",
		ErrRequest, name, strings.Join(slices.Sorted(maps.Keys(spellings)), ", "))
}

var reductionSpellings = sync.OnceValue(func() map[string]engine.Reduction {
	m, _ := scanReductions()
	return m
})

// scanReductions collects every reduction spelling of every operator
// version, and reports spellings that two operators give different
// meanings.
func scanReductions() (map[string]engine.Reduction, []string) {
	m := map[string]engine.Reduction{}
	for r := engine.None; r <= engine.Xor; r++ {
		m[r.String()] = r
	}
	var conflicts []string
	for _, op := range registry.Ops() {
		if op.Behavior == nil {
			continue
		}
		for _, v := range op.Versions {
			for name, r := range op.Behavior(v).Reductions {
				if old, ok := m[name]; ok && old != r {
					conflicts = append(conflicts, fmt.Sprintf("%s-%d: %q means %v, elsewhere %v", op.Name, v, name, r, old))
					continue
				}
				m[name] = r
			}
		}
	}
	return m, conflicts
}
