package onnxpb

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
	"google.golang.org/protobuf/encoding/protowire"
)

// msg builds a serialized message field by field, in any order.
type msg []byte

func (m msg) varint(num protowire.Number, v uint64) msg {
	return protowire.AppendVarint(protowire.AppendTag(m, num, protowire.VarintType), v)
}

func (m msg) bytes(num protowire.Number, b []byte) msg {
	return protowire.AppendBytes(protowire.AppendTag(m, num, protowire.BytesType), b)
}

func (m msg) fixed32(num protowire.Number, v uint32) msg {
	return protowire.AppendFixed32(protowire.AppendTag(m, num, protowire.Fixed32Type), v)
}

func (m msg) fixed64(num protowire.Number, v uint64) msg {
	return protowire.AppendFixed64(protowire.AppendTag(m, num, protowire.Fixed64Type), v)
}

// group appends a group holding inner.
func (m msg) group(num protowire.Number, inner msg) msg {
	m = append(protowire.AppendTag(m, num, protowire.StartGroupType), inner...)
	return protowire.AppendTag(m, num, protowire.EndGroupType)
}

// packedVarints returns vs as the bytes of a packed varint field.
func packedVarints(vs ...int64) []byte {
	var b []byte
	for _, v := range vs {
		b = protowire.AppendVarint(b, uint64(v))
	}
	return b
}

// packedFloats returns vs as the bytes of a packed float field.
func packedFloats(vs ...float32) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(v))
	}
	return b
}

func le32(vs ...float32) []byte { return packedFloats(vs...) }

type oddCase struct {
	name string
	b    msg
	want tensor.Tensor
	tn   string // the tensor's name
	err  string // a substring of the error, when there is one instead
}

// oddOrderCases are messages whose fields come in an order, repetition,
// packing or wire type that ONNX's own writers never produce but that
// protobuf allows.
func oddOrderCases() []oddCase {
	f32 := int64(tensor.Float32)
	many := make([]int16, 300) // multi-byte varints across a file source's chunks
	manyVals := make([]int64, len(many))
	for i := range many {
		many[i] = int16(-1000 * (i%7 + 1))
		manyVals[i] = int64(many[i])
	}
	return []oddCase{
		{"raw_data before dims and data_type",
			msg{}.bytes(fieldRawData, le32(1, 2)).varint(fieldDims, 2).varint(fieldDataType, uint64(f32)),
			must(tensor.From(tensor.Shape{2}, []float32{1, 2})), "", ""},
		{"the last data_type wins",
			msg{}.varint(fieldDataType, uint64(tensor.Int8)).varint(fieldDims, 4).bytes(fieldRawData, le32(1)).varint(fieldDataType, uint64(f32)),
			tensor.Tensor{}, "", "raw_data has 4 bytes, want 16 bytes for float32[4]"},
		{"the last raw_data and name win",
			msg{}.bytes(fieldName, []byte("a")).varint(fieldDims, 1).varint(fieldDataType, uint64(f32)).
				bytes(fieldRawData, le32(1, 2, 3)).bytes(fieldRawData, le32(7)).bytes(fieldName, []byte("b")),
			tensor.Must(tensor.From(tensor.Shape{1}, []float32{7})), "b", ""},
		{"packed dims, float_data packed and not, around them",
			msg{}.fixed32(4, math.Float32bits(1)).bytes(fieldDims, packedVarints(2, 2)).
				bytes(4, packedFloats(2, 3)).varint(fieldDataType, uint64(f32)).fixed32(4, math.Float32bits(4)),
			must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4})), "", ""},
		{"unknown fields of every wire type, nested groups",
			msg{}.varint(99, 1).fixed64(98, 2).group(97, msg{}.varint(1, 5).group(2, msg{}.bytes(3, []byte("x")))).
				varint(fieldDims, 1).fixed32(96, 3).varint(fieldDataType, uint64(tensor.Int64)).varint(7, math.MaxUint64).bytes(95, []byte("junk")),
			tensor.Must(tensor.From(tensor.Shape{1}, []int64{-1})), "", ""},
		{"known fields of another wire type are unknown fields",
			msg{}.varint(fieldDataType, uint64(tensor.Float64)).fixed32(fieldDataType, 1).bytes(fieldDataType, []byte{1}).
				fixed64(fieldDims, 3).varint(fieldName, 1).fixed64(10, math.Float64bits(2.5)).varint(10, 1).group(fieldSegment, nil),
			tensor.Scalar(2.5), "", ""},
		{"string_data between the other fields",
			msg{}.bytes(6, []byte("x")).varint(fieldDims, 3).bytes(6, nil).varint(fieldDataType, uint64(tensor.String)).bytes(6, []byte("zz")),
			must(tensor.From(tensor.Shape{3}, []string{"x", "", "zz"})), "", ""},
		{"many multi-byte int32_data varints, packed",
			msg{}.varint(fieldDataType, uint64(tensor.Int16)).varint(fieldDims, uint64(len(many))).bytes(5, packedVarints(manyVals...)),
			must(tensor.From(tensor.Shape{len(many)}, many)), "", ""},
		{"complex64 pairs split between fields",
			msg{}.varint(fieldDims, 2).fixed32(4, math.Float32bits(1)).bytes(4, packedFloats(2, 3)).
				varint(fieldDataType, uint64(tensor.Complex64)).fixed32(4, math.Float32bits(-4)),
			must(tensor.From(tensor.Shape{2}, []complex64{complex(1, 2), complex(3, -4)})), "", ""},
		{"data_location DEFAULT after EXTERNAL",
			msg{}.varint(fieldDataLocation, 1).varint(fieldDims, 1).varint(fieldDataType, uint64(tensor.Uint8)).
				bytes(fieldRawData, []byte{9}).varint(fieldDataLocation, 0),
			tensor.Must(tensor.From(tensor.Shape{1}, []uint8{9})), "", ""},
		{"the last data_location wins, unknown as it may be",
			msg{}.varint(fieldDataLocation, 1).varint(fieldDataLocation, 48).varint(fieldDataType, uint64(tensor.Uint8)),
			tensor.Tensor{}, "", "has an unknown data_location"},
		{"data_location as an int32",
			msg{}.varint(fieldDataLocation, 1<<32+1).varint(fieldDataType, uint64(tensor.Uint8)),
			tensor.Tensor{}, "", "uses external data"},
		{"a data_location of another wire type",
			msg{}.bytes(fieldDataLocation, nil).varint(fieldDataType, uint64(tensor.Uint8)),
			tensor.Tensor{}, "", "has an unknown data_location"},
		{"a well-formed segment",
			msg{}.bytes(fieldSegment, msg{}.varint(1, 0).group(5, nil)).varint(fieldDataType, uint64(tensor.Uint8)),
			tensor.Tensor{}, "", "is a segment of a larger tensor"},
		{"a malformed segment",
			msg{}.bytes(fieldSegment, []byte{0x80}).varint(fieldDataType, uint64(tensor.Uint8)),
			tensor.Tensor{}, "", "malformed protobuf"},
		{"a field number out of range",
			msg{}.varint(fieldDataType, uint64(tensor.Uint8)).varint(protowire.MaxValidNumber+1, 0),
			tensor.Tensor{}, "", "malformed protobuf"},
	}
}

// oddOrderMessages returns the messages of oddOrderCases, as fuzz seeds.
func oddOrderMessages() [][]byte {
	var out [][]byte
	for _, c := range oddOrderCases() {
		out = append(out, c.b)
	}
	return out
}

func TestDecodeAnyFieldOrder(t *testing.T) {
	for _, c := range oddOrderCases() {
		t.Run(c.name, func(t *testing.T) {
			got, name, err := DecodeTensor(c.b)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("got %v, %v; want an error saying %q", got, err, c.err)
				}
			} else if err != nil || name != c.tn || !tensor.Equal(got, c.want) {
				t.Fatalf("got %q %v, %v; want %q %v", name, got, err, c.tn, c.want)
			}
			checkSources(t, c.b, got, name, err)
			checkAgainstProtobuf(t, c.b, got, name, err)
		})
	}
}

// hostileFile is a file of which the decoder may read only the bytes the
// test wrote: its holes stand for elements, strings or a name too large
// to be read. Reading from a hole counts the bytes read there (the
// buffered read ahead of a cursor may touch the first of them).
type hostileFile struct {
	pieces []hostilePiece
	size   int64
	inHole int64
}

type hostilePiece struct {
	off  int64
	data []byte // nil for a hole
	n    int64
}

// add appends b, or a hole of n bytes when b is nil.
func (h *hostileFile) add(b []byte, n int64) {
	if b != nil {
		n = int64(len(b))
	}
	h.pieces = append(h.pieces, hostilePiece{off: h.size, data: b, n: n})
	h.size += n
}

func (h *hostileFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= h.size {
		return 0, io.EOF
	}
	n := int(min(int64(len(p)), h.size-off))
	clear(p[:n])
	for _, pc := range h.pieces {
		lo, hi := max(off, pc.off), min(off+int64(n), pc.off+pc.n)
		if lo >= hi {
			continue
		}
		if pc.data == nil {
			h.inHole += hi - lo
		} else {
			copy(p[lo-off:hi-off], pc.data[lo-pc.off:])
		}
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// TestRefusedBeforeReading checks that a message whose tensor, strings or
// name would take more than the limit, or whose elements do not match its
// dims, is refused without its elements being read, whatever the order of
// its fields.
func TestRefusedBeforeReading(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	const huge = 1 << 30
	tag := func(num protowire.Number, n int64) []byte {
		return protowire.AppendVarint(protowire.AppendTag(nil, num, protowire.BytesType), uint64(n))
	}
	f32, str := uint64(tensor.Float32), uint64(tensor.String)
	cases := []struct {
		name  string
		parts []any // a msg, or the size of a hole
		big   bool  // ErrTooLarge, rather than another ErrFormat error
		want  string
	}{
		{"raw_data after dims", []any{msg{}.varint(fieldDims, huge/4).varint(fieldDataType, f32), tag(fieldRawData, huge), int64(huge)},
			true, "float32[268435456] takes 1073741824 bytes, over the limit of 1048576 bytes"},
		{"raw_data before dims", []any{tag(fieldRawData, huge), int64(huge), msg{}.varint(fieldDims, huge/4).varint(fieldDataType, f32)},
			true, "float32[268435456] takes 1073741824 bytes"},
		{"raw_data unlike dims", []any{msg{}.varint(fieldDims, 1).varint(fieldDataType, f32), tag(fieldRawData, huge), int64(huge)},
			false, "raw_data has 1073741824 bytes, want 4 bytes for float32[1]"},
		{"float_data unlike dims", []any{tag(4, huge), int64(huge), msg{}.varint(fieldDims, 1).varint(fieldDataType, f32)},
			false, "float_data has 268435456 values, want 1 for float32[1]"},
		{"string contents", []any{msg{}.varint(fieldDims, 2).varint(fieldDataType, str), tag(6, 600<<10), int64(600 << 10), tag(6, 600<<10), int64(600 << 10)},
			true, "string[2] takes 1228832 bytes (1228800 of contents), over the limit of 1048576 bytes"},
		{"name", []any{tag(fieldName, huge), int64(huge), msg{}.varint(fieldDataType, f32)},
			true, "the tensor's name takes 1073741824 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h, holes := &hostileFile{}, int64(0)
			for _, p := range c.parts {
				switch p := p.(type) {
				case msg:
					h.add(p, 0)
				case []byte:
					h.add(p, 0)
				case int64:
					h.add(nil, p)
					holes++
				}
			}
			_, _, err := decodeTensor(fileSource(h, h.size), "")
			if !errors.Is(err, ErrFormat) || errors.Is(err, tensor.ErrTooLarge) != c.big || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want ErrFormat (ErrTooLarge: %v) saying %q", err, c.big, c.want)
			}
			if h.inHole > holes*bufSize {
				t.Errorf("read %d bytes of the elements, more than a cursor's read ahead of %d into each of %d", h.inHole, bufSize, holes)
			}
		})
	}
}

// allocated returns the bytes that f allocates on the heap.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestReadTensorFileMemory checks that writing a .pb file costs little
// memory besides the tensor's, that reading one costs the tensor's memory
// and little more (not the file's bytes as well), and that
// a sparse file whose header asks for more than the limit is refused for
// next to nothing.
func TestReadTensorFileMemory(t *testing.T) {
	dir := t.TempDir()
	const n = 1 << 20 // float32 elements: 4 MiB
	x := must(tensor.New(tensor.Float32, tensor.Shape{n}))
	for i, v := 0, x.Data().([]float32); i < n; i++ {
		v[i] = float32(i)
	}
	path := filepath.Join(dir, "x.pb")
	var err error
	bytes := allocated(func() { err = WriteTensorFile(path, x, "x") })
	if err != nil {
		t.Fatal(err)
	}
	if limit := uint64(2 * bufSize); bytes > limit {
		t.Errorf("writing a 4 MiB tensor allocated %d bytes, more than %d", bytes, limit)
	}
	var got tensor.Tensor
	bytes = allocated(func() { got, _, err = ReadTensorFile(path) })
	if err != nil || !tensor.Equal(got, x) {
		t.Fatalf("read back %v, %v", got, err)
	}
	if limit := uint64(4*n + 2*bufSize); bytes > limit {
		t.Errorf("reading a 4 MiB tensor allocated %d bytes, more than %d", bytes, limit)
	}

	sparse := filepath.Join(dir, "sparse.pb")
	f, err := os.Create(sparse)
	if err != nil {
		t.Fatal(err)
	}
	const size = 3 << 30
	head := msg{}.varint(fieldDims, size/4).varint(fieldDataType, uint64(tensor.Float32))
	head = protowire.AppendVarint(protowire.AppendTag(head, fieldRawData, protowire.BytesType), size)
	if _, err := f.Write(head); err == nil {
		err = f.Truncate(int64(len(head)) + size)
	}
	if cerr := f.Close(); err != nil || cerr != nil {
		t.Skipf("cannot make a 3 GB sparse file here: %v %v", err, cerr)
	}
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 20))
	bytes = allocated(func() { _, _, err = ReadTensorFile(sparse) })
	if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), sparse) {
		t.Errorf("3 GB file under a 1 MiB limit: error %v, want ErrTooLarge naming the file", err)
	}
	if bytes > 4*bufSize {
		t.Errorf("refusing a 3 GB file allocated %d bytes", bytes)
	}
	// A model file is read whole, so its size is held to the limit first.
	model := filepath.Join(dir, "sparse.onnx")
	if err := os.WriteFile(model, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(model, size); err != nil {
		t.Skipf("cannot make a 3 GB sparse file here: %v", err)
	}
	bytes = allocated(func() { _, err = ReadModelFile(model) })
	if !errors.Is(err, tensor.ErrTooLarge) || !strings.Contains(err.Error(), model) {
		t.Errorf("3 GB model under a 1 MiB limit: error %v, want ErrTooLarge naming the file", err)
	}
	if bytes > 4*bufSize {
		t.Errorf("refusing a 3 GB model allocated %d bytes", bytes)
	}
}

// TestReadTensorFileNotRegular checks that a .pb that is not a regular
// file, which might never end, is refused before it is read.
func TestReadTensorFileNotRegular(t *testing.T) {
	dir := t.TempDir()
	kinds := map[string]string{dir: "a directory"}
	if _, err := os.Stat("/dev/zero"); err == nil {
		link := filepath.Join(dir, "zero.pb")
		if err := os.Symlink("/dev/zero", link); err == nil {
			kinds[link] = "a device"
		}
	}
	for p, kind := range kinds {
		_, _, err := ReadTensorFile(p)
		if !errors.Is(err, ErrNotRegular) || errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), p+": not a regular file but "+kind) {
			t.Errorf("ReadTensorFile(%s): %v, want ErrNotRegular naming it as %s", p, err, kind)
		}
		if _, err := ReadModelFile(p); !errors.Is(err, ErrNotRegular) {
			t.Errorf("ReadModelFile(%s): %v, want ErrNotRegular", p, err)
		}
	}
}
