package rawbytes

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"math"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

func must(t tensor.Tensor, err error) tensor.Tensor { return tensor.Must(t, err) }

// cases has a two-element tensor of every fixed-size type and its
// little-endian bytes, written out by hand.
var cases = []struct {
	t  tensor.Tensor
	le string
}{
	{must(tensor.From(tensor.Shape{2}, []bool{true, false})), "\x01\x00"},
	{must(tensor.From(tensor.Shape{2}, []int8{-2, 127})), "\xfe\x7f"},
	{must(tensor.From(tensor.Shape{2}, []uint8{0x80, 1})), "\x80\x01"},
	{must(tensor.From(tensor.Shape{2}, []int16{0x0102, -2})), "\x02\x01\xfe\xff"},
	{must(tensor.From(tensor.Shape{2}, []uint16{0x0102, 0xff00})), "\x02\x01\x00\xff"},
	{must(tensor.From(tensor.Shape{2}, []float16.Float16{float16.Frombits(0x3c00), float16.Frombits(0x8001)})), "\x00\x3c\x01\x80"},
	{must(tensor.From(tensor.Shape{2}, []bfloat16.BFloat16{bfloat16.FromBits(0x3fc0), bfloat16.FromBits(0x7fc1)})), "\xc0\x3f\xc1\x7f"},
	{must(tensor.From(tensor.Shape{2}, []int32{0x01020304, -2})), "\x04\x03\x02\x01\xfe\xff\xff\xff"},
	{must(tensor.From(tensor.Shape{2}, []uint32{0x01020304, math.MaxUint32})), "\x04\x03\x02\x01\xff\xff\xff\xff"},
	{must(tensor.From(tensor.Shape{2}, []float32{1.5, float32(math.Copysign(0, -1))})), "\x00\x00\xc0\x3f\x00\x00\x00\x80"},
	{must(tensor.From(tensor.Shape{2}, []int64{0x0102030405060708, -2})),
		"\x08\x07\x06\x05\x04\x03\x02\x01\xfe\xff\xff\xff\xff\xff\xff\xff"},
	{must(tensor.From(tensor.Shape{2}, []uint64{0x0102030405060708, 1})),
		"\x08\x07\x06\x05\x04\x03\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00"},
	{must(tensor.From(tensor.Shape{2}, []float64{1.5, -2})),
		"\x00\x00\x00\x00\x00\x00\xf8\x3f\x00\x00\x00\x00\x00\x00\x00\xc0"},
	{must(tensor.From(tensor.Shape{2}, []complex64{complex(1.5, 2), complex(-2, 0)})),
		"\x00\x00\xc0\x3f\x00\x00\x00\x40\x00\x00\x00\xc0\x00\x00\x00\x00"},
	{must(tensor.From(tensor.Shape{2}, []complex128{complex(1.5, -2), complex(0, 2)})),
		"\x00\x00\x00\x00\x00\x00\xf8\x3f\x00\x00\x00\x00\x00\x00\x00\xc0" +
			"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x40"},
}

// TestCasesCoverEveryType keeps cases in step with tensor.DTypes.
func TestCasesCoverEveryType(t *testing.T) {
	seen := map[tensor.DType]bool{}
	for _, c := range cases {
		seen[c.t.DType()] = true
	}
	for _, d := range tensor.DTypes() {
		if d.Size() > 0 && !seen[d] {
			t.Errorf("no case for %v", d)
		}
	}
}

// reverseWords returns a copy of b with the bytes of each size-byte word
// reversed, computed independently of Swap.
func reverseWords(b []byte, size int) []byte {
	out := make([]byte, len(b))
	for i := range b {
		w, j := i/size, i%size
		out[i] = b[w*size+size-1-j]
	}
	return out
}

// withHost runs f as if the host had the given byte order.
func withHost(t *testing.T, little bool, f func()) {
	t.Helper()
	saved := littleEndianHost
	littleEndianHost = little
	defer func() { littleEndianHost = saved }()
	f()
}

func TestRoundTrip(t *testing.T) {
	if !LittleEndianHost() {
		t.Skip("the expected bytes are written for a little-endian host")
	}
	for _, c := range cases {
		d := c.t.DType()
		word := WordSize(c.t.Data())
		got := Bytes(c.t.Data())
		if len(got) != c.t.Len()*d.Size() {
			t.Errorf("%v: Bytes has %d bytes, want %d", d, len(got), c.t.Len()*d.Size())
		}

		le := make([]byte, len(got))
		ToLittleEndian(le, got, word)
		if string(le) != c.le {
			t.Errorf("%v: ToLittleEndian = % x, want % x", d, le, c.le)
		}
		back := must(tensor.New(d, c.t.Shape()))
		FromLittleEndian(Bytes(back.Data()), []byte(c.le), word)
		if !tensor.Equal(back, c.t) {
			t.Errorf("%v: FromLittleEndian gives %v, want %v", d, back, c.t)
		}

		// On a big-endian host the host-order bytes are the words reversed.
		withHost(t, false, func() {
			be := reverseWords([]byte(c.le), word)
			ToLittleEndian(le, be, word)
			if string(le) != c.le {
				t.Errorf("%v big-endian host: ToLittleEndian = % x, want % x", d, le, c.le)
			}
			host := make([]byte, len(be))
			FromLittleEndian(host, []byte(c.le), word)
			if !bytes.Equal(host, be) {
				t.Errorf("%v big-endian host: FromLittleEndian = % x, want % x", d, host, be)
			}
			// In place.
			FromLittleEndian(host, host, word)
			if string(host) != c.le {
				t.Errorf("%v big-endian host: in-place FromLittleEndian = % x, want % x", d, host, c.le)
			}
		})
	}
}

func TestWordSize(t *testing.T) {
	want := map[tensor.DType]int{
		tensor.Bool: 1, tensor.Int8: 1, tensor.Uint8: 1,
		tensor.Int16: 2, tensor.Uint16: 2, tensor.Float16: 2, tensor.BFloat16: 2,
		tensor.Int32: 4, tensor.Uint32: 4, tensor.Float32: 4,
		tensor.Int64: 8, tensor.Uint64: 8, tensor.Float64: 8,
		tensor.Complex64: 4, tensor.Complex128: 8,
		tensor.String: 0, tensor.Undefined: 0, tensor.DType(99): 0,
	}
	for d, w := range want {
		var data any
		if d.Valid() {
			data = must(tensor.New(d, tensor.Shape{1})).Data()
		}
		if got := WordSize(data); got != w {
			t.Errorf("WordSize(%v) = %d, want %d", d, got, w)
		}
	}
	for _, x := range []any{nil, 3, []*int{nil}, [2]int32{}} {
		if got := WordSize(x); got != 0 {
			t.Errorf("WordSize(%T) = %d, want 0", x, got)
		}
	}
}

func TestSwap(t *testing.T) {
	tests := []struct {
		size     int
		in, want string
	}{
		{1, "\x01\x02\x03", "\x01\x02\x03"},
		{2, "\x01\x02\x03\x04", "\x02\x01\x04\x03"},
		{4, "\x01\x02\x03\x04\x05\x06\x07\x08", "\x04\x03\x02\x01\x08\x07\x06\x05"},
		{8, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
			"\x08\x07\x06\x05\x04\x03\x02\x01\x10\x0f\x0e\x0d\x0c\x0b\x0a\x09"},
		{3, "\x01\x02\x03\x04\x05\x06", "\x03\x02\x01\x06\x05\x04"},
		{16, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10",
			"\x10\x0f\x0e\x0d\x0c\x0b\x0a\x09\x08\x07\x06\x05\x04\x03\x02\x01"},
		{4, "", ""},
	}
	for _, tt := range tests {
		b := []byte(tt.in)
		Swap(b, tt.size)
		if string(b) != tt.want {
			t.Errorf("Swap(% x, %d) = % x, want % x", tt.in, tt.size, b, tt.want)
		}
	}
	// Longer inputs against the independent reversal.
	in := make([]byte, 4096)
	for i := range in {
		in[i] = byte(i * 7)
	}
	for _, size := range []int{2, 4, 8} {
		b := bytes.Clone(in)
		Swap(b, size)
		if want := reverseWords(in, size); !bytes.Equal(b, want) {
			t.Errorf("Swap of %d bytes by %d differs from the reversal", len(in), size)
		}
	}
}

// TestComplexWords checks that complex elements swap their real and
// imaginary parts separately, as a big-endian file stores them.
func TestComplexWords(t *testing.T) {
	c64 := must(tensor.From(tensor.Shape{1}, []complex64{complex(1.5, 2)}))
	be := []byte("\x3f\xc0\x00\x00\x40\x00\x00\x00") // 1.5 then 2, each big-endian
	Swap(be, WordSize([]complex64(nil)))
	got := must(tensor.New(tensor.Complex64, tensor.Shape{1}))
	FromLittleEndian(Bytes(got.Data()), be, WordSize([]complex64(nil)))
	if !tensor.Equal(got, c64) {
		t.Errorf("complex64: got %v, want %v", got, c64)
	}

	c128 := must(tensor.From(tensor.Shape{1}, []complex128{complex(1.5, -2)}))
	be = []byte("\x3f\xf8\x00\x00\x00\x00\x00\x00\xc0\x00\x00\x00\x00\x00\x00\x00")
	Swap(be, WordSize([]complex128(nil)))
	got = must(tensor.New(tensor.Complex128, tensor.Shape{1}))
	FromLittleEndian(Bytes(got.Data()), be, WordSize([]complex128(nil)))
	if !tensor.Equal(got, c128) {
		t.Errorf("complex128: got %v, want %v", got, c128)
	}
}

func TestBytesAliases(t *testing.T) {
	if !LittleEndianHost() {
		t.Skip("the expected bytes are written for a little-endian host")
	}
	data := []int32{1, 2, 3}
	x := must(tensor.From(tensor.Shape{3}, data))
	b := Bytes(x.Data())
	b[4] = 0xff
	if data[1] != 0xff {
		t.Errorf("writing through the view: element 1 = %#x, want 0xff", data[1])
	}
	data[2] = 0x01020304
	if string(b[8:]) != "\x04\x03\x02\x01" {
		t.Errorf("view of element 2 = % x", b[8:])
	}

	f := must(tensor.New(tensor.Float64, tensor.Shape{2, 2}))
	bf := Bytes(f.Data())
	bf[len(bf)-1] = 0x80 // sign bit of the last element
	if v := f.At(3).(float64); !math.Signbit(v) || v != 0 {
		t.Errorf("float64 element 3 = %v, want -0", v)
	}

	bl := must(tensor.New(tensor.Bool, tensor.Shape{2}))
	Bytes(bl.Data())[1] = 1
	if !bl.At(1).(bool) {
		t.Errorf("bool element 1 = false after writing 1")
	}
}

func TestBytesEmpty(t *testing.T) {
	for _, x := range []tensor.Tensor{
		{},
		must(tensor.New(tensor.Float32, tensor.Shape{0})),
		must(tensor.New(tensor.Complex128, tensor.Shape{3, 0})),
		must(tensor.From(tensor.Shape{0}, []int8(nil))),
		must(tensor.From(tensor.Shape{2}, []string{"a", "b"})),
		tensor.Scalar("s"),
	} {
		if b := Bytes(x.Data()); b != nil {
			t.Errorf("Bytes(%v) = % x, want nil", x, b)
		}
	}
	for _, x := range []any{nil, []*int{new(int)}, []struct{ a int8 }{{1}}} {
		if b := Bytes(x); b != nil {
			t.Errorf("Bytes(%T) = % x, want nil", x, b)
		}
	}
	for _, x := range []any{7, tensor.Scalar(float32(1))} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Bytes(%T) did not panic", x)
				}
			}()
			Bytes(x)
		}()
	}
	if b := Bytes(tensor.Scalar(uint16(0x0102)).Data()); len(b) != 2 {
		t.Errorf("Bytes(scalar uint16) has %d bytes, want 2", len(b))
	}
}

func TestPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"Swap partial word":     func() { Swap(make([]byte, 3), 2) },
		"Swap zero size":        func() { Swap(make([]byte, 4), 0) },
		"FromLittleEndian size": func() { FromLittleEndian(make([]byte, 4), make([]byte, 4), 8) },
		"ToLittleEndian length": func() { ToLittleEndian(make([]byte, 2), make([]byte, 4), 2) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}

// TestWriteLittleEndian writes words in little-endian order from either
// host order, across more than one chunk of the swapped copy, and passes
// the writer's error on.
func TestWriteLittleEndian(t *testing.T) {
	for _, size := range []int{1, 2, 4, 8} {
		le := make([]byte, writeChunk+3*8) // more than a chunk, a multiple of every size
		for i := range le {
			le[i] = byte(i*7 + i/251)
		}
		for _, little := range []bool{true, false} {
			host := le
			if !little {
				host = reverseWords(le, size)
			}
			withHost(t, little, func() {
				var buf bytes.Buffer
				if err := WriteLittleEndian(&buf, host, size); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(buf.Bytes(), le) {
					t.Errorf("size %d, little-endian host %v: wrote other bytes", size, little)
				}
			})
		}
	}
	boom := errors.New("boom")
	withHost(t, false, func() {
		if err := WriteLittleEndian(failWriter{boom}, make([]byte, 16), 4); err != boom {
			t.Errorf("got %v, want the writer's error", err)
		}
	})
}

// TestWriteLittleEndianBuffered writes words swapped into a
// bufio.Writer's own buffer, whose free space is not a multiple of the
// word size, allocating nothing, and passes the writer's error on.
func TestWriteLittleEndianBuffered(t *testing.T) {
	for _, size := range []int{2, 4, 8} {
		le := make([]byte, 3*writeChunk+5*8)
		for i := range le {
			le[i] = byte(i*5 + i/253)
		}
		host := reverseWords(le, size)
		withHost(t, false, func() {
			var out bytes.Buffer
			bw := bufio.NewWriterSize(&out, 4096+3)
			bw.WriteString("x") // the free space starts off a word's boundary
			if err := WriteLittleEndian(bw, host, size); err != nil {
				t.Fatal(err)
			}
			if err := bw.Flush(); err != nil {
				t.Fatal(err)
			}
			if got := out.Bytes(); len(got) != len(le)+1 || !bytes.Equal(got[1:], le) {
				t.Errorf("size %d: wrote other bytes", size)
			}
			discard := bufio.NewWriterSize(io.Discard, 4096+3)
			discard.WriteString("x")
			if allocs := testing.AllocsPerRun(10, func() { WriteLittleEndian(discard, host, size) }); allocs != 0 {
				t.Errorf("size %d: %v allocations, want none", size, allocs)
			}
		})
	}
	boom := errors.New("boom")
	withHost(t, false, func() {
		bw := bufio.NewWriterSize(failWriter{boom}, 16)
		if err := WriteLittleEndian(bw, make([]byte, 64), 4); err != boom {
			t.Errorf("got %v, want the writer's error", err)
		}
	})
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }
