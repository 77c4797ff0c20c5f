package engine

import (
	"runtime"
	"testing"
	"weak"

	"github.com/scatter-dev/scatter/tensor"
)

// TestReleaseDropsCallerIndices: a scratch back in its pool keeps no
// caller tensor alive. ScatterElements along axis 0 hands the caller's
// int64 indices to its column job; after the call and one collection
// (which leaves the pool's scratches in its victim cache, still
// reachable), nothing may hold them.
func TestReleaseDropsCallerIndices(t *testing.T) {
	ind := scatterColumnsOnce(t)
	runtime.GC()
	if ind.Value() != nil {
		t.Error("the indices of a finished call are still reachable: release left a reference to them")
	}
}

// scatterColumnsOnce runs one ScatterElements along axis 0 that takes
// the column blocks, and returns a weak pointer to its indices.
//
//go:noinline
func scatterColumnsOnce(t *testing.T) weak.Pointer[int64] {
	const rows, cols = 64, 1024
	ind := make([]int64, rows*cols)
	for i := range ind {
		ind[i] = int64(i % rows)
	}
	shape := tensor.Shape{rows, cols}
	data := tensor.Must(tensor.New(tensor.Float32, shape))
	dst := tensor.Must(tensor.New(tensor.Float32, shape))
	updates := tensor.Must(tensor.New(tensor.Float32, shape))
	indices := tensor.Must(tensor.From(shape, ind))
	if columnWidth(rows, 4) == 0 || small(2*len(ind)+rows*cols) {
		t.Fatal("the call would not take the column blocks")
	}
	if err := ScatterElements(dst, data, indices, updates, 0, ScatterOptions{}); err != nil {
		t.Fatal(err)
	}
	return weak.Make(&ind[0])
}
