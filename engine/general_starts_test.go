package engine

import (
	"errors"
	"slices"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestGeneralPairStarts runs ScatterND of pairs through both kernels:
// the general scatter turns consecutive pairs into window starts by
// ScatterND's loop (offsets2), and must name the same first bad
// component, and write the same result, as the form.
func TestGeneralPairStarts(t *testing.T) {
	const rows, cols, n = 8, 8, 100
	pairs := func(edit func(v []int64)) tensor.Tensor {
		v := make([]int64, 2*n)
		for i := range n {
			v[2*i], v[2*i+1] = int64(i*3%rows), int64(i*5%cols)
		}
		edit(v)
		return tensor.Must(tensor.From(tensor.Shape{n, 2}, v))
	}
	upd := make([]int32, n)
	for i := range upd {
		upd[i] = int32(100 + i)
	}
	updates := tensor.Must(tensor.From(tensor.Shape{n}, upd))
	data := make([]int32, rows*cols)
	for i := range data {
		data[i] = int32(-i)
	}
	for _, tc := range []struct {
		name  string
		edit  func(v []int64)
		pos   []int // of the error, or nil
		value int64
	}{
		{"in range", func([]int64) {}, nil, 0},
		{"negative from the end", func(v []int64) { v[2*9+1] = -1 }, nil, 0},
		{"second component", func(v []int64) { v[2*57+1] = cols; v[2*80] = rows + 3 }, []int{57, 1}, cols},
		{"first component", func(v []int64) { v[2*12] = rows + 1; v[2*12+1] = cols + 2 }, []int{12, 0}, rows + 1},
		{"first tuple", func(v []int64) { v[1] = -cols - 1 }, []int{0, 1}, -cols - 1},
	} {
		var want []int32
		for _, k := range bothKernels {
			d := tensor.Must(tensor.From(tensor.Shape{rows, cols}, slices.Clone(data)))
			dst := tensor.Must(tensor.New(tensor.Int32, tensor.Shape{rows, cols}))
			err := k.ScatterND(dst, d, pairs(tc.edit), updates, ScatterOptions{Rules: IndexRules{Negative: NegativeFromEnd}})
			if tc.pos != nil {
				var ie *IndexError
				if !errors.As(err, &ie) || !slices.Equal(ie.Pos, tc.pos) || ie.Value != tc.value {
					t.Errorf("%s, %s: error %v, want one at %v of value %d", tc.name, k.name, err, tc.pos, tc.value)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, k.name, err)
			}
			got := dst.Data().([]int32)
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Errorf("%s: %s wrote %v, the form %v", tc.name, k.name, got, want)
			}
		}
	}
}
