package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// kernels are the entry points a test calls: the engine's own
// (fastKernels), or those of generalKernels, which run each form by the
// general core with the form's dimension numbers, after the form's own
// checks, and the general gather and scatter without recognising the
// forms. The fast paths and the general core must meet the same
// reference.
type kernels struct {
	name            string
	ScatterND       func(dst, data, indices, updates tensor.Tensor, opt ScatterOptions) error
	ScatterElements func(dst, data, indices, updates tensor.Tensor, axis int, opt ScatterOptions) error
	GatherND        func(dst, data, indices tensor.Tensor, batchDims int, rules IndexRules) error
	GatherElements  func(dst, data, indices tensor.Tensor, axis int, rules IndexRules) error
	Gather          func(dst, data, indices tensor.Tensor, axis, batchDims int, rules IndexRules) error
	GatherGeneral   func(dst, operand, indices tensor.Tensor, d *GatherDims, opt GatherOptions) error
	ScatterGeneral  func(dst, operand, indices, updates tensor.Tensor, d *ScatterDims, opt ScatterOptions) error
}

var (
	fastKernels = kernels{"fast", ScatterND, ScatterElements, GatherND, GatherElements, Gather,
		GatherGeneral, ScatterGeneral}
	generalKernels = kernels{"general", generalScatterND, generalScatterElements, generalGatherND,
		generalGatherElements, generalGather, generalGatherGeneral, generalScatterGeneral}
)

// bothKernels lists fastKernels and generalKernels, for tests that run
// both.
var bothKernels = []kernels{fastKernels, generalKernels}

// Kernels, FastKernels and GeneralKernels are kernels, fastKernels and
// generalKernels for the tests of package engine_test.
type Kernels = kernels

var (
	FastKernels    = fastKernels
	GeneralKernels = generalKernels
)

// Name returns "fast" or "general".
func (k kernels) Name() string { return k.name }

func generalScatterND(dst, data, indices, updates tensor.Tensor, opt ScatterOptions) error {
	if !fastRules(opt.Rules) {
		return clampErr("ScatterND")
	}
	s := getScratch()
	defer s.release()
	if err := checkScatterND(s, &dst, &data, &indices, &updates, &opt); err != nil {
		return err
	}
	dims := ScatterNDDims(len(s.shapes[dataShape]), s.shapes[indexShape])
	return scatterGeneral(s, &dst, &data, &indices, &updates, &dims, &opt, false)
}

func generalScatterElements(dst, data, indices, updates tensor.Tensor, axis int, opt ScatterOptions) error {
	if !fastRules(opt.Rules) {
		return clampErr("ScatterElements")
	}
	s := getScratch()
	defer s.release()
	if err := checkScatterElements(s, &dst, &data, &indices, &updates, axis, &opt); err != nil {
		return err
	}
	dims := ScatterElementsDims(len(s.shapes[dataShape]), axis)
	return scatterGeneral(s, &dst, &data, &indices, &updates, &dims, &opt, false)
}

// generalGatherForm runs the gather form op by the general core: the
// form's refusal of clamping, its shape checks (check) and its dimension
// numbers (dims).
func generalGatherForm(op string, dst, data, indices tensor.Tensor, rules IndexRules,
	check func(ds, is tensor.Shape) error, dims func(ds, is tensor.Shape) GatherDims) error {
	if !fastRules(rules) {
		return clampErr(op)
	}
	s := getScratch()
	defer s.release()
	ds, is := s.shape(dataShape, &data), s.shape(indexShape, &indices)
	if err := check(ds, is); err != nil {
		return err
	}
	d := dims(ds, is)
	return gatherGeneral(s, &dst, &data, &indices, &d, &GatherOptions{Rules: rules}, false)
}

func generalGatherND(dst, data, indices tensor.Tensor, batchDims int, rules IndexRules) error {
	return generalGatherForm("GatherND", dst, data, indices, rules,
		func(ds, is tensor.Shape) error { _, err := GatherNDShape(ds, is, batchDims); return err },
		func(ds, is tensor.Shape) GatherDims { return GatherNDDims(ds, is, batchDims) })
}

func generalGatherElements(dst, data, indices tensor.Tensor, axis int, rules IndexRules) error {
	return generalGatherForm("GatherElements", dst, data, indices, rules,
		func(ds, is tensor.Shape) error { return checkElements(ds, is, axis) },
		func(ds, _ tensor.Shape) GatherDims { return GatherElementsDims(ds, axis) })
}

func generalGather(dst, data, indices tensor.Tensor, axis, batchDims int, rules IndexRules) error {
	return generalGatherForm("Gather", dst, data, indices, rules,
		func(ds, is tensor.Shape) error { _, err := GatherShape(ds, is, axis, batchDims); return err },
		func(ds, is tensor.Shape) GatherDims { return GatherAxisDims(ds, len(is), axis, batchDims) })
}

func generalGatherGeneral(dst, operand, indices tensor.Tensor, d *GatherDims, opt GatherOptions) error {
	s := getScratch()
	defer s.release()
	return gatherGeneral(s, &dst, &operand, &indices, d, &opt, false)
}

func generalScatterGeneral(dst, operand, indices, updates tensor.Tensor, d *ScatterDims, opt ScatterOptions) error {
	s := getScratch()
	defer s.release()
	return scatterGeneral(s, &dst, &operand, &indices, &updates, d, &opt, false)
}

// RandShape returns a shape of the given rank whose dimensions lie in
// [0, maxDim], a quarter of the zeros drawn kept and the others redrawn
// in [1, maxDim].
func RandShape(rng *rand.Rand, rank, maxDim int) tensor.Shape {
	s := make(tensor.Shape, rank)
	for i := range s {
		s[i] = rng.IntN(maxDim + 1)
		if rng.IntN(4) != 0 && s[i] == 0 {
			s[i] = 1 + rng.IntN(maxDim)
		}
	}
	return s
}

// RandomFloats returns a float32 or float64 tensor of the given shape
// holding values from value.
func RandomFloats(dt tensor.DType, shape tensor.Shape, value func() float64) tensor.Tensor {
	n, _ := shape.NumElements()
	if dt == tensor.Float32 {
		v := make([]float32, n)
		for i := range v {
			v[i] = float32(value())
		}
		return tensor.Must(tensor.From(shape, v))
	}
	v := make([]float64, n)
	for i := range v {
		v[i] = value()
	}
	return tensor.Must(tensor.From(shape, v))
}

// setVar sets *p to v and returns a func that puts back the value *p had.
func setVar[T any](p *T, v T) (restore func()) {
	old := *p
	*p = v
	return func() { *p = old }
}

// SetMinWork, SetSlabBytes, SetMaxOffset, SetOneRowsBytes and SetPipeChunk
// set the package variable of that name for a test, and return a func that
// restores it: defer SetMinWork(1)().
func SetMinWork(w int) (restore func())      { return setVar(&minWork, w) }
func SetSlabBytes(b int) (restore func())    { return setVar(&slabBytes, b) }
func SetMaxOffset(o int) (restore func())    { return setVar(&maxOffset, o) }
func SetOneRowsBytes(b int) (restore func()) { return setVar(&oneRowsBytes, b) }
func SetPipeChunk(c int) (restore func())    { return setVar(&pipeChunk, c) }

// SetBlocked makes ScatterND sort single elements by block of dst from the
// smallest sizes: blocks of one element, from one update, every dst past
// the cache (which the copy strategy's other choices read too). It returns a
// func that restores what it changed.
func SetBlocked() (restore func()) {
	b, m, s := blockedBytes, blockedMin, strategy
	blockedBytes, blockedMin = 1, 1
	strategy.StreamBytes = 1
	return func() { blockedBytes, blockedMin, strategy = b, m, s }
}

// OneRowsBytes and PipeChunk return the values of oneRowsBytes and
// pipeChunk.
func OneRowsBytes() int { return oneRowsBytes }
func PipeChunk() int    { return pipeChunk }

// The internals the tests of package engine_test call.
var (
	AllBut      = allBut
	IndexBounds = IndexRules.bounds
	MustShape   = must
)

// RaceEnabled reports whether the tests run under the race detector.
const RaceEnabled = raceEnabled

// Scratch is a call's working memory, for the tests of ScatterND's plan,
// which it keeps from one call to the next.
type Scratch = scratch

// NewScratch returns an empty scratch, with no plan.
func NewScratch() *Scratch { return new(scratch) }

// ScatterNDWith is ScatterND through the scratch s, which keeps its plan.
func ScatterNDWith(s *Scratch, dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) error {
	return scatterND(s, dst, data, indices, updates, opt)
}

// PlanValid reports whether s holds a ScatterND plan.
func PlanValid(s *Scratch) bool { return s.ndp.valid }

// PlanMatches reports whether a call takes the plan s holds.
func PlanMatches(s *Scratch, dst, data, indices, updates *tensor.Tensor, opt *ScatterOptions) bool {
	return s.ndp.matches(dst, data, indices, updates, opt)
}

// ForceStrategy is forceStrategy, for the tests of package engine_test.
func ForceStrategy(t testing.TB, s Strategy) { forceStrategy(t, s) }
