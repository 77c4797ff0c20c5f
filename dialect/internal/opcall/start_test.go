package opcall

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

// TestStartValuesAndSliceShape checks the values and shapes the two
// return, and that each refusal wraps its class and names the offending
// count or value.
func TestStartValuesAndSliceShape(t *testing.T) {
	operand := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{3, 4}))
	i32 := func(v int32) tensor.Tensor { return tensor.Scalar(v) }
	starts := []struct {
		name    string
		operand tensor.Tensor
		starts  []tensor.Tensor
		want    []int64
		class   error
		msg     string
	}{
		{"two starts", operand, []tensor.Tensor{i32(1), i32(-2)}, []int64{1, -2}, nil, ""},
		{"uint64 past int64", operand, []tensor.Tensor{tensor.Scalar(^uint64(0)), tensor.Scalar(uint64(2))}, []int64{1<<63 - 1, 2}, nil, ""},
		{"no operand", tensor.Tensor{}, []tensor.Tensor{i32(1)}, nil, dialect.ErrInput, `missing input "operand"`},
		{"one start for rank 2", operand, []tensor.Tensor{i32(1)}, nil, dialect.ErrInput, "1 start indices for operand [3,4] of rank 2"},
		{"missing start", operand, []tensor.Tensor{i32(1), {}}, nil, dialect.ErrInput, "start index 1 is missing"},
		{"float start", operand, []tensor.Tensor{i32(1), tensor.Scalar(float32(1))}, nil, dialect.ErrInput, "must be an integer"},
		{"two types", operand, []tensor.Tensor{i32(1), tensor.Scalar(int64(1))}, nil, dialect.ErrInput, "one type, got int32 and int64"},
	}
	for _, c := range starts {
		got, err := StartValues(nil, c.operand, c.starts)
		switch {
		case c.class == nil && (err != nil || !slices.Equal(got, c.want)):
			t.Errorf("StartValues %s = %v, %v; want %v", c.name, got, err, c.want)
		case c.class != nil && (!errors.Is(err, c.class) || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("StartValues %s: error %v, want %v saying %q", c.name, err, c.class, c.msg)
		}
	}
	sizes := []struct {
		name    string
		operand tensor.Tensor
		sizes   []int
		want    tensor.Shape
		class   error
		msg     string
	}{
		{"whole and part", operand, []int{3, 2}, tensor.Shape{3, 2}, nil, ""},
		{"no operand", tensor.Tensor{}, []int{1}, nil, dialect.ErrInput, `missing input "operand"`},
		{"three sizes for rank 2", operand, []int{1, 1, 1}, nil, dialect.ErrAttribute, "3 slice_sizes for operand [3,4] of rank 2"},
		{"size past the dimension", operand, []int{1, 5}, nil, dialect.ErrAttribute, "slice_sizes[1] = 5 is out of range [0, 4]"},
	}
	for _, c := range sizes {
		got, err := SliceShape(c.operand, c.sizes)
		switch {
		case c.class == nil && (err != nil || !got.Equal(c.want)):
			t.Errorf("SliceShape %s = %v, %v; want %v", c.name, got, err, c.want)
		case c.class != nil && (!errors.Is(err, c.class) || !strings.Contains(err.Error(), c.msg)):
			t.Errorf("SliceShape %s: error %v, want %v saying %q", c.name, err, c.class, c.msg)
		}
	}
}

// TestNoStringsNamesTheInput: the dynamic slices of a framework without
// string tensors say which input is one.
func TestNoStringsNamesTheInput(t *testing.T) {
	f32 := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{4}))
	start := []tensor.Tensor{tensor.Must(tensor.From(tensor.Shape{}, []int64{1}))}
	str := func(n int) tensor.Tensor { return tensor.Must(tensor.New(tensor.String, tensor.Shape{n})) }
	for _, c := range []struct {
		name string
		err  error
		msg  string
	}{
		{"string update", DynamicUpdateSliceInto("jax.dus", "jax", f32, f32, str(2), start, engine.IndexRules{}),
			"jax.dus: invalid input: update is a string tensor; jax has no string tensors"},
		{"string operand", DynamicSliceInto("jax.ds", "jax", str(2), str(4), start, engine.IndexRules{}),
			"jax.ds: invalid input: operand is a string tensor; jax has no string tensors"},
	} {
		if !errors.Is(c.err, dialect.ErrInput) || c.err.Error() != c.msg {
			t.Errorf("%s: %v, want %q", c.name, c.err, c.msg)
		}
	}
}
