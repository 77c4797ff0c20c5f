package engine

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
)

// TestDivTruncatesInOrder: integer Div truncates toward zero, duplicates
// divide one at a time in index order (which matters: (100/3)/2 = 16,
// 100/(3*2) = 16 too, but (-7/2)/2 = -1 where -7/4 truncates to -1 and
// floors to -2), the most negative value divided by -1 stays itself, and
// every kernel (ScatterND, ScatterElements, the general core) agrees.
func TestDivTruncatesInOrder(t *testing.T) {
	tests := []struct {
		name string
		data []int8
		idx  []int64
		upd  []int8
		want []int8
	}{
		{"truncate toward zero", []int8{7, -7, 7, -7}, []int64{0, 1, 2, 3}, []int8{2, 2, -2, -2}, []int8{3, -3, -3, 3}},
		{"duplicates in order", []int8{100, -7, 9, 1}, []int64{0, 1, 0, 1}, []int8{3, 2, 2, 2}, []int8{16, -1, 9, 1}},
		{"lowest by -1 wraps", []int8{math.MinInt8, 5, 6, 1}, []int64{0, 3}, []int8{-1, 1}, []int8{math.MinInt8, 5, 6, 1}},
		{"untouched stay", []int8{10, 20, 30, 40}, []int64{3}, []int8{-3}, []int8{10, 20, 30, -13}},
	}
	for _, tt := range tests {
		data := tensor.Must(tensor.From(tensor.Shape{4}, tt.data))
		upd := tensor.Must(tensor.From(tensor.Shape{len(tt.upd)}, tt.upd))
		opt := ScatterOptions{Reduction: Div}
		run := map[string]func(dst tensor.Tensor) error{
			"ScatterElements": func(dst tensor.Tensor) error {
				idx := tensor.Must(tensor.From(tensor.Shape{len(tt.idx)}, tt.idx))
				return ScatterElements(dst, data, idx, upd, 0, opt)
			},
			"ScatterND": func(dst tensor.Tensor) error {
				idx := tensor.Must(tensor.From(tensor.Shape{len(tt.idx), 1}, tt.idx))
				return ScatterND(dst, data, idx, upd, opt)
			},
			"general": func(dst tensor.Tensor) error {
				idx := tensor.Must(tensor.From(tensor.Shape{len(tt.idx), 1}, tt.idx))
				return generalKernels.ScatterND(dst, data, idx, upd, opt)
			},
		}
		for kernel, f := range run {
			dst := tensor.Must(tensor.New(tensor.Int8, tensor.Shape{4}))
			if err := f(dst); err != nil {
				t.Fatalf("%s %s: %v", tt.name, kernel, err)
			}
			if got := dst.Data().([]int8); !slices.Equal(got, tt.want) {
				t.Errorf("%s %s: got %v, want %v", tt.name, kernel, got, tt.want)
			}
		}
	}
}

// TestDivEveryNumberType divides 12 by 4 and then by 3 in place on every
// type Div takes, and 1 by 0 on the floats (+Inf, not an error).
func TestDivEveryNumberType(t *testing.T) {
	for _, d := range tensor.DTypes() {
		if d == tensor.Bool || d == tensor.String {
			continue
		}
		data := typed(t, d, tensor.Shape{3}, 12, 5, 7)
		upd := typed(t, d, tensor.Shape{2}, 4, 3)
		idx := tensor.Must(tensor.From(tensor.Shape{2}, []int32{0, 0}))
		if err := ScatterElements(data, data, idx, upd, 0, ScatterOptions{Reduction: Div}); err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		want := typed(t, d, tensor.Shape{3}, 1, 5, 7)
		for i := range 3 {
			if got, w := tensor.FormatElem(data.At(i)), tensor.FormatElem(want.At(i)); got != w {
				t.Errorf("%v: element %d is %s, want %s", d, i, got, w)
			}
		}
	}
	data := tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, -1}))
	upd := tensor.Must(tensor.From(tensor.Shape{2}, []float32{0, 0}))
	idx := tensor.Must(tensor.From(tensor.Shape{2}, []int64{0, 1}))
	if err := ScatterElements(data, data, idx, upd, 0, ScatterOptions{Reduction: Div}); err != nil {
		t.Fatal(err)
	}
	if got := data.Data().([]float32); !math.IsInf(float64(got[0]), 1) || !math.IsInf(float64(got[1]), -1) {
		t.Errorf("1/0, -1/0 = %v, want +Inf, -Inf", got)
	}
}

// TestDivRefusals: an integer update of 0 is ErrArgument naming its
// position, found before anything is written (even where the rules skip
// its index); bool is ErrType; ExcludeSelf is ErrArgument.
func TestDivRefusals(t *testing.T) {
	data := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{8, 9, 10, 11}))
	upd := tensor.Must(tensor.From(tensor.Shape{2, 2}, []int32{2, 2, 0, 5}))
	idx := tensor.Must(tensor.From(tensor.Shape{2, 1}, []int64{0, 7}))
	skip := ScatterOptions{Reduction: Div, Rules: IndexRules{OutOfRange: OutOfRangeSkip}}
	err := ScatterND(data, data, idx, upd, skip)
	if !errors.Is(err, ErrArgument) || !strings.Contains(err.Error(), "updates[1,0] is 0") {
		t.Errorf("zero divisor: got %v, want ErrArgument naming updates[1,0]", err)
	}
	if got := data.Data().([]int32); !slices.Equal(got, []int32{8, 9, 10, 11}) {
		t.Errorf("after a refused call data is %v, want it unchanged", got)
	}

	b := tensor.Must(tensor.From(tensor.Shape{2}, []bool{true, true}))
	bidx := tensor.Must(tensor.From(tensor.Shape{1}, []int64{0}))
	bupd := tensor.Must(tensor.From(tensor.Shape{1}, []bool{true}))
	if err := ScatterElements(b, b, bidx, bupd, 0, ScatterOptions{Reduction: Div}); !errors.Is(err, ErrType) {
		t.Errorf("bool: got %v, want ErrType", err)
	}
	f := tensor.Must(tensor.From(tensor.Shape{2}, []float64{1, 2}))
	fupd := tensor.Must(tensor.From(tensor.Shape{1}, []float64{2}))
	if err := ScatterElements(f, f, bidx, fupd, 0, ScatterOptions{Reduction: Div, ExcludeSelf: true}); !errors.Is(err, ErrArgument) {
		t.Errorf("ExcludeSelf: got %v, want ErrArgument", err)
	}
	if Div.String() != "div" {
		t.Errorf("Div.String() = %q", Div.String())
	}
}
