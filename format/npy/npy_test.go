package npy

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

// unsized hides the Len method of a reader, so Read cannot tell how many
// bytes remain and must read in chunks.
type unsized struct{ r io.Reader }

func (u unsized) Read(p []byte) (int, error) { return u.r.Read(p) }

// sample returns a tensor of type d and the given shape whose elements run
// through ordinary and edge-case values.
func sample(t testing.TB, d tensor.DType, shape tensor.Shape) tensor.Tensor {
	t.Helper()
	x, err := tensor.New(d, shape)
	if err != nil {
		t.Fatal(err)
	}
	f32 := []float32{0, float32(math.Copysign(0, -1)), 1.5, -2.25, float32(math.Inf(1)),
		float32(math.Inf(-1)), float32(math.NaN()), math.MaxFloat32, math.SmallestNonzeroFloat32}
	f64 := []float64{0, math.Copysign(0, -1), 1.5, -2.25, math.Inf(1), math.Inf(-1),
		math.NaN(), math.MaxFloat64, math.SmallestNonzeroFloat64, math.Pi}
	strs := []string{"", "a", "héllo", "日本語", "emoji 🎉", "a\x00b", "tab\there"}
	switch v := x.Data().(type) {
	case []bool:
		for i := range v {
			v[i] = i%3 == 1
		}
	case []int8:
		for i := range v {
			v[i] = int8(i*37 - 128)
		}
	case []int16:
		for i := range v {
			v[i] = int16(i*7919 - 32768)
		}
	case []int32:
		for i := range v {
			v[i] = int32(i*104729) - math.MaxInt32
		}
	case []int64:
		for i := range v {
			v[i] = int64(i)*1_000_000_007 - math.MaxInt64
		}
	case []uint8:
		for i := range v {
			v[i] = uint8(i*37 + 255)
		}
	case []uint16:
		for i := range v {
			v[i] = uint16(i*7919 + 65535)
		}
	case []uint32:
		for i := range v {
			v[i] = uint32(i)*104729 + math.MaxUint32
		}
	case []uint64:
		for i := range v {
			v[i] = uint64(i)*1_000_000_007 + math.MaxUint64
		}
	case []float16.Float16:
		for i := range v {
			v[i] = float16.Fromfloat32(f32[i%len(f32)])
		}
	case []float32:
		for i := range v {
			v[i] = f32[i%len(f32)]
		}
	case []float64:
		for i := range v {
			v[i] = f64[i%len(f64)]
		}
	case []complex64:
		for i := range v {
			v[i] = complex(f32[i%len(f32)], f32[(i+3)%len(f32)])
		}
	case []complex128:
		for i := range v {
			v[i] = complex(f64[i%len(f64)], f64[(i+3)%len(f64)])
		}
	case []string:
		for i := range v {
			v[i] = strs[i%len(strs)]
		}
	case []bfloat16.BFloat16:
		for i := range v {
			v[i] = bfloat16.FromFloat32(f32[i%len(f32)])
		}
	default:
		t.Fatalf("sample: no values for %v", d)
	}
	return x
}

// npyDTypes returns every element type a .npy file can hold.
func npyDTypes() []tensor.DType {
	var ds []tensor.DType
	for _, d := range tensor.DTypes() {
		if d != tensor.BFloat16 {
			ds = append(ds, d)
		}
	}
	return ds
}

func encode(t testing.TB, x tensor.Tensor) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, x); err != nil {
		t.Fatalf("Write(%v): %v", x, err)
	}
	return buf.Bytes()
}

// file builds a .npy file of the given major version from header text,
// padding it as NumPy does, followed by data.
func file(major byte, text string, data []byte) []byte {
	lenSize := 2
	if major > 1 {
		lenSize = 4
	}
	hlen := len(text) + 1
	pad := (align - (len(magic)+2+lenSize+hlen)%align) % align
	b := []byte(magic)
	b = append(b, major, 0)
	if lenSize == 2 {
		b = binary.LittleEndian.AppendUint16(b, uint16(hlen+pad))
	} else {
		b = binary.LittleEndian.AppendUint32(b, uint32(hlen+pad))
	}
	b = append(b, text...)
	b = append(b, strings.Repeat(" ", pad)...)
	b = append(b, '\n')
	return append(b, data...)
}

func TestRoundTrip(t *testing.T) {
	shapes := []tensor.Shape{{}, {0}, {5}, {2, 3}, {3, 0, 2}, {2, 3, 4}, {1, 1, 1, 1, 1, 7}, {0, 0}}
	wantDescr := map[tensor.DType]string{
		tensor.Bool: "|b1", tensor.Int8: "|i1", tensor.Uint8: "|u1",
		tensor.Int16: "<i2", tensor.Uint16: "<u2", tensor.Float16: "<f2",
		tensor.Int32: "<i4", tensor.Uint32: "<u4", tensor.Float32: "<f4",
		tensor.Int64: "<i8", tensor.Uint64: "<u8", tensor.Float64: "<f8",
		tensor.Complex64: "<c8", tensor.Complex128: "<c16",
	}
	for _, d := range npyDTypes() {
		for _, shape := range shapes {
			t.Run(fmt.Sprintf("%v%v", d, shape), func(t *testing.T) {
				x := sample(t, d, shape)
				b := encode(t, x)
				preLen := len(b) - x.Len()*max(d.Size(), 1)
				if d == tensor.String {
					preLen = bytes.IndexByte(b, '\n') + 1
				}
				if preLen%align != 0 {
					t.Errorf("preamble is %d bytes, not a multiple of %d", preLen, align)
				}
				if want, ok := wantDescr[d]; ok && !bytes.Contains(b, []byte("'descr': '"+want+"'")) {
					t.Errorf("header %q does not have descr %q", b[10:preLen], want)
				}
				for _, r := range []io.Reader{bytes.NewReader(b), unsized{bytes.NewReader(b)}} {
					y, err := Read(r)
					if err != nil {
						t.Fatalf("Read(%T): %v", r, err)
					}
					if !tensor.Equal(x, y) {
						t.Fatalf("Read(%T) = %v, want %v", r, y, x)
					}
				}
			})
		}
	}
}

// TestRoundTripLarge covers data that spans many read and write chunks.
func TestRoundTripLarge(t *testing.T) {
	for _, d := range []tensor.DType{tensor.Float64, tensor.Bool, tensor.String, tensor.Complex128} {
		t.Run(d.String(), func(t *testing.T) {
			x := sample(t, d, tensor.Shape{3, 50001})
			b := encode(t, x)
			for _, r := range []io.Reader{bytes.NewReader(b), unsized{bytes.NewReader(b)}} {
				y, err := Read(r)
				if err != nil {
					t.Fatalf("Read(%T): %v", r, err)
				}
				if !tensor.Equal(x, y) {
					t.Fatalf("Read(%T): tensors differ", r)
				}
			}
		})
	}
}

func TestStringWidth(t *testing.T) {
	tests := []struct {
		data  []string
		descr string
	}{
		{[]string{"", ""}, "<U1"},
		{[]string{"ab", "c"}, "<U2"},
		{[]string{"日本語", "x"}, "<U3"},
		{[]string{"🎉🎉"}, "<U2"},
	}
	for _, tt := range tests {
		x := tensor.Must(tensor.From(tensor.Shape{len(tt.data)}, tt.data))
		b := encode(t, x)
		if !bytes.Contains(b, []byte("'descr': '"+tt.descr+"'")) {
			t.Errorf("%q: header %q, want descr %q", tt.data, b, tt.descr)
		}
	}

	// Invalid UTF-8 is written as U+FFFD, one per bad byte.
	x := tensor.Must(tensor.From(tensor.Shape{1}, []string{"a\xffb\xfe"}))
	y, err := Read(bytes.NewReader(encode(t, x)))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tensor.Values[string](y); got[0] != "a\uFFFDb\uFFFD" {
		t.Errorf("invalid utf-8 read back as %q, want %q", got[0], "a\uFFFDb\uFFFD")
	}

	// Trailing NULs are padding and are dropped on read.
	x = tensor.Must(tensor.From(tensor.Shape{1}, []string{"ab\x00\x00"}))
	y, err = Read(bytes.NewReader(encode(t, x)))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := tensor.Values[string](y); got[0] != "ab" {
		t.Errorf("read back %q, want %q", got[0], "ab")
	}
}

// The golden files below are the bytes NumPy writes, derived by hand from
// the format's specification: the magic string, version 1.0, the header
// length as a little-endian uint16, then the header dict, the 21-digit
// growth space NumPy reserves after it for the first dimension, and the
// spaces and newline that pad the preamble to a multiple of 64 bytes.
func TestGolden(t *testing.T) {
	le64 := func(vs ...uint64) []byte {
		var b []byte
		for _, v := range vs {
			b = binary.LittleEndian.AppendUint64(b, v)
		}
		return b
	}
	tests := []struct {
		name string
		x    tensor.Tensor
		want string
	}{
		{
			// np.array([1, 2, 3], dtype='<i8'): a 57-byte dict, 20 spaces
			// of growth room, 40 of padding and a newline make 118 bytes
			// (0x76) of header and 128 of preamble.
			"int64 vector",
			tensor.Must(tensor.From(tensor.Shape{3}, []int64{1, 2, 3})),
			"\x93NUMPY\x01\x00\x76\x00" +
				"{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }" +
				strings.Repeat(" ", 60) + "\n" + string(le64(1, 2, 3)),
		},
		{
			// np.array(1.5): a scalar gets no growth room; 55 + 62 + 1.
			"float64 scalar",
			tensor.Scalar(1.5),
			"\x93NUMPY\x01\x00\x76\x00" +
				"{'descr': '<f8', 'fortran_order': False, 'shape': (), }" +
				strings.Repeat(" ", 62) + "\n" + "\x00\x00\x00\x00\x00\x00\xf8\x3f",
		},
		{
			// np.array([True, False, True]).
			"bool vector",
			tensor.Must(tensor.From(tensor.Shape{3}, []bool{true, false, true})),
			"\x93NUMPY\x01\x00\x76\x00" +
				"{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }" +
				strings.Repeat(" ", 60) + "\n" + "\x01\x00\x01",
		},
		{
			// np.array(['ab', 'c']): UTF-32LE code units, NUL-padded.
			"unicode vector",
			tensor.Must(tensor.From(tensor.Shape{2}, []string{"ab", "c"})),
			"\x93NUMPY\x01\x00\x76\x00" +
				"{'descr': '<U2', 'fortran_order': False, 'shape': (2,), }" +
				strings.Repeat(" ", 60) + "\n" +
				"a\x00\x00\x00b\x00\x00\x00c\x00\x00\x00\x00\x00\x00\x00",
		},
		{
			// np.zeros((2, 3), dtype='<f4'): 59 + 20 + 38 + 1.
			"float32 matrix",
			tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2, 3})),
			"\x93NUMPY\x01\x00\x76\x00" +
				"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }" +
				strings.Repeat(" ", 58) + "\n" + strings.Repeat("\x00", 24),
		},
		{
			// np.full((1,)*20, 0x1234, dtype='<u2'): a 113-byte dict, 20
			// of growth room, 48 of padding: 182 (0xb6) bytes of header,
			// 192 of preamble.
			"rank 20",
			tensor.Must(tensor.From(tensor.Shape{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, []uint16{0x1234})),
			"\x93NUMPY\x01\x00\xb6\x00" +
				"{'descr': '<u2', 'fortran_order': False, 'shape': " +
				"(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1), }" +
				strings.Repeat(" ", 68) + "\n" + "\x34\x12",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encode(t, tt.x)
			if string(got) != tt.want {
				t.Errorf("Write:\n got %q\nwant %q", got, tt.want)
			}
			y, err := Read(strings.NewReader(tt.want))
			if err != nil {
				t.Fatal(err)
			}
			if !tensor.Equal(y, tt.x) {
				t.Errorf("Read = %v, want %v", y, tt.x)
			}
		})
	}
}

func TestPreamble(t *testing.T) {
	// A header that would end exactly on the boundary still gets a full
	// 64 bytes of padding, as NumPy's formula gives: 10 + 53 + 1 = 64.
	b, err := preamble(strings.Repeat("x", 53))
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 128 || !strings.HasSuffix(string(b), strings.Repeat(" ", 64)+"\n") {
		t.Errorf("preamble is %d bytes ending %q", len(b), b[63:])
	}

	// A header too long for a uint16 length switches to version 2.0.
	text := strings.Repeat("x", 70000)
	b, err = preamble(text)
	if err != nil {
		t.Fatal(err)
	}
	if b[6] != 2 || b[7] != 0 {
		t.Errorf("version %d.%d, want 2.0", b[6], b[7])
	}
	if n := binary.LittleEndian.Uint32(b[8:]); int(n) != len(b)-12 {
		t.Errorf("header length %d, want %d", n, len(b)-12)
	}
	if len(b)%align != 0 || b[len(b)-1] != '\n' || string(b[12:12+len(text)]) != text {
		t.Errorf("bad version 2.0 preamble of %d bytes", len(b))
	}

	// The largest header that fits version 1.0.
	b, err = preamble(strings.Repeat("x", 65535-64-1))
	if err != nil {
		t.Fatal(err)
	}
	if b[6] != 1 || len(b)%align != 0 {
		t.Errorf("version %d, %d bytes; want 1, a multiple of 64", b[6], len(b))
	}
}

func TestReadVersions(t *testing.T) {
	text := "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }"
	data := []byte{1, 0, 0xff, 0xff}
	want := tensor.Must(tensor.From(tensor.Shape{2}, []int16{1, -1}))
	for _, major := range []byte{1, 2, 3} {
		y, err := Read(bytes.NewReader(file(major, text, data)))
		if err != nil {
			t.Fatalf("version %d.0: %v", major, err)
		}
		if !tensor.Equal(y, want) {
			t.Errorf("version %d.0: got %v, want %v", major, y, want)
		}
	}

	// Version 3.0 headers are utf-8; 1.0 and 2.0 headers are latin-1.
	bad := file(3, text+"\xff", data)
	if _, err := Read(bytes.NewReader(bad)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "utf-8") {
		t.Errorf("invalid utf-8 in a version 3.0 header: got %v", err)
	}

	for _, v := range [][2]byte{{0, 0}, {1, 1}, {4, 0}, {2, 1}} {
		b := file(1, text, data)
		b[6], b[7] = v[0], v[1]
		_, err := Read(bytes.NewReader(b))
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), fmt.Sprintf("version %d.%d", v[0], v[1])) {
			t.Errorf("version %d.%d: got %v", v[0], v[1], err)
		}
	}
}

func TestReadBigEndian(t *testing.T) {
	c := func(re, im float32) complex64 { return complex(re, im) }
	tests := []struct {
		descr string
		shape string
		data  string
		want  tensor.Tensor
	}{
		{">i4", "(3,)", "\x00\x00\x00\x01\xff\xff\xff\xfe\x7f\xff\xff\xff",
			tensor.Must(tensor.From(tensor.Shape{3}, []int32{1, -2, math.MaxInt32}))},
		{">u2", "(2,)", "\x01\x02\xff\x00",
			tensor.Must(tensor.From(tensor.Shape{2}, []uint16{0x0102, 0xff00}))},
		{">f2", "()", "\x3c\x00", tensor.Scalar(float16.Fromfloat32(1))},
		{">f8", "(2,)", "\x3f\xf8\x00\x00\x00\x00\x00\x00\xc0\x00\x00\x00\x00\x00\x00\x00",
			tensor.Must(tensor.From(tensor.Shape{2}, []float64{1.5, -2}))},
		{">c8", "(1,)", "\x3f\xc0\x00\x00\x40\x00\x00\x00",
			tensor.Must(tensor.From(tensor.Shape{1}, []complex64{c(1.5, 2)}))},
		{">U2", "(2,)", "\x00\x00\x00h\x00\x00\x00i\x00\x00\x00x\x00\x00\x00\x00",
			tensor.Must(tensor.From(tensor.Shape{2}, []string{"hi", "x"}))},
		{">i1", "(2,)", "\x01\xff", tensor.Must(tensor.From(tensor.Shape{2}, []int8{1, -1}))},
		{"=i2", "(1,)", "\x01\x02", tensor.Must(tensor.From(tensor.Shape{1}, []int16{0x0201}))},
		{"<i2", "(1,)", "\x01\x02", tensor.Must(tensor.From(tensor.Shape{1}, []int16{0x0201}))},
	}
	for _, tt := range tests {
		text := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': %s, }", tt.descr, tt.shape)
		y, err := Read(bytes.NewReader(file(1, text, []byte(tt.data))))
		if err != nil {
			t.Errorf("%s: %v", tt.descr, err)
			continue
		}
		if !tensor.Equal(y, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.descr, y, tt.want)
		}
	}
}

// TestReadBigEndianAll converts files Write produced to big-endian and reads
// them back, for every multi-byte type.
func TestReadBigEndianAll(t *testing.T) {
	for _, d := range npyDTypes() {
		x := sample(t, d, tensor.Shape{3, 7})
		b := encode(t, x)
		pre := bytes.IndexByte(b, '\n') + 1
		group := d.Size()
		if d.IsComplex() {
			group /= 2
		}
		if d == tensor.String {
			group = 4
		}
		if group < 2 {
			continue
		}
		be := slices.Clone(b)
		i := bytes.Index(be, []byte("'<"))
		be[i+1] = '>'
		for j := pre; j < len(be); j += group {
			slices.Reverse(be[j : j+group])
		}
		y, err := Read(bytes.NewReader(be))
		if err != nil {
			t.Fatalf("%v: %v", d, err)
		}
		if !tensor.Equal(x, y) {
			t.Errorf("%v: got %v, want %v", d, y, x)
		}
	}
}

func TestReadFortran(t *testing.T) {
	// A 2x3 int32 array [[0 1 2] [3 4 5]] in column-major order.
	var data []byte
	for _, v := range []int32{0, 3, 1, 4, 2, 5} {
		data = binary.LittleEndian.AppendUint32(data, uint32(v))
	}
	text := "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 3), }"
	y, err := Read(bytes.NewReader(file(1, text, data)))
	if err != nil {
		t.Fatal(err)
	}
	want := tensor.Must(tensor.From(tensor.Shape{2, 3}, []int32{0, 1, 2, 3, 4, 5}))
	if !tensor.Equal(y, want) {
		t.Errorf("2x3: got %v, want %v", y, want)
	}

	// A 2x3x4 big-endian int16 array whose element [i,j,k] is 100i+10j+k,
	// stored with the first index varying fastest.
	data = nil
	for k := range 4 {
		for j := range 3 {
			for i := range 2 {
				data = binary.BigEndian.AppendUint16(data, uint16(100*i+10*j+k))
			}
		}
	}
	text = "{'shape': (2, 3, 4), 'fortran_order': True, 'descr': '>i2'}"
	y, err = Read(unsized{bytes.NewReader(file(1, text, data))})
	if err != nil {
		t.Fatal(err)
	}
	var rowMajor []int16
	for i := range 2 {
		for j := range 3 {
			for k := range 4 {
				rowMajor = append(rowMajor, int16(100*i+10*j+k))
			}
		}
	}
	want = tensor.Must(tensor.From(tensor.Shape{2, 3, 4}, rowMajor))
	if !tensor.Equal(y, want) {
		t.Errorf("2x3x4: got %v, want %v", y, want)
	}

	// Strings, and shapes where Fortran and C order coincide.
	tests := []struct {
		text string
		data string
		want tensor.Tensor
	}{
		{"{'descr': '<U1', 'fortran_order': True, 'shape': (2, 2), }",
			"a\x00\x00\x00c\x00\x00\x00b\x00\x00\x00d\x00\x00\x00",
			tensor.Must(tensor.From(tensor.Shape{2, 2}, []string{"a", "b", "c", "d"}))},
		{"{'descr': '|u1', 'fortran_order': True, 'shape': (3,), }", "\x01\x02\x03",
			tensor.Must(tensor.From(tensor.Shape{3}, []uint8{1, 2, 3}))},
		{"{'descr': '|u1', 'fortran_order': True, 'shape': (), }", "\x07", tensor.Scalar[uint8](7)},
		{"{'descr': '|u1', 'fortran_order': True, 'shape': (2, 0), }", "",
			tensor.Must(tensor.New(tensor.Uint8, tensor.Shape{2, 0}))},
		{"{'descr': '|u1', 'fortran_order': True, 'shape': (1, 3, 1), }", "\x01\x02\x03",
			tensor.Must(tensor.From(tensor.Shape{1, 3, 1}, []uint8{1, 2, 3}))},
	}
	for _, tt := range tests {
		y, err := Read(bytes.NewReader(file(1, tt.text, []byte(tt.data))))
		if err != nil {
			t.Errorf("%s: %v", tt.text, err)
			continue
		}
		if !tensor.Equal(y, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.text, y, tt.want)
		}
	}
}

// TestReadFortranAll reads Fortran-ordered files of every type, in both
// byte orders, from sized and unsized readers.
func TestReadFortranAll(t *testing.T) {
	shape := tensor.Shape{2, 3, 4}
	for _, d := range npyDTypes() {
		x := sample(t, d, shape)
		b := encode(t, x)
		pre := bytes.IndexByte(b, '\n') + 1
		data := b[pre:]
		size := len(data) / x.Len()
		var fortran []byte
		for k := range 4 {
			for j := range 3 {
				for i := range 2 {
					at := (i*12 + j*4 + k) * size
					fortran = append(fortran, data[at:at+size]...)
				}
			}
		}
		word := d.Size()
		if d.IsComplex() {
			word /= 2
		}
		if d == tensor.String {
			word = 4
		}
		_, descr, _ := strings.Cut(string(b[:pre]), "'descr': '")
		descr, _, _ = strings.Cut(descr, "'")
		orders := []string{descr}
		if word > 1 {
			orders = append(orders, ">"+descr[1:])
		}
		for _, descr := range orders {
			body := slices.Clone(fortran)
			if descr[0] == '>' {
				for j := 0; j < len(body); j += word {
					slices.Reverse(body[j : j+word])
				}
			}
			text := fmt.Sprintf("{'descr': '%s', 'fortran_order': True, 'shape': (2, 3, 4), }", descr)
			f := file(1, text, body)
			for _, r := range []io.Reader{bytes.NewReader(f), unsized{bytes.NewReader(f)}} {
				y, err := Read(r)
				if err != nil {
					t.Fatalf("%s (%T): %v", descr, r, err)
				}
				if !tensor.Equal(x, y) {
					t.Errorf("%s (%T): got %v, want %v", descr, r, y, x)
				}
			}
		}
	}
}

// TestReadBadBoolLate checks the index reported for a bad bool byte beyond
// the first read chunk.
func TestReadBadBoolLate(t *testing.T) {
	const n, bad = 3 * chunkSize / 2, chunkSize + 12345
	data := make([]byte, n)
	data[bad] = 7
	f := file(1, fmt.Sprintf("{'descr': '|b1', 'fortran_order': False, 'shape': (%d,), }", n), data)
	for _, r := range []io.Reader{bytes.NewReader(f), unsized{bytes.NewReader(f)}} {
		_, err := Read(r)
		want := fmt.Sprintf("element %d is byte 0x07, want 0 or 1", bad)
		if !errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), want) {
			t.Errorf("%T: error %v, want ErrFormat containing %q", r, err, want)
		}
	}
}

func TestHeader(t *testing.T) {
	// Two dimensions whose product wraps an int's bits to 0 in a uint64
	// where int has 64 bits, and is beyond int where it has 32.
	half := strconv.Itoa(1 << (bits.UintSize / 2))
	wrapDims := half + ", " + half
	tests := []struct {
		text    string
		shape   tensor.Shape
		fortran bool
		err     string // a substring of the error; "" for success
	}{
		{"{'descr': '|u1', 'fortran_order': False, 'shape': (2, 3), }", tensor.Shape{2, 3}, false, ""},
		{"{'shape': (2, 3), 'descr': '|u1', 'fortran_order': True}", tensor.Shape{2, 3}, true, ""},
		{"{\"descr\":\"|u1\",\"fortran_order\":False,\"shape\":(4,)}", tensor.Shape{4}, false, ""},
		{"  {\n 'descr' : '|u1' ,\t'fortran_order' : False ,\n 'shape' : ( 2 , 3 , ) , }  \n", tensor.Shape{2, 3}, false, ""},
		{"{'descr': '|u1', 'fortran_order': False, 'shape': (3L, 2L), }", tensor.Shape{3, 2}, false, ""},
		{"{'descr': '|u1', 'fortran_order': False, 'shape': (), }", tensor.Shape{}, false, ""},
		{"{'descr': 'u1', 'fortran_order': False, 'shape': (1,), }", tensor.Shape{1}, false, ""},
		{"{'descr': '|u1', 'fortran_order': False, 'shape': (0, " + strconv.Itoa(math.MaxInt) + ", 4), }",
			tensor.Shape{0, math.MaxInt, 4}, false, ""},

		{"", nil, false, "want the opening '{'"},
		{"[1, 2]", nil, false, "want the opening '{'"},
		{"{}", nil, false, "missing key 'descr'"},
		{"{'descr': '<f4', 'fortran_order': False}", nil, false, "missing key 'shape'"},
		{"{'descr': '<f4', 'shape': (1,)}", nil, false, "missing key 'fortran_order'"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,), 'extra': 1}", nil, false, `unknown key "extra"`},
		{"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (2,)}", nil, false, `key "descr" twice`},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (3)}", nil, false, "(3) is not a tuple, want (3,)"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}", nil, false, "dimension 0 is negative (-1)"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, -3)}", nil, false, "dimension 1 is negative (-3)"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,)}", nil, false, "out of range"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (" + wrapDims + ")}", nil, false, "overflows int"},
		{"{'descr': '<c16', 'fortran_order': False, 'shape': (" + strconv.Itoa(math.MaxInt/8+1) + ",)}", nil, false, "more bytes than an int holds"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (" + strings.Repeat("1, ", 65) + ")}", nil, false, "more than 64 dimensions"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2.0,)}", nil, false, "want ',' or ')' after dimension 0"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2x,)}", nil, false, "dimension 0: want an integer"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (,)}", nil, false, "dimension 0: want an integer"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': [2]}", nil, false, "want a tuple for header key 'shape'"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3}", nil, false, "want ',' or ')' after dimension 1"},
		{"{'descr': '<f4', 'fortran_order': 'False', 'shape': (2,)}", nil, false, "want True or False"},
		{"{'descr': '<f4', 'fortran_order': Falsey, 'shape': (2,)}", nil, false, "want True or False"},
		{"{'descr': '<f4', 'fortran_order': 0, 'shape': (2,)}", nil, false, "want True or False"},
		{"{'descr': [('x', '<f4')], 'fortran_order': False, 'shape': (2,)}", nil, false, "structured dtypes"},
		{"{'descr': '<f4, 'fortran_order': False, 'shape': (2,)}", nil, false, "found 'f' at offset 17"},
		{"{'descr' '<f4', 'fortran_order': False, 'shape': (2,)}", nil, false, "want ':' after header key \"descr\""},
		{"{'descr': '<f4", nil, false, "not terminated"},
		{"{'descr': '<f\\x34', 'fortran_order': False, 'shape': (2,)}", nil, false, "escape sequence"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)} junk", nil, false, "after the closing '}'"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,),, }", nil, false, "want a quoted header key"},
		{"{'descr': '<f4' 'fortran_order': False, 'shape': (2,)}", nil, false, `want ',' or '}' after the value of header key "descr"`},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)", nil, false, "found the end of the header"},
		{"{'descr': '<f4', 'fortran_order': False, 'shape': (2,)}\x00", nil, false, "after the closing '}'"},
	}
	for _, tt := range tests {
		h, err := parseHeader([]byte(tt.text))
		if tt.err != "" {
			if err == nil {
				t.Errorf("%q: no error, want %q", tt.text, tt.err)
			} else if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tt.err) || !strings.HasPrefix(err.Error(), "npy: ") {
				t.Errorf("%q: error %q, want ErrFormat containing %q", tt.text, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tt.text, err)
			continue
		}
		if !h.shape.Equal(tt.shape) || h.fortran != tt.fortran {
			t.Errorf("%q: shape %v fortran %v, want %v %v", tt.text, h.shape, h.fortran, tt.shape, tt.fortran)
		}
	}

	// The element count overflow is a tensor.ErrShape too.
	_, err := parseHeader([]byte("{'descr': '<f4', 'fortran_order': False, 'shape': (" + wrapDims + ")}"))
	if !errors.Is(err, tensor.ErrShape) {
		t.Errorf("overflow: %v does not match tensor.ErrShape", err)
	}
}

func TestDescr(t *testing.T) {
	tests := []struct {
		descr string
		dtype tensor.DType
		err   string
	}{
		{"<f4", tensor.Float32, ""},
		{">c16", tensor.Complex128, ""},
		{"|b1", tensor.Bool, ""},
		{"<b1", tensor.Bool, ""},
		{"|u1", tensor.Uint8, ""},
		{"=u8", tensor.Uint64, ""},
		{"<U12", tensor.String, ""},
		{">U1", tensor.String, ""},
		{"|O", 0, "pickled object arrays are not supported"},
		{"<O8", 0, "pickled object arrays are not supported"},
		{"|S3", 0, `unsupported dtype descr "|S3"`},
		{"<M8[ns]", 0, `unsupported dtype descr "<M8[ns]"`},
		{"<f3", 0, `unsupported dtype descr "<f3"`},
		{"<f16", 0, `unsupported dtype descr "<f16"`},
		{"|f4", 0, "byte order '|' is only valid for one-byte types"},
		{"|U3", 0, "byte order '|' is only valid for one-byte types"},
		{"<U0", 0, "want a unicode string width"},
		{"<U", 0, "want a unicode string width"},
		{"<U-1", 0, "want a unicode string width"},
		{"<U+1", 0, "want a unicode string width"},
		{"<U01", 0, "want a unicode string width"},
		{"<U99999999999999999999", 0, "want a unicode string width"},
		{"", 0, "has no type code"},
		{"<", 0, "has no type code"},
	}
	for _, tt := range tests {
		e, err := parseDescr(tt.descr)
		if tt.err != "" {
			if !errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), tt.err) {
				t.Errorf("%q: error %v, want ErrFormat containing %q", tt.descr, err, tt.err)
			}
			continue
		}
		if err != nil || e.dtype != tt.dtype {
			t.Errorf("%q: %v, %v; want %v", tt.descr, e.dtype, err, tt.dtype)
		}
	}

	// The object-array error through Read.
	b := file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }", make([]byte, 16))
	_, err := Read(bytes.NewReader(b))
	if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "pickled") {
		t.Errorf("object array: got %v", err)
	}
}

func TestReadBadData(t *testing.T) {
	tests := []struct {
		descr string
		data  string
		err   string
	}{
		{"|b1", "\x01\x00\x02", "element 2 is byte 0x02, want 0 or 1"},
		{"<U1", "a\x00\x00\x00\x00\xd8\x00\x00\x00\x00\x00\x00", "element 1 has code unit 0xd800"},
		{"<U1", "a\x00\x00\x00b\x00\x00\x00\x00\x00\x11\x00", "element 2 has code unit 0x110000"},
		{">U1", "\x00\x00\x00a\x00\x00\x00b\xff\xff\xff\xff", "element 2 has code unit 0xffffffff"},
	}
	for _, tt := range tests {
		text := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (3,), }", tt.descr)
		_, err := Read(bytes.NewReader(file(1, text, []byte(tt.data))))
		if !errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), tt.err) {
			t.Errorf("%s %q: error %v, want ErrFormat containing %q", tt.descr, tt.data, err, tt.err)
		}
	}
}

func TestReadGarbage(t *testing.T) {
	valid := encode(t, sample(t, tensor.Float32, tensor.Shape{2, 3}))
	bigHeader := []byte(magic + "\x02\x00")
	bigHeader = binary.LittleEndian.AppendUint32(bigHeader, 2<<20)
	tests := []struct {
		name string
		in   []byte
		err  string
	}{
		{"empty", nil, "empty input"},
		{"short magic", []byte("\x93NUM"), "magic string and version: want 8 bytes, got 4"},
		{"bad magic", []byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), "not a .npy file"},
		{"text", []byte("hello, world\n"), "not a .npy file"},
		{"no header length", []byte(magic + "\x01\x00\x10"), "header length: want 2 bytes, got 1"},
		{"short header", valid[:50], "inside the header: want 118 bytes, got 40"},
		{"huge header", bigHeader, "header length 2097152 exceeds the limit of 1048576 bytes"},
		{"garbage header", file(1, "\x00\x01\x02garbage", nil), "want the opening '{'"},
	}
	for _, tt := range tests {
		for _, r := range []io.Reader{bytes.NewReader(tt.in), unsized{bytes.NewReader(tt.in)}} {
			_, err := Read(r)
			if !errors.Is(err, ErrFormat) || !strings.Contains(fmt.Sprint(err), tt.err) {
				t.Errorf("%s (%T): error %v, want ErrFormat containing %q", tt.name, r, err, tt.err)
			}
		}
	}
}

func TestReadTruncated(t *testing.T) {
	valid := encode(t, sample(t, tensor.Float32, tensor.Shape{2, 3}))
	for n := range len(valid) {
		for _, r := range []io.Reader{bytes.NewReader(valid[:n]), unsized{bytes.NewReader(valid[:n])}} {
			_, err := Read(r)
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%d of %d bytes (%T): error %v, want ErrFormat", n, len(valid), r, err)
			}
		}
	}
	_, err := Read(bytes.NewReader(valid[:len(valid)-4]))
	if want := "data section is truncated: shape [2,3] of dtype \"<f4\" needs 24 bytes, the input has 20"; err == nil || err.Error() != "npy: "+want {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = Read(unsized{bytes.NewReader(valid[:len(valid)-4])})
	if want := "needs 24 bytes, got 20"; !strings.Contains(fmt.Sprint(err), want) || !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("got %v, want an io.ErrUnexpectedEOF containing %q", err, want)
	}
}

// TestReadHugeDeclared checks that a tiny file declaring a terabyte array
// fails without allocating it: over the size limit, as too large; with no
// limit, as truncated. Where int has 32 bits, the float32 and text arrays
// take more bytes than an int counts, too large whatever the limit.
func TestReadHugeDeclared(t *testing.T) {
	for _, limit := range []int64{tensor.DefaultMaxBytes, math.MaxInt64} {
		prev := tensor.SetMaxBytes(limit)
		for _, descr := range []string{"<f4", fmt.Sprintf("<U%d", min(1000000000, math.MaxInt/4)), "|b1"} {
			// 2^40 elements, or 2^30 where int has 32 bits.
			big := int(min(1<<40, math.MaxInt/2))
			dim := big
			if descr[1] == 'U' {
				dim = 1000 // 16 kB of string headers, 4 TB of text
			}
			text := fmt.Sprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }", descr, dim)
			b := file(1, text, make([]byte, 100))
			want, wantText := io.ErrUnexpectedEOF, "truncated"
			if limit != math.MaxInt64 && dim == big && bits.UintSize == 64 || bits.UintSize == 32 && descr != "|b1" {
				want, wantText = tensor.ErrTooLarge, "too large"
			}
			for _, r := range []io.Reader{bytes.NewReader(b), unsized{bytes.NewReader(b)}} {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				_, err := Read(r)
				runtime.ReadMemStats(&after)
				if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), wantText) ||
					want == tensor.ErrTooLarge && !errors.Is(err, want) {
					t.Errorf("%s (%T), limit %d: error %v, want %q", descr, r, limit, err, wantText)
				}
				if n := after.TotalAlloc - before.TotalAlloc; n > 8<<20 {
					t.Errorf("%s (%T): allocated %d bytes", descr, r, n)
				}
			}
		}
		tensor.SetMaxBytes(prev)
	}
}

func TestReadSequence(t *testing.T) {
	a := sample(t, tensor.Int32, tensor.Shape{4})
	b := sample(t, tensor.String, tensor.Shape{2, 2})
	in := append(encode(t, a), encode(t, b)...)
	for _, r := range []io.Reader{bytes.NewReader(in), unsized{bytes.NewReader(in)}} {
		for i, want := range []tensor.Tensor{a, b} {
			got, err := Read(r)
			if err != nil {
				t.Fatalf("array %d: %v", i, err)
			}
			if !tensor.Equal(got, want) {
				t.Errorf("array %d: got %v, want %v", i, got, want)
			}
		}
		if _, err := Read(r); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "empty input") {
			t.Errorf("after the last array: got %v", err)
		}
	}
}

type failReader struct{ err error }

func (r failReader) Read([]byte) (int, error) { return 0, r.err }

type failWriter struct {
	n   int // bytes accepted before failing
	err error
}

func (w *failWriter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		n := w.n
		w.n = 0
		return n, w.err
	}
	w.n -= len(p)
	return len(p), nil
}

func TestIOErrors(t *testing.T) {
	boom := errors.New("boom")
	valid := encode(t, sample(t, tensor.Float32, tensor.Shape{2, 3}))
	for _, n := range []int{0, 5, 9, 100, len(valid) - 1} {
		r := io.MultiReader(bytes.NewReader(valid[:n]), failReader{boom})
		_, err := Read(r)
		if !errors.Is(err, boom) || errors.Is(err, ErrFormat) {
			t.Errorf("reader failing after %d bytes: got %v, want boom and not ErrFormat", n, err)
		}
	}
	for _, n := range []int{0, len(valid) - 10} {
		err := Write(&failWriter{n: n, err: boom}, sample(t, tensor.Float32, tensor.Shape{2, 3}))
		if !errors.Is(err, boom) || errors.Is(err, ErrFormat) {
			t.Errorf("writer failing after %d bytes: got %v, want boom and not ErrFormat", n, err)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	var buf bytes.Buffer
	err := Write(&buf, sample(t, tensor.BFloat16, tensor.Shape{2}))
	if !errors.Is(err, ErrFormat) {
		t.Errorf("bfloat16: got %v, want ErrFormat", err)
	}
	if want := "npy: bfloat16 has no numpy dtype; write a .pb (onnx TensorProto) file instead"; fmt.Sprint(err) != want {
		t.Errorf("bfloat16: got %q, want %q", err, want)
	}
	if err := Write(&buf, tensor.Tensor{}); !errors.Is(err, ErrFormat) {
		t.Errorf("zero tensor: got %v, want ErrFormat", err)
	}
	rank65 := make(tensor.Shape, 65)
	for i := range rank65 {
		rank65[i] = 1
	}
	if err := Write(&buf, sample(t, tensor.Uint8, rank65)); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "rank 65") {
		t.Errorf("rank 65: got %v", err)
	}
	if buf.Len() != 0 {
		t.Errorf("failed writes wrote %d bytes", buf.Len())
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.npy")
	x := sample(t, tensor.Complex64, tensor.Shape{3, 4})
	if err := WriteFile(path, x); err != nil {
		t.Fatal(err)
	}
	y, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Equal(x, y) {
		t.Errorf("ReadFile = %v, want %v", y, x)
	}

	// Overwriting replaces the file.
	x = sample(t, tensor.String, tensor.Shape{5})
	if err := WriteFile(path, x); err != nil {
		t.Fatal(err)
	}
	if y, err = ReadFile(path); err != nil || !tensor.Equal(x, y) {
		t.Errorf("after overwrite: ReadFile = %v, %v; want %v", y, err, x)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil {
			t.Fatal(err)
		} else if fi.Mode().Perm() != 0o644 {
			t.Errorf("new file: mode %v, want 0644", fi.Mode())
		}
		if err := os.Chmod(path, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := WriteFile(path, x); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(path); err != nil {
			t.Fatal(err)
		} else if fi.Mode().Perm() != 0o600 {
			t.Errorf("replaced file: mode %v, want 0600 kept", fi.Mode())
		}
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}

	// A failed write leaves the old file as it was and no temporary file.
	err = WriteFile(path, sample(t, tensor.BFloat16, tensor.Shape{2}))
	if !errors.Is(err, ErrFormat) {
		t.Errorf("WriteFile(bfloat16): got %v, want ErrFormat", err)
	}
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, old) {
		t.Errorf("failed WriteFile changed the file (err %v)", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want only x.npy", names)
	}

	// A failed rename removes the temporary file too: a directory at the
	// target path makes the rename fail.
	target := filepath.Join(dir, "sub")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(target, x); err == nil {
		t.Error("WriteFile over a directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory holds %d entries after a failed rename, want 2", len(entries))
	}

	if err := WriteFile(filepath.Join(dir, "missing", "x.npy"), x); err == nil {
		t.Error("WriteFile into a missing directory succeeded")
	}

	// ReadFile's errors name the file.
	bad := filepath.Join(dir, "bad.npy")
	if err := os.WriteFile(bad, []byte("not numpy"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(bad)
	if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "npy: "+bad+": not a .npy file") {
		t.Errorf("ReadFile(bad): got %v", err)
	}
	if _, err := ReadFile(filepath.Join(dir, "none.npy")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile(missing): got %v, want os.ErrNotExist", err)
	}

	// A file that declares more data than it holds fails before reading.
	trunc := filepath.Join(dir, "trunc.npy")
	full := encode(t, sample(t, tensor.Float64, tensor.Shape{10}))
	if err := os.WriteFile(trunc, full[:len(full)-8], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(trunc); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "needs 80 bytes, the input has 72") {
		t.Errorf("ReadFile(truncated): got %v", err)
	}
}

func FuzzRead(f *testing.F) {
	for _, d := range npyDTypes() {
		f.Add(encode(f, sample(f, d, tensor.Shape{2, 3})))
	}
	f.Add(encode(f, sample(f, tensor.Float64, tensor.Shape{})))
	f.Add(encode(f, sample(f, tensor.Int16, tensor.Shape{0, 3})))
	f.Add(file(1, "{'descr': '>i4', 'fortran_order': True, 'shape': (2, 3), }", make([]byte, 24)))
	f.Add(file(2, "{'descr': '>U2', 'fortran_order': True, 'shape': (2, 1), }", []byte("\x00\x00\x00a\x00\x00\x00b\x00\x00\x00c\x00\x00\x00\x00")))
	f.Add(file(3, "{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8)))
	f.Fuzz(func(t *testing.T, in []byte) {
		x, err := Read(bytes.NewReader(in))
		_, err2 := Read(unsized{bytes.NewReader(in)})
		if (err == nil) != (err2 == nil) {
			t.Fatalf("sized and unsized reads disagree: %v vs %v", err, err2)
		}
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("error %v is not ErrFormat", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := Write(&buf, x); err != nil {
			t.Fatalf("Write(%v): %v", x, err)
		}
		y, err := Read(&buf)
		if err != nil {
			t.Fatalf("reading what Write wrote: %v", err)
		}
		if !tensor.Equal(x, y) {
			t.Fatalf("round trip: got %v, want %v", y, x)
		}
	})
}

func BenchmarkRead16MiB(b *testing.B) {
	x := sample(b, tensor.Float32, tensor.Shape{4 << 20})
	in := encode(b, x)
	b.SetBytes(int64(len(in)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(in)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCopy16MiB is the baseline for BenchmarkRead16MiB: allocating and
// copying the same bytes.
func BenchmarkCopy16MiB(b *testing.B) {
	in := make([]byte, 16<<20)
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		dst := make([]byte, len(in))
		copy(dst, in)
	}
}

// counting counts the bytes read through it, and hides its reader's Len
// method.
type counting struct {
	r io.Reader
	n int64
}

func (c *counting) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestReadStringsLimit checks that a string tensor is held to the size
// limit with its contents: 16 bytes of header per element plus the UTF-8
// bytes of each element (not its runes, nor the file's code units, nor
// the NULs that pad it), and that one over the limit is refused after
// little more than the limit has been read.
func TestReadStringsLimit(t *testing.T) {
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(1 << 10))
	rep := strings.Repeat
	cases := []struct {
		name string
		data []string
		ok   bool
	}{
		{"at the limit", []string{rep("a", 496), rep("a", 496)}, true},
		{"a byte over", []string{rep("a", 497), rep("a", 496)}, false},
		{"many small at the limit", slices.Repeat([]string{"wxyz"}, 50), true},
		{"many small over", slices.Repeat([]string{"vwxyz"}, 50), false},
		{"bytes, not runes", []string{rep("é", 249), rep("é", 249)}, false},
		{"padding is not held", []string{"a", "b", rep("c", 900)}, true},
		{"one wide element", []string{rep("w", 1<<20)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer tensor.SetMaxBytes(tensor.SetMaxBytes(math.MaxInt64))
			b := encode(t, tensor.Must(tensor.From(tensor.Shape{len(c.data)}, c.data)))
			tensor.SetMaxBytes(1 << 10)
			for _, sized := range []bool{true, false} {
				r := &counting{r: bytes.NewReader(b)}
				var x tensor.Tensor
				var err error
				if sized {
					x, err = Read(bytes.NewReader(b))
				} else {
					x, err = Read(r)
				}
				if c.ok {
					if err != nil || !tensor.Equal(x, tensor.Must(tensor.From(tensor.Shape{len(c.data)}, c.data))) {
						t.Errorf("sized %v: got %v, %v", sized, x, err)
					}
					continue
				}
				if !errors.Is(err, tensor.ErrTooLarge) || !errors.Is(err, ErrFormat) {
					t.Errorf("sized %v: error %v, want ErrTooLarge", sized, err)
				}
				if !sized && r.n > 2*chunkSize {
					t.Errorf("read %d of %d bytes before refusing", r.n, len(b))
				}
				if partial := "after 262144 of 4194304 bytes of data: tensor: too large: string[1] takes"; c.name == "one wide element" && !strings.Contains(err.Error(), partial) {
					t.Errorf("error %v, want it to say %q", err, partial)
				}
			}
		})
	}
}

// TestReadStringsAcrossChunks reads elements wider than a read chunk, so
// that chunks end inside elements: inside a run of NULs that another code
// unit follows (kept) and inside the NULs that pad an element (dropped).
func TestReadStringsAcrossChunks(t *testing.T) {
	units := chunkSize / 4
	data := []string{
		strings.Repeat("é", units-2) + "\x00\x00z", // a chunk ends between the NULs and z
		"q",                          // padded across the next chunk's end
		strings.Repeat("r", units+3), // the widest
		"\x00mid\x00" + strings.Repeat("s", units/2),
	}
	x := tensor.Must(tensor.From(tensor.Shape{2, 2}, data))
	b := encode(t, x)
	for _, r := range []io.Reader{bytes.NewReader(b), unsized{bytes.NewReader(b)}} {
		y, err := Read(r)
		if err != nil || !tensor.Equal(x, y) {
			t.Errorf("Read(%T): %v; elements equal: %v", r, err, tensor.Equal(x, y))
		}
	}
}
