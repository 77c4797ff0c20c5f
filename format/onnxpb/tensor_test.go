package onnxpb

import (
	"bytes"
	"errors"
	"math"
	"math/bits"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/format/onnxpb/internal/pb"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

func must(t tensor.Tensor, err error) tensor.Tensor { return tensor.Must(t, err) }

func f16(f float32) float16.Float16    { return float16.Fromfloat32(f) }
func bf16(f float32) bfloat16.BFloat16 { return bfloat16.FromFloat32(f) }

var (
	nan32    = math.Float32frombits(0x7fc00001) // a NaN with a payload
	negZero  = float32(math.Copysign(0, -1))
	nan64    = math.Float64frombits(0x7ff8000000000123)
	negZero6 = math.Copysign(0, -1)
)

// roundTripCases has tensors of every element type, including scalars,
// zero-sized dimensions and special values.
func roundTripCases() []struct {
	name string
	t    tensor.Tensor
} {
	return []struct {
		name string
		t    tensor.Tensor
	}{
		{"float32", must(tensor.From(tensor.Shape{2, 3}, []float32{1, -2.5, nan32, negZero, float32(math.Inf(1)), math.MaxFloat32}))},
		{"float32 scalar", tensor.Scalar(float32(3.25))},
		{"float32 empty", must(tensor.From(tensor.Shape{0}, []float32{}))},
		{"float32 zero dim", must(tensor.From(tensor.Shape{2, 0, 3}, []float32{}))},
		{"float64", must(tensor.From(tensor.Shape{4}, []float64{1e300, nan64, negZero6, math.SmallestNonzeroFloat64}))},
		{"float64 scalar", tensor.Scalar(-7.0)},
		{"float16", must(tensor.From(tensor.Shape{2, 2}, []float16.Float16{f16(1), f16(-0.5), float16.Frombits(0x7e01), float16.Frombits(0x8000)}))},
		{"float16 scalar", tensor.Scalar(f16(65504))},
		{"bfloat16", must(tensor.From(tensor.Shape{3}, []bfloat16.BFloat16{bf16(1), bf16(-3e38), bfloat16.FromBits(0x7fc1)}))},
		{"bfloat16 empty", must(tensor.From(tensor.Shape{0, 5}, []bfloat16.BFloat16{}))},
		{"int8", must(tensor.From(tensor.Shape{4}, []int8{-128, -1, 0, 127}))},
		{"int16", must(tensor.From(tensor.Shape{2, 2}, []int16{math.MinInt16, -1, 0, math.MaxInt16}))},
		{"int32", must(tensor.From(tensor.Shape{1, 3}, []int32{math.MinInt32, 0, math.MaxInt32}))},
		{"int32 scalar", tensor.Scalar(int32(-5))},
		{"int64", must(tensor.From(tensor.Shape{3}, []int64{math.MinInt64, 42, math.MaxInt64}))},
		{"int64 empty", must(tensor.From(tensor.Shape{3, 0}, []int64{}))},
		{"uint8", must(tensor.From(tensor.Shape{3}, []uint8{0, 128, 255}))},
		{"uint16", must(tensor.From(tensor.Shape{2}, []uint16{0, math.MaxUint16}))},
		{"uint32", must(tensor.From(tensor.Shape{2}, []uint32{1, math.MaxUint32}))},
		{"uint64", must(tensor.From(tensor.Shape{2}, []uint64{1, math.MaxUint64}))},
		{"bool", must(tensor.From(tensor.Shape{2, 2}, []bool{true, false, false, true}))},
		{"bool scalar", tensor.Scalar(true)},
		{"complex64", must(tensor.From(tensor.Shape{2}, []complex64{complex(1, -2), complex(nan32, negZero)}))},
		{"complex64 scalar", tensor.Scalar(complex64(complex(0.5, 0.25)))},
		{"complex128", must(tensor.From(tensor.Shape{1, 2}, []complex128{complex(1e-300, 3), complex(negZero6, nan64)}))},
		{"string", must(tensor.From(tensor.Shape{2, 2}, []string{"", "héllo", "\xff\x00bytes", "a"}))},
		{"string scalar", tensor.Scalar("only")},
		{"string empty", must(tensor.From(tensor.Shape{0}, []string{}))},
		{"rank 64", must(tensor.New(tensor.Float32, make(tensor.Shape, 64)))},
	}
}

func TestRoundTripEveryDType(t *testing.T) {
	covered := map[tensor.DType]bool{}
	for _, c := range roundTripCases() {
		t.Run(c.name, func(t *testing.T) {
			covered[c.t.DType()] = true
			for _, name := range []string{"", "x", "name with \xff bytes"} {
				b, err := EncodeTensor(c.t, name)
				if err != nil {
					t.Fatalf("EncodeTensor: %v", err)
				}
				got, gotName, err := DecodeTensor(b)
				if err != nil {
					t.Fatalf("DecodeTensor: %v", err)
				}
				if gotName != name {
					t.Errorf("name = %q, want %q", gotName, name)
				}
				if !tensor.Equal(got, c.t) {
					t.Errorf("got %v, want %v", got, c.t)
				}
			}
		})
	}
	for _, d := range tensor.DTypes() {
		if !covered[d] {
			t.Errorf("no round-trip case for %v", d)
		}
	}
}

// TestEncodeUsesRawData checks the field layout EncodeTensor writes.
func TestEncodeUsesRawData(t *testing.T) {
	for _, c := range roundTripCases() {
		b, err := EncodeTensor(c.t, "n")
		if err != nil {
			t.Fatal(err)
		}
		var p pb.TensorProto
		if err := proto.Unmarshal(b, &p); err != nil {
			t.Fatal(err)
		}
		if p.GetDataType() != int32(c.t.DType()) {
			t.Errorf("%s: data_type = %d", c.name, p.GetDataType())
		}
		if len(p.Dims) != c.t.Rank() {
			t.Errorf("%s: %d dims, want %d", c.name, len(p.Dims), c.t.Rank())
		}
		typed := len(p.FloatData) + len(p.Int32Data) + len(p.Int64Data) + len(p.DoubleData) + len(p.Uint64Data)
		if typed != 0 {
			t.Errorf("%s: typed fields used", c.name)
		}
		if c.t.DType() == tensor.String {
			if p.RawData != nil || len(p.StringData) != c.t.Len() {
				t.Errorf("%s: strings not in string_data", c.name)
			}
		} else if p.RawData == nil || len(p.RawData) != c.t.Len()*c.t.DType().Size() {
			t.Errorf("%s: raw_data has %d bytes", c.name, len(p.RawData))
		}
	}
	// The bytes are protobuf's own for the message.
	for _, c := range roundTripCases() {
		for _, name := range []string{"", "n"} {
			b, err := EncodeTensor(c.t, name)
			if err != nil {
				t.Fatal(err)
			}
			var p pb.TensorProto
			if err := proto.Unmarshal(b, &p); err != nil {
				t.Fatal(err)
			}
			if canon := marshal(t, &p); !bytes.Equal(b, canon) {
				t.Errorf("%s named %q: encoded\n% x\nprotobuf writes\n% x", c.name, name, b, canon)
			}
		}
	}
	// Little-endian layout.
	b, _ := EncodeTensor(must(tensor.From(tensor.Shape{2}, []int16{1, -2})), "")
	var p pb.TensorProto
	_ = proto.Unmarshal(b, &p)
	if !bytes.Equal(p.RawData, []byte{1, 0, 0xfe, 0xff}) {
		t.Errorf("raw_data = % x", p.RawData)
	}
}

// wideInt32Tensor returns a TensorProto named name of one element of type d
// whose int32_data, packed or not, holds 2^32+5.
func wideInt32Tensor(name string, d tensor.DType, packed bool) []byte {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 1)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(d))
	if packed {
		b = protowire.AppendTag(b, 5, protowire.BytesType)
		b = protowire.AppendBytes(b, protowire.AppendVarint(nil, 1<<32+5))
	} else {
		b = protowire.AppendTag(b, 5, protowire.VarintType)
		b = protowire.AppendVarint(b, 1<<32+5)
	}
	b = protowire.AppendTag(b, 8, protowire.BytesType)
	return protowire.AppendString(b, name)
}

func marshal(t *testing.T, p proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dims(d ...int64) []int64 { return d }

func TestDecodeTypedFields(t *testing.T) {
	dt := func(d tensor.DType) *int32 { return proto.Int32(int32(d)) }
	cases := []struct {
		name string
		p    *pb.TensorProto
		want tensor.Tensor
	}{
		{"float32", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Float32), FloatData: []float32{1.5, nan32}},
			must(tensor.From(tensor.Shape{2}, []float32{1.5, nan32}))},
		{"complex64", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Complex64), FloatData: []float32{1, 2, 3, -4}},
			must(tensor.From(tensor.Shape{2}, []complex64{complex(1, 2), complex(3, -4)}))},
		{"int32", &pb.TensorProto{Dims: dims(1, 2), DataType: dt(tensor.Int32), Int32Data: []int32{math.MinInt32, 7}},
			must(tensor.From(tensor.Shape{1, 2}, []int32{math.MinInt32, 7}))},
		{"int16", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Int16), Int32Data: []int32{-32768, 32767}},
			must(tensor.From(tensor.Shape{2}, []int16{-32768, 32767}))},
		{"int8", &pb.TensorProto{Dims: dims(3), DataType: dt(tensor.Int8), Int32Data: []int32{-128, 0, 127}},
			must(tensor.From(tensor.Shape{3}, []int8{-128, 0, 127}))},
		{"uint16", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Uint16), Int32Data: []int32{0, 65535}},
			must(tensor.From(tensor.Shape{2}, []uint16{0, 65535}))},
		{"uint8", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Uint8), Int32Data: []int32{0, 255}},
			must(tensor.From(tensor.Shape{2}, []uint8{0, 255}))},
		{"bool", &pb.TensorProto{Dims: dims(3), DataType: dt(tensor.Bool), Int32Data: []int32{1, 0, 1}},
			must(tensor.From(tensor.Shape{3}, []bool{true, false, true}))},
		{"float16", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Float16), Int32Data: []int32{0x3c00, 0xfc00}},
			must(tensor.From(tensor.Shape{2}, []float16.Float16{f16(1), float16.Inf(-1)}))},
		{"bfloat16", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.BFloat16), Int32Data: []int32{0x3f80, 0xc000}},
			must(tensor.From(tensor.Shape{2}, []bfloat16.BFloat16{bf16(1), bf16(-2)}))},
		{"int64", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Int64), Int64Data: []int64{math.MinInt64, math.MaxInt64}},
			must(tensor.From(tensor.Shape{2}, []int64{math.MinInt64, math.MaxInt64}))},
		{"float64", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Float64), DoubleData: []float64{nan64, -1}},
			must(tensor.From(tensor.Shape{2}, []float64{nan64, -1}))},
		{"complex128", &pb.TensorProto{Dims: dims(), DataType: dt(tensor.Complex128), DoubleData: []float64{5, negZero6}},
			tensor.Scalar(complex(5, negZero6))},
		{"uint32", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Uint32), Uint64Data: []uint64{0, math.MaxUint32}},
			must(tensor.From(tensor.Shape{2}, []uint32{0, math.MaxUint32}))},
		{"uint64", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.Uint64), Uint64Data: []uint64{0, math.MaxUint64}},
			must(tensor.From(tensor.Shape{2}, []uint64{0, math.MaxUint64}))},
		{"string", &pb.TensorProto{Dims: dims(2), DataType: dt(tensor.String), StringData: [][]byte{[]byte("ab"), {}}},
			must(tensor.From(tensor.Shape{2}, []string{"ab", ""}))},
		{"empty without data", &pb.TensorProto{Dims: dims(0, 3), DataType: dt(tensor.Float64)},
			must(tensor.From(tensor.Shape{0, 3}, []float64{}))},
		{"empty string without data", &pb.TensorProto{Dims: dims(0), DataType: dt(tensor.String)},
			must(tensor.From(tensor.Shape{0}, []string{}))},
		{"empty raw_data", &pb.TensorProto{Dims: dims(0), DataType: dt(tensor.Int8), RawData: []byte{}},
			must(tensor.From(tensor.Shape{0}, []int8{}))},
		{"dims not packed, data packed", &pb.TensorProto{Dims: dims(1, 1, 1), DataType: dt(tensor.Int64), Int64Data: []int64{9}},
			must(tensor.From(tensor.Shape{1, 1, 1}, []int64{9}))},
		{"doc_string ignored", &pb.TensorProto{Dims: dims(1), DataType: dt(tensor.Uint8), RawData: []byte{3}, DocString: proto.String("doc")},
			must(tensor.From(tensor.Shape{1}, []uint8{3}))},
		{"data_location DEFAULT", &pb.TensorProto{Dims: dims(1), DataType: dt(tensor.Uint8), RawData: []byte{3}, DataLocation: pb.TensorProto_DEFAULT.Enum()},
			must(tensor.From(tensor.Shape{1}, []uint8{3}))},
	}
	covered := map[tensor.DType]bool{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			covered[c.want.DType()] = true
			c.p.Name = proto.String("t_" + c.name)
			got, name, err := DecodeTensor(marshal(t, c.p))
			if err != nil {
				t.Fatalf("DecodeTensor: %v", err)
			}
			if name != "t_"+c.name {
				t.Errorf("name = %q", name)
			}
			if !tensor.Equal(got, c.want) {
				t.Errorf("got %v, want %v", got, c.want)
			}
		})
	}
	for _, d := range tensor.DTypes() {
		if !covered[d] {
			t.Errorf("no typed-field case for %v", d)
		}
	}
}

// TestRawDataLayout decodes and encodes hand-written little-endian
// raw_data, with complex elements as real then imaginary part.
func TestRawDataLayout(t *testing.T) {
	cases := []struct {
		raw  string
		want tensor.Tensor
	}{
		{"\x01\x00\x01", must(tensor.From(tensor.Shape{3}, []bool{true, false, true}))},
		{"\xfe\x7f", must(tensor.From(tensor.Shape{2}, []int8{-2, 127}))},
		{"\x00\x3c\x00\xfc", must(tensor.From(tensor.Shape{2}, []float16.Float16{f16(1), float16.Inf(-1)}))},
		{"\x80\x3f\x00\xc0", must(tensor.From(tensor.Shape{2}, []bfloat16.BFloat16{bf16(1), bf16(-2)}))},
		{"\x04\x03\x02\x01", tensor.Scalar(int32(0x01020304))},
		{"\xff\xff\xff\xff", tensor.Scalar(uint32(math.MaxUint32))},
		{"\x00\x00\xc0\x3f", tensor.Scalar(float32(1.5))},
		{"\x08\x07\x06\x05\x04\x03\x02\x01", tensor.Scalar(int64(0x0102030405060708))},
		{"\x00\x00\x00\x00\x00\x00\xf8\x3f", tensor.Scalar(1.5)},
		{"\x00\x00\xc0\x3f\x00\x00\x00\xc0", tensor.Scalar(complex64(complex(1.5, -2)))},
		{"\x00\x00\x00\x00\x00\x00\xf8\x3f\x00\x00\x00\x00\x00\x00\x00\x40",
			tensor.Scalar(complex(1.5, 2))},
	}
	for _, c := range cases {
		d := c.want.DType()
		shape := c.want.Shape()
		p := &pb.TensorProto{Dims: make([]int64, len(shape)), DataType: proto.Int32(int32(d)), RawData: []byte(c.raw)}
		for i, n := range shape {
			p.Dims[i] = int64(n)
		}
		got, _, err := DecodeTensor(marshal(t, p))
		if err != nil {
			t.Errorf("%v: %v", d, err)
		} else if !tensor.Equal(got, c.want) {
			t.Errorf("%v: decoded %v, want %v", d, got, c.want)
		}
		b, err := EncodeTensor(c.want, "")
		if err != nil {
			t.Fatal(err)
		}
		var q pb.TensorProto
		if err := proto.Unmarshal(b, &q); err != nil {
			t.Fatal(err)
		}
		if string(q.RawData) != c.raw {
			t.Errorf("%v: encoded raw_data % x, want % x", d, q.RawData, c.raw)
		}
	}
}

// TestDecodeUnpackedRepeated checks that typed fields written unpacked (one
// tag per value, as some writers do) decode too.
func TestDecodeUnpackedRepeated(t *testing.T) {
	var b []byte
	b = protowire.AppendTag(b, 1, protowire.VarintType)
	b = protowire.AppendVarint(b, 2)
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(tensor.Int16))
	for _, v := range []int32{-3, 4} {
		b = protowire.AppendTag(b, 5, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(int64(v)))
	}
	got, _, err := DecodeTensor(b)
	if err != nil {
		t.Fatal(err)
	}
	if want := must(tensor.From(tensor.Shape{2}, []int16{-3, 4})); !tensor.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

func TestDecodeTensorErrors(t *testing.T) {
	// A complex128 tensor of 2^64 bytes, or 2^32 where int has 32 bits.
	hugeComplex := "too large: complex128[1152921504606846976] takes more than 2^63 bytes"
	if bits.UintSize == 32 {
		hugeComplex = "too large: complex128[268435456] takes 4294967296 bytes, more than a 32-bit int counts"
	}
	dt := func(d tensor.DType) *int32 { return proto.Int32(int32(d)) }
	name := proto.String("bad")
	withUnknown := func(p *pb.TensorProto, num protowire.Number, v uint64) []byte {
		b := marshal(t, p)
		b = protowire.AppendTag(b, num, protowire.VarintType)
		return protowire.AppendVarint(b, v)
	}
	cases := []struct {
		name string
		b    []byte
		want string // a substring of the message
	}{
		{"malformed", []byte{0xff, 0xff, 0xff}, "malformed protobuf"},
		{"truncated", marshal(t, &pb.TensorProto{Name: name, RawData: []byte{1, 2, 3}})[:7], "malformed protobuf"},
		{"external location",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Float32), DataLocation: pb.TensorProto_EXTERNAL.Enum()}),
			`onnxpb: tensor "bad" uses external data, which is not supported`},
		{"external entries",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Float32),
				ExternalData: []*pb.StringStringEntryProto{{Key: proto.String("location"), Value: proto.String("w.bin")}}}),
			`onnxpb: tensor "bad" uses external data, which is not supported`},
		{"unknown data_location",
			withUnknown(&pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Uint8), RawData: []byte{1}}, 14, 7),
			"unknown data_location"},
		{"segment",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Uint8), RawData: []byte{1},
				Segment: &pb.TensorProto_Segment{Begin: proto.Int64(0), End: proto.Int64(1)}}),
			"segment"},
		{"data_type missing", marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), RawData: []byte{1}}), "unsupported data_type 0"},
		{"data_type float8", marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: proto.Int32(17), RawData: []byte{1}}), "unsupported data_type 17"},
		{"data_type negative", marshal(t, &pb.TensorProto{Name: name, DataType: proto.Int32(-1)}), "unsupported data_type -1"},
		{"negative dim", marshal(t, &pb.TensorProto{Name: name, Dims: dims(2, -1), DataType: dt(tensor.Float32)}), "dimension 1 is negative (-1)"},
		{"count overflow", marshal(t, &pb.TensorProto{Name: name, Dims: dims(1<<(bits.UintSize/2), 1<<(bits.UintSize/2)), DataType: dt(tensor.Float32)}), "overflows"},
		{"rank 65", marshal(t, &pb.TensorProto{Name: name, Dims: make([]int64, 65), DataType: dt(tensor.Float32)}), "65 dimensions"},
		{"float_data short",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2, 3), DataType: dt(tensor.Float32), FloatData: make([]float32, 5)}),
			"float_data has 5 values, want 6 for float32[2,3]"},
		{"float_data long",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(), DataType: dt(tensor.Float32), FloatData: make([]float32, 2)}),
			"float_data has 2 values, want 1 for float32[]"},
		{"complex64 odd",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2), DataType: dt(tensor.Complex64), FloatData: make([]float32, 3)}),
			"float_data has 3 values, want 4 for complex64[2]"},
		{"complex128 half",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2), DataType: dt(tensor.Complex128), DoubleData: make([]float64, 2)}),
			"double_data has 2 values, want 4 for complex128[2]"},
		{"int32_data missing",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(3), DataType: dt(tensor.Int32)}),
			"int32_data has 0 values, want 3 for int32[3]"},
		{"int64_data short",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(3), DataType: dt(tensor.Int64), Int64Data: []int64{1}}),
			"int64_data has 1 values, want 3"},
		{"uint64_data short",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(3), DataType: dt(tensor.Uint64), Uint64Data: []uint64{1}}),
			"uint64_data has 1 values, want 3"},
		{"string_data long",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.String), StringData: [][]byte{{}, {}}}),
			"string_data has 2 values, want 1 for string[1]"},
		{"raw_data short",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2, 3), DataType: dt(tensor.Float32), RawData: make([]byte, 20)}),
			"raw_data has 20 bytes, want 24 bytes for float32[2,3]"},
		{"raw_data not a multiple",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Int64), RawData: make([]byte, 9)}),
			"raw_data has 9 bytes, want 8 bytes for int64[1]"},
		{"raw_data empty",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2), DataType: dt(tensor.Complex128), RawData: []byte{}}),
			"raw_data has 0 bytes, want 32 bytes for complex128[2]"},
		{"raw_data huge dims",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(math.MaxInt/8 + 1), DataType: dt(tensor.Complex128), RawData: []byte{}}),
			hugeComplex},
		{"raw bool 2",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(3), DataType: dt(tensor.Bool), RawData: []byte{0, 1, 2}}),
			"raw_data byte 2 is 2; bool elements must be 0 or 1"},
		{"raw string",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.String), RawData: []byte("a")}),
			"raw_data cannot hold string elements"},
		{"raw and typed",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Float32), RawData: make([]byte, 4), FloatData: []float32{1}}),
			"has both raw_data and float_data"},
		{"wrong typed field",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Float32), Int64Data: []int64{1}}),
			"int64_data cannot hold float32 elements (want float_data or raw_data)"},
		{"two typed fields",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Int32), Int32Data: []int32{1}, DoubleData: []float64{1}}),
			"double_data cannot hold int32 elements"},
		{"int8 300",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(2), DataType: dt(tensor.Int8), Int32Data: []int32{1, 300}}),
			"int32_data value 300 at index 1 is out of range for int8 (-128 to 127)"},
		{"int8 -129",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Int8), Int32Data: []int32{-129}}),
			"out of range for int8"},
		{"int16 40000",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Int16), Int32Data: []int32{40000}}),
			"out of range for int16"},
		{"uint8 -1",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Uint8), Int32Data: []int32{-1}}),
			"out of range for uint8 (0 to 255)"},
		{"uint16 65536",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Uint16), Int32Data: []int32{65536}}),
			"out of range for uint16"},
		{"bool 2",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Bool), Int32Data: []int32{2}}),
			"out of range for bool (0 to 1)"},
		{"float16 negative",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Float16), Int32Data: []int32{-1}}),
			"out of range for float16 (0 to 65535)"},
		{"bfloat16 65536",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.BFloat16), Int32Data: []int32{65536}}),
			"out of range for bfloat16"},
		{"uint32 too big",
			marshal(t, &pb.TensorProto{Name: name, Dims: dims(1), DataType: dt(tensor.Uint32), Uint64Data: []uint64{1 << 32}}),
			"uint64_data value 4294967296 at index 0 is out of range for uint32"},
		// Varints beyond int32, which protobuf's runtimes cut to 32 bits
		// (2^32+5 to 5), are not int32 values.
		{"int8 2^32+5", wideInt32Tensor(*name, tensor.Int8, false),
			"int32_data value 4294967301 at index 0 is out of range for int8 (-128 to 127)"},
		{"int32 2^32+5 packed", wideInt32Tensor(*name, tensor.Int32, true),
			"int32_data value 4294967301 at index 0 is out of range for int32 (-2147483648 to 2147483647)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, gotName, err := DecodeTensor(c.b)
			if err == nil {
				t.Fatalf("no error; decoded %v", got)
			}
			if !errors.Is(err, ErrFormat) {
				t.Errorf("error %v does not match ErrFormat", err)
			}
			msg := err.Error()
			if !strings.HasPrefix(msg, "onnxpb: ") || !strings.Contains(msg, c.want) {
				t.Errorf("error %q, want it to start with \"onnxpb: \" and contain %q", msg, c.want)
			}
			if !strings.Contains(c.name, "malformed") && !strings.Contains(c.name, "truncated") && !strings.Contains(msg, `tensor "bad"`) {
				t.Errorf("error %q does not name the tensor", msg)
			}
			if !got.IsZero() || gotName != "" {
				t.Errorf("returned %v, %q with the error", got, gotName)
			}
		})
	}
}

// TestErrorCause checks that an error caused by the tensor package keeps
// its cause reachable.
func TestErrorCause(t *testing.T) {
	p := &pb.TensorProto{Name: proto.String("o"), Dims: dims(1<<40, 1<<40), DataType: proto.Int32(1)}
	_, _, err := DecodeTensor(marshal(t, p))
	if !errors.Is(err, ErrFormat) || !errors.Is(err, tensor.ErrShape) {
		t.Errorf("err = %v", err)
	}
}

func TestEncodeTensorErrors(t *testing.T) {
	if _, err := EncodeTensor(tensor.Tensor{}, "z"); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), `tensor "z"`) {
		t.Errorf("zero tensor: err = %v", err)
	}
	big := must(tensor.New(tensor.Int8, make(tensor.Shape, 65)))
	if _, err := EncodeTensor(big, "r"); !errors.Is(err, ErrFormat) {
		t.Errorf("rank 65: err = %v", err)
	}
}

// TestEncodeMatchesONNXFiles checks that re-encoding a decoded node-test
// tensor gives back the file's bytes, since both write raw_data.
func TestEncodeMatchesONNXFiles(t *testing.T) {
	for _, f := range tensorFiles(t) {
		b := readFile(t, f)
		tt, name, err := DecodeTensor(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		enc, err := EncodeTensor(tt, name)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !bytes.Equal(enc, b) {
			t.Errorf("%s: re-encoded bytes differ:\n got % x\nwant % x", f, enc, b)
		}
	}
}

// TestTypedFields checks the typed-field table against the protobuf schema:
// every name is a repeated field of TensorProto with that number, whose
// values are held as the table says.
func TestTypedFields(t *testing.T) {
	fields := (&pb.TensorProto{}).ProtoReflect().Descriptor().Fields()
	for f := range numTypedFields {
		fd := fields.ByName(protoreflect.Name(f.String()))
		if fd == nil || !fd.IsList() {
			t.Errorf("%s is not a repeated field of TensorProto", f)
			continue
		}
		if fd.Number() != f.number() {
			t.Errorf("%s is field %d, the table says %d", f, fd.Number(), f.number())
		}
		if got, ok := typedFieldOf(fd.Number()); !ok || got != f {
			t.Errorf("typedFieldOf(%d) = %v, %v, want %s", fd.Number(), got, ok, f)
		}
		want := varints
		switch fd.Kind() {
		case protoreflect.FloatKind:
			want = fixed32s
		case protoreflect.DoubleKind:
			want = fixed64s
		}
		if f.encoding() != want {
			t.Errorf("%s (%v) is held as encoding %d, want %d", f, fd.Kind(), f.encoding(), want)
		}
	}
	for _, d := range tensor.DTypes() {
		if _, ok := fieldFor(d); !ok {
			t.Errorf("fieldFor(%v): no field", d)
		}
	}
}

// TestModelWideInt32Data: a model whose initializer, or a node
// attribute's tensor, holds an int32_data value beyond int32 is refused,
// where protobuf would read 2^32+5 as 5.
func TestModelWideInt32Data(t *testing.T) {
	field := func(num protowire.Number, v []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), v)
	}
	x := wideInt32Tensor("x", tensor.Int8, false)
	for what, graph := range map[string][]byte{
		"an initializer":       field(5, x),
		"an attribute's value": field(1, field(5, field(5, x))),
	} {
		_, err := DecodeModel(field(7, graph))
		if !errors.Is(err, ErrFormat) || err == nil || !strings.Contains(err.Error(), "int32_data value 4294967301 is out of range for int32") {
			t.Errorf("%s with int32_data 2^32+5: %v, want ErrFormat naming the value", what, err)
		}
	}
}
