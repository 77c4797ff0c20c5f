package onnxpb

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/format/onnxpb/internal/pb"
	"github.com/scatter-dev/scatter/tensor"
	"google.golang.org/protobuf/proto"
)

func FuzzDecodeTensor(f *testing.F) {
	for _, path := range tensorFiles(f) {
		f.Add(readFile(f, path))
	}
	for _, c := range roundTripCases() {
		b, err := EncodeTensor(c.t, c.name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Typed fields, which the encoder never writes.
	for _, p := range []*pb.TensorProto{
		{Dims: []int64{2}, DataType: proto.Int32(int32(tensor.Float16)), Int32Data: []int32{1, 65535}},
		{Dims: []int64{1, 2}, DataType: proto.Int32(int32(tensor.Complex64)), FloatData: []float32{1, 2, 3, 4}},
		{Dims: []int64{2}, DataType: proto.Int32(int32(tensor.Uint32)), Uint64Data: []uint64{7, 8}},
		{Dims: []int64{1}, DataType: proto.Int32(int32(tensor.String)), StringData: [][]byte{[]byte("s")}},
		{Dims: []int64{3}, DataType: proto.Int32(int32(tensor.Bool)), Int32Data: []int32{0, 1, 1}},
	} {
		b, err := proto.Marshal(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	for _, b := range oddOrderMessages() {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		got, name, err := DecodeTensor(b)
		checkSources(t, b, got, name, err)
		checkAgainstProtobuf(t, b, got, name, err)
		if err != nil {
			return
		}
		enc, err := EncodeTensor(got, name)
		if err != nil {
			t.Fatalf("decoded %v but cannot encode it: %v", got, err)
		}
		again, name2, err := DecodeTensor(enc)
		if err != nil {
			t.Fatalf("cannot decode the re-encoded tensor: %v", err)
		}
		if name2 != name || !tensor.Equal(again, got) {
			t.Fatalf("round trip changed %q %v to %q %v", name, got, name2, again)
		}
	})
}

func FuzzDecodeModel(f *testing.F) {
	for _, path := range modelFiles(f) {
		f.Add(readFile(f, path))
	}
	b, err := EncodeModel(fullModel())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeModel(b)
		if err != nil {
			return
		}
		// What decodes encodes, and encoding is stable from then on.
		enc, err := EncodeModel(m)
		if err != nil {
			t.Fatalf("decoded model cannot be encoded: %v", err)
		}
		m2, err := DecodeModel(enc)
		if err != nil {
			t.Fatalf("cannot decode the re-encoded model: %v", err)
		}
		enc2, err := EncodeModel(m2)
		if err != nil {
			t.Fatalf("cannot encode the model a second time: %v", err)
		}
		if !bytes.Equal(enc, enc2) {
			t.Fatalf("encoding is not stable:\n% x\n% x", enc, enc2)
		}
	})
}

// checkSources checks that decoding b as a file, read a few bytes at a
// time, gives what DecodeTensor gave: got, name and err.
func checkSources(t *testing.T, b []byte, got tensor.Tensor, name string, err error) {
	t.Helper()
	src := fileSource(bytes.NewReader(b), int64(len(b)))
	src.chunk = 16
	got2, name2, err2 := decodeTensor(src, "")
	if (err == nil) != (err2 == nil) || err != nil && err.Error() != err2.Error() {
		t.Fatalf("from memory: %v; from a file: %v", err, err2)
	}
	if name2 != name || !tensor.Equal(got2, got) {
		t.Fatalf("from memory %q %v, from a file %q %v", name, got, name2, got2)
	}
}

// checkAgainstProtobuf checks DecodeTensor's reading of the wire format
// against protobuf's: what proto.Unmarshal rejects is malformed, and what
// it accepts decodes as its canonical re-serialization does, whatever the
// order, repetition, packing and wire types of the fields.
func checkAgainstProtobuf(t *testing.T, b []byte, got tensor.Tensor, name string, err error) {
	t.Helper()
	var m *malformedError
	var p pb.TensorProto
	if perr := proto.Unmarshal(b, &p); perr != nil {
		if err == nil || !errors.As(err, &m) {
			t.Fatalf("protobuf rejects the message (%v); DecodeTensor: %v", perr, err)
		}
		return
	}
	if errors.As(err, &m) {
		t.Fatalf("protobuf accepts the message; DecodeTensor: %v", err)
	}
	if errors.Is(err, ErrFormat) && strings.Contains(err.Error(), "int32_data value") && wide(b) {
		return // protobuf cuts such a value to 32 bits; DecodeTensor refuses it
	}
	canon, perr := proto.Marshal(&p)
	if perr != nil {
		t.Fatal(perr)
	}
	want, wantName, werr := DecodeTensor(canon)
	if (err == nil) != (werr == nil) || err != nil && err.Error() != werr.Error() {
		t.Fatalf("DecodeTensor: %v; of the canonical message: %v", err, werr)
	}
	if name != wantName || !tensor.Equal(got, want) {
		t.Fatalf("DecodeTensor: %q %v; of the canonical message: %q %v", name, got, wantName, want)
	}
}

// wide reports whether the TensorProto b has an int32_data value that is
// not an int32.
func wide(b []byte) bool {
	_, ok := wideInt32(b)
	return ok
}
