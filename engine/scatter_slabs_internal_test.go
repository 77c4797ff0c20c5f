package engine

import (
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestSlabsThrough checks which scatters take their slabs through a
// buffer: into a dst past the cache, filled from data, under a strategy
// that writes around it, of slabs of whole cache lines that fit the
// buffer; not strings, not in place, not a dst in the cache, not without
// non-temporal stores.
func TestSlabsThrough(t *testing.T) {
	stream := Strategy{StreamBytes: 1 << 20, StreamBlock: 256, PrefetchAhead: 8, NonTemporal: true}
	for _, c := range []struct {
		name  string
		s     Strategy
		dt    tensor.DType
		shape tensor.Shape
		in    bool // in place
		want  bool
	}{
		{"W4's shape", stream, tensor.Float32, tensor.Shape{4096, 4096}, false, true},
		{"rank 3", stream, tensor.Float32, tensor.Shape{64, 8, 512}, false, true},
		{"slab as large as the buffer", stream, tensor.Int64, tensor.Shape{32, slabBuffer / 8}, false, true},
		{"slab larger than the buffer", stream, tensor.Int64, tensor.Shape{16, slabBuffer/8 + 8}, false, false},
		{"slab of 1,200 bytes", stream, tensor.Float32, tensor.Shape{1000, 300}, false, false},
		{"in place", stream, tensor.Float32, tensor.Shape{512, 1024}, true, false},
		{"dst in the cache", stream, tensor.Float32, tensor.Shape{128, 1024}, false, false},
		{"no non-temporal stores", Strategy{StreamBytes: 1 << 20, StreamBlock: 256, PrefetchAhead: 8}, tensor.Float32, tensor.Shape{512, 1024}, false, false},
		{"strings", stream, tensor.String, tensor.Shape{512, 1024}, false, false},
	} {
		forceStrategy(t, c.s)
		dst, data := tensor.Must(tensor.New(c.dt, c.shape)), tensor.Must(tensor.New(c.dt, c.shape))
		if c.in {
			data = dst
		}
		s := getScratch()
		s.see(&dst, &data, &tensor.Tensor{}, &data)
		newScatterRun(s, &dst, &data, &data, 1, &ScatterOptions{})
		n, _ := c.shape.NumElements()
		slab := n / c.shape[0]
		p := slabsThrough(s, &dst, slab, slab, true)
		s.release()
		if got := p != nil; got != c.want && canStream {
			t.Errorf("%s: through a buffer %v, want %v", c.name, got, c.want)
		}
		if p != nil && !canStream {
			t.Errorf("%s: through a buffer where nothing streams", c.name)
		}
	}
}
