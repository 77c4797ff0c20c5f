package numpy_test

import (
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// reduceatFuncs are the reduceat operators by ufunc, allocating and Into.
var reduceatFuncs = map[string]struct {
	call func(array, indices tensor.Tensor, axis int) (tensor.Tensor, error)
	into func(dst, array, indices tensor.Tensor, axis int) error
}{
	"add":      {numpy.AddReduceat, numpy.AddReduceatInto},
	"multiply": {numpy.MultiplyReduceat, numpy.MultiplyReduceatInto},
	"maximum":  {numpy.MaximumReduceat, numpy.MaximumReduceatInto},
	"minimum":  {numpy.MinimumReduceat, numpy.MinimumReduceatInto},
}

// arange returns 0, 1, ... of type d in a tensor of shape s.
func arange(d tensor.DType, s tensor.Shape) tensor.Tensor {
	v := make([]int, tensortest.Count(s))
	for i := range v {
		v[i] = i
	}
	return tensortest.FromInts(d, s, v...)
}

func TestReduceatValues(t *testing.T) {
	hundreds := make([]int, 100)
	for i := range hundreds {
		hundreds[i] = 100
	}
	tests := []struct {
		name, ufunc    string
		array, indices tensor.Tensor
		axis           int
		want           tensor.Tensor
	}{
		// numpy/_core/_add_newdocs.py, the examples of ufunc.reduceat.
		{"doc running sum", "add", arange(tensor.Int64, shape{8}), tensortest.I64(shape{8}, 0, 4, 1, 5, 2, 6, 3, 7), 0,
			tensortest.FromInts(tensor.Int64, shape{8}, 6, 4, 10, 5, 14, 6, 18, 7)},
		{"doc 4x4", "add", arange(tensor.Float64, shape{4, 4}), tensortest.I64(shape{5}, 0, 3, 1, 2, 0), 0,
			tensortest.FromInts(tensor.Float64, shape{5, 4}, 12, 15, 18, 21, 12, 13, 14, 15, 4, 5, 6, 7, 8, 9, 10, 11, 24, 28, 32, 36)},
		{"doc multiply axis 1", "multiply", arange(tensor.Float64, shape{4, 4}), tensortest.I64(shape{2}, 0, 3), 1,
			tensortest.FromInts(tensor.Float64, shape{4, 2}, 0, 3, 120, 7, 720, 11, 2184, 15)},
		// numpy/_core/tests/test_ufunc.py, TestUfunc.test_reduceat_shifting_sum:
		// every other result is [1, 3, 5, 7].
		{"test_reduceat_shifting_sum", "add", arange(tensor.Int64, shape{6}), tensortest.I64(shape{8}, 0, 2, 1, 3, 2, 4, 3, 5), 0,
			tensortest.FromInts(tensor.Int64, shape{8}, 1, 2, 3, 3, 5, 4, 7, 5)},
		// test_ufunc.py, test_reduceat: float32 values of 100, runs from
		// 0, 7, 15 and 25 of 100.
		{"test_reduceat", "add", tensortest.FromInts(tensor.Float32, shape{100}, hundreds...), tensortest.I64(shape{4}, 0, 7, 15, 25), 0,
			tensortest.FromInts(tensor.Float32, shape{4}, 700, 800, 1000, 7500)},
		// test_ufunc.py, test_reduceat_empty: empty indices give an empty
		// result of array's type.
		{"test_reduceat_empty 1-D", "add", tensor.Must(tensor.New(tensor.Float64, shape{0})), tensortest.I32(shape{0}), 0,
			tensor.Must(tensor.New(tensor.Float64, shape{0}))},
		{"test_reduceat_empty axis 0", "add", tensortest.FromInts(tensor.Float64, shape{5, 2}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), tensortest.I64(shape{0}), 0,
			tensor.Must(tensor.New(tensor.Float64, shape{0, 2}))},
		{"test_reduceat_empty axis 1", "add", tensortest.FromInts(tensor.Float64, shape{5, 2}, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), tensortest.I64(shape{0}), 1,
			tensor.Must(tensor.New(tensor.Float64, shape{5, 0}))},
		// family.md 1.6, run with NumPy 1.24.2: a pair that does not
		// increase gives the element at the first index.
		{"descending pair", "add", arange(tensor.Int64, shape{8}), tensortest.I64(shape{2}, 5, 2), 0, tensortest.FromInts(tensor.Int64, shape{2}, 5, 27)},
		{"equal pair", "add", arange(tensor.Int64, shape{8}), tensortest.I64(shape{3}, 3, 3, 6), 0, tensortest.FromInts(tensor.Int64, shape{3}, 3, 12, 13)},
		// family.md 1.6 and its errata: int8 and bool add in int64, uint8
		// in uint64; maximum keeps the type.
		{"int8 widened", "add", tensortest.FromInts(tensor.Int8, shape{3}, 100, 100, 100), tensortest.I64(shape{1}, 0), 0, tensortest.FromInts(tensor.Int64, shape{1}, 300)},
		{"bool widened", "add", tensortest.FromInts(tensor.Bool, shape{4}, 1, 1, 0, 1), tensortest.I64(shape{2}, 0, 3), 0, tensortest.FromInts(tensor.Int64, shape{2}, 2, 1)},
		{"uint8 widened product", "multiply", tensortest.FromInts(tensor.Uint8, shape{3}, 200, 2, 3), tensortest.I64(shape{1}, 0), 0, tensortest.FromInts(tensor.Uint64, shape{1}, 1200)},
		{"int32 product widened", "multiply", tensortest.FromInts(tensor.Int32, shape{2}, 1<<20, 1<<20), tensortest.I64(shape{1}, 0), 0, tensortest.I64(shape{1}, 1<<40)},
		{"int8 maximum", "maximum", tensortest.FromInts(tensor.Int8, shape{4}, -3, 7, -8, 2), tensortest.I64(shape{2}, 0, 2), 0, tensortest.FromInts(tensor.Int8, shape{2}, 7, 2)},
		{"uint16 minimum int8 indices", "minimum", tensortest.FromInts(tensor.Uint16, shape{4}, 9, 7, 8, 2), tensortest.FromInts(tensor.Int8, shape{2}, 1, 0), -1,
			tensortest.FromInts(tensor.Uint16, shape{2}, 7, 2)},
		{"bool maximum is or", "maximum", tensortest.FromInts(tensor.Bool, shape{3}, 0, 1, 0), tensortest.I64(shape{2}, 0, 2), 0, tensortest.FromInts(tensor.Bool, shape{2}, 1, 0)},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			f := reduceatFuncs[c.ufunc]
			got, err := f.call(c.array, c.indices, c.axis)
			if err != nil || !tensor.Equal(got, c.want) {
				t.Fatalf("got %v %v, want %v", got, err, c.want)
			}
			dst := tensortest.Junk(c.want.DType(), c.want.Shape())
			if err := f.into(dst, c.array, c.indices, c.axis); err != nil || !tensor.Equal(dst, c.want) {
				t.Fatalf("Into: got %v %v, want %v", dst, err, c.want)
			}
			op := dialect.Find(numpy.Ops(), "numpy."+c.ufunc+".reduceat")
			got, err = op.Run(dialect.Call{Inputs: map[string]tensor.Tensor{"array": c.array, "indices": c.indices},
				Attrs: map[string]dialect.Value{"axis": {Kind: dialect.Int, Int: int64(c.axis)}}})
			if err != nil || !tensor.Equal(got, c.want) {
				t.Fatalf("Run: got %v %v, want %v", got, err, c.want)
			}
		})
	}
}

// NaN: maximum and minimum propagate a NaN in a run.
func TestReduceatNaN(t *testing.T) {
	a := tensor.Must(tensor.From(shape{4}, []float64{1, math.NaN(), 3, 2}))
	for _, f := range []func(array, indices tensor.Tensor, axis int) (tensor.Tensor, error){numpy.MaximumReduceat, numpy.MinimumReduceat} {
		got, err := f(a, tensortest.I64(shape{2}, 0, 2), 0)
		if err != nil {
			t.Fatal(err)
		}
		v := got.Data().([]float64)
		if !math.IsNaN(v[0]) || math.IsNaN(v[1]) {
			t.Errorf("got %v, want NaN then a number", v)
		}
	}
}

// The refusals: family.md 1.6's index errors (negative indices do not
// wrap; run with NumPy 1.24.2: add.reduceat(arange(8), [-1]) raises), the
// index types NumPy cannot cast safely to intp, 2-D indices, an empty
// array, an axis out of range, and types NumPy lacks.
func TestReduceatRefusals(t *testing.T) {
	a := arange(tensor.Int64, shape{8})
	tests := []struct {
		name           string
		array, indices tensor.Tensor
		axis           int
		class          error
		words          string
	}{
		{"negative index", a, tensortest.I64(shape{2}, 0, -1), 0, engine.ErrIndex, "index -1 out-of-bounds in %s.reduceat [0, 8) (indices[1])"},
		{"index past the end", a, tensortest.I64(shape{3}, 0, 1, 8), 0, engine.ErrIndex, "index 8 out-of-bounds in %s.reduceat [0, 8) (indices[2])"},
		{"empty array", tensor.Must(tensor.New(tensor.Int64, shape{0})), tensortest.I64(shape{1}, 0), 0, engine.ErrIndex,
			"index 0 out-of-bounds in %s.reduceat [0, 0)"},
		{"uint64 indices", a, tensortest.FromInts(tensor.Uint64, shape{1}, 0), 0, engine.ErrType, "indices"},
		{"float indices", a, tensortest.FromInts(tensor.Float64, shape{1}, 0), 0, engine.ErrType, "indices"},
		{"2-D indices", a, tensortest.I64(shape{1, 1}, 0), 0, engine.ErrShape, "object too deep"},
		{"axis out of range", a, tensortest.I64(shape{1}, 0), 1, dialect.ErrAttribute, "axis 1"},
		// Run with NumPy 1.24.2: TypeError "cannot reduceat on a scalar".
		{"0-d array", tensortest.I64(shape{}, 1), tensortest.I64(shape{1}, 0), 0, engine.ErrShape, "cannot reduceat on a scalar"},
		{"bfloat16", tensortest.FromInts(tensor.BFloat16, shape{1}, 1), tensortest.I64(shape{1}, 0), 0, engine.ErrType, "bfloat16"},
		{"string", tensortest.Str(shape{1}, "a"), tensortest.I64(shape{1}, 0), 0, engine.ErrType, "string"},
	}
	for _, c := range tests {
		for ufunc, f := range reduceatFuncs {
			_, err := f.call(c.array, c.indices, c.axis)
			var oe *dialect.OpError
			words := c.words
			if strings.Contains(words, "%s") {
				words = strings.ReplaceAll(words, "%s", ufunc)
			}
			if !errors.Is(err, c.class) || !errors.As(err, &oe) || oe.Op != "numpy."+ufunc+".reduceat" || !strings.Contains(err.Error(), words) {
				t.Errorf("%s %s: got %v, want a %v error naming the operator and saying %q", c.name, ufunc, err, c.class, words)
			}
		}
	}
	// Complex numbers have no order here.
	if _, err := numpy.MaximumReduceat(tensortest.FromInts(tensor.Complex64, shape{1}, 1), tensortest.I64(shape{1}, 0), 0); !errors.Is(err, engine.ErrType) {
		t.Errorf("complex maximum: %v", err)
	}
	// A failed Into call leaves dst as it was; a dst of array's type
	// where add widens is refused.
	dst := tensortest.FromInts(tensor.Int64, shape{2}, 9, 9)
	if err := numpy.AddReduceatInto(dst, a, tensortest.I64(shape{2}, 0, 9), 0); !errors.Is(err, engine.ErrIndex) || !tensor.Equal(dst, tensortest.FromInts(tensor.Int64, shape{2}, 9, 9)) {
		t.Errorf("got %v and dst %v", err, dst)
	}
	if err := numpy.AddReduceatInto(tensortest.FromInts(tensor.Int8, shape{1}, 0), tensortest.FromInts(tensor.Int8, shape{2}, 1, 2), tensortest.I64(shape{1}, 0), 0); !errors.Is(err, engine.ErrType) {
		t.Errorf("int8 dst for add: %v", err)
	}
}

// TestAddReduceatMatchesNumPy checks float and complex sums bit for bit
// against the results of running NumPy 1.24.2's np.add.reduceat on random
// arrays (testdata/add_reduceat_numpy.json, which this project made so):
// runs of up to 300 elements, along axis 0 and 1, sum pairwise as
// NumPy's add loop does.
func TestAddReduceatMatchesNumPy(t *testing.T) {
	b, err := os.ReadFile("testdata/add_reduceat_numpy.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Cases []struct {
			DType   string
			Shape   []int
			Axis    int
			Indices []int64
			Array   []json.RawMessage
			Want    []json.RawMessage
		}
	}
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	read := func(d tensor.DType, s tensor.Shape, vals []json.RawMessage) tensor.Tensor {
		x := tensor.Must(tensor.New(d, s))
		for i, raw := range vals {
			var parts [2]float64
			if d.IsComplex() {
				var p []float64
				if err := json.Unmarshal(raw, &p); err != nil {
					t.Fatal(err)
				}
				copy(parts[:], p)
			} else if err := json.Unmarshal(raw, &parts[0]); err != nil {
				t.Fatal(err)
			}
			switch v := x.Data().(type) {
			case []complex64:
				v[i] = complex(float32(parts[0]), float32(parts[1]))
			case []complex128:
				v[i] = complex(parts[0], parts[1])
			default:
				x.SetFloatAt(i, parts[0])
			}
		}
		return x
	}
	for i, c := range file.Cases {
		d, err := tensor.ParseDType(c.DType)
		if err != nil {
			t.Fatal(err)
		}
		array := read(d, c.Shape, c.Array)
		ws := tensor.Shape(c.Shape).Clone()
		ws[c.Axis] = len(c.Indices)
		want := read(d, ws, c.Want)
		got, err := numpy.AddReduceat(array, tensortest.I64(shape{len(c.Indices)}, c.Indices...), c.Axis)
		if err != nil || !tensor.Equal(got, want) {
			t.Errorf("case %d (%v%v axis %d): got %v %v, want %v", i, d, c.Shape, c.Axis, got, err, want)
		}
	}
}
