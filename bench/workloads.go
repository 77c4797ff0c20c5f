// Package bench defines the nine benchmark workloads on which the speed of
// this module is judged (W1 to W9, as listed in the shared WORKLOADS.md),
// and times them through the public ONNX API.
//
// Every workload has float32 data and int64 indices, generated once from a
// fixed seed per workload, so that every run and every peer implementation
// sees the same inputs. What is timed is the whole operator as a user calls
// it; for the scatters, which return a new tensor, that includes the copy
// of data.
//
// A workload's inputs take up to about 300 MiB. Prepare builds them for
// one workload at a time; drop the Case before preparing the next one so
// that the memory can be collected.
//
// Results are exchanged as JSON lists of Result (ReadResults reads and
// checks one). Peers returns the bundled figures of NumPy, PyTorch and
// ONNX Runtime, the medians reported in the speed issue (issue 4) for a 2-vCPU machine,
// and Workload.BoundMS that machine's memory-bandwidth bound; NewChart
// draws any results against those bounds, one panel per workload.
package bench

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/dialect/onnx"
	"github.com/scatter-dev/scatter/tensor"
)

// Element sizes in bytes: data and updates are float32, indices int64.
const (
	elemSize  = 4
	indexSize = 8
)

// Workload is one of the nine fixed benchmark workloads. Get them from
// Workloads or Find; a Workload built any other way cannot be prepared.
type Workload struct {
	// ID is the workload's identifier, "W1" to "W9".
	ID string
	// Name is the workload's descriptive name, as in WORKLOADS.md
	// ("scatternd_elem_none").
	Name string
	// Op is the operator it runs, by its registry name ("onnx.ScatterND").
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
	Bytes int64
	// BoundMS is the memory-bandwidth lower bound of one call, in
	// milliseconds, on the 2-vCPU reference machine on which the bundled
	// peers' figures were measured (see Peers), as given with those
	// figures. It is not derived from Bytes: the two imply different
	// bandwidths for the workloads that access memory at random.
	BoundMS float64

	spec *spec
}

// spec is how a workload is built and run.
type spec struct {
	seed uint64
	// Shapes of the inputs and of the output; updates is nil for gathers.
	data, indices, updates, out tensor.Shape
	// gen makes the inputs from the workload's random source.
	gen func(rng *rand.Rand, s *spec) inputs
	op
}

// op is a workload's operator in both forms: into runs the ...Into form,
// alloc the allocating form.
type op struct {
	into  func(dst tensor.Tensor, in inputs) error
	alloc func(in inputs) (tensor.Tensor, error)
}

// inputs are a workload's input tensors; updates is zero for gathers.
type inputs struct {
	data, indices, updates tensor.Tensor
}

// scatter reports whether the workload is a scatter (it has updates).
func (s *spec) scatter() bool { return s.updates != nil }

// bytes is the traffic formula documented on Workload.Bytes.
func (s *spec) bytes() int64 {
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
	v := make([]float32, count(shape))
	for i := range v {
		v[i] = rng.Float32()
	}
	return tensor.Must(tensor.From(shape, v))
}

// randI64 returns an int64 tensor of the given shape with elements uniform
// in [0, below).
func randI64(rng *rand.Rand, shape tensor.Shape, below int) tensor.Tensor {
	v := make([]int64, count(shape))
	for i := range v {
		v[i] = int64(rng.IntN(below))
	}
	return tensor.Must(tensor.From(shape, v))
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
func scatterND(reduction string) op {
	return op{func(dst tensor.Tensor, in inputs) error {
		return onnx.Latest.ScatterNDInto(dst, in.data, in.indices, in.updates, reduction)
	}, func(in inputs) (tensor.Tensor, error) {
		return onnx.Latest.ScatterND(in.data, in.indices, in.updates, reduction)
	}}
}

func scatterElements(axis int, reduction string) op {
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

// workloads builds the table of WORKLOADS.md, afresh on every call so that
// no caller can change another's copy.
func workloads() []Workload {
	const n = 4096
	table := []struct {
		id, name, op string
		bound        float64 // BoundMS
		s            *spec
	}{
		{"W1", "scatternd_elem_none", "onnx.ScatterND", 7.5, &spec{
			seed: 1, data: tensor.Shape{n, n}, indices: tensor.Shape{1 << 20, 2}, updates: tensor.Shape{1 << 20}, out: tensor.Shape{n, n},
			// Unique random positions, drawn before data.
			gen: func(rng *rand.Rand, s *spec) inputs {
				pos := uniqueI64(rng, s.indices[0], n*n)
				idx := make([]int64, 0, 2*len(pos))
				for _, p := range pos {
					idx = append(idx, p/n, p%n)
				}
				var in inputs
				in.indices = tensor.Must(tensor.From(s.indices, idx))
				in.data = randF32(rng, s.data)
				in.updates = randF32(rng, s.updates)
				return in
			},
			op: scatterND("none"),
		}},
		{"W2", "scatternd_slice_none", "onnx.ScatterND", 4.2, &spec{
			seed: 2, data: tensor.Shape{65536, 256}, indices: tensor.Shape{16384, 1}, updates: tensor.Shape{16384, 256}, out: tensor.Shape{65536, 256},
			// Unique random rows.
			gen: genScatter(func(rng *rand.Rand, s *spec) tensor.Tensor {
				return tensor.Must(tensor.From(s.indices, uniqueI64(rng, s.indices[0], s.data[0])))
			}),
			op: scatterND("none"),
		}},
		{"W3", "scatternd_add_dups", "onnx.ScatterND", 12.2, &spec{
			seed: 3, data: tensor.Shape{1 << 20}, indices: tensor.Shape{4 << 20, 1}, updates: tensor.Shape{4 << 20}, out: tensor.Shape{1 << 20},
			gen: genScatter(uniform(1 << 20)),
			op:  scatterND("add"),
		}},
		{"W4", "scatter_elements_add_axis1", "onnx.ScatterElements", 5.8, &spec{
			seed: 4, data: tensor.Shape{n, n}, indices: tensor.Shape{n, 1024}, updates: tensor.Shape{n, 1024}, out: tensor.Shape{n, n},
			gen: genScatter(uniform(n)),
			op:  scatterElements(1, "add"),
		}},
		{"W5", "gathernd_slice", "onnx.GatherND", 4.2, &spec{
			seed: 5, data: tensor.Shape{65536, 256}, indices: tensor.Shape{65536, 1}, out: tensor.Shape{65536, 256},
			gen: genGather(65536),
			op:  gatherND(),
		}},
		{"W6", "gathernd_elem", "onnx.GatherND", 30.6, &spec{
			seed: 6, data: tensor.Shape{n, n}, indices: tensor.Shape{4 << 20, 2}, out: tensor.Shape{4 << 20},
			gen: genGather(n),
			op:  gatherND(),
		}},
		{"W7", "gather_elements_axis1", "onnx.GatherElements", 8.4, &spec{
			seed: 7, data: tensor.Shape{n, n}, indices: tensor.Shape{n, n}, out: tensor.Shape{n, n},
			gen: genGather(n),
			op:  gatherElements(1),
		}},
		{"W8", "gather_axis0", "onnx.Gather", 4.2, &spec{
			seed: 8, data: tensor.Shape{65536, 256}, indices: tensor.Shape{65536}, out: tensor.Shape{65536, 256},
			gen: genGather(65536),
			op:  gather(0),
		}},
		{"W9", "scatter_elements_max_axis0", "onnx.ScatterElements", 30.2, &spec{
			seed: 9, data: tensor.Shape{n, n}, indices: tensor.Shape{1024, n}, updates: tensor.Shape{1024, n}, out: tensor.Shape{n, n},
			gen: genScatter(uniform(n)),
			op:  scatterElements(0, "max"),
		}},
	}
	ws := make([]Workload, len(table))
	for i, t := range table {
		ws[i] = Workload{ID: t.id, Name: t.name, Op: t.op, Bytes: t.s.bytes(), BoundMS: t.bound, spec: t.s}
	}
	return ws
}

// Workloads returns the nine workloads, W1 to W9 in order. It builds no
// inputs: that is Prepare's job.
func Workloads() []Workload { return workloads() }

// IDs returns the workloads' IDs, "W1" to "W9".
func IDs() []string {
	ws := workloads()
	ids := make([]string, len(ws))
	for i, w := range ws {
		ids[i] = w.ID
	}
	return ids
}

// Find returns the workloads named in ids, in that order and each once.
// An ID is matched without regard to case ("w3"), and a workload's Name
// is accepted too. With no ids it returns all nine. An unknown ID is an
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
