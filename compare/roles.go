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
// dialect calls it (see dialect.Role): ONNX's data, TensorFlow's params
// and tensor, PyTorch's input and MindSpore's input_x are all Data.
type Role = dialect.Role

// The roles compare maps between dialects. Their names are also accepted
// wherever a dialect's spelling is.
const (
	Data        = dialect.RoleData
	Indices     = dialect.RoleIndices
	Updates     = dialect.RoleUpdates
	Value       = dialect.RoleValue
	Shape       = dialect.RoleShape
	Axis        = dialect.RoleAxis
	BatchDims   = dialect.RoleBatchDims
	Reduction   = dialect.RoleReduction
	IncludeSelf = dialect.RoleIncludeSelf
	NumSegments = dialect.RoleNumSegments
)

// DimRoles are the dimension numbers of the general gather and scatter
// (StableHLO's and JAX's), which compare passes on by role too.
var DimRoles = []Role{
	dialect.RoleOffsetDims, dialect.RoleCollapsedSliceDims, dialect.RoleOperandBatchingDims,
	dialect.RoleStartIndicesBatchingDims, dialect.RoleStartIndexMap, dialect.RoleIndexVectorDim,
	dialect.RoleSliceSizes, dialect.RoleUpdateWindowDims, dialect.RoleInsertedWindowDims,
	dialect.RoleScatterIndicesBatchingDims, dialect.RoleScatterDimsToOperandDims,
}

// Roles lists every role compare maps, inputs first.
var Roles = append([]Role{Data, Indices, Updates, Value, Shape, Axis, BatchDims, Reduction, IncludeSelf, NumSegments}, DimRoles...)

// RoleOf returns the role of an input or attribute name given in any
// dialect's spelling ("params", "src", "dim", "use_init_val"), as the
// registry's operators declare it, or as a role.
func RoleOf(name string) (Role, bool) {
	if slices.Contains(Roles, Role(name)) {
		return Role(name), true
	}
	r, ok := spellings()[name]
	return r, ok
}

// spellings maps every input and attribute name of the registry's
// operators that plays one of Roles to its role.
var spellings = sync.OnceValue(func() map[string]Role {
	m, _ := scanSpellings()
	return m
})

// scanSpellings maps every input and attribute name of the registry's
// operators that plays one of Roles to its role, and reports the names
// that two operators of one family give different roles (the first role
// seen stays). Operators of different families never meet in one
// comparison, so a name may play another role in another family
// (NumPy's arr is the data of take_along_axis, TensorFlow's the values
// bincount counts): RoleOf reads it as the first, and an operator's
// own inputs are mapped by the roles it declares.
func scanSpellings() (map[string]Role, []string) {
	m := map[string]Role{}
	type seen struct {
		role Role
		op   *dialect.Op
	}
	byFamily := map[string]seen{}
	var conflicts []string
	for _, op := range registry.Ops() {
		roles := opRoles(op)
		for _, name := range slices.Sorted(maps.Keys(roles)) {
			r := roles[name].role
			key := op.Family + "\x00" + name
			if old, ok := byFamily[key]; ok && old.role != r {
				conflicts = append(conflicts, fmt.Sprintf("%s %s plays %s, in %s %s", op.Name, name, r, old.op.Name, old.role))
				continue
			}
			byFamily[key] = seen{r, op}
			if _, ok := m[name]; !ok {
				m[name] = r
			}
		}
	}
	return m, conflicts
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

// Kind returns the kind of value an attribute of role r takes, or 0 for
// the roles that only tensors play (data, indices, updates). Shape and
// Value are inputs that may be given as attributes too. The kinds are
// those the registry's operators declare.
func Kind(r Role) dialect.Kind {
	return roleKinds()[r]
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

// opRoles maps each input and attribute name of op that plays one of
// Roles to its role.
func opRoles(op *dialect.Op) map[string]spelling {
	m := map[string]spelling{}
	for _, p := range op.Inputs {
		if slices.Contains(Roles, p.Role) {
			m[p.Name] = spelling{role: p.Role, param: true}
		}
	}
	for _, a := range op.Attrs {
		if slices.Contains(Roles, a.Role) {
			m[a.Name] = spelling{role: a.Role}
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
	for r := engine.None; r <= engine.Div; r++ {
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
