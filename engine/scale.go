package engine

import (
	"reflect"
	"sync"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// The update scale (ScatterOptions.Scale): the scatters that take it
// multiply a copy of their updates by it first, with the reducer of
// reduction Mul, and scatter the copy.

// scaled is a copy of a call's updates multiplied by its scale, kept in a
// pool with its reducer: a call whose updates have the type and size of
// an earlier one reuses both and allocates nothing.
type scaled struct {
	buf   tensor.Tensor // 1-D, the updates' element count
	shape tensor.Shape  // the updates' shape, which view holds
	view  tensor.Tensor
	key   reducerKey
	red   reducer
	pairs []pair // a batch of (update, 0) pairs for red
}

var scaledPool sync.Pool

// scaledForm says which scatter scatterScaled runs.
type scaledForm uint8

const (
	scaledND scaledForm = iota
	scaledElements
	scaledGeneral
)

// scatterScaled runs the scatter form (ScatterND, ScatterElements along
// axis, or the general scatter of d) whose opt.Scale is set, on updates
// scaled by scaleCopy. The public functions call it apart from their own
// path, so that a call without a scale pays only the test of its field.
func scatterScaled(form scaledForm, dst, data, indices, updates tensor.Tensor, axis int, d *ScatterDims, opt *ScatterOptions) error {
	sc, err := scaleCopy(&updates, opt)
	if err != nil {
		return err
	}
	defer sc.release()
	s := getScratch()
	defer s.release()
	switch form {
	case scaledND:
		return scatterND(s, &dst, &data, &indices, &updates, opt)
	case scaledElements:
		return scatterElements(s, &dst, &data, &indices, &updates, axis, opt)
	}
	return scatterGeneral(s, &dst, &data, &indices, &updates, d, opt, true)
}

// scaleCopy replaces *updates by a copy multiplied element by element by
// opt.Scale, as reduction Mul computes under opt.Arith, in memory from a
// pool, which it returns (nil where the reducer scales each update
// itself). Give it back with release once the scatter has returned.
func scaleCopy(updates *tensor.Tensor, opt *ScatterOptions) (*scaled, error) {
	if updates.IsZero() {
		return nil, nil // the scatter refuses it
	}
	if opt.Reduction == Div {
		return nil, argErr("reduction div takes no scale") // a scaled divisor could be 0 after the check
	}
	d := updates.DType()
	if opt.Scale.DType() != d || opt.Scale.Len() != 1 {
		return nil, typeErr("the scale must be one %v element, got %v of shape %v", d, opt.Scale.DType(), opt.Scale.Shape())
	}
	mul := ScatterOptions{Reduction: Mul, Arith: Arith{Complex: opt.Arith.Complex, NumbersOnly: opt.Arith.NumbersOnly}}
	if err := checkReduction(d, &mul); err != nil {
		return nil, err
	}
	if (d == tensor.Float16 || d == tensor.BFloat16) && opt.Reduction == Add && !opt.Arith.HalfOnce {
		return nil, nil // the reducer scales each update in float32 (halfKnobs)
	}
	b, _ := scaledPool.Get().(*scaled)
	if b == nil {
		b = &scaled{}
	}
	n := updates.Len()
	if b.buf.DType() != d || b.buf.Len() != n {
		t, err := tensor.Empty(d, tensor.Shape{n})
		if err != nil {
			scaledPool.Put(b)
			return nil, err
		}
		b.buf, b.red = t, nil
	}
	reflect.Copy(reflect.ValueOf(b.buf.Data()), reflect.ValueOf(updates.Data()))
	if k := keyOf(d, &mul); b.red == nil || b.key != k {
		b.red, b.key = newKnobReducer(b.buf, opt.Scale, 1, mul), k
	} else {
		b.red.rebind(b.buf.Data(), opt.Scale.Data(), 1)
	}
	b.pairs = resize(b.pairs, batch)
	for i0 := 0; i0 < n; i0 += batch {
		k := min(batch, n-i0)
		for j := range k {
			b.pairs[j] = pair{d: i0 + j}
		}
		b.red.reduce(b.pairs[:k])
	}
	b.shape = updates.AppendShape(b.shape[:0])
	b.view, _ = b.buf.View(&b.shape)
	*updates = b.view
	return b, nil
}

// scaleKey returns the part of a reducerKey that a float16 or bfloat16
// scale t sets: a bit, and its bits; 0 for another type.
func scaleKey(t tensor.Tensor) reducerKey {
	switch v := t.Data().(type) {
	case []float16.Float16:
		return 1<<56 | reducerKey(v[0].Bits())<<40
	case []bfloat16.BFloat16:
		return 1<<56 | reducerKey(v[0].Bits())<<40
	}
	return 0
}

// release gives b back to the pool; nil is nothing to give back.
func (b *scaled) release() {
	if b != nil {
		b.put()
	}
}

// put gives b back to the pool.
func (b *scaled) put() {
	b.red.rebind(nil, nil, 1)
	b.view = tensor.Tensor{}
	scaledPool.Put(b)
}
