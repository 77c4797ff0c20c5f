// Package bench defines the workloads on which the speed of this module is
// judged, as listed in the shared WORKLOADS.md, and times them through the
// public API: the nine bulk workloads W1 to W9 and the six small calls S1
// to S6 that inference code makes thousands of times a second, through
// the ONNX dialect; and the segment and index family, the bulk segment
// reductions W10 to W12 and the small calls S7 and S8 that graph
// networks, embedding bags and NumPy-style code make, through the tf and
// numpy dialects.
//
// Every workload has float32 data (S2 float16) and int64 indices,
// generated once from a fixed seed per workload, so that every run and
// every peer implementation sees the same inputs. What is timed is the
// whole operator as a user calls it; for the scatters, which return a new
// tensor, that includes the copy of data; a segment reduction writes every
// row of its output, empty segments included. A small call is timed in a
// loop of calls through its Into form (a scatter or a put in place, a
// gather or a segment sum into a reused output), in nanoseconds and heap
// allocations per call.
//
// A bulk workload's inputs take up to about 300 MiB. Prepare builds them
// for one workload at a time; drop the Case before preparing the next one
// so that the memory can be collected.
//
// Results are exchanged as JSON lists of Result (ReadResults reads and
// checks one). Peers returns the bundled figures of NumPy, PyTorch and
// ONNX Runtime, measured by the peers' own scripts on the machines that
// PeersSource names, and Workload.BoundMS the memory-bandwidth bound of
// the machine of W1 to W9; ReadPeersFile reads those scripts' output
// files. Package bench/chart draws results against those bounds; it alone
// imports the plotting libraries, so that a module whose tests import
// bench (the Benchmark<Id> functions of the dialects, through
// testkit/benchtest) does not pull them into its users' module graphs.
package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// Element sizes in bytes: data and updates are float32, indices int64.
const (
	elemSize  = 4
	indexSize = 8
)

// Workload is one of the fixed benchmark workloads. Get them from
// Workloads or Find; a Workload built any other way cannot be prepared.
type Workload struct {
	// ID is the workload's identifier, "W1" to "W12" or "S1" to "S8".
	ID string
	// Name is the workload's descriptive name, as in WORKLOADS.md
	// ("scatternd_elem_none").
	Name string
	// Op is the operator it runs, by its registry name ("onnx.ScatterND",
	// "tf.math.unsorted_segment_sum").
	Op string
	// Bytes is the memory traffic of one call, used for GB/s: the bytes an
	// implementation limited only by memory bandwidth must move, counting
	// each element once and ignoring the cache-line waste of random
	// access.
	//
	// For a scatter: data read and copied into the output (2 × 4 bytes per
	// data element), plus indices read (8 bytes per index component), plus
	// updates read (4 bytes per element); the updates are written into the
	// output, already counted.
	//
	// For a gather: the output written (4 bytes per element), plus as many
	// elements of data read (4 bytes each), plus indices read (8 bytes per
	// index component).
	//
	// For a segment reduction (W10 to W12): data read (4 bytes per
	// element), plus segment ids read (8 bytes each), plus the output
	// written (4 bytes per element); the partial results that stay in the
	// output while it is reduced into are not counted again.
	Bytes int64
	// BoundMS is the memory-bandwidth lower bound of one call, in
	// milliseconds, on the machine on which the bundled peers' figures
	// were measured (see PeersSource), as the peers' report of that run
	// gives it: the larger of its streaming bound (the minimal bytes at
	// the best copy bandwidth seen on that machine) and its random-access
	// bound (the cache-missing accesses at the best time per access seen).
	// It is not derived from Bytes: the two imply different
	// bandwidths for the workloads that access memory at random. It is 0
	// for the small calls, and for the segment reductions W10 to W12,
	// which that report does not cover: no bound was measured for them on
	// that machine.
	BoundMS float64
	// Small says that the workload is one of the small calls, S1 to S8:
	// timed through the Into form alone, in a loop of calls, and judged
	// in nanoseconds and heap allocations per call. Its Bytes is 0.
	Small bool

	spec *spec
}

// spec is how a workload is built and run.
type spec struct {
	seed uint64
	// Shapes of the inputs and of the output; updates is nil for gathers
	// and segment reductions, whose indices are the segment ids.
	data, indices, updates, out tensor.Shape
	// segment says that the workload reduces the rows of data into the
	// rows of out by the segment ids in indices.
	segment bool
	// gen makes the inputs from the workload's random source.
	gen func(rng *rand.Rand, s *spec) inputs
	op
	// inPlace makes the Into form write into data itself (a scatter in
	// place) rather than into a destination of its own.
	inPlace bool
}

// op is a workload's operator in both forms: into runs the ...Into form,
// alloc the allocating form (nil for an operator that works in place
// only, S8's numpy.put).
type op struct {
	into  func(dst tensor.Tensor, in inputs) error
	alloc func(in inputs) (tensor.Tensor, error)
}

// inputs are a workload's input tensors; updates is zero for gathers and
// segment reductions.
type inputs struct {
	data, indices, updates tensor.Tensor
}

// scatter reports whether the workload is a scatter (it has updates).
func (s *spec) scatter() bool { return s.updates != nil }

// bytes is the traffic formula documented on Workload.Bytes.
func (s *spec) bytes() int64 {
	if s.segment {
		return elemSize*count(s.data) + indexSize*count(s.indices) + elemSize*count(s.out)
	}
	if s.scatter() {
		return 2*elemSize*count(s.data) + indexSize*count(s.indices) + elemSize*count(s.updates)
	}
	return 2*elemSize*count(s.out) + indexSize*count(s.indices)
}

func count(s tensor.Shape) int64 {
	n, err := s.NumElements()
	if err != nil {
		panic(err) // the shapes are constants of this package
	}
	return int64(n)
}

// The generators below fix the inputs: changing the order in which they
// draw from the random source changes every benchmark's inputs.

// randF32 returns a float32 tensor of the given shape with elements
// uniform in [0, 1).
func randF32(rng *rand.Rand, shape tensor.Shape) tensor.Tensor {
	t, v := alloc[float32](shape)
	for i := range v {
		v[i] = rng.Float32()
	}
	return t
}

// alloc returns a new tensor of the given shape and its elements, from
// tensor.New as a program that reads its tensors with this module gets
// them (on huge pages where they are large: see internal/hugepage, and
// NumPy's arrays, which the peers' scripts run on).
func alloc[T tensor.Elem](shape tensor.Shape) (tensor.Tensor, []T) {
	t := tensor.Must(tensor.New(tensor.DTypeOf[T](), shape))
	return t, t.Data().([]T)
}

// randI64 returns an int64 tensor of the given shape with elements uniform
// in [0, below).
func randI64(rng *rand.Rand, shape tensor.Shape, below int) tensor.Tensor {
	t, v := alloc[int64](shape)
	for i := range v {
		v[i] = int64(rng.IntN(below))
	}
	return t
}

// uniqueI64 returns n distinct values in [0, limit), in random order.
func uniqueI64(rng *rand.Rand, n, limit int) []int64 {
	perm := rng.Perm(limit)[:n]
	v := make([]int64, n)
	for i, p := range perm {
		v[i] = int64(p)
	}
	return v
}

// scatterND and the functions below adapt the onnx API to a spec.
func scatterND(reduction onnx.Reduction) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.ScatterNDInto(dst, in.data, in.indices, in.updates, reduction)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.ScatterND(in.data, in.indices, in.updates, reduction)
	}}
}

func scatterElements(axis int, reduction onnx.Reduction) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.ScatterElementsInto(dst, in.data, in.indices, in.updates, axis, reduction)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.ScatterElements(in.data, in.indices, in.updates, axis, reduction)
	}}
}

func gatherND() op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.GatherNDInto(dst, in.data, in.indices, 0)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.GatherND(in.data, in.indices, 0)
	}}
}

func gatherElements(axis int) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.GatherElementsInto(dst, in.data, in.indices, axis)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.GatherElements(in.data, in.indices, axis)
	}}
}

func gather(axis int) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.GatherInto(dst, in.data, in.indices, axis)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.Gather(in.data, in.indices, axis)
	}}
}

// genScatter draws data, then indices (by idx), then updates.
func genScatter(idx func(rng *rand.Rand, s *spec) tensor.Tensor) func(*rand.Rand, *spec) inputs {
	return func(rng *rand.Rand, s *spec) inputs {
		var in inputs
		in.data = randF32(rng, s.data)
		in.indices = idx(rng, s)
		in.updates = randF32(rng, s.updates)
		return in
	}
}

// genGather draws data, then indices uniform in [0, below).
func genGather(below int) func(*rand.Rand, *spec) inputs {
	return func(rng *rand.Rand, s *spec) inputs {
		var in inputs
		in.data = randF32(rng, s.data)
		in.indices = randI64(rng, s.indices, below)
		return in
	}
}

// uniform draws indices uniform in [0, below).
func uniform(below int) func(*rand.Rand, *spec) tensor.Tensor {
	return func(rng *rand.Rand, s *spec) tensor.Tensor { return randI64(rng, s.indices, below) }
}

// smallSeed fixes the inputs of every small call, as WORKLOADS.md says.
const smallSeed = 20240601

// randF16 returns a float16 tensor of the given shape with elements
// uniform in [0, 1), rounded.
func randF16(rng *rand.Rand, shape tensor.Shape) tensor.Tensor {
	t, v := alloc[float16.Float16](shape)
	for i := range v {
		v[i] = float16.Fromfloat32(rng.Float32())
	}
	return t
}

// row is a line of a table of workloads: a spec and what it is called.
type row struct {
	id, name, op string
	bound        float64 // BoundMS, 0 where none is known
	s            *spec
}

// build makes the Workloads of rows: small calls are marked Small, the
// others carry the bytes they move.
func build(rows []row, small bool) []Workload {
	ws := make([]Workload, len(rows))
	for i, r := range rows {
		ws[i] = Workload{ID: r.id, Name: r.name, Op: r.op, BoundMS: r.bound, Small: small, spec: r.s}
		if !small {
			ws[i].Bytes = r.s.bytes()
		}
	}
	return ws
}

// smallWorkloads builds the small calls of WORKLOADS.md.
func smallWorkloads() []Workload {
	table := []row{
		{"S1", "gather_rows_small", "onnx.Gather", 0, &spec{
			data: tensor.Shape{1000, 64}, indices: tensor.Shape{16}, out: tensor.Shape{16, 64},
			gen: genGather(1000),
			op:  gather(0),
		}},
		{"S2", "kv_cache_write", "onnx.ScatterND", 0, &spec{
			data: tensor.Shape{1, 8, 512, 64}, indices: tensor.Shape{1, 8, 1, 3}, updates: tensor.Shape{1, 8, 1, 64},
			out: tensor.Shape{1, 8, 512, 64}, inPlace: true,
			// One decoding position (100) of every head of a float16 KV
			// cache of zeros.
			gen: func(rng *rand.Rand, s *spec) inputs {
				var in inputs
				in.data = tensor.Must(tensor.New(tensor.Float16, s.data))
				idx := make([]int64, 0, count(s.indices))
				for h := range s.data[1] {
					idx = append(idx, 0, int64(h), 100)
				}
				in.indices = tensor.Must(tensor.From(s.indices, idx))
				in.updates = randF16(rng, s.updates)
				return in
			},
			op: scatterND(onnx.ReductionNone),
		}},
		{"S3", "gather_elements_small", "onnx.GatherElements", 0, &spec{
			data: tensor.Shape{64, 64}, indices: tensor.Shape{64, 8}, out: tensor.Shape{64, 8},
			gen: genGather(64),
			op:  gatherElements(1),
		}},
		{"S4", "scatter_elements_add_small", "onnx.ScatterElements", 0, &spec{
			data: tensor.Shape{64, 64}, indices: tensor.Shape{64, 8}, updates: tensor.Shape{64, 8},
			out: tensor.Shape{64, 64}, inPlace: true,
			gen: genScatter(uniform(64)),
			op:  scatterElements(1, onnx.ReductionAdd),
		}},
		{"S5", "gathernd_small", "onnx.GatherND", 0, &spec{
			data: tensor.Shape{16, 16, 16}, indices: tensor.Shape{32, 2}, out: tensor.Shape{32, 16},
			gen: genGather(16),
			op:  gatherND(),
		}},
		{"S6", "scatternd_add_small", "onnx.ScatterND", 0, &spec{
			data: tensor.Shape{1024}, indices: tensor.Shape{256, 1}, updates: tensor.Shape{256},
			out: tensor.Shape{1024}, inPlace: true,
			gen: genScatter(uniform(1024)),
			op:  scatterND(onnx.ReductionAdd),
		}},
	}
	for _, r := range table {
		r.s.seed = smallSeed
	}
	return build(table, true)
}

// workloads builds the table of WORKLOADS.md, bulk workloads (W1 to W9,
// then the family's W10 to W12) then small calls (S1 to S6, then S7 and
// S8), afresh on every call so that no caller can change another's copy.
func workloads() []Workload {
	const n = 4096
	table := []row{
		{"W1", "scatternd_elem_none", "onnx.ScatterND", 1.63, &spec{
			seed: 1, data: tensor.Shape{n, n}, indices: tensor.Shape{1 << 20, 2}, updates: tensor.Shape{1 << 20}, out: tensor.Shape{n, n},
			// Unique random positions, drawn before data.
			gen: func(rng *rand.Rand, s *spec) inputs {
				pos := uniqueI64(rng, s.indices[0], n*n)
				var in inputs
				var idx []int64
				in.indices, idx = alloc[int64](s.indices)
				for i, p := range pos {
					idx[2*i], idx[2*i+1] = p/n, p%n
				}
				in.data = randF32(rng, s.data)
				in.updates = randF32(rng, s.updates)
				return in
			},
			op: scatterND(onnx.ReductionNone),
		}},
		{"W2", "scatternd_slice_none", "onnx.ScatterND", 1.23, &spec{
			seed: 2, data: tensor.Shape{65536, 256}, indices: tensor.Shape{16384, 1}, updates: tensor.Shape{16384, 256}, out: tensor.Shape{65536, 256},
			// Unique random rows.
			gen: genScatter(func(rng *rand.Rand, s *spec) tensor.Tensor {
				return tensor.Must(tensor.From(s.indices, uniqueI64(rng, s.indices[0], s.data[0])))
			}),
			op: scatterND(onnx.ReductionNone),
		}},
		{"W3", "scatternd_add_dups", "onnx.ScatterND", 1.9, &spec{
			seed: 3, data: tensor.Shape{1 << 20}, indices: tensor.Shape{4 << 20, 1}, updates: tensor.Shape{4 << 20}, out: tensor.Shape{1 << 20},
			gen: genScatter(uniform(1 << 20)),
			op:  scatterND(onnx.ReductionAdd),
		}},
		{"W4", "scatter_elements_add_axis1", "onnx.ScatterElements", 1.69, &spec{
			seed: 4, data: tensor.Shape{n, n}, indices: tensor.Shape{n, 1024}, updates: tensor.Shape{n, 1024}, out: tensor.Shape{n, n},
			gen: genScatter(uniform(n)),
			op:  scatterElements(1, onnx.ReductionAdd),
		}},
		{"W5", "gathernd_slice", "onnx.GatherND", 1.23, &spec{
			seed: 5, data: tensor.Shape{65536, 256}, indices: tensor.Shape{65536, 1}, out: tensor.Shape{65536, 256},
			gen: genGather(65536),
			op:  gatherND(),
		}},
		{"W6", "gathernd_elem", "onnx.GatherND", 7.37, &spec{
			seed: 6, data: tensor.Shape{n, n}, indices: tensor.Shape{4 << 20, 2}, out: tensor.Shape{4 << 20},
			gen: genGather(n),
			op:  gatherND(),
		}},
		{"W7", "gather_elements_axis1", "onnx.GatherElements", 2.46, &spec{
			seed: 7, data: tensor.Shape{n, n}, indices: tensor.Shape{n, n}, out: tensor.Shape{n, n},
			gen: genGather(n),
			op:  gatherElements(1),
		}},
		{"W8", "gather_axis0", "onnx.Gather", 1.23, &spec{
			seed: 8, data: tensor.Shape{65536, 256}, indices: tensor.Shape{65536}, out: tensor.Shape{65536, 256},
			gen: genGather(65536),
			op:  gather(0),
		}},
		{"W9", "scatter_elements_max_axis0", "onnx.ScatterElements", 9.09, &spec{
			seed: 9, data: tensor.Shape{n, n}, indices: tensor.Shape{1024, n}, updates: tensor.Shape{1024, n}, out: tensor.Shape{n, n},
			gen: genScatter(uniform(n)),
			op:  scatterElements(0, onnx.ReductionMax),
		}},
	}
	ws := build(table, false)
	ws = append(ws, familyBulk()...)
	ws = append(ws, smallWorkloads()...)
	return append(ws, familySmall()...)
}

// Workloads returns the twenty workloads, W1 to W12 then S1 to S8. It
// builds no inputs: that is Prepare's job.
func Workloads() []Workload { return workloads() }

// IDs returns the workloads' IDs, "W1" to "W12" then "S1" to "S8".
func IDs() []string { return idsOf(workloads()) }

// idsOf returns the IDs of ws, in order.
func idsOf(ws []Workload) []string {
	ids := make([]string, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	return ids
}

// Find returns the workloads named in ids, in that order and each once.
// An ID is matched without regard to case ("w3"), and a workload's Name
// is accepted too. With no ids it returns all twenty. An unknown ID is an
// error that lists the known ones.
func Find(ids []string) ([]Workload, error) {
	all := workloads()
	if len(ids) == 0 {
		return all, nil
	}
	var found []Workload
	for _, id := range ids {
		id = strings.TrimSpace(id)
		i := slices.IndexFunc(all, func(w Workload) bool {
			return strings.EqualFold(w.ID, id) || strings.EqualFold(w.Name, id)
		})
		if i < 0 {
			return nil, fmt.Errorf("unknown workload %q (known: %s)", id, strings.Join(IDs(), ", "))
		}
		if !slices.ContainsFunc(found, func(w Workload) bool { return w.ID == all[i].ID }) {
			found = append(found, all[i])
		}
	}
	return found, nil
}
