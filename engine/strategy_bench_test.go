package engine

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// BenchmarkRowStrategy gathers rows of 1 KiB (256 float32) at random from
// a table into an output of the same size, 2 to 64 MiB, under each copy
// strategy forced: the plain copy, prefetch alone, non-temporal stores
// alone, and both at 4, 8 and 16 pairs ahead; "host" is the strategy
// StrategyFor chose for this processor. The "+read" cases then read the
// output once, as the operation that consumes it would: what streaming
// costs that reader (the output is in memory, not in the cache) counts
// against what it saves the gather. It is what decides StrategyFor's rule
// on a processor (README's Speed section): where streaming starts to pay,
// and how far ahead to ask.
//
//	go test ./engine -run '^$' -bench RowStrategy -count 6
func BenchmarkRowStrategy(b *testing.B) {
	forced := []struct {
		name string
		s    Strategy
	}{
		{"plain", Strategy{}},
		{"prefetch8", Strategy{StreamBlock: 256, PrefetchAhead: 8}},
		{"nt", Strategy{StreamBlock: 256, NonTemporal: true}},
		{"nt+prefetch4", Strategy{StreamBlock: 256, PrefetchAhead: 4, NonTemporal: true}},
		{"nt+prefetch8", Strategy{StreamBlock: 256, PrefetchAhead: 8, NonTemporal: true}},
		{"nt+prefetch16", Strategy{StreamBlock: 256, PrefetchAhead: 16, NonTemporal: true}},
		{"plain+read", Strategy{}},
		{"nt+prefetch8+read", Strategy{StreamBlock: 256, PrefetchAhead: 8, NonTemporal: true}},
	}
	const width = 256
	for _, mb := range []int{2, 4, 8, 16, 32, 64} {
		rows := mb << 20 / (4 * width)
		rng := rand.New(rand.NewPCG(uint64(mb), 1))
		vals := make([]float32, rows*width)
		for i := range vals {
			vals[i] = rng.Float32()
		}
		ids := make([]int64, rows)
		for i := range ids {
			ids[i] = int64(rng.IntN(rows))
		}
		data := tensor.Must(tensor.From(tensor.Shape{rows, width}, vals))
		idx := tensor.Must(tensor.From(tensor.Shape{rows}, ids))
		out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{rows, width}))
		ov := viewOf(&out)
		got := words[word64](view{p: ov.p, n: ov.n / 2, size: 8}) // the output as 8-byte words
		run := func(b *testing.B, read bool) {
			b.SetBytes(int64(2 * rows * width * 4))
			var x [4]uint64
			for range b.N {
				if err := Gather(out, data, idx, 0, 0, IndexRules{}); err != nil {
					b.Fatal(err)
				}
				if read { // four chains, so that memory, not the adds, bounds it
					for i := 0; i < len(got); i += 4 {
						x[0] += got[i]
						x[1] += got[i+1]
						x[2] += got[i+2]
						x[3] += got[i+3]
					}
				}
			}
			sink = x[0] + x[1] + x[2] + x[3]
		}
		b.Run(fmt.Sprintf("%dMiB/host", mb), func(b *testing.B) { run(b, false) })
		for _, f := range forced {
			s := f.s
			if s.PrefetchAhead > 0 || s.NonTemporal {
				s.StreamBytes = 1 << 20 // every size here is past it
			}
			b.Run(fmt.Sprintf("%dMiB/%s", mb, f.name), func(b *testing.B) {
				forceStrategy(b, s)
				run(b, strings.HasSuffix(f.name, "+read"))
			})
		}
	}
}

// sink keeps BenchmarkRowStrategy's reads of the output from being
// optimised away.
var sink uint64
