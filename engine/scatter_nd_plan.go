package engine

import (
	"github.com/scatter-dev/scatter/tensor"
)

// planDims is the most dimensions of a tensor that a ScatterND plan
// keeps: a call with a tensor of more has no plan, and runs every check.
const planDims = 8

// ndPlan is what a ScatterND call derives from its element types, shapes
// and options alone: that they are consistent, the tuples' length and
// number, the size of the slice each addresses, and the limits and
// strides of the tuples' components. A scratch keeps the plan of its
// latest ScatterND call, and a call whose types, shapes and options equal
// it (a model's layer called again on inputs of the same shapes: a
// KV-cache write at every decoding step) takes the plan rather than check
// and derive them again. Nothing in it depends on the tensors' elements
// or memory: every index is still checked on every call, and where dst,
// data, indices and updates lie is looked at afresh (checkMemory). Each
// scratch has its own, which one call at a time reads: no lock, nothing
// shared between goroutines.
type ndPlan struct {
	valid bool
	// The key: the types of dst (and updates), data (Undefined for the
	// zero Tensor) and indices, the index rules, and the shapes of dst
	// (and data), indices and updates, with their ranks. The other
	// options are checked on every call (checkReduction), as comparing
	// them would cost as much.
	dtype, dataType, indexType tensor.DType
	rules                      IndexRules
	ranks                      [3]int
	dims                       [3][planDims]int
	// What the key determines: k components a tuple, n tuples, block
	// elements a slice, size elements in dst, and each component's limit
	// under the rules the scatter runs by (skipAll's with NegativeSkip,
	// see negativePass) and stride in dst.
	k, n, block, size int
	lims              [planDims]limit
	strides           [planDims]int
}

// The slots of ndPlan.dims and ranks.
const (
	planDst = iota
	planIndices
	planUpdates
)

// plans reports whether a ScatterND call with these options may have a
// plan: without a fill value (a Tensor, which the plan would have to
// compare), and unless integer division, whose check reads the updates.
func plans(updates *tensor.Tensor, opt *ScatterOptions) bool {
	return opt.Fill.IsZero() && opt.Scale.IsZero() && !(opt.Reduction == Div && updates.DType().IsInteger())
}

// shape returns the dimensions of slot i.
func (p *ndPlan) shape(i int) tensor.Shape { return p.dims[i][:p.ranks[i]] }

// matches reports whether the call has p's types, shapes and rules. The
// zero Tensor has type Undefined, which a plan's dst, updates and indices
// never have.
func (p *ndPlan) matches(dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) bool {
	return p.valid && dst.DType() == p.dtype && updates.DType() == p.dtype &&
		data.DType() == p.dataType && indices.DType() == p.indexType &&
		plans(updates, opt) && opt.Rules == p.rules &&
		dst.HasShape(p.shape(planDst)) && indices.HasShape(p.shape(planIndices)) &&
		updates.HasShape(p.shape(planUpdates)) && (data.IsZero() || data.HasShape(p.shape(planDst)))
}

// set makes p the plan of a call that checkScatterND has passed, whose
// dst and indices have shapes ds and is, or leaves p invalid when the
// call cannot have one.
func (p *ndPlan) set(dst, data, indices, updates *tensor.Tensor, ds, is tensor.Shape, opt *ScatterOptions) {
	p.valid = false
	if !plans(updates, opt) || len(ds) > planDims || len(is) > planDims || updates.Rank() > planDims {
		return
	}
	p.dtype, p.dataType, p.indexType = dst.DType(), data.DType(), indices.DType()
	p.rules = opt.Rules
	p.ranks = [3]int{len(ds), len(is), updates.Rank()}
	copy(p.dims[planDst][:], ds)
	copy(p.dims[planIndices][:], is)
	for i := range p.ranks[planUpdates] {
		p.dims[planUpdates][i] = updates.Dim(i)
	}
	k := is[len(is)-1]
	p.k, p.size, p.block = k, dst.Len(), 0
	p.n, _ = is[:len(is)-1].NumElements()
	if p.size > 0 {
		p.block = product(ds[k:])
	}
	rules := runRules(opt.Rules)
	acc := 1
	for d := len(ds) - 1; d >= 0; d-- {
		if d < k {
			lo, _ := rules.bounds(ds[d])
			p.lims[d], p.strides[d] = limit{size: ds[d], fromEnd: -lo}, acc
		}
		acc *= ds[d]
	}
	p.valid = true
}

// runRules returns the rules a scatter under r runs by once negativePass
// has passed: skipAll for NegativeSkip, r otherwise.
func runRules(r IndexRules) IndexRules {
	if r.Negative == NegativeSkip {
		return skipAll
	}
	return r
}
