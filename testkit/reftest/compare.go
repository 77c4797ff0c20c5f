package reftest

import (
	"fmt"
	"math"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// Diff describes the first difference between got and want, or returns ""
// when they have the same type, shape and elements. Elements compare by
// their bits, +0 and -0 differing, except that any NaN equals any NaN
// (frameworks do not agree on NaN payloads).
func Diff(got, want tensor.Tensor) string {
	if got.DType() != want.DType() || !got.Shape().Equal(want.Shape()) {
		return fmt.Sprintf("got %v%v, want %v%v", got.DType(), got.Shape(), want.DType(), want.Shape())
	}
	for i := 0; i < got.Len(); i++ {
		if g, w := got.At(i), want.At(i); !same(g, w) {
			return fmt.Sprintf("element %d (of %v) is %s, want %s\n got %v\nwant %v",
				i, want.Shape(), tensor.FormatElem(g), tensor.FormatElem(w), got, want)
		}
	}
	return ""
}

// same reports whether two elements of the same type are equal as Diff
// compares them.
func same(a, b any) bool {
	switch x := a.(type) {
	case float32:
		y := b.(float32)
		return math.Float32bits(x) == math.Float32bits(y) || x != x && y != y
	case float64:
		y := b.(float64)
		return math.Float64bits(x) == math.Float64bits(y) || x != x && y != y
	case float16.Float16:
		y := b.(float16.Float16)
		return x.Bits() == y.Bits() || x.IsNaN() && y.IsNaN()
	case bfloat16.BFloat16:
		y := b.(bfloat16.BFloat16)
		return x.Bits() == y.Bits() || x.IsNaN() && y.IsNaN()
	case complex64:
		y := b.(complex64)
		return same(real(x), real(y)) && same(imag(x), imag(y))
	case complex128:
		y := b.(complex128)
		return same(real(x), real(y)) && same(imag(x), imag(y))
	}
	return a == b
}

// Disagreement describes how an operator's outcome (got, err) differs from
// the reference's (want, wantErr), or returns "" when they agree: both
// failed with errors of the same class, as sameClass(err, wantErr) judges
// (the operator's error classes are its own; Class names the reference's),
// or both succeeded with results that Diff finds equal.
func Disagreement(got tensor.Tensor, err error, want tensor.Tensor, wantErr error, sameClass func(err, wantErr error) bool) string {
	switch {
	case err != nil && wantErr != nil:
		if !sameClass(err, wantErr) {
			return fmt.Sprintf("error %v, want an error of the class of %v", err, wantErr)
		}
		return ""
	case err != nil:
		return fmt.Sprintf("error %v, want %v", err, want)
	case wantErr != nil:
		return fmt.Sprintf("got %v, want an error like %v", got, wantErr)
	}
	return Diff(got, want)
}

// Untouched returns what is wrong with dst after a call in place that
// failed with err, which must leave dst as it was before (was), or ""
// when the call succeeded or left it so.
func Untouched(dst tensor.Tensor, err error, was tensor.Tensor) string {
	if err == nil || tensor.Equal(dst, was) {
		return ""
	}
	return fmt.Sprintf("failed (%v) and changed dst: %v, was %v", err, dst, was)
}
