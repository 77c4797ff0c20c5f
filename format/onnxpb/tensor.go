package onnxpb

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unsafe"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/format/onnxpb/internal/pb"
	"github.com/scatter-dev/scatter/internal/rawbytes"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
)

// MaxRank is the largest number of dimensions a tensor may have to be
// decoded or encoded. ONNX sets no limit; this one only rejects absurd
// input early.
const MaxRank = 64

// Field numbers of TensorProto, as onnx.proto (and onnx_subset.proto)
// number them, that are not typed fields.
const (
	fieldDims         = 1
	fieldDataType     = 2
	fieldSegment      = 3
	fieldName         = 8
	fieldRawData      = 9
	fieldExternalData = 13
	fieldDataLocation = 14
)

// Field numbers looked up among a message's unknown fields.
const (
	fieldAttributeType   = 20
	fieldGraphSparseInit = 15
)

// DecodeTensor decodes a serialized ONNX TensorProto, returning the tensor
// and its name (empty if the message has none).
//
// The elements may be in raw_data (little-endian, for every type but
// string) or in the typed field ONNX assigns to the element type:
// float_data (float32; complex64 as real, imaginary pairs), int32_data
// (int32, int16, int8, uint16, uint8, bool, and float16 and bfloat16 as bit
// patterns), int64_data (int64), double_data (float64; complex128 as
// pairs), uint64_data (uint32, uint64) or string_data (string). The number
// of elements must match the dimensions exactly, and a value that does not
// fit the element type is an error. Tensors with external data or segments
// are not supported. Every error matches ErrFormat.
//
// The message is read in two passes: the first reads everything but the
// elements and counts those, so that the tensor is checked against the
// size limit (tensor.SetMaxBytes, string contents included) and against
// its dims before it is allocated; the second decodes the elements
// straight into the tensor's memory. The name too is held to the limit.
func DecodeTensor(b []byte) (tensor.Tensor, string, error) {
	return decodeTensor(memSource(b), "")
}

// EncodeTensor serializes t as an ONNX TensorProto named name (no name is
// written if it is empty). Fixed-size elements go to raw_data,
// little-endian; strings go to string_data. The bytes are those
// proto.Marshal writes for the message.
func EncodeTensor(t tensor.Tensor, name string) ([]byte, error) {
	return encodeTensor(t, name, fmt.Sprintf("tensor %q", name))
}

// decodeTensorProto converts p, a tensor of a model, to a tensor. ctx
// names the tensor in error messages.
func decodeTensorProto(p *pb.TensorProto, ctx string) (tensor.Tensor, error) {
	b, err := proto.Marshal(p)
	if err != nil {
		return tensor.Tensor{}, wrapf(err, "%s: cannot serialize", ctx)
	}
	t, _, err := decodeTensor(memSource(b), ctx)
	return t, err
}

// decodeTensor decodes the TensorProto in src. ctx names the tensor in
// messages; when it is empty, the tensor is named by its name. An error of
// reading src comes back as it is.
func decodeTensor(src *source, ctx string) (tensor.Tensor, string, error) {
	early := cmp.Or(ctx, "tensor") // names the tensor until its name is read
	h, err := scanTensor(src)
	if err != nil {
		return tensor.Tensor{}, "", readError(err, early)
	}
	name := ""
	if h.hasName {
		if err := tensor.CheckBytes("the tensor's name", h.name.size, 1); err != nil {
			return tensor.Tensor{}, "", wrapf(err, "%s", early)
		}
		b := make([]byte, h.name.size)
		if err := src.readAt(b, h.name.off); err != nil {
			return tensor.Tensor{}, "", readError(err, early)
		}
		name = string(b)
	}
	if ctx == "" {
		ctx = fmt.Sprintf("tensor %q", name)
	}
	d, err := h.decoder(ctx)
	if err != nil {
		return tensor.Tensor{}, "", err
	}
	t, err := d.read(src, h)
	if err != nil {
		return tensor.Tensor{}, "", readError(err, ctx)
	}
	return t, name, nil
}

// readError returns err, an error met while reading the message of the
// tensor that ctx names: a malformed message as an error that matches
// ErrFormat, anything else (an error of the file it is read from, or one
// that already matches ErrFormat) as it is.
func readError(err error, ctx string) error {
	var m *malformedError
	if errors.As(err, &m) {
		return wrapf(err, "%s: malformed protobuf", ctx)
	}
	return err
}

// tensorHeader is what the first pass learns of a TensorProto: everything
// but the elements, and how many values each field of elements holds.
type tensorHeader struct {
	dims        []int64 // the first MaxRank+1 dimensions
	rank        int     // the number of dimensions given
	dataType    int32
	segment     bool // whether the message has a segment
	external    bool // whether it has external_data entries
	location    int32
	badLocation bool // a data_location field of another wire type
	// name and raw are the last name and raw_data fields.
	name, raw       field
	hasName, hasRaw bool
	// lens counts the values of each typed field, and contents the bytes
	// of string_data.
	lens     [numTypedFields]int64
	contents int64
}

// scanTensor reads src, a serialized TensorProto, but for the values of
// its element fields, which it only counts.
//
// As proto.Unmarshal does, it takes the last of several values of a
// singular field (data_location too, whatever its value), repeated values
// packed or not, and a field of another wire type than the schema's for
// an unknown field.
func scanTensor(src *source) (*tensorHeader, error) {
	h := &tensorHeader{}
	var vals [batch]uint64
	c := src.cursor(0, src.size)
	for {
		f, ok, err := c.next()
		if err != nil || !ok {
			return h, err
		}
		if err := h.add(src, f, &vals); err != nil {
			return nil, err
		}
	}
}

// add records field f of the message in src.
func (h *tensorHeader) add(src *source, f field, vals *[batch]uint64) error {
	bytes := f.typ == protowire.BytesType
	switch f.num {
	case fieldDims:
		if bytes || f.typ == protowire.VarintType {
			return src.values(f, varints, vals, func(v []uint64) error {
				for _, d := range v[:min(len(v), MaxRank+1-len(h.dims))] {
					h.dims = append(h.dims, int64(d))
				}
				h.rank += len(v)
				return nil
			})
		}
	case fieldDataType:
		if f.typ == protowire.VarintType {
			h.dataType = int32(f.val)
		}
	case fieldSegment:
		if bytes {
			h.segment = true
			return src.checkMessage(f)
		}
	case fieldName:
		if bytes {
			h.name, h.hasName = f, true
		}
	case fieldRawData:
		if bytes {
			h.raw, h.hasRaw = f, true
		}
	case fieldExternalData:
		if bytes {
			h.external = true
			return src.checkMessage(f)
		}
	case fieldDataLocation:
		if f.typ == protowire.VarintType {
			h.location = int32(f.val)
		} else {
			h.badLocation = true
		}
	default:
		tf, ok := typedFieldOf(f.num)
		switch {
		case !ok:
		case tf == stringData:
			if bytes {
				h.lens[tf]++
				h.contents += f.size
			}
		case f.typ == tf.encoding().wireType():
			h.lens[tf]++
		case bytes && tf.encoding() == varints:
			return src.values(f, varints, vals, func(v []uint64) error {
				h.lens[tf] += int64(len(v))
				return nil
			})
		case bytes:
			size := int64(4)
			if tf.encoding() == fixed64s {
				size = 8
			}
			if f.size%size != 0 {
				return malformed("packed field %d has %d bytes, not a whole number of %d-byte values", f.num, f.size, size)
			}
			h.lens[tf] += f.size / size
		}
	}
	return nil
}

// tensorDecoder decodes the elements of a tensor whose header has been
// checked, and carries what the element decoders need for their checks
// and messages.
type tensorDecoder struct {
	ctx   string // names the tensor in messages, e.g. `tensor "x"`
	dtype tensor.DType
	shape tensor.Shape
	n     int        // number of elements
	field typedField // the field that holds them, unless raw_data does
	want  int64      // the values of field
	got   int64      // the values of field decoded so far
}

func (d *tensorDecoder) errorf(format string, args ...any) error {
	return errorf("%s: %s", d.ctx, fmt.Sprintf(format, args...))
}

// typeDesc describes the tensor's type and shape, e.g. "float32[2,3]".
func (d *tensorDecoder) typeDesc() string { return d.dtype.String() + d.shape.String() }

// decoder checks the header of the tensor that ctx names: its shape, its
// type, its size against the limit, and which fields hold how many
// elements.
func (h *tensorHeader) decoder(ctx string) (*tensorDecoder, error) {
	if h.rank > MaxRank {
		return nil, errorf("%s has %d dimensions, more than the %d supported", ctx, h.rank, MaxRank)
	}
	shape := make(tensor.Shape, len(h.dims))
	for i, dim := range h.dims {
		if dim < 0 {
			return nil, errorf("%s: dimension %d is negative (%d)", ctx, i, dim)
		}
		if uint64(dim) > math.MaxInt {
			// A valid dimension where int has 64 bits, too large where it has 32.
			return nil, wrapf(fmt.Errorf("%w: dimension %d (%d) is more than a %d-bit int counts (%w)",
				tensor.ErrTooLarge, i, dim, strconv.IntSize, tensor.ErrShape), "%s", ctx)
		}
		shape[i] = int(dim)
	}
	n, err := shape.NumElements()
	if err != nil {
		return nil, wrapf(err, "%s: invalid dims %v", ctx, h.dims)
	}
	dtype := tensor.DType(h.dataType)
	if err := tensor.CheckSize(dtype, shape); dtype.Valid() && err != nil {
		return nil, wrapf(err, "%s", ctx)
	}
	if h.segment {
		return nil, errorf("%s is a segment of a larger tensor, which is not supported", ctx)
	}
	if h.location == int32(pb.TensorProto_EXTERNAL) || h.external {
		return nil, errorf("%s uses external data, which is not supported", ctx)
	}
	if loc := h.location; h.badLocation || loc != int32(pb.TensorProto_DEFAULT) && loc != int32(pb.TensorProto_EXTERNAL) {
		return nil, errorf("%s has an unknown data_location", ctx)
	}
	if !dtype.Valid() {
		return nil, errorf("%s has unsupported data_type %d", ctx, h.dataType)
	}
	d := &tensorDecoder{ctx: ctx, dtype: dtype, shape: shape, n: n, field: -1}
	if h.hasRaw {
		return d, d.checkRaw(h)
	}
	// Every valid type has a field (TestTypedFields).
	d.field, _ = fieldFor(dtype)
	for f, n := range h.lens {
		if n > 0 && typedField(f) != d.field {
			return nil, d.errorf("%s cannot hold %s elements (want %s or raw_data)", typedField(f), dtype, d.field)
		}
	}
	per := int64(1)
	if dtype.IsComplex() {
		per = 2
	}
	d.want = per * int64(n)
	if err := d.checkCount(d.field, h.lens[d.field], per); err != nil {
		return nil, err
	}
	if dtype == tensor.String {
		if err := tensor.CheckStrings(shape, h.contents); err != nil {
			return nil, wrapf(err, "%s", ctx)
		}
	}
	return d, nil
}

// checkRaw checks that raw_data, and no typed field, holds the elements.
func (d *tensorDecoder) checkRaw(h *tensorHeader) error {
	for f, n := range h.lens {
		if n > 0 {
			return d.errorf("has both raw_data and %s", typedField(f))
		}
	}
	size := int64(d.dtype.Size())
	if size == 0 {
		return d.errorf("raw_data cannot hold %s elements", d.dtype)
	}
	if got := h.raw.size; got%size != 0 || got/size != int64(d.n) {
		want := fmt.Sprintf("%d elements of %d bytes", d.n, size)
		if int64(d.n) <= math.MaxInt64/size {
			want = fmt.Sprintf("%d bytes", int64(d.n)*size)
		}
		return d.errorf("raw_data has %d bytes, want %s for %s", got, want, d.typeDesc())
	}
	return nil
}

// checkCount checks that a typed field holding per values for each element
// has exactly as many values as the tensor needs.
func (d *tensorDecoder) checkCount(field typedField, got, per int64) error {
	if got%per == 0 && got/per == int64(d.n) {
		return nil
	}
	want := fmt.Sprintf("%d", d.n)
	if per > 1 {
		want = fmt.Sprintf("%d*%d", per, d.n)
		if int64(d.n) <= math.MaxInt64/per {
			want = fmt.Sprintf("%d", per*int64(d.n))
		}
	}
	return d.errorf("%s has %d values, want %s for %s", field, got, want, d.typeDesc())
}

// read allocates the tensor and decodes its elements from src into it.
func (d *tensorDecoder) read(src *source, h *tensorHeader) (tensor.Tensor, error) {
	t, err := tensor.New(d.dtype, d.shape)
	if err != nil {
		return tensor.Tensor{}, wrapf(err, "%s", d.ctx)
	}
	if h.hasRaw {
		return t, d.readRaw(src, h.raw, t)
	}
	// The second pass: the values of d.field, in order.
	var vals [batch]uint64
	var scratch []byte // a string element of a file source
	strs, _ := t.Data().([]string)
	num, enc := d.field.number(), d.field.encoding()
	c := src.cursor(0, src.size)
	for {
		f, ok, err := c.next()
		if err != nil {
			return tensor.Tensor{}, err
		}
		if !ok {
			break
		}
		switch {
		case f.num != num:
		case strs != nil:
			if f.typ != protowire.BytesType {
				continue
			}
			if d.got == d.want {
				return tensor.Tensor{}, d.changed()
			}
			if src.r == nil {
				strs[d.got] = string(src.b[f.off : f.off+f.size])
			} else {
				scratch = slices.Grow(scratch[:0], int(f.size))[:f.size]
				if err := src.readAt(scratch, f.off); err != nil {
					return tensor.Tensor{}, err
				}
				strs[d.got] = string(scratch)
			}
			d.got++
		case f.typ == protowire.BytesType || f.typ == enc.wireType():
			err := src.values(f, enc, &vals, func(v []uint64) error { return d.put(t.Data(), v) })
			if err != nil {
				return tensor.Tensor{}, err
			}
		}
	}
	if d.got != d.want {
		return tensor.Tensor{}, d.changed()
	}
	return t, nil
}

// changed is the error for a file that holds other elements in the second
// pass than it did in the first.
func (d *tensorDecoder) changed() error {
	return d.errorf("%s changed while it was read", d.field)
}

// readRaw reads raw_data, whose size has been checked, into the memory of
// t's elements and puts them in host byte order.
func (d *tensorDecoder) readRaw(src *source, raw field, t tensor.Tensor) error {
	b := rawbytes.Bytes(t.Data())
	if err := src.readAt(b, raw.off); err != nil {
		return err
	}
	if !rawbytes.LittleEndianHost() {
		rawbytes.Swap(b, rawbytes.WordSize(t.Data()))
	}
	if d.dtype == tensor.Bool {
		if i := slices.IndexFunc(b, func(c byte) bool { return c > 1 }); i >= 0 {
			return d.errorf("raw_data byte %d is %d; bool elements must be 0 or 1", i, b[i])
		}
	}
	return nil
}

// put stores the next values of the typed field into data, the tensor's
// element slice, converting each to the element type.
func (d *tensorDecoder) put(data any, vals []uint64) error {
	if int64(len(vals)) > d.want-d.got {
		return d.changed()
	}
	at := int(d.got)
	// The float fields list a complex element as its real and imaginary
	// parts, which is how memory holds it.
	if s, ok := data.([]complex64); ok {
		data = parts[float32](s)
	} else if s, ok := data.([]complex128); ok {
		data = parts[float64](s)
	}
	switch s := data.(type) {
	case []float32:
		for i, v := range vals {
			s[at+i] = math.Float32frombits(uint32(v))
		}
	case []float64:
		for i, v := range vals {
			s[at+i] = math.Float64frombits(v)
		}
	case []int32:
		if err := d.checkInt32Range(vals, math.MinInt32, math.MaxInt32); err != nil {
			return err
		}
		for i, v := range vals {
			s[at+i] = int32(v)
		}
	case []int16:
		return narrow(d, s[at:], vals, math.MinInt16, math.MaxInt16)
	case []int8:
		return narrow(d, s[at:], vals, math.MinInt8, math.MaxInt8)
	case []uint16:
		return narrow(d, s[at:], vals, 0, math.MaxUint16)
	case []uint8:
		return narrow(d, s[at:], vals, 0, math.MaxUint8)
	case []float16.Float16: // bit patterns
		return narrow(d, s[at:], vals, 0, math.MaxUint16)
	case []bfloat16.BFloat16: // bit patterns
		return narrow(d, s[at:], vals, 0, math.MaxUint16)
	case []bool:
		if err := d.checkInt32Range(vals, 0, 1); err != nil {
			return err
		}
		for i, v := range vals {
			s[at+i] = int32(v) == 1
		}
	case []int64:
		for i, v := range vals {
			s[at+i] = int64(v)
		}
	case []uint32:
		for i, v := range vals {
			if v > math.MaxUint32 {
				return d.errorf("%s value %d at index %d is out of range for uint32", uint64Data, v, at+i)
			}
			s[at+i] = uint32(v)
		}
	case []uint64:
		copy(s[at:], vals)
	default:
		return d.errorf("no field holds %s elements", d.dtype)
	}
	d.got += int64(len(vals))
	return nil
}

// parts returns the memory of s, a complex64 slice (F float32) or a
// complex128 one (F float64), as its elements' real and imaginary parts.
func parts[F float32 | float64, C complex64 | complex128](s []C) []F {
	return unsafe.Slice((*F)(unsafe.Pointer(unsafe.SliceData(s))), 2*len(s))
}

// checkInt32Range checks that every int32_data value lies in [lo, hi]. A
// value is read as the varint of an int32 is written, sign-extended to 64
// bits: one beyond int32 (2^32+5, which protobuf's runtimes cut to 5) is
// out of range.
func (d *tensorDecoder) checkInt32Range(vals []uint64, lo, hi int32) error {
	for i, v := range vals {
		if x := int64(v); x < int64(lo) || x > int64(hi) {
			return d.errorf("%s value %d at index %d is out of range for %s (%d to %d)", int32Data, x, d.got+int64(i), d.dtype, lo, hi)
		}
	}
	return nil
}

// narrow stores int32_data values, each of which must lie in [lo, hi],
// into dst, of a narrower integer type or the bit patterns of a 16-bit
// float type.
func narrow[T ~int8 | ~int16 | ~uint8 | ~uint16](d *tensorDecoder, dst []T, vals []uint64, lo, hi int32) error {
	if err := d.checkInt32Range(vals, lo, hi); err != nil {
		return err
	}
	for i, v := range vals {
		dst[i] = T(int32(v))
	}
	d.got += int64(len(vals))
	return nil
}

// typedField is one of the TensorProto fields that hold the elements by
// type, as opposed to raw_data.
type typedField int

// The typed fields, in the order in which errors report them.
const (
	floatData typedField = iota
	int32Data
	stringData
	int64Data
	doubleData
	uint64Data
	numTypedFields
)

// typedFields holds each typed field's name and number in onnx.proto and
// how it holds its values (string_data holds bytes, not numbers).
var typedFields = [numTypedFields]struct {
	name string
	num  protowire.Number
	enc  encoding
}{
	floatData:  {"float_data", 4, fixed32s},
	int32Data:  {"int32_data", 5, varints},
	stringData: {"string_data", 6, varints},
	int64Data:  {"int64_data", 7, varints},
	doubleData: {"double_data", 10, fixed64s},
	uint64Data: {"uint64_data", 11, varints},
}

// String returns the field's name in onnx.proto.
func (f typedField) String() string { return typedFields[f].name }

func (f typedField) number() protowire.Number { return typedFields[f].num }

func (f typedField) encoding() encoding { return typedFields[f].enc }

// typedFieldOf returns the typed field numbered num, if one is.
func typedFieldOf(num protowire.Number) (typedField, bool) {
	for f := range numTypedFields {
		if f.number() == num {
			return f, true
		}
	}
	return 0, false
}

// fieldFor returns the typed field that holds elements of type d when
// raw_data is not used, and false for a type that has none.
func fieldFor(d tensor.DType) (typedField, bool) {
	switch d {
	case tensor.Float32, tensor.Complex64:
		return floatData, true
	case tensor.Int32, tensor.Int16, tensor.Int8, tensor.Uint16, tensor.Uint8,
		tensor.Bool, tensor.Float16, tensor.BFloat16:
		return int32Data, true
	case tensor.Int64:
		return int64Data, true
	case tensor.Float64, tensor.Complex128:
		return doubleData, true
	case tensor.Uint32, tensor.Uint64:
		return uint64Data, true
	case tensor.String:
		return stringData, true
	}
	return 0, false
}

// tensorEncoder writes one tensor as a serialized TensorProto: the bytes
// proto.Marshal writes for it (dims, data_type, string_data, name,
// raw_data, in the order of their numbers), a field at a time and the
// elements from the tensor's own memory.
type tensorEncoder struct {
	head []byte   // dims and data_type
	strs []string // the elements of a string tensor
	name string
	raw  []byte // the memory of fixed-size elements, in host byte order
	word int    // the size of its words
}

// newTensorEncoder checks that t can be encoded, in no more bytes than the
// limit of tensor.SetMaxBytes. ctx names the tensor in error messages.
func newTensorEncoder(t tensor.Tensor, name, ctx string) (*tensorEncoder, error) {
	if t.IsZero() {
		return nil, errorf("%s: cannot encode the zero (undefined) tensor", ctx)
	}
	d := t.DType()
	if !d.Valid() {
		return nil, errorf("%s: unsupported element type %v", ctx, d)
	}
	if t.Rank() > MaxRank {
		return nil, errorf("%s has %d dimensions, more than the %d supported", ctx, t.Rank(), MaxRank)
	}
	e := &tensorEncoder{name: name}
	for i := range t.Rank() {
		e.head = protowire.AppendTag(e.head, fieldDims, protowire.VarintType)
		e.head = protowire.AppendVarint(e.head, uint64(t.Dim(i)))
	}
	e.head = protowire.AppendTag(e.head, fieldDataType, protowire.VarintType)
	e.head = protowire.AppendVarint(e.head, uint64(d))
	if d == tensor.String {
		v, err := tensor.Values[string](t)
		if err != nil {
			return nil, wrapf(err, "%s", ctx)
		}
		e.strs = v
	} else {
		// raw_data is written even when it is empty.
		e.raw, e.word = rawbytes.Bytes(t.Data()), rawbytes.WordSize(t.Data())
		if e.raw == nil {
			e.raw = []byte{}
		}
	}
	// What is written is held to the size limit too: a long string
	// gathered many times takes little memory (the copies share it) but
	// as many bytes each in the file.
	if err := tensor.CheckBytes(fmt.Sprintf("the TensorProto of %s", ctx), int64(e.size()), 1); err != nil {
		return nil, fmt.Errorf("onnxpb: %w", err)
	}
	return e, nil
}

// size returns the number of bytes write writes.
func (e *tensorEncoder) size() int {
	n := len(e.head)
	for _, s := range e.strs {
		n += protowire.SizeTag(stringData.number()) + protowire.SizeBytes(len(s))
	}
	if e.name != "" {
		n += protowire.SizeTag(fieldName) + protowire.SizeBytes(len(e.name))
	}
	if e.raw != nil {
		n += protowire.SizeTag(fieldRawData) + protowire.SizeBytes(len(e.raw))
	}
	return n
}

// write writes the message to w. (The buffered writer keeps the first
// error of w, which Flush returns.)
func (e *tensorEncoder) write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, bufSize)
	bw.Write(e.head)
	var b []byte
	for _, s := range e.strs {
		b = protowire.AppendTag(b[:0], stringData.number(), protowire.BytesType)
		bw.Write(protowire.AppendVarint(b, uint64(len(s))))
		bw.WriteString(s)
	}
	if e.name != "" {
		b = protowire.AppendTag(b[:0], fieldName, protowire.BytesType)
		bw.Write(protowire.AppendVarint(b, uint64(len(e.name))))
		bw.WriteString(e.name)
	}
	if e.raw != nil {
		b = protowire.AppendTag(b[:0], fieldRawData, protowire.BytesType)
		bw.Write(protowire.AppendVarint(b, uint64(len(e.raw))))
		rawbytes.WriteLittleEndian(bw, e.raw, e.word)
	}
	return bw.Flush()
}

// encodeTensorProto converts t to a TensorProto named name, for a model.
// ctx names the tensor in error messages.
func encodeTensorProto(t tensor.Tensor, name, ctx string) (*pb.TensorProto, error) {
	b, err := encodeTensor(t, name, ctx)
	if err != nil {
		return nil, err
	}
	p := &pb.TensorProto{}
	if err := proto.Unmarshal(b, p); err != nil {
		return nil, wrapf(err, "%s: cannot serialize", ctx)
	}
	return p, nil
}

// encodeTensor is EncodeTensor with ctx naming the tensor in error
// messages.
func encodeTensor(t tensor.Tensor, name, ctx string) ([]byte, error) {
	e, err := newTensorEncoder(t, name, ctx)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	buf.Grow(e.size())
	if err := e.write(&buf); err != nil {
		return nil, wrapf(err, "%s: cannot serialize", ctx)
	}
	return buf.Bytes(), nil
}
