package explain

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// limitCalls returns a call of an operator of each family, and of each
// dialect's general operators, with n moves into (or out of) float32
// tensors of n elements.
func limitCalls(n int) map[string]dialect.Call {
	data := make([]float32, n)
	idx := make([]int64, n)
	for i := range idx {
		data[i] = float32(i)
		idx[i] = int64(n - 1 - i)
	}
	f := tensor.Must(tensor.From(tensor.Shape{n}, data))
	flat := tensor.Must(tensor.From(tensor.Shape{n}, idx))
	tuples := tensor.Must(tensor.From(tensor.Shape{n, 1}, idx))
	in := func(indices tensor.Tensor, scatter bool) dialect.Call {
		c := dialect.Call{Inputs: map[string]tensor.Tensor{"data": f, "indices": indices}}
		if scatter {
			c.Inputs["updates"] = f
		}
		return c
	}
	// The general operators: the scatters write one window of n elements
	// at a single start index, so that their links outnumber the index
	// values.
	ints := func(v ...int64) dialect.Value { return dialect.Value{Kind: dialect.Ints, Ints: v} }
	start := tensor.Must(tensor.From(tensor.Shape{1}, []int64{0}))
	window := tensor.Must(f.Reshape(tensor.Shape{1, n}))
	general := func(data string, scatter, hlo bool) dialect.Call {
		c := dialect.Call{Inputs: map[string]tensor.Tensor{data: f}, Attrs: map[string]dialect.Value{}}
		switch {
		case scatter:
			c.Inputs["scatter_indices"] = tensor.Must(tensor.From(tensor.Shape{1, 1}, []int64{0}))
			c.Inputs["updates"] = window
			c.Attrs["update_window_dims"] = ints(1)
			c.Attrs["scatter_dims_to_operand_dims"] = ints(0)
		default:
			c.Inputs["start_indices"] = tuples
			c.Attrs["collapsed_slice_dims"] = ints(0)
			c.Attrs["start_index_map"] = ints(0)
			c.Attrs["slice_sizes"] = ints(1)
		}
		if hlo {
			c.Attrs["index_vector_dim"] = dialect.Value{Kind: dialect.Int, Int: 1}
		}
		return c
	}
	slice := func() dialect.Call {
		return dialect.Call{Inputs: map[string]tensor.Tensor{"operand": f, "start_indices": start},
			Attrs: map[string]dialect.Value{"slice_sizes": ints(int64(n))}}
	}
	update := func() dialect.Call {
		return dialect.Call{Inputs: map[string]tensor.Tensor{"operand": f, "update": f, "start_indices": start}}
	}
	return map[string]dialect.Call{
		"onnx.ScatterND":                 in(tuples, true),
		"onnx.ScatterElements":           in(flat, true),
		"onnx.GatherND":                  in(tuples, false),
		"onnx.GatherElements":            in(flat, false),
		"onnx.Gather":                    in(flat, false),
		"jax.lax.gather":                 general("operand", false, false),
		"jax.lax.scatter_add":            general("operand", true, false),
		"jax.lax.dynamic_slice":          slice(),
		"jax.lax.dynamic_update_slice":   update(),
		"stablehlo.gather":               general("operand", false, true),
		"stablehlo.scatter":              general("inputs", true, true),
		"stablehlo.dynamic_slice":        slice(),
		"stablehlo.dynamic_update_slice": update(),
	}
}

// allocated returns the bytes f allocates on the heap.
func allocated(f func()) int64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return int64(after.TotalAlloc - before.TotalAlloc)
}

// TestRunUnderLimit checks that a trace is held to the size limit: Run
// traces a call whose records take exactly the limit, refuses one byte
// less with an error that matches tensor.ErrTooLarge and names what the
// trace needs, and then allocates little more than the operator's output;
// a trace allocates no more than its size says.
func TestRunUnderLimit(t *testing.T) {
	const n = 1 << 16
	const out = 4 * n      // bytes of each call's output
	const slack = 64 << 10 // the engine's own buffers
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	for name, c := range limitCalls(n) {
		t.Run(name, func(t *testing.T) {
			op := lookup(t, name)
			tensor.SetMaxBytes(tensor.DefaultMaxBytes)
			var tr *Trace
			var err error
			got := allocated(func() { tr, err = Run(op, c) })
			if err != nil {
				t.Fatal(err)
			}
			size := tr.size()
			// A link takes 40 bytes.
			if size < 40*n || got > size+out+slack {
				t.Errorf("the trace allocated %d bytes; its size is %d", got, size)
			}
			tensor.SetMaxBytes(size)
			if _, err := Run(op, c); err != nil {
				t.Errorf("under a limit of its size: %v", err)
			}
			tensor.SetMaxBytes(size - 1)
			got = allocated(func() { tr, err = Run(op, c) })
			want := name + ": tensor: too large: the trace takes "
			if tr != nil || !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), want) {
				t.Errorf("under a limit of its size less one: %v, %v; want ErrTooLarge saying %q", tr, err, want)
			}
			if got > 2*out+slack {
				t.Errorf("refusing the trace allocated %d bytes", got)
			}
		})
	}
}

// TestRunIndexErrorUnderLimit: a call that fails on an index is traced
// (its inputs' cells) only when that fits the limit; otherwise Run
// returns the operator's error alone.
func TestRunIndexErrorUnderLimit(t *testing.T) {
	op := lookup(t, "onnx.ScatterND")
	c := call(t, op, 18, "data=float32:[1,2,3,4]", "indices=int64:[[7]]", "updates=float32:[9]")
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(-1))
	// Six cells (data's four, indices' one, updates' one), 16 bytes each
	// where int has 64 bits.
	fits := 6 * int64(unsafe.Sizeof(Cell{}))
	for _, limit := range []int64{fits, fits - 1} {
		tensor.SetMaxBytes(limit)
		tr, err := Run(op, c)
		var ie *engine.IndexError
		if !errors.As(err, &ie) {
			t.Fatalf("limit %d: %v, want the index error", limit, err)
		}
		if errors.Is(err, tensor.ErrTooLarge) || (tr != nil) != (limit == fits) {
			t.Errorf("limit %d: trace %v, error %v", limit, tr != nil, err)
		}
	}
}
