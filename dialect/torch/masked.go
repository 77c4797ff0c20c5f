package torch

import (
	"fmt"
	"sync"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/internal/opcall"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
)

// The operators of advanced indexing: torch.index_put (tensor[indices] =
// values) and torch.masked_scatter. Both are the engine's ScatterND: the
// index tuples are built from the index tensors broadcast together (a
// mask standing for the positions of its true elements), or from the
// true positions of the mask.

// IndexPut returns a copy of input in which the elements (or slices) that
// the index tensors select are set to values, or with accumulate have
// values added: torch.index_put(input, indices, values, accumulate), the
// assignment input[indices] = values. indices holds at most input.Rank()
// tensors, which index input's first dimensions: an int64 or int32 tensor
// indexes one dimension, a bool or uint8 mask as many as it has, standing
// for the coordinates of its nonzero elements in row-major order (its
// shape is those dimensions' sizes). The index tensors broadcast together
// to a shape B; values has input's type and broadcasts to B followed by
// the sizes of the dimensions not indexed. A negative index counts from
// the end. Of duplicate positions without accumulate the last in
// row-major order of B wins (PyTorch leaves it undefined); with
// accumulate they are summed in that order, float16 and bfloat16
// rounding after every step.
func IndexPut(input tensor.Tensor, indices []tensor.Tensor, values tensor.Tensor, accumulate bool) (tensor.Tensor, error) {
	return opcall.AllocLike(opIndexPut, input, "input", func(dst tensor.Tensor) error {
		return IndexPutInto(dst, input, indices, values, accumulate)
	})
}

// IndexPutInto is IndexPut writing into dst, which has input's type and
// shape and may be input itself (x.index_put_(...)).
func IndexPutInto(dst, input tensor.Tensor, indices []tensor.Tensor, values tensor.Tensor, accumulate bool) error {
	p := putPool.Get().(*putCall)
	defer p.release()
	return opcall.Wrap(opIndexPut, p.run(dst, input, indices, values, accumulate))
}

// MaskedScatter returns input with the positions where mask is true
// replaced, in row-major order, by the elements of source taken in order:
// torch.masked_scatter(input, mask, source). mask is bool; input and mask
// broadcast together, and the result has the broadcast shape. source has
// input's type and any shape, and at least as many elements as mask has
// true positions (in the broadcast shape); the rest are not read.
func MaskedScatter(input, mask, source tensor.Tensor) (tensor.Tensor, error) {
	p := putPool.Get().(*putCall)
	defer p.release()
	shape, err := p.maskedShape(input, mask, source)
	if err != nil {
		return tensor.Tensor{}, opcall.Wrap(opMaskedScatter, err)
	}
	return opcall.Alloc(opMaskedScatter, input.DType(), shape, func(dst tensor.Tensor) error {
		return p.masked(dst, input, mask, source)
	})
}

// MaskedScatterInto is MaskedScatter writing into dst, which has input's
// type and the broadcast shape of input and mask, and may be input itself
// (x.masked_scatter_(mask, source), where mask broadcasts to input's
// shape).
func MaskedScatterInto(dst, input, mask, source tensor.Tensor) error {
	p := putPool.Get().(*putCall)
	defer p.release()
	shape, err := p.maskedShape(input, mask, source)
	if err == nil {
		err = opcall.CheckDst(dst, input.DType(), shape)
	}
	if err != nil {
		return opcall.Wrap(opMaskedScatter, err)
	}
	return opcall.Wrap(opMaskedScatter, p.masked(dst, input, mask, source))
}

// The operators' names.
const (
	opIndexPut      = "torch.index_put"
	opMaskedScatter = "torch.masked_scatter"
)

// putCall holds the working memory of a call of index_put or
// masked_scatter, kept in a pool: the index tuples, the broadcast values,
// the positions of a mask's true elements and the shapes.
type putCall struct {
	sh      *opcall.Shapes
	tuples  []int64
	trues   [][]int64 // per index tensor, the flat positions of a mask's true elements
	sources []indexSource
	vals    *filledSrc
	bshape  tensor.Shape // the broadcast shape
	coords  []int
	idx     tensor.Tensor // 1-D over tuples, made again when tuples moves
}

// indexSource is one tensor of index_put's indices: an index of one
// dimension, or a mask of dims dimensions whose true positions trues
// holds.
type indexSource struct {
	t     tensor.Tensor
	mask  bool
	dims  int
	first int // the first dimension of input it indexes
	trues []int64
	// shape is the tensor's shape in the broadcast: its own, or [count]
	// of a mask.
	shape tensor.Shape
}

var putPool = sync.Pool{New: func() any { return &putCall{} }}

func (p *putCall) release() {
	if p.sh != nil {
		p.sh.Release()
		p.sh = nil
	}
	if p.vals != nil {
		p.vals.release()
		p.vals = nil
	}
	for i := range p.sources {
		p.sources[i] = indexSource{trues: p.sources[i].trues[:0], shape: p.sources[i].shape[:0]}
	}
	putPool.Put(p)
}

func (p *putCall) shapes() *opcall.Shapes {
	if p.sh == nil {
		p.sh = opcall.GetShapes()
	}
	return p.sh
}

func (p *putCall) run(dst, input tensor.Tensor, indices []tensor.Tensor, values tensor.Tensor, accumulate bool) error {
	switch {
	case input.IsZero():
		return fmt.Errorf("%w: missing input \"input\"", dialect.ErrInput)
	case values.IsZero():
		return fmt.Errorf("%w: missing input \"values\"", dialect.ErrInput)
	case len(indices) == 0:
		return fmt.Errorf("%w: missing input \"indices.0\": index_put takes at least one index tensor", dialect.ErrInput)
	}
	dt := input.DType()
	if err := opcall.NoStrings(framework, "input", dt); err != nil {
		return err
	}
	if err := indexPutBehavior.CheckType("input", dt); err != nil {
		return err
	}
	if values.DType() != dt {
		return fmt.Errorf("%w: values has type %v, input has type %v; they must be equal", engine.ErrType, values.DType(), dt)
	}
	k, err := p.readIndices(input, indices)
	if err != nil {
		return err
	}
	if err := p.broadcastIndices(); err != nil {
		return err
	}
	// The values, broadcast to B + input.shape[k:].
	sh := p.shapes()
	want := append(sh.Buf(len(p.bshape)+input.Rank()-k), p.bshape...)
	for i := k; i < input.Rank(); i++ {
		want = append(want, input.Dim(i))
	}
	if !values.BroadcastsTo(want) {
		return fmt.Errorf("%w: values of shape %v cannot be broadcast to the indexing result of shape %v", engine.ErrShape, values.Shape(), want)
	}
	if err := opcall.CheckDstLike(dst, input); err != nil {
		return err
	}
	if !engine.SameMemory(dst, input) && engine.Overlap(dst, input) {
		return fmt.Errorf("%w: dst overlaps input without being input", engine.ErrArgument)
	}
	if engine.Overlap(dst, values) || overlapsAny(dst, indices) {
		return fmt.Errorf("%w: dst overlaps indices or values", engine.ErrArgument)
	}
	n := numElements(p.bshape)
	if n == 0 {
		copyAll(dst, input)
		return nil
	}
	p.stack(n, k)
	upd := values
	if !values.HasShape(want) {
		p.vals = getTensor(dt, want)
		if values.Rank() < len(want) {
			padded := append(sh.Buf(len(want)), want...)
			for i := range len(want) - values.Rank() {
				padded[i] = 1
			}
			copy(padded[len(want)-values.Rank():], values.AppendShape(sh.Buf(values.Rank())))
			v, _ := values.View(sh.Ptr(padded))
			values = v
		}
		broadcast(p.vals.t, values)
		upd = p.vals.t
	}
	idxShape := append(sh.Buf(len(p.bshape)+1), p.bshape...)
	idx := p.tupleTensor(append(idxShape, k))
	red := engine.None
	if accumulate {
		red = engine.Add
	}
	opt := engine.ScatterOptions{Reduction: red, Rules: indexPutBehavior.Index, Arith: indexPutBehavior.Arith}
	err = engine.ScatterND(dst, input, idx, upd, opt)
	return indexErr(err, idx, input)
}

// readIndices reads index_put's index tensors into p.sources, checking
// their types and (for masks) shapes against input, and returns the
// number of dimensions of input they index.
func (p *putCall) readIndices(input tensor.Tensor, indices []tensor.Tensor) (int, error) {
	k := 0
	for i, t := range indices {
		name := indexName(i)
		if t.IsZero() {
			return 0, fmt.Errorf("%w: missing input %q", dialect.ErrInput, name)
		}
		if err := opcall.CheckIndices(t, name, indexPutBehavior.IndexTypes); err != nil {
			return 0, err
		}
		s := indexSource{t: t, first: k, dims: 1}
		if i < len(p.sources) {
			s.trues, s.shape = p.sources[i].trues[:0], p.sources[i].shape[:0]
		}
		if d := t.DType(); d == tensor.Bool || d == tensor.Uint8 {
			s.mask, s.dims = true, t.Rank()
			if k+s.dims > input.Rank() {
				return 0, fmt.Errorf("%w: too many indices for input of rank %d: %s is a mask of rank %d at dimension %d",
					engine.ErrShape, input.Rank(), name, t.Rank(), k)
			}
			for j := range t.Rank() {
				if t.Dim(j) != input.Dim(k+j) {
					return 0, fmt.Errorf("%w: the shape %v of mask %s does not match input %v at dimension %d",
						engine.ErrShape, t.Shape(), name, input.Shape(), k+j)
				}
			}
			for q := range t.Len() {
				if truthy(t, q) {
					s.trues = append(s.trues, int64(q))
				}
			}
			s.shape = append(s.shape, len(s.trues))
		} else {
			s.shape = t.AppendShape(s.shape)
		}
		k += s.dims
		if k > input.Rank() {
			return 0, fmt.Errorf("%w: too many indices for input of rank %d (%s indexes dimension %d)", engine.ErrShape, input.Rank(), name, k-1)
		}
		if i < len(p.sources) {
			p.sources[i] = s
		} else {
			p.sources = append(p.sources, s)
		}
	}
	p.sources = p.sources[:len(indices)]
	return k, nil
}

// broadcastIndices sets p.bshape to the broadcast shape of the index
// sources.
func (p *putCall) broadcastIndices() error {
	r := 0
	for _, s := range p.sources {
		r = max(r, len(s.shape))
	}
	p.bshape = append(p.bshape[:0], make([]int, r)...)
	for i := range p.bshape {
		p.bshape[i] = 1
	}
	for j, s := range p.sources {
		if !p.bshape.MergeBroadcast(s.shape) {
			return fmt.Errorf("%w: indices.%d of shape %v does not broadcast with the other indices (to %v)",
				engine.ErrShape, j, s.shape, p.bshape)
		}
	}
	return nil
}

// stack writes the n index tuples of k components into p.tuples: for each
// position of the broadcast shape in row-major order, each source's
// value there (a mask's as the coordinates of its true element).
func (p *putCall) stack(n, k int) {
	p.tuples = resizeInts(p.tuples, n*k)
	r := len(p.bshape)
	p.coords = append(p.coords[:0], make([]int, r)...)
	for i := range n {
		out := p.tuples[i*k : (i+1)*k]
		for _, s := range p.sources {
			// The source's flat position at these broadcast coordinates.
			e, off := 0, r-len(s.shape)
			for j, sz := range s.shape {
				c := p.coords[off+j]
				if sz == 1 {
					c = 0
				}
				e = e*sz + c
			}
			if !s.mask {
				v, _ := s.t.IntAt(e) // int32 or int64 (IndexTypes)
				out[s.first] = v
				continue
			}
			q := s.trues[e]
			for j := s.dims - 1; j >= 0; j-- {
				sz := int64(s.t.Dim(j))
				out[s.first+j] = q % sz
				q /= sz
			}
		}
		for j := r - 1; j >= 0; j-- { // the next position
			p.coords[j]++
			if p.coords[j] < p.bshape[j] {
				break
			}
			p.coords[j] = 0
		}
	}
}

// maskedShape checks a masked_scatter and returns the broadcast shape of
// input and mask, from p's shapes.
func (p *putCall) maskedShape(input, mask, source tensor.Tensor) (tensor.Shape, error) {
	switch {
	case input.IsZero():
		return nil, fmt.Errorf("%w: missing input \"input\"", dialect.ErrInput)
	case mask.IsZero():
		return nil, fmt.Errorf("%w: missing input \"mask\"", dialect.ErrInput)
	case source.IsZero():
		return nil, fmt.Errorf("%w: missing input \"source\"", dialect.ErrInput)
	}
	dt := input.DType()
	if err := opcall.NoStrings(framework, "input", dt); err != nil {
		return nil, err
	}
	if err := opcall.CheckIndices(mask, "mask", maskedScatterBehavior.IndexTypes); err != nil {
		return nil, err
	}
	if err := maskedScatterBehavior.CheckType("input", dt); err != nil {
		return nil, err
	}
	if source.DType() != dt {
		return nil, fmt.Errorf("%w: source has type %v, input has type %v; they must be equal", engine.ErrType, source.DType(), dt)
	}
	sh := p.shapes()
	r := max(input.Rank(), mask.Rank())
	shape := append(sh.Buf(r), make([]int, r)...)
	for i := range shape {
		shape[i] = 1
	}
	if !shape.MergeBroadcast(sh.Of(input)) || !shape.MergeBroadcast(sh.Of(mask)) {
		return nil, fmt.Errorf("%w: mask %v does not broadcast with input %v", engine.ErrShape, mask.Shape(), input.Shape())
	}
	return shape, nil
}

// masked runs a checked masked_scatter into dst, of the broadcast shape.
func (p *putCall) masked(dst, input, mask, source tensor.Tensor) error {
	if engine.Overlap(dst, mask) || engine.Overlap(dst, source) {
		return fmt.Errorf("%w: dst overlaps mask or source", engine.ErrArgument)
	}
	if !engine.SameMemory(dst, input) && engine.Overlap(dst, input) {
		return fmt.Errorf("%w: dst overlaps input without being input", engine.ErrArgument)
	}
	if engine.SameMemory(dst, input) && !dst.SameShape(input) {
		return fmt.Errorf("%w: in place, mask %v must broadcast to input %v", engine.ErrShape, mask.Shape(), input.Shape())
	}
	// The flat positions of the true elements of mask broadcast to dst.
	sh := p.shapes()
	r := dst.Rank()
	p.tuples = p.tuples[:0]
	p.coords = append(p.coords[:0], make([]int, r)...)
	for i := range dst.Len() {
		e := 0
		for j := range mask.Rank() {
			sz := mask.Dim(j)
			c := p.coords[r-mask.Rank()+j]
			if sz == 1 {
				c = 0
			}
			e = e*sz + c
		}
		if truthy(mask, e) {
			p.tuples = append(p.tuples, int64(i))
		}
		for j := r - 1; j >= 0; j-- {
			p.coords[j]++
			if p.coords[j] < dst.Dim(j) {
				break
			}
			p.coords[j] = 0
		}
	}
	n := len(p.tuples)
	if source.Len() < n {
		return fmt.Errorf("%w: source has %d elements, fewer than the %d true positions of mask", engine.ErrShape, source.Len(), n)
	}
	if !engine.SameMemory(dst, input) {
		if dst.SameShape(input) {
			copyAll(dst, input)
		} else {
			in := input
			if input.Rank() < r {
				padded := append(sh.Buf(r), make([]int, r)...)
				for i := range padded {
					padded[i] = dimFromEnd(input, r-1-i)
				}
				in, _ = input.View(sh.Ptr(padded))
			}
			broadcast(dst, in)
		}
	}
	if n == 0 {
		return nil
	}
	flat := sh.Ptr(append(sh.Buf(1), dst.Len()))
	out, _ := dst.View(flat)
	idx := p.tupleTensor(append(sh.Buf(2), n, 1))
	var src tensor.Tensor
	if source.Len() == n {
		src, _ = source.View(sh.Ptr(append(sh.Buf(1), n)))
	} else { // its first n elements
		p.vals = getTensor(source.DType(), append(sh.Buf(1), n))
		size := source.DType().Size()
		copy(rawbytes.Bytes(p.vals.t.Data()), rawbytes.Bytes(source.Data())[:n*size])
		src = p.vals.t
	}
	return engine.ScatterND(out, out, idx, src, engine.ScatterOptions{Rules: maskedScatterBehavior.Index})
}

// tupleTensor returns p.tuples as an int64 tensor of the given shape,
// whose element count is len(p.tuples).
func (p *putCall) tupleTensor(shape tensor.Shape) tensor.Tensor {
	n := len(p.tuples)
	if p.idx.Len() != n || n > 0 && &p.idx.Data().([]int64)[0] != &p.tuples[0] {
		p.idx = tensor.Must(tensor.Wrap(tensor.Shape{n}, p.tuples))
	}
	v, _ := p.idx.View(p.shapes().Ptr(shape))
	return v
}

// indexNames are the names of index_put's index inputs on the command
// line, indices.0 to indices.7.
var indexNames = []string{"indices.0", "indices.1", "indices.2", "indices.3", "indices.4", "indices.5", "indices.6", "indices.7"}

// indexName returns the name of index_put's index tensor i.
func indexName(i int) string {
	if i < len(indexNames) {
		return indexNames[i]
	}
	return fmt.Sprintf("indices.%d", i)
}

// dimFromEnd returns t's size in its i-th dimension from the end, or 1
// past its rank.
func dimFromEnd(t tensor.Tensor, i int) int {
	if i >= t.Rank() {
		return 1
	}
	return t.Dim(t.Rank() - 1 - i)
}

// overlapsAny reports whether dst overlaps any of ts.
func overlapsAny(dst tensor.Tensor, ts []tensor.Tensor) bool {
	for _, t := range ts {
		if engine.Overlap(dst, t) {
			return true
		}
	}
	return false
}

// truthy reports whether element i of a bool or integer tensor is
// nonzero.
func truthy(t tensor.Tensor, i int) bool {
	if b, ok := t.Data().([]bool); ok {
		return b[i]
	}
	v, _ := t.IntAt(i)
	return v != 0
}

// numElements returns the number of elements of a tensor of the given
// shape, which the tensors it comes from bound.
func numElements(s tensor.Shape) int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// resizeInts returns b with length n, reusing its memory when it has
// room.
func resizeInts(b []int64, n int) []int64 {
	if cap(b) < n {
		return make([]int64, n)
	}
	return b[:n]
}
