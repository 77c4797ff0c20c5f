package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// BenchmarkScatterReduce scatters float32 updates with duplicates, with
// add, max and mean, through ScatterND (one element per tuple) and
// ScatterElements along axis 1, into a reused dst: 4Mi updates into 1Mi
// elements ("dense"), and 64Ki updates into 1Mi ("sparse", where mean
// lists the elements hit rather than counting every one).
func BenchmarkScatterReduce(b *testing.B) {
	for _, size := range []struct {
		name   string
		perRow int
	}{{"dense", 1 << 12}, {"sparse", 1 << 6}} {
		for _, red := range []Reduction{Add, Max, Mean} {
			for _, elements := range []bool{false, true} {
				op := "ScatterND"
				if elements {
					op = "ScatterElements"
				}
				b.Run(size.name+"/"+op+"/"+red.String(), func(b *testing.B) {
					benchScatterReduce(b, red, elements, size.perRow)
				})
			}
		}
	}
}

// benchScatterReduce runs one case of BenchmarkScatterReduce: perRow
// updates into each of the 1Ki rows of 1Ki elements.
func benchScatterReduce(b *testing.B, red Reduction, elements bool, perRow int) {
	const rows, cols = 1 << 10, 1 << 10
	rng := rand.New(rand.NewPCG(1, 2))
	vals := make([]float32, rows*cols)
	for i := range vals {
		vals[i] = rng.Float32()
	}
	data := tensor.Must(tensor.From(tensor.Shape{rows, cols}, vals))
	dst := tensor.Must(tensor.New(tensor.Float32, data.Shape()))
	upd := make([]float32, rows*perRow)
	for i := range upd {
		upd[i] = rng.Float32()
	}
	ind := make([]int64, rows*perRow)
	for i := range ind {
		ind[i] = rng.Int64N(cols)
	}
	opt := ScatterOptions{Reduction: red}
	var run func() error
	var indices tensor.Tensor
	if elements {
		indices = tensor.Must(tensor.From(tensor.Shape{rows, perRow}, ind))
		updates := tensor.Must(tensor.From(tensor.Shape{rows, perRow}, upd))
		run = func() error { return ScatterElements(dst, data, indices, updates, 1, opt) }
	} else {
		// The same updates as (row, column) tuples.
		tuples := make([]int64, 0, 2*len(ind))
		for i, c := range ind {
			tuples = append(tuples, int64(i/perRow), c)
		}
		indices = tensor.Must(tensor.From(tensor.Shape{len(ind), 2}, tuples))
		updates := tensor.Must(tensor.From(tensor.Shape{len(upd)}, upd))
		run = func() error { return ScatterND(dst, data, indices, updates, opt) }
	}
	// data read, dst written, indices and updates read.
	b.SetBytes(int64(4*(2*len(vals)+len(upd)) + 8*indices.Len()))
	b.ReportAllocs()
	for b.Loop() {
		if err := run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOffsetsPairs makes the offsets of W1's pairs of index values
// (1Mi of them, into [4096,4096]) on one goroutine, into int32 (ScatterND's
// offsets) and into int (the general scatter's window starts), by
// offsets2: four pairs an AVX2 round where the processor has it
// ("vector"), and one at a time ("loop").
func BenchmarkOffsetsPairs(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n = 1 << 20
	ind := make([]int64, 2*n)
	for i := range ind {
		ind[i] = rng.Int64N(4096)
	}
	lim := limit{size: 4096}
	for _, vector := range []bool{true, false} {
		name := "loop"
		if vector {
			name = "vector"
		}
		b.Run(name+"/int32", func(b *testing.B) { benchOffsets2(b, make([]int32, n), ind, lim, vector) })
		b.Run(name+"/int", func(b *testing.B) { benchOffsets2(b, make([]int, n), ind, lim, vector) })
	}
}

func benchOffsets2[O int32 | int](b *testing.B, offs []O, ind []int64, lim limit, vector bool) {
	defer func(on bool) { hasAVX2 = on }(hasAVX2)
	hasAVX2 = hasAVX2 && vector
	b.SetBytes(int64(len(ind)) * 8)
	for b.Loop() {
		if k := offsets2(offs, ind, lim, lim, 4096, 1, false); k != len(offs) {
			b.Fatalf("stopped at %d", k)
		}
	}
}
