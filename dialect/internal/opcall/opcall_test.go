package opcall

import (
	"errors"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
)

func TestCheckDst(t *testing.T) {
	f32 := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, tensor.Shape(shape))) }
	tests := []struct {
		name  string
		dst   tensor.Tensor
		dtype tensor.DType
		shape tensor.Shape
		want  error
		msg   string
	}{
		{"fits", f32(2, 3), tensor.Float32, tensor.Shape{2, 3}, nil, ""},
		{"scalar fits", f32(), tensor.Float32, tensor.Shape{}, nil, ""},
		{"empty fits", f32(0, 2), tensor.Float32, tensor.Shape{0, 2}, nil, ""},
		{"missing", tensor.Tensor{}, tensor.Float32, tensor.Shape{0}, engine.ErrArgument,
			"invalid argument: dst must be given"},
		{"wrong type", f32(2, 3), tensor.Float64, tensor.Shape{2, 3}, engine.ErrType,
			"unsupported element type: dst has type float32, want float64"},
		{"wrong shape", f32(3, 2), tensor.Float32, tensor.Shape{2, 3}, engine.ErrShape,
			"shape mismatch: dst has shape [3,2], want [2,3]"},
		{"wrong rank", f32(6), tensor.Float32, tensor.Shape{2, 3}, engine.ErrShape,
			"shape mismatch: dst has shape [6], want [2,3]"},
	}
	for _, tt := range tests {
		err := CheckDst(tt.dst, tt.dtype, tt.shape)
		if !errors.Is(err, tt.want) || tt.want == nil && err != nil || err != nil && err.Error() != tt.msg {
			t.Errorf("%s: got %v, want %v (%q)", tt.name, err, tt.want, tt.msg)
		}
		// CheckDstType agrees but for the shape.
		err = CheckDstType(tt.dst, tt.dtype)
		if want := tt.want; errors.Is(want, engine.ErrShape) && err != nil || !errors.Is(want, engine.ErrShape) && !errors.Is(err, want) {
			t.Errorf("%s: CheckDstType gave %v", tt.name, err)
		}
	}
}

func TestCheckIndices(t *testing.T) {
	i32or64 := dialect.Types(tensor.Int32, tensor.Int64)
	anyInt := dialect.IntegerTypes
	idx := func(d tensor.DType, shape ...int) tensor.Tensor {
		return tensor.Must(tensor.New(d, tensor.Shape(shape)))
	}
	tests := []struct {
		name    string
		indices tensor.Tensor
		input   string
		types   dialect.TypeSet
		msg     string // "" for no error
	}{
		{"int64 of int64", idx(tensor.Int64, 2), "indices", dialect.Types(tensor.Int64), ""},
		{"int32 of both", idx(tensor.Int32, 2, 1), "indices", i32or64, ""},
		{"empty int32", idx(tensor.Int32, 0), "index", i32or64, ""},
		{"uint16 of any integer", idx(tensor.Uint16), "indices", anyInt, ""},
		{"missing", tensor.Tensor{}, "index", i32or64, `invalid input: missing input "index"`},
		{"int32 of int64", idx(tensor.Int32, 2), "index", dialect.Types(tensor.Int64),
			"invalid input: index must be int64, got int32"},
		{"float of both", idx(tensor.Float32, 2), "indices", i32or64,
			"invalid input: indices must be int32 or int64, got float32"},
		{"uint8 of both", idx(tensor.Uint8, 2), "indices", i32or64,
			"invalid input: indices must be int32 or int64, got uint8"},
		{"bool of any integer", idx(tensor.Bool, 2), "indices", anyInt,
			"invalid input: indices must be of an integer type, got bool"},
		{"float of all but one integer", idx(tensor.Float64), "indices", dialect.Types(tensor.Int8, tensor.Int16,
			tensor.Int32, tensor.Int64, tensor.Uint8, tensor.Uint16, tensor.Uint32),
			"invalid input: indices must be int8 or int16 or int32 or int64 or uint8 or uint16 or uint32, got float64"},
	}
	for _, tt := range tests {
		err := CheckIndices(tt.indices, tt.input, tt.types)
		if tt.msg == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if !errors.Is(err, dialect.ErrInput) || err.Error() != tt.msg {
			t.Errorf("%s: got %v, want %q wrapping ErrInput", tt.name, err, tt.msg)
		}
	}
}

func TestCheckUpdatesShape(t *testing.T) {
	idx := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Int64, tensor.Shape(shape))) }
	upd := func(shape ...int) tensor.Tensor { return tensor.Must(tensor.New(tensor.Float32, tensor.Shape(shape))) }
	tests := []struct {
		name             string
		indices, updates tensor.Tensor
		msg              string // "" for no error
	}{
		{"equal", idx(2, 3), upd(2, 3), ""},
		{"scalars", idx(), upd(), ""},
		{"empty", idx(0, 2), upd(0, 2), ""},
		{"larger updates", idx(2, 1), upd(2, 3),
			"shape mismatch: updates has shape [2,3], indices has shape [2,1]; they must be equal"},
		{"smaller updates", idx(2, 3), upd(2),
			"shape mismatch: updates has shape [2], indices has shape [2,3]; they must be equal"},
		{"same size, other shape", idx(2, 3), upd(3, 2),
			"shape mismatch: updates has shape [3,2], indices has shape [2,3]; they must be equal"},
	}
	for _, tt := range tests {
		err := CheckUpdatesShape(tt.indices, tt.updates)
		if tt.msg == "" && err != nil || tt.msg != "" && (!errors.Is(err, engine.ErrShape) || err.Error() != tt.msg) {
			t.Errorf("%s: got %v, want %q", tt.name, err, tt.msg)
		}
	}
}

// TestShapeOfExtremes refuses a uint64 shape whose value does not fit an
// int, as IntsOf does.
func TestShapeOfExtremes(t *testing.T) {
	if _, err := ShapeOf(tensor.Must(tensor.From(tensor.Shape{1}, []uint64{math.MaxUint64})), "shape"); !errors.Is(err, dialect.ErrInput) {
		t.Errorf("ShapeOf of a uint64 shape: %v, want ErrInput", err)
	}
}

// TestIntRange checks each integer type's range against Go's constants,
// and that the other types have none.
func TestIntRange(t *testing.T) {
	want := map[tensor.DType][2]any{
		tensor.Int8: {int64(math.MinInt8), uint64(math.MaxInt8)}, tensor.Int16: {int64(math.MinInt16), uint64(math.MaxInt16)},
		tensor.Int32: {int64(math.MinInt32), uint64(math.MaxInt32)}, tensor.Int64: {int64(math.MinInt64), uint64(math.MaxInt64)},
		tensor.Uint8: {int64(0), uint64(math.MaxUint8)}, tensor.Uint16: {int64(0), uint64(math.MaxUint16)},
		tensor.Uint32: {int64(0), uint64(math.MaxUint32)}, tensor.Uint64: {int64(0), uint64(math.MaxUint64)},
	}
	for _, d := range tensor.DTypes() {
		lo, hi, ok := IntRange(d)
		w, isInt := want[d]
		if ok != isInt || isInt && (lo != w[0] || hi != w[1]) {
			t.Errorf("%v: got %d, %d, %v; want %v", d, lo, hi, ok, w)
		}
	}
}
