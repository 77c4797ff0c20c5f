package numpy_test

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/dialect/numpy"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

type shape = tensor.Shape

var (
	f64 = tensortest.F64
	i64 = tensortest.I64
)

// ints returns an int64 tensor of the given shape.
func ints(s shape, v ...int64) tensor.Tensor { return i64(s, v...) }

// same fails t unless got holds the values of want (of want's type and
// shape).
func same(t *testing.T, what string, got, want tensor.Tensor) {
	t.Helper()
	if !tensor.Equal(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

// TestTakeModes transcribes numpy/_core/tests/test_item_selection.py
// TestTake::test_simple: a = [[1, 2], [3, 4]] taken along axis 1 with an
// index array whose first element is -1 or 4, under each mode, with the
// table real_indices = {raise: {-1: 1, 4: IndexError}, wrap: {-1: 1, 4:
// 0}, clip: {-1: 0, 4: 1}}, for index arrays of shapes (), (1, 1) and (0,).
func TestTakeModes(t *testing.T) {
	a := ints(shape{2, 2}, 1, 2, 3, 4)
	columns := [][]int64{{1, 3}, {2, 4}} // tresult = list(ta.T)
	real := map[numpy.Mode]map[int64]int{
		numpy.ModeRaise: {-1: 1, 4: -1},
		numpy.ModeWrap:  {-1: 1, 4: 0},
		numpy.ModeClip:  {-1: 0, 4: 1},
	}
	for _, is := range []shape{{}, {1, 1}, {0}} {
		for mode, table := range real {
			for _, index := range []int64{-1, 4} {
				n, _ := is.NumElements()
				vals := make([]int64, n)
				if n > 0 {
					vals[0] = index
				}
				out, err := numpy.Take(a, ints(is, vals...), numpy.AxisAt(1), mode)
				name := fmt.Sprintf("take(%v index %v shaped %v, axis=1, mode=%v)", a, index, is, mode)
				want := append(shape{2}, is...)
				switch {
				case n == 0:
					if err != nil || !out.HasShape(want) {
						t.Errorf("%s: %v, %v; want an empty result of shape %v", name, out, err, want)
					}
				case table[index] < 0:
					if !errors.Is(err, engine.ErrIndex) {
						t.Errorf("%s: err = %v, want an IndexError", name, err)
					}
				default:
					same(t, name, out, ints(want, columns[table[index]]...))
				}
			}
		}
	}
}

// TestTakeRaiseClipWrap transcribes numpy/_core/tests/test_multiarray.py
// TestTake::test_raise, test_clip and test_wrap on x of shape (2, 3, 4).
func TestTakeRaiseClipWrap(t *testing.T) {
	v := make([]float64, 24)
	for i := range v {
		v[i] = float64(i) * 1.5
	}
	x := f64(shape{2, 3, 4}, v...)
	row := func(r int) tensor.Tensor { return f64(shape{1, 3, 4}, v[12*r:12*r+12]...) }
	for _, c := range []struct {
		ind  []int64
		mode numpy.Mode
		row  int // -1: an IndexError
	}{
		{[]int64{0, 1, 2}, numpy.ModeRaise, -1},
		{[]int64{-3}, numpy.ModeRaise, -1},
		{[]int64{-1}, numpy.ModeRaise, 1},
		{[]int64{-1}, numpy.ModeClip, 0},
		{[]int64{2}, numpy.ModeClip, 1},
		{[]int64{-1}, numpy.ModeWrap, 1},
		{[]int64{2}, numpy.ModeWrap, 0},
		{[]int64{3}, numpy.ModeWrap, 1},
	} {
		name := fmt.Sprintf("x.take(%v, axis=0, mode=%v)", c.ind, c.mode)
		out, err := numpy.Take(x, ints(shape{len(c.ind)}, c.ind...), numpy.AxisAt(0), c.mode)
		if c.row < 0 {
			var ie *engine.IndexError
			if !errors.As(err, &ie) || ie.Size != 2 {
				t.Errorf("%s: err = %v, want an IndexError for size 2", name, err)
			}
			continue
		}
		same(t, name, out, row(c.row))
	}
}

// TestTakeFlat: axis None takes from the flattened array (np.take's
// documented default), and a scalar index gives a scalar; an empty axis
// refuses a non-empty take in every mode ("cannot do a non-empty take
// from an empty axes.", item_selection.c), and allows an empty one.
func TestTakeFlat(t *testing.T) {
	a := ints(shape{2, 3}, 4, 3, 5, 7, 6, 8)
	out, err := numpy.Take(a, ints(shape{3}, 0, 1, 4), numpy.Flat, numpy.ModeRaise)
	same(t, "take(a, [0, 1, 4])", out, ints(shape{3}, 4, 3, 6))
	if err != nil {
		t.Fatal(err)
	}
	out, _ = numpy.Take(a, ints(shape{}, -1), numpy.Flat, numpy.ModeRaise)
	same(t, "take(a, -1)", out, ints(shape{}, 8))
	// The documentation's example: np.take(a, [[0, 1], [2, 3]]).
	out, _ = numpy.Take(a, ints(shape{2, 2}, 0, 1, 2, 3), numpy.Flat, numpy.ModeRaise)
	same(t, "take(a, [[0, 1], [2, 3]])", out, ints(shape{2, 2}, 4, 3, 5, 7))
	// "out is always buffered if mode='raise'" (np.take's documentation):
	// a bad index leaves dst as it was.
	dst := ints(shape{3}, 9, 9, 9)
	if err := numpy.TakeInto(dst, a, ints(shape{3}, 0, 1, 6), numpy.Flat, numpy.ModeRaise); !errors.Is(err, engine.ErrIndex) {
		t.Errorf("TakeInto of index 6 of 6: err = %v, want ErrIndex", err)
	}
	same(t, "dst after the failed take", dst, ints(shape{3}, 9, 9, 9))
	empty := ints(shape{2, 0})
	for _, mode := range []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip} {
		if _, err := numpy.Take(empty, ints(shape{1}, 0), numpy.AxisAt(1), mode); !errors.Is(err, engine.ErrIndex) {
			t.Errorf("mode %v: a take from an empty axis: err = %v, want ErrIndex", mode, err)
		}
		out, err := numpy.Take(empty, ints(shape{0}), numpy.AxisAt(1), mode)
		if err != nil || !out.HasShape(shape{2, 0}) {
			t.Errorf("mode %v: an empty take from an empty axis: %v, %v", mode, out, err)
		}
	}
}

// TestPut transcribes numpy/_core/tests/test_multiarray.py
// TestMethods::test_put: a.put([1, 3, 5], [1, 3, 5]) into zeros of shape
// (6,) and (2, 3), for every integer and float type, and bool with True.
func TestPut(t *testing.T) {
	for _, d := range tensor.DTypes() {
		if d == tensor.String || d.IsComplex() {
			continue
		}
		for _, s := range []shape{{6}, {2, 3}} {
			a := tensortest.FromInts(d, s, 0, 0, 0, 0, 0, 0)
			v := tensortest.FromInts(d, shape{3}, 1, 3, 5)
			if err := numpy.Put(a, ints(shape{3}, 1, 3, 5), v, numpy.ModeRaise); err != nil {
				t.Fatalf("%v %v: %v", d, s, err)
			}
			same(t, fmt.Sprintf("%v %v put", d, s), a, tensortest.FromInts(d, s, 0, 1, 0, 3, 0, 5))
		}
	}
}

// TestPutModes transcribes numpy/_core/tests/test_item_selection.py
// TestPut::test_simple (vals = arange(1001), arr = zeros(1000), half of
// the positions put once, by index arrays shifted by len(arr) for wrap
// and with the first and last replaced by -1389 and 1321 for clip) and
// TestPut::test_empty (an empty v changes nothing), for float64 and int16.
// A seeded permutation stands for np.random.permutation.
func TestPutModes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, d := range []tensor.DType{tensor.Float64, tensor.Int16} {
		vals := make([]int, 1001)
		for i := range vals {
			vals[i] = i
		}
		v := tensortest.FromInts(d, shape{1001}, vals...)
		for _, mode := range []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip} {
			arr := tensortest.FromInts(d, shape{1000}, make([]int, 1000)...)
			var indx, put []int64
			if mode == numpy.ModeClip {
				for _, p := range rng.Perm(998)[:498] {
					indx = append(indx, int64(p)+1)
				}
				indx[len(indx)-1], indx[len(indx)-2] = 0, 999
				put = slices.Clone(indx)
				put[len(put)-1], put[len(put)-2] = -1389, 1321
			} else {
				for _, p := range rng.Perm(997)[:497] {
					indx = append(indx, int64(p))
				}
				put = slices.Clone(indx)
				if mode == numpy.ModeWrap {
					for i := range put {
						put[i] += 1000
					}
				}
			}
			if err := numpy.Put(arr, ints(shape{len(put)}, put...), v, mode); err != nil {
				t.Fatalf("%v %v: %v", d, mode, err)
			}
			touched := map[int64]int{}
			for i, p := range indx {
				touched[p] = i
			}
			for p := range 1000 {
				got, ok := arr.FloatAt(p)
				if n, isInt := arr.IntAt(p); !ok && isInt {
					got = float64(n)
				}
				want := 0.0
				if i, ok := touched[int64(p)]; ok {
					want = float64(i)
				}
				if got != want {
					t.Fatalf("%v mode %v: arr[%d] = %v, want %v", d, mode, p, got, want)
				}
			}
			before := arr.Clone()
			if err := numpy.Put(arr, ints(shape{3}, 1, 2, 3), tensortest.FromInts(d, shape{0}), mode); err != nil ||
				!tensor.Equal(arr, before) {
				t.Errorf("%v mode %v: put of an empty v changed arr or failed: %v", d, mode, err)
			}
		}
	}
}

// TestPutCyclesAndChecksFirst: v repeats ([run] put(zeros(4), [0, 1, 2,
// 3], [7, 8]) is [7, 8, 7, 8] in family.md), duplicates keep the last
// value, and unlike NumPy (whose put(zeros(3), [0, 1, 7], [1, 2, 3])
// leaves [1, 2, 0]) a bad index leaves a as it was; an empty a refuses a
// put in every mode ("cannot replace elements of an empty array").
func TestPutCyclesAndChecksFirst(t *testing.T) {
	a := f64(shape{4}, 0, 0, 0, 0)
	if err := numpy.Put(a, ints(shape{2, 2}, 0, 1, 2, 3), f64(shape{2}, 7, 8), numpy.ModeRaise); err != nil {
		t.Fatal(err)
	}
	same(t, "cycled", a, f64(shape{4}, 7, 8, 7, 8))
	_ = numpy.Put(a, ints(shape{3}, 1, 1, -1), f64(shape{3}, 5, 6, 9), numpy.ModeRaise)
	same(t, "duplicates", a, f64(shape{4}, 7, 6, 7, 9))

	z := f64(shape{3}, 0, 0, 0)
	err := numpy.Put(z, ints(shape{3}, 0, 1, 7), f64(shape{3}, 1, 2, 3), numpy.ModeRaise)
	var ie *engine.IndexError
	var oe *dialect.OpError
	if !errors.As(err, &ie) || !errors.As(err, &oe) || oe.Op != "numpy.put" || ie.Value != 7 ||
		!strings.Contains(err.Error(), "ind[2] = 7: index 7 is out of bounds for axis 0 with size 3") {
		t.Errorf("put of index 7 into size 3: err = %v, want numpy.put's IndexError naming ind[2] = 7", err)
	}
	same(t, "after the failed put", z, f64(shape{3}, 0, 0, 0))
	for _, mode := range []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip} {
		if err := numpy.Put(f64(shape{0}), ints(shape{1}, 0), f64(shape{1}, 1), mode); !errors.Is(err, engine.ErrIndex) {
			t.Errorf("mode %v: put into an empty array: err = %v, want ErrIndex", mode, err)
		}
	}
	// Into another dst: a copy of a with the puts, a left alone.
	src := f64(shape{2, 2}, 1, 2, 3, 4)
	dst := f64(shape{2, 2}, 9, 9, 9, 9)
	if err := numpy.PutInto(dst, src, ints(shape{1}, -6), f64(shape{1}, 0), numpy.ModeWrap); err != nil {
		t.Fatal(err)
	}
	same(t, "PutInto wrap -6 of 4", dst, f64(shape{2, 2}, 1, 2, 0, 4))
	same(t, "PutInto's a", src, f64(shape{2, 2}, 1, 2, 3, 4))
}

// TestTakeAlongAxis transcribes numpy/lib/tests/test_shape_base.py
// TestTakeAlongAxis: test_argequivalent (max and min with keepdims
// against argmax and argmin, along each axis and None), test_invalid,
// test_empty and test_broadcast.
func TestTakeAlongAxis(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	s := shape{3, 4, 5}
	v := make([]float64, 60)
	for i := range v {
		v[i] = rng.Float64()
	}
	a := f64(s, v...)
	for _, axis := range []numpy.Axis{numpy.AxisAt(0), numpy.AxisAt(1), numpy.AxisAt(2), numpy.AxisAt(-1), numpy.Flat} {
		for _, isMax := range []bool{true, false} {
			arg, want := argExtreme(v, s, axis, isMax)
			got, err := numpy.TakeAlongAxis(a, arg, axis)
			if err != nil {
				t.Fatalf("axis %v: %v", axis, err)
			}
			same(t, fmt.Sprintf("take_along_axis(a, arg(max %v), axis=%v)", isMax, axis), got, want)
		}
	}

	ones := f64(shape{10, 10}, make([]float64, 100)...)
	ai := ints(shape{10, 2}, make([]int64, 20)...)
	if _, err := numpy.TakeAlongAxis(ones, ai, numpy.AxisAt(1)); err != nil {
		t.Errorf("sanity check: %v", err)
	}
	for _, c := range []struct {
		name    string
		indices tensor.Tensor
		axis    numpy.Axis
		class   error
	}{
		{"not enough indices", tensor.Scalar(int64(1)), numpy.AxisAt(1), engine.ErrShape},
		{"bool arrays not allowed", tensortest.FromInts(tensor.Bool, shape{10, 2}, make([]int, 20)...), numpy.AxisAt(1), engine.ErrType},
		{"float arrays not allowed", f64(shape{10, 2}, make([]float64, 20)...), numpy.AxisAt(1), engine.ErrType},
		{"invalid axis", ai, numpy.AxisAt(10), dialect.ErrAttribute},
		{"invalid indices", ai, numpy.Flat, engine.ErrShape},
	} {
		if _, err := numpy.TakeAlongAxis(ones, c.indices, c.axis); !errors.Is(err, c.class) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.class)
		}
	}
	if got, err := numpy.TakeAlongAxis(f64(shape{3, 4, 5}, v...), ints(shape{3, 0, 5}), numpy.AxisAt(1)); err != nil ||
		!got.HasShape(shape{3, 0, 5}) {
		t.Errorf("test_empty: %v, %v; want shape (3, 0, 5)", got, err)
	}
	got, err := numpy.TakeAlongAxis(f64(shape{3, 4, 1}, make([]float64, 12)...), ints(shape{1, 2, 5}, make([]int64, 10)...),
		numpy.AxisAt(1))
	if err != nil || !got.HasShape(shape{3, 2, 5}) {
		t.Errorf("test_broadcast: %v, %v; want shape (3, 2, 5)", got, err)
	}
	// Negative indices count from the end; past it, an error naming the
	// position ([run] in family.md: [[3]] on size 3).
	got, _ = numpy.TakeAlongAxis(ints(shape{1, 3}, 10, 20, 30), ints(shape{1, 1}, -1), numpy.AxisAt(1))
	same(t, "[[-1]]", got, ints(shape{1, 1}, 30))
	_, err = numpy.TakeAlongAxis(ints(shape{1, 3}, 10, 20, 30), ints(shape{1, 1}, 3), numpy.AxisAt(1))
	if !errors.Is(err, engine.ErrIndex) || !strings.Contains(err.Error(), "indices[0,0] = 3: index 3 is out of bounds for axis 1 with size 3") {
		t.Errorf("[[3]] on size 3: err = %v", err)
	}
}

// argExtreme returns np.argmax (or argmin) of the values v of shape s
// along axis with keepdims (one index along axis, on the flattened array
// for Flat), and the extremes it selects.
func argExtreme(v []float64, s shape, axis numpy.Axis, isMax bool) (tensor.Tensor, tensor.Tensor) {
	better := func(x, y float64) bool { return isMax && x > y || !isMax && x < y }
	if axis == numpy.Flat {
		best := 0
		for i := range v {
			if better(v[i], v[best]) {
				best = i
			}
		}
		return ints(shape{1}, int64(best)), f64(shape{1}, v[best])
	}
	ax := map[string]int{"0": 0, "1": 1, "2": 2, "-1": 2}[axis.String()]
	out := slices.Clone(s)
	out[ax] = 1
	n, _ := out.NumElements()
	idx, vals := make([]int64, n), make([]float64, n)
	strides := s.Strides()
	for i := range n {
		c := out.Coords(i)
		base := s.Offset(c)
		best := 0
		for j := 1; j < s[ax]; j++ {
			if better(v[base+j*strides[ax]], v[base+best*strides[ax]]) {
				best = j
			}
		}
		idx[i], vals[i] = int64(best), v[base+best*strides[ax]]
	}
	return ints(out, idx...), f64(out, vals...)
}

// TestPutAlongAxis transcribes numpy/lib/tests/test_shape_base.py
// TestPutAlongAxis: test_replace_max (the max replaced by -99 becomes the
// min, along each axis and None), test_broadcast (indices (1, 2, 5) % 4
// into ones (3, 4, 1): arr broadcasts too) and test_invalid's axis=None
// with 2-D indices ("single dimension").
func TestPutAlongAxis(t *testing.T) {
	base := []float64{10, 30, 20, 60, 40, 50}
	for _, axis := range []numpy.Axis{numpy.AxisAt(0), numpy.AxisAt(1), numpy.Flat} {
		a := f64(shape{2, 3}, slices.Clone(base)...)
		iMax, _ := argExtreme(base, shape{2, 3}, axis, true)
		vals := f64(shape{}, -99)
		if err := numpy.PutAlongAxis(a, iMax, vals, axis); err != nil {
			t.Fatalf("axis %v: %v", axis, err)
		}
		iMin, _ := argExtreme(a.Data().([]float64), shape{2, 3}, axis, false)
		same(t, fmt.Sprintf("argmin after replacing the max, axis %v", axis), iMin, iMax)
	}

	a := f64(shape{3, 4, 1}, slices.Repeat([]float64{1}, 12)...)
	ai := make([]int64, 10)
	for i := range ai {
		ai[i] = int64(i) % 4
	}
	indices := ints(shape{1, 2, 5}, ai...)
	if err := numpy.PutAlongAxis(a, indices, f64(shape{}, 20), numpy.AxisAt(1)); err != nil {
		t.Fatal(err)
	}
	got, err := numpy.TakeAlongAxis(a, indices, numpy.AxisAt(1))
	if err != nil {
		t.Fatal(err)
	}
	same(t, "take_along_axis after put_along_axis 20", got, f64(shape{3, 2, 5}, slices.Repeat([]float64{20}, 30)...))

	a = f64(shape{2, 3}, slices.Clone(base)...)
	err = numpy.PutAlongAxis(a, ints(shape{2, 1}, 0, 1), f64(shape{2, 1}, 2, 1), numpy.Flat)
	if !errors.Is(err, engine.ErrShape) || !strings.Contains(err.Error(), "single dimension") {
		t.Errorf("axis None with 2-D indices: err = %v", err)
	}
	// [run] in family.md: put_along_axis(zeros(3), [0, 0], [1, 2], axis=0)
	// is [2, 0, 0]: the last of duplicates wins.
	z := f64(shape{3}, 0, 0, 0)
	_ = numpy.PutAlongAxis(z, ints(shape{2}, 0, 0), f64(shape{2}, 1, 2), numpy.AxisAt(0))
	same(t, "duplicates", z, f64(shape{3}, 2, 0, 0))
	// A bad index leaves arr as it was.
	z = f64(shape{3}, 0, 0, 0)
	if err := numpy.PutAlongAxis(z, ints(shape{2}, 0, 3), f64(shape{2}, 1, 2), numpy.AxisAt(0)); !errors.Is(err, engine.ErrIndex) {
		t.Errorf("index 3 of size 3: err = %v", err)
	}
	same(t, "after the failed put_along_axis", z, f64(shape{3}, 0, 0, 0))
}

// TestUfuncAt transcribes numpy/_core/tests/test_ufunc.py:
// test_ufunc_at_basic (add.at(aa, [2, 5, 2], 1) and with b = [100, 100,
// 100]), test_ufunc_at_multiD (the case ([1, 2, 1], slice(None)), which is
// one index array), test_ufunc_at_large (gh-23457: 8195 int16 zeros
// indexing one float), test_ufunc_at_0D (add.at(a, (), 1)) and
// test_ufunc_at_advanced (an empty subspace, float32 [1, 2, 3, 4] with
// index [1, 2, 1] + 3, maximum.at(a, [0], 0)).
func TestUfuncAt(t *testing.T) {
	arange := func(n int) tensor.Tensor {
		v := make([]int64, n)
		for i := range v {
			v[i] = int64(i)
		}
		return ints(shape{n}, v...)
	}
	aa := arange(10)
	if err := numpy.AddAt(aa, numpy.Indices{ints(shape{3}, 2, 5, 2)}, ints(shape{}, 1)); err != nil {
		t.Fatal(err)
	}
	same(t, "test_ufunc_at_basic", aa, ints(shape{10}, 0, 1, 4, 3, 4, 6, 6, 7, 8, 9))
	aa = arange(10)
	_ = numpy.AddAt(aa, numpy.Indices{ints(shape{3}, 2, 5, 2)}, ints(shape{3}, 100, 100, 100))
	same(t, "test_ufunc_at_basic, b", aa, ints(shape{10}, 0, 1, 202, 3, 4, 105, 6, 7, 8, 9))
	if err := numpy.AddAt(aa, numpy.Indices{ints(shape{3}, 2, 5, 3)}, ints(shape{2}, 1, 2)); !errors.Is(err, engine.ErrShape) {
		t.Errorf("b that does not broadcast: err = %v, want ErrShape", err)
	}

	a := ints(shape{3, 3}, 0, 1, 2, 3, 4, 5, 6, 7, 8)
	_ = numpy.AddAt(a, numpy.Indices{ints(shape{3}, 1, 2, 1)}, ints(shape{3, 3}, 100, 100, 100, 200, 200, 200, 300, 300, 300))
	same(t, "test_ufunc_at_multiD", a, ints(shape{3, 3}, 0, 1, 2, 403, 404, 405, 206, 207, 208))

	b := make([]float64, 8195)
	b[0], b[1] = 10, 5
	for i := 8192; i < len(b); i++ {
		b[i] = 100
	}
	one := f64(shape{1}, 0)
	_ = numpy.AddAt(one, numpy.Indices{tensor.Must(tensor.New(tensor.Int16, shape{8195}))}, f64(shape{8195}, b...))
	same(t, "test_ufunc_at_large", one, f64(shape{1}, 315))

	zero := ints(shape{}, 0)
	_ = numpy.AddAt(zero, numpy.Indices{}, ints(shape{}, 1))
	same(t, "test_ufunc_at_0D", zero, ints(shape{}, 1))
	if err := numpy.AddAt(zero, numpy.Indices{ints(shape{}, 0)}, ints(shape{}, 1)); err == nil {
		t.Error("test_ufunc_at_0D: add.at(a, 0, 1) on a 0-d a succeeded")
	}

	empty := ints(shape{4, 0})
	if err := numpy.AddAt(empty, numpy.Indices{ints(shape{2}, 0, 1)}, ints(shape{}, 3)); err != nil {
		t.Errorf("test_ufunc_at_advanced, empty subspace: %v", err)
	}
	values := tensortest.F32(shape{4}, 1, 2, 3, 4)
	_ = numpy.AddAt(values, numpy.Indices{tensortest.I32(shape{3}, 1, 2, 1)}, tensortest.F32(shape{}, 3))
	same(t, "test_ufunc_at_advanced", values, tensortest.F32(shape{4}, 1, 8, 6, 4))
	m := ints(shape{3}, 1, 2, 3)
	_ = numpy.MaximumAt(m, numpy.Indices{ints(shape{1}, 0)}, ints(shape{}, 0))
	same(t, "test_ufunc_at_advanced, maximum", m, ints(shape{3}, 1, 2, 3))
}

// TestUfuncAtNegativeIndexes transcribes numpy/_core/tests/test_ufunc.py
// test_at_negative_indexes: arange(10) with indices [-1, 1, -1, 2] and
// values [1, 5, 2, 10] for add, subtract, minimum and maximum (divide is
// not this dialect's) on every integer and float type; the expected
// values are the loop `expected[i] = ufunc(expected[i], v)` worked by hand.
func TestUfuncAtNegativeIndexes(t *testing.T) {
	idx := numpy.Indices{ints(shape{4}, -1, 1, -1, 2)}
	for _, c := range []struct {
		name string
		f    func(a tensor.Tensor, indices numpy.Indices, b tensor.Tensor) error
		want []int // positions 1, 2 and 9
	}{
		{"add", numpy.AddAt, []int{6, 12, 12}},
		{"subtract", numpy.SubtractAt, []int{-4, -8, 6}},
		{"minimum", numpy.MinimumAt, []int{1, 2, 1}},
		{"maximum", numpy.MaximumAt, []int{5, 10, 9}},
	} {
		for _, d := range tensor.DTypes() {
			if !d.IsInteger() && !d.IsFloat() {
				continue
			}
			a := tensortest.FromInts(d, shape{10}, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9)
			if err := c.f(a, idx, tensortest.FromInts(d, shape{4}, 1, 5, 2, 10)); err != nil {
				t.Fatalf("%s.at %v: %v", c.name, d, err)
			}
			want := []int{0, c.want[0], c.want[1], 3, 4, 5, 6, 7, 8, c.want[2]}
			same(t, fmt.Sprintf("%s.at %v", c.name, d), a, tensortest.FromInts(d, shape{10}, want...))
		}
	}
	if got, _ := idx[0].IntAt(0); got != -1 {
		t.Error("the indices changed")
	}
}

// TestUfuncAtTuples: a tuple of index arrays broadcast together indexes
// the first dimensions; b broadcasts to the indexed shape; every index is
// checked before anything is written ([run] in family.md: add.at(zeros(3),
// [0, 5], 1) raises and leaves [0, 0, 0]), the error naming the array
// and the position. Derived by hand from ufunc.at's documentation.
func TestUfuncAtTuples(t *testing.T) {
	a := ints(shape{2, 3}, 0, 0, 0, 0, 0, 0)
	// a[[0, 1, 1], [2, 0, 0]] += [1, 2, 3]; then a[1, [0, 2]] += 10 (a
	// scalar array broadcast against a row).
	_ = numpy.AddAt(a, numpy.Indices{ints(shape{3}, 0, 1, 1), ints(shape{3}, 2, 0, 0)}, ints(shape{3}, 1, 2, 3))
	_ = numpy.AddAt(a, numpy.Indices{ints(shape{}, 1), ints(shape{2}, 0, 2)}, ints(shape{}, 10))
	same(t, "tuples", a, ints(shape{2, 3}, 0, 0, 1, 15, 0, 10))
	z := f64(shape{3}, 0, 0, 0)
	err := numpy.AddAt(z, numpy.Indices{ints(shape{2}, 0, 5)}, f64(shape{}, 1))
	var ie *engine.IndexError
	if !errors.As(err, &ie) || ie.Value != 5 || !strings.Contains(err.Error(), "numpy.add.at: index out of range: indices[1] = 5") {
		t.Errorf("add.at(zeros(3), [0, 5], 1): err = %v", err)
	}
	same(t, "after the failed add.at", z, f64(shape{3}, 0, 0, 0))
	err = numpy.AddAt(a, numpy.Indices{ints(shape{2}, 0, 1), ints(shape{2, 1}, 1, 7)}, ints(shape{}, 1))
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "indices[1] (broadcast to [2,2])[1,0] = 7: index 7 is out of bounds for axis 1 with size 3") {
		t.Errorf("a broadcast tuple with 7 of 3: err = %v", err)
	}
	if err := numpy.AddAt(a, numpy.Indices{ints(shape{2}, 0, 1), ints(shape{3}, 0, 1, 2)}, ints(shape{}, 1)); !errors.Is(err, engine.ErrShape) {
		t.Errorf("index arrays that do not broadcast: err = %v, want ErrShape", err)
	}
	if err := numpy.AddAt(a, numpy.Indices{ints(shape{1}, 0), ints(shape{1}, 0), ints(shape{1}, 0)}, ints(shape{}, 1)); !errors.Is(err, engine.ErrShape) {
		t.Errorf("too many indices: err = %v, want ErrShape", err)
	}
}

// TestUfuncAtArithmetic: each step rounds to a's type ([run] in
// family.md: 3000 add.at(f16, [0], 1) gives 2048), integers wrap,
// maximum and minimum propagate NaN as np.maximum does, bool add is OR
// and multiply AND, and subtract refuses bool as NumPy does.
func TestUfuncAtArithmetic(t *testing.T) {
	h := tensor.Must(tensor.FromFloat32s(tensor.Float16, shape{1}, []float32{0}))
	ones := make([]float32, 3000)
	for i := range ones {
		ones[i] = 1
	}
	if err := numpy.AddAt(h, numpy.Indices{tensor.Must(tensor.New(tensor.Int64, shape{3000}))},
		tensor.Must(tensor.FromFloat32s(tensor.Float16, shape{3000}, ones))); err != nil {
		t.Fatal(err)
	}
	if got, _ := tensor.Float32s(h); got[0] != 2048 {
		t.Errorf("3000 float16 additions of 1: %v, want 2048", got[0])
	}
	u := tensortest.FromInts(tensor.Uint8, shape{1}, 250)
	_ = numpy.AddAt(u, numpy.Indices{ints(shape{2}, 0, 0)}, tensortest.FromInts(tensor.Uint8, shape{}, 5))
	same(t, "uint8 wraps", u, tensortest.FromInts(tensor.Uint8, shape{1}, 4))
	nan := math.NaN()
	x := f64(shape{2}, 1, nan)
	_ = numpy.MaximumAt(x, numpy.Indices{ints(shape{3}, 0, 0, 1)}, f64(shape{3}, nan, 5, 7))
	if v := x.Data().([]float64); !math.IsNaN(v[0]) || !math.IsNaN(v[1]) {
		t.Errorf("maximum.at with NaN: %v, want [NaN NaN]", v)
	}
	bools := tensortest.FromInts(tensor.Bool, shape{2}, 0, 1)
	_ = numpy.AddAt(bools, numpy.Indices{ints(shape{1}, 0)}, tensortest.FromInts(tensor.Bool, shape{}, 1))
	_ = numpy.MultiplyAt(bools, numpy.Indices{ints(shape{1}, 1)}, tensortest.FromInts(tensor.Bool, shape{}, 0))
	same(t, "bool add and multiply", bools, tensortest.FromInts(tensor.Bool, shape{2}, 1, 0))
	err := numpy.SubtractAt(bools, numpy.Indices{ints(shape{1}, 0)}, tensortest.FromInts(tensor.Bool, shape{}, 1))
	if !errors.Is(err, engine.ErrType) || !strings.Contains(err.Error(), "numpy.subtract.at") {
		t.Errorf("subtract.at on bool: err = %v, want ErrType naming numpy.subtract.at", err)
	}
	if err := numpy.MaximumAt(tensortest.FromInts(tensor.Complex64, shape{1}, 0), numpy.Indices{ints(shape{1}, 0)},
		tensortest.FromInts(tensor.Complex64, shape{}, 1)); !errors.Is(err, engine.ErrType) {
		t.Errorf("maximum.at on complex: err = %v, want ErrType", err)
	}
}

// TestRefusals: every refusal is an error of its class naming the
// operator and the parameter, with no panic, and an in-place target left
// as it was.
func TestRefusals(t *testing.T) {
	a := f64(shape{2, 2}, 1, 2, 3, 4)
	idx := ints(shape{1}, 0)
	boolIdx := tensortest.FromInts(tensor.Bool, shape{1}, 1)
	for _, c := range []struct {
		name  string
		err   error
		class error
		says  string
	}{
		{"take bool indices", func() error { _, err := numpy.Take(a, boolIdx, numpy.Flat, numpy.ModeRaise); return err }(),
			engine.ErrType, "numpy.take: invalid input: indices must be of an integer type, got bool"},
		{"take strings", func() error {
			_, err := numpy.Take(tensortest.Str(shape{1}, "x"), idx, numpy.Flat, numpy.ModeRaise)
			return err
		}(), engine.ErrType, "numpy.take"},
		{"take mode", func() error { _, err := numpy.Take(a, idx, numpy.Flat, numpy.Mode(7)); return err }(),
			dialect.ErrAttribute, "mode 7"},
		{"take axis", func() error { _, err := numpy.Take(a, idx, numpy.AxisAt(2), numpy.ModeRaise); return err }(),
			dialect.ErrAttribute, "axis 2 is out of range"},
		{"take out of range", func() error {
			_, err := numpy.Take(a, ints(shape{2}, 0, -5), numpy.AxisAt(0), numpy.ModeRaise)
			return err
		}(),
			engine.ErrIndex, "numpy.take: index out of range: indices[1] = -5: index -5 is out of bounds for axis 0 with size 2 (a of shape [2,2])"},
		{"put v type", numpy.Put(a, idx, ints(shape{1}, 1), numpy.ModeRaise), engine.ErrType, "v must have the element type of a"},
		{"put missing v", numpy.Put(a, idx, tensor.Tensor{}, numpy.ModeRaise), dialect.ErrInput, "missing input \"v\""},
		{"put bool ind", numpy.Put(a, boolIdx, f64(shape{1}, 1), numpy.ModeRaise), engine.ErrType, "ind must be"},
		{"put dst shape", numpy.PutInto(f64(shape{4}, 0, 0, 0, 0), a, idx, f64(shape{1}, 1), numpy.ModeRaise), engine.ErrShape, "dst"},
		{"put_along values", numpy.PutAlongAxis(a, ints(shape{2, 1}, 0, 1), f64(shape{3}, 1, 2, 3), numpy.AxisAt(1)),
			engine.ErrShape, "values of shape [3] cannot be broadcast to the indexed shape [2,1]"},
		{"put_along rank", numpy.PutAlongAxis(a, ints(shape{2}, 0, 1), f64(shape{2}, 1, 2), numpy.AxisAt(0)),
			engine.ErrShape, "same number of dimensions"},
		{"take_along shapes", func() error {
			_, err := numpy.TakeAlongAxis(a, ints(shape{3, 1}, 0, 0, 0), numpy.AxisAt(1))
			return err
		}(), engine.ErrShape, "do not broadcast in dimension 0"},
		{"add.at b type", numpy.AddAt(a, numpy.Indices{idx}, tensortest.F32(shape{}, 1)), engine.ErrType, "b must have the element type of a"},
		{"add.at bool index", numpy.AddAt(a, numpy.Indices{idx, boolIdx}, f64(shape{}, 1)), engine.ErrType, "indices[1] must be"},
		{"add.at missing index", numpy.AddAt(a, numpy.Indices{tensor.Tensor{}}, f64(shape{}, 1)), dialect.ErrInput, "missing input"},
	} {
		var oe *dialect.OpError
		if !errors.Is(c.err, c.class) || !errors.As(c.err, &oe) || !strings.Contains(c.err.Error(), c.says) {
			t.Errorf("%s: err = %v, want %v saying %q", c.name, c.err, c.class, c.says)
		}
	}
	same(t, "a after the refusals", a, f64(shape{2, 2}, 1, 2, 3, 4))
}

// TestParseMode: the three names, "" for raise, and a refusal naming the
// value.
func TestParseMode(t *testing.T) {
	for _, m := range []numpy.Mode{numpy.ModeRaise, numpy.ModeWrap, numpy.ModeClip} {
		if got, err := numpy.ParseMode(m.String()); got != m || err != nil {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if got, err := numpy.ParseMode(""); got != numpy.ModeRaise || err != nil {
		t.Errorf("ParseMode(\"\") = %v, %v", got, err)
	}
	if _, err := numpy.ParseMode("clamp"); !errors.Is(err, dialect.ErrAttribute) || !strings.Contains(err.Error(), `"clamp"`) {
		t.Errorf("ParseMode(clamp): err = %v", err)
	}
	if numpy.Flat.String() != "None" || numpy.AxisAt(-2).String() != "-2" {
		t.Errorf("Axis strings: %v %v", numpy.Flat, numpy.AxisAt(-2))
	}
}

// TestIndexErrors transcribes numpy/_core/tests/test_indexerrors.py
// TestIndexErrors::test_take_from_object and test_put_exceptions (float64
// stands for object), and test_multiarray.py's test_take_mode_raise (a
// take into out) and test_put_noncontiguous (a transposed array, here
// materialised, is put into through its flat, row-major order).
func TestIndexErrors(t *testing.T) {
	d := f64(shape{5}, 0, 0, 0, 0, 0)
	if _, err := numpy.Take(d, ints(shape{1}, 6), numpy.Flat, numpy.ModeRaise); !errors.Is(err, engine.ErrIndex) {
		t.Errorf("d.take([6]): err = %v", err)
	}
	empty := f64(shape{5, 0})
	for _, c := range []struct {
		index int64
		axis  numpy.Axis
		mode  numpy.Mode
	}{
		{1, numpy.AxisAt(1), numpy.ModeRaise}, {0, numpy.AxisAt(1), numpy.ModeRaise}, {0, numpy.Flat, numpy.ModeRaise},
		{0, numpy.Flat, numpy.ModeWrap}, {0, numpy.Flat, numpy.ModeClip},
	} {
		if _, err := numpy.Take(empty, ints(shape{1}, c.index), c.axis, c.mode); !errors.Is(err, engine.ErrIndex) {
			t.Errorf("d.take([%d], axis=%v, mode=%v) of (5, 0): err = %v", c.index, c.axis, c.mode, err)
		}
	}
	for _, s := range []shape{{5, 5}, {5, 5, 0}} {
		a := tensor.Must(tensor.New(tensor.Float64, s))
		if err := numpy.Put(a, ints(shape{}, 100), f64(shape{}, 0), numpy.ModeRaise); !errors.Is(err, engine.ErrIndex) {
			t.Errorf("a.put(100, 0) into %v: err = %v", s, err)
		}
	}

	a := ints(shape{6}, 0, 1, 2, 3, 4, 5)
	out := ints(shape{2}, 7, 7)
	if err := numpy.TakeInto(out, a, ints(shape{2}, 0, 2), numpy.Flat, numpy.ModeRaise); err != nil {
		t.Fatal(err)
	}
	same(t, "test_take_mode_raise", out, ints(shape{2}, 0, 2))

	at := ints(shape{3, 2}, 0, 3, 1, 4, 2, 5) // np.arange(6).reshape(2, 3).T
	_ = numpy.Put(at, ints(shape{2}, 0, 2), ints(shape{2}, 44, 55), numpy.ModeRaise)
	same(t, "test_put_noncontiguous", at, ints(shape{3, 2}, 44, 3, 55, 4, 2, 5))
}
