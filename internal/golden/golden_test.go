package golden_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bfloat16"
	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/registry"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

var update = flag.Bool("update", false, "rewrite testdata/digest.txt and testdata/calls.txt from this platform's results (on amd64)")

const (
	// digestFile holds two SHA-256 digests of the outcomes of every call,
	// in order: blind to which NaN a NaN is, then exact.
	digestFile = "testdata/digest.txt"
	// callsFile holds, a line for each call, the start of the digests of
	// its outcome, blind and exact, to locate a difference.
	callsFile = "testdata/calls.txt"
)

// TestGoldenDigest runs the battery and compares the digests of its
// outcomes with the committed ones; on a difference it names the first
// call whose outcome changed.
//
// Every bit of every outcome is the same on every platform, the bits of
// NaNs included: the engine makes each NaN by one rule (engine/nan.go)
// where the hardware would differ (0 * Inf: amd64 and 386 set the sign,
// arm64 and s390x do not; of two NaN operands, which one is kept depends
// on the order the compiler puts them in). So both digests must match
// everywhere; the NaN-blind one, which does not say which NaN a NaN is,
// tells a change of NaN bits from a change of anything else.
func TestGoldenDigest(t *testing.T) {
	calls := battery(t)
	blindAll, exactAll := sha256.New(), sha256.New()
	sums := make([]string, len(calls))
	for i, c := range calls {
		exact, blind := outcomes(c)
		fmt.Fprintf(blindAll, "%s\n%d\n", c.what, len(blind))
		blindAll.Write(blind)
		fmt.Fprintf(exactAll, "%s\n%d\n", c.what, len(exact))
		exactAll.Write(exact)
		b := sha256.Sum256(append([]byte(c.what+"\n"), blind...))
		e := sha256.Sum256(append([]byte(c.what+"\n"), exact...))
		sums[i] = hex.EncodeToString(b[:8]) + " " + hex.EncodeToString(e[:4])
	}
	digests := []string{hex.EncodeToString(blindAll.Sum(nil)), hex.EncodeToString(exactAll.Sum(nil))}
	if *update {
		writeLines(t, digestFile, digests)
		writeLines(t, callsFile, sums)
		t.Logf("%d calls, digests %s", len(calls), digests)
		return
	}
	want := readLines(t, digestFile)
	wantSums := readLines(t, callsFile)
	if len(want) != 2 {
		t.Fatalf("%s holds %d lines, want 2", digestFile, len(want))
	}
	for k, what := range []string{"NaN-blind", "exact"} {
		if want[k] != digests[k] {
			t.Errorf("the %s digest of %d calls on %s/%s is %s, want %s (go test ./internal/golden -update rewrites it where the change is meant)",
				what, len(calls), runtime.GOOS, runtime.GOARCH, digests[k], want[k])
			first(t, calls, sums, wantSums, k)
			return
		}
	}
}

// first fails the test naming the first call whose digest (part k of
// its line: 0 blind, 1 exact) differs from the committed one.
func first(t *testing.T, calls []call, sums, wantSums []string, k int) {
	t.Helper()
	for i, s := range sums {
		if i >= len(wantSums) || strings.Fields(s)[k] != strings.Fields(wantSums[i])[k] {
			t.Fatalf("first changed call, %d of %d: %s\n  outcome now: %s", i+1, len(calls), calls[i].what, describe(calls[i]))
		}
	}
	if len(wantSums) != len(sums) {
		t.Fatalf("%d calls, testdata lists %d", len(sums), len(wantSums))
	}
}

func readLines(t *testing.T, name string) []string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatalf("%v (go test ./internal/golden -update writes it)", err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

func writeLines(t *testing.T, name string, lines []string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// call is one call of the battery, described by what.
type call struct {
	what string
	op   *dialect.Op
	c    dialect.Call
}

// outcomes returns the call's result as bytes that do not depend on the
// byte order: the type, the shape and each element little-endian, or the
// error's message; exact, and blind to which NaN a NaN is.
func outcomes(c call) (exact, blind []byte) {
	out, err := c.op.Run(c.c)
	if err != nil {
		b := []byte("error: " + err.Error())
		return b, b
	}
	b := fmt.Appendf(nil, "%v%v:", out.DType(), out.Shape())
	return appendElems(b, out, false), appendElems(slices.Clone(b), out, true)
}

// blindBits returns the bits of a floating-point value, or if blind and
// it is a NaN, all ones: the NaN-blind outcome does not say which NaN.
func blindBits[B uint16 | uint32 | uint64](bits B, nan, blind bool) B {
	if nan && blind {
		return ^B(0)
	}
	return bits
}

// describe returns the call's outcome as text, for a failure message.
func describe(c call) string {
	out, err := c.op.Run(c.c)
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%v (bits %x)", out, appendElems(nil, out, false))
}

// appendElems appends the elements of t to b, little-endian; if blind,
// every NaN as the same bits, all ones.
func appendElems(b []byte, t tensor.Tensor, blind bool) []byte {
	le := binary.LittleEndian
	switch s := t.Data().(type) {
	case []bool:
		for _, v := range s {
			b = append(b, map[bool]byte{false: 0, true: 1}[v])
		}
	case []int8, []uint8, []int16, []uint16, []int32, []uint32, []int64, []uint64:
		// The low bytes of the value's 64 bits, as many as the type has.
		size := t.DType().Size()
		for i := range t.Len() {
			v, _ := t.IntAt(i)
			b = le.AppendUint64(b, uint64(v))[:len(b)+size]
		}
	case []float16.Float16:
		for _, v := range s {
			b = le.AppendUint16(b, blindBits(v.Bits(), v.IsNaN(), blind))
		}
	case []bfloat16.BFloat16:
		for _, v := range s {
			b = le.AppendUint16(b, blindBits(v.Bits(), v.IsNaN(), blind))
		}
	case []float32:
		for _, v := range s {
			b = le.AppendUint32(b, blindBits(math.Float32bits(v), v != v, blind))
		}
	case []float64:
		for _, v := range s {
			b = le.AppendUint64(b, blindBits(math.Float64bits(v), v != v, blind))
		}
	case []complex64:
		for _, v := range s {
			re, im := real(v), imag(v)
			b = le.AppendUint32(b, blindBits(math.Float32bits(re), re != re, blind))
			b = le.AppendUint32(b, blindBits(math.Float32bits(im), im != im, blind))
		}
	case []complex128:
		for _, v := range s {
			re, im := real(v), imag(v)
			b = le.AppendUint64(b, blindBits(math.Float64bits(re), re != re, blind))
			b = le.AppendUint64(b, blindBits(math.Float64bits(im), im != im, blind))
		}
	case []string:
		for _, v := range s {
			b = le.AppendUint32(b, uint32(len(v)))
			b = append(b, v...)
		}
	default:
		panic(fmt.Sprintf("golden: no encoding for %T", s))
	}
	return b
}

// The corner values of each element type, as bits where the bits are the
// point: NaNs with payloads and both signs, signed zeros, the smallest
// subnormal and one in the middle of the subnormals, the largest finite
// values, infinities, and ordinary values whose sums and products round.
var (
	f32Corners = []uint32{0x00000000, 0x80000000, 0x7fc00123, 0xffc00456, 0x00000001, 0x80400000,
		0x7f7fffff, 0xff800000, 0x7f800000, 0x3f800000, 0xbfc00000, 0x3dcccccd, 0x40490fdb, 0x00800000}
	f64Corners = []uint64{0, 0x8000000000000000, 0x7ff8000000000123, 0xfff8000000000456, 1, 0x8008000000000000,
		0x7fefffffffffffff, 0xfff0000000000000, 0x7ff0000000000000, 0x3ff0000000000000, 0xbff8000000000000,
		0x3fb999999999999a, 0x400921fb54442d18, 0x0010000000000000}
	f16Corners  = []uint16{0x0000, 0x8000, 0x7e01, 0xfe02, 0x0001, 0x8200, 0x7bff, 0xfc00, 0x7c00, 0x3c00, 0xbe00, 0x2e66, 0x4248, 0x0400}
	bf16Corners = []uint16{0x0000, 0x8000, 0x7fc1, 0xffc2, 0x0001, 0x8040, 0x7f7f, 0xff80, 0x7f80, 0x3f80, 0xbfc0, 0x3dcd, 0x4049, 0x0080}
	intCorners  = []int64{0, 1, -1, math.MinInt64, math.MaxInt64, 7, -100, 3, 2, -2, 127, -128, 255, 1 << 40}
	strCorners  = []string{"", "a", "\u00e9t\u00e9", "b\x00c", "zz", "A", "a"}
)

// values returns a tensor of type d and the given shape holding its
// corner values in turn, from the k-th on; a complex part's imaginary part
// runs through the corners at another pace than its real part.
func values(d tensor.DType, shape tensor.Shape, k int) tensor.Tensor {
	n, err := shape.NumElements()
	if err != nil {
		panic(err)
	}
	f32 := func(i int) float32 { return math.Float32frombits(f32Corners[(i+k)%len(f32Corners)]) }
	f64 := func(i int) float64 { return math.Float64frombits(f64Corners[(i+k)%len(f64Corners)]) }
	var data any
	switch d {
	case tensor.Bool:
		data = fill(n, func(i int) bool { return (i+k)%3 == 1 })
	case tensor.Float32:
		data = fill(n, f32)
	case tensor.Float64:
		data = fill(n, f64)
	case tensor.Float16:
		data = fill(n, func(i int) float16.Float16 { return float16.Frombits(f16Corners[(i+k)%len(f16Corners)]) })
	case tensor.BFloat16:
		data = fill(n, func(i int) bfloat16.BFloat16 { return bfloat16.FromBits(bf16Corners[(i+k)%len(bf16Corners)]) })
	case tensor.Complex64:
		data = fill(n, func(i int) complex64 { return complex(f32(i), f32(3*i+5)) })
	case tensor.Complex128:
		data = fill(n, func(i int) complex128 { return complex(f64(i), f64(3*i+5)) })
	case tensor.String:
		data = fill(n, func(i int) string { return strCorners[(i+k)%len(strCorners)] })
	default: // the integers: the corners wrapped to the type's width
		t := tensor.Must(tensor.New(d, shape))
		for i := range n {
			t.SetIntAt(i, intCorners[(i+k)%len(intCorners)])
		}
		return t
	}
	return tensor.Must(tensor.Wrap(shape, data))
}

// fill returns the n values f gives for 0 to n-1.
func fill[T any](n int, f func(i int) T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = f(i)
	}
	return s
}

// indexSet is a family's indices for one variant, as int64 values and a
// shape, with the updates' shape, the axis or the dimension numbers that
// go with them.
type indexSet struct {
	name    string
	idx     []int64
	shape   tensor.Shape
	updates tensor.Shape
	axis    int64
	attrs   map[dialect.Role]dialect.Value
}

func ints(v ...int64) dialect.Value { return dialect.Value{Kind: dialect.Ints, Ints: v} }
func one(v int64) dialect.Value     { return dialect.Value{Kind: dialect.Int, Int: v} }

// The data of every call is [4,3]. Each family's index sets: duplicates,
// a negative index and one out of range, along each axis where the family
// has one.
var dataShape = tensor.Shape{4, 3}

// setsOf returns the key of op's index sets in indexSets: its family,
// but "segment_ids" for the segment reductions that take their number of
// segments (TensorFlow's and JAX's), whose indices are one id per row,
// and the family prefixed with "torch." for PyTorch's members of families
// that NumPy spells with other arguments (an index along dim, a flat
// index).
func setsOf(op *dialect.Op) string {
	for _, p := range op.Inputs {
		if p.Role == dialect.RoleNumSegments {
			return "segment_ids"
		}
	}
	switch op.Family {
	case "segment_sum", "segment_max", "take", "put", "take_along_axis":
		if strings.HasPrefix(op.Name, "torch.") {
			return "torch." + op.Family
		}
	}
	return op.Family
}

func indexSets(family string) []indexSet {
	switch family {
	case "scatter_elements", "gather_elements":
		return []indexSet{
			{"axis 0, duplicates", []int64{1, 0, 3, 1, 3, 1}, tensor.Shape{2, 3}, tensor.Shape{2, 3}, 0, nil},
			{"axis 1, duplicates", []int64{0, 2, 0, 1, 1, 2, 2, 2, 0}, tensor.Shape{3, 3}, tensor.Shape{3, 3}, 1, nil},
			{"axis -1, one row", []int64{2, 2}, tensor.Shape{1, 2}, tensor.Shape{1, 2}, -1, nil},
			{"negative", []int64{-1, 0, -4, 1, -1, 1}, tensor.Shape{2, 3}, tensor.Shape{2, 3}, 0, nil},
			{"out of range", []int64{0, 4, 0}, tensor.Shape{1, 3}, tensor.Shape{1, 3}, 0, nil},
		}
	case "scatter_nd", "gather_nd":
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3, 1}, tensor.Shape{3, 3}, 0, nil},
			{"elements, duplicates", []int64{1, 2, 0, 0, 1, 2, 3, 1, 1, 2}, tensor.Shape{5, 2}, tensor.Shape{5}, 0, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2, 1}, tensor.Shape{2, 3}, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1, 1}, tensor.Shape{1, 3}, 0, nil},
		}
	case "gather":
		return []indexSet{
			{"axis 0, duplicates", []int64{2, 0, 2, 3}, tensor.Shape{4}, nil, 0, nil},
			{"axis 1, matrix", []int64{2, 0, 2, 1}, tensor.Shape{2, 2}, nil, 1, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, nil, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, nil, 0, nil},
		}
	case "torch.segment_sum", "torch.segment_max", "index_copy", "index_fill":
		return []indexSet{
			{"dim 0, duplicates", []int64{1, 3, 1}, tensor.Shape{3}, tensor.Shape{3, 3}, 0, nil},
			{"dim 1, duplicates", []int64{2, 0, 2, 1}, tensor.Shape{4}, tensor.Shape{4, 4}, 1, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2, 3}, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, tensor.Shape{1, 3}, 0, nil},
		}
	case "torch.take", "torch.put":
		return []indexSet{
			{"flat, duplicates", []int64{11, 0, 11, 5}, tensor.Shape{2, 2}, tensor.Shape{4}, 0, nil},
			{"negative", []int64{-1, -12}, tensor.Shape{2}, tensor.Shape{2}, 0, nil},
			{"out of range", []int64{12}, tensor.Shape{1}, tensor.Shape{1}, 0, nil},
		}
	case "index_put":
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3}, tensor.Shape{3, 3}, 0, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{3}, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, tensor.Shape{1, 3}, 0, nil},
		}
	case "masked_scatter":
		return []indexSet{
			{"rows", []int64{1, 0, 1}, tensor.Shape{3}, tensor.Shape{12}, 0, nil},
			{"elements", []int64{0, 1, 1, 0, 0, 0, 1, 1, 1, 0, 0, 1}, tensor.Shape{4, 3}, tensor.Shape{2, 3}, 0, nil},
			{"too few", []int64{1, 1, 1}, tensor.Shape{3}, tensor.Shape{5}, 0, nil},
		}
	case "torch.take_along_axis":
		return []indexSet{
			{"dim 0, broadcast", []int64{3, 0, 2}, tensor.Shape{1, 3}, nil, 0, nil},
			{"dim 1", []int64{2, 0, 1, 1, 0, 2, 2, 2}, tensor.Shape{4, 2}, nil, 1, nil},
			{"negative", []int64{-1, 0, 1}, tensor.Shape{1, 3}, nil, 0, nil},
			{"out of range", []int64{4, 0, 0}, tensor.Shape{1, 3}, nil, 0, nil},
		}
	case "general_scatter":
		rows := map[dialect.Role]dialect.Value{dialect.RoleUpdateWindowDims: ints(1), dialect.RoleInsertedWindowDims: ints(0),
			dialect.RoleScatterDimsToOperandDims: ints(0), dialect.RoleIndexVectorDim: one(1)}
		elems := map[dialect.Role]dialect.Value{dialect.RoleUpdateWindowDims: ints(), dialect.RoleInsertedWindowDims: ints(0, 1),
			dialect.RoleScatterDimsToOperandDims: ints(0, 1), dialect.RoleIndexVectorDim: one(1)}
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3, 1}, tensor.Shape{3, 3}, 0, rows},
			{"elements, duplicates", []int64{1, 2, 0, 0, 1, 2, 3, 1, 1, 2}, tensor.Shape{5, 2}, tensor.Shape{5}, 0, elems},
			{"negative", []int64{-1, 0}, tensor.Shape{2, 1}, tensor.Shape{2, 3}, 0, rows},
			{"out of range", []int64{4, 1}, tensor.Shape{2, 1}, tensor.Shape{2, 3}, 0, rows},
		}
	case "general_gather":
		rows := map[dialect.Role]dialect.Value{dialect.RoleOffsetDims: ints(1), dialect.RoleCollapsedSliceDims: ints(0),
			dialect.RoleStartIndexMap: ints(0), dialect.RoleIndexVectorDim: one(1), dialect.RoleSliceSizes: ints(1, 3)}
		elems := map[dialect.Role]dialect.Value{dialect.RoleOffsetDims: ints(), dialect.RoleCollapsedSliceDims: ints(0, 1),
			dialect.RoleStartIndexMap: ints(0, 1), dialect.RoleIndexVectorDim: one(1), dialect.RoleSliceSizes: ints(1, 1)}
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3, 1}, nil, 0, rows},
			{"elements, duplicates", []int64{1, 2, 0, 0, 1, 2, 3, 1}, tensor.Shape{4, 2}, nil, 0, elems},
			{"negative", []int64{-1, 0}, tensor.Shape{2, 1}, nil, 0, rows},
			{"out of range", []int64{4, 1}, tensor.Shape{2, 1}, nil, 0, rows},
		}
	case "dynamic_slice", "dynamic_update_slice":
		sizes := map[dialect.Role]dialect.Value{dialect.RoleSliceSizes: ints(2, 2)}
		return []indexSet{
			{"inside", []int64{1, 1}, tensor.Shape{2}, tensor.Shape{2, 2}, 0, sizes},
			{"clamped", []int64{3, 2}, tensor.Shape{2}, tensor.Shape{2, 2}, 0, sizes},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2, 2}, 0, sizes},
		}
	case "take":
		return []indexSet{
			{"axis 0, duplicates", []int64{2, 0, 2, 3}, tensor.Shape{4}, nil, 0, nil},
			{"axis 1, matrix", []int64{2, 0, 2, 1}, tensor.Shape{2, 2}, nil, 1, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, nil, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, nil, 0, nil},
		}
	case "take_along_axis":
		return indexSets("gather_elements")
	case "put":
		return []indexSet{
			{"flat, duplicates", []int64{1, 11, 1}, tensor.Shape{3}, tensor.Shape{3}, 0, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2}, 0, nil},
			{"out of range", []int64{12}, tensor.Shape{1}, tensor.Shape{1}, 0, nil},
		}
	case "segment_sum", "segment_sub", "segment_prod", "segment_max", "segment_min":
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3}, tensor.Shape{3, 3}, 0, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2, 3}, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, tensor.Shape{1, 3}, 0, nil},
		}
	case "segment_ids":
		// A segment id per row, or per element; num_segments 4, or 6 to
		// leave segments empty.
		four, six := map[dialect.Role]dialect.Value{dialect.RoleNumSegments: one(4)}, map[dialect.Role]dialect.Value{dialect.RoleNumSegments: one(6)}
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1, 1}, tensor.Shape{4}, nil, 0, four},
			{"elements, duplicates", []int64{0, 2, 0, 1, 1, 2, 3, 0, 3, 2, 2, 2}, tensor.Shape{4, 3}, nil, 0, four},
			{"empty segments", []int64{0, 0, 5, 5}, tensor.Shape{4}, nil, 0, six},
			{"negative", []int64{-1, 0, -4, 1}, tensor.Shape{4}, nil, 0, four},
			{"out of range", []int64{0, 4, 1, 0}, tensor.Shape{4}, nil, 0, four},
		}
	case "reduceat":
		return []indexSet{
			{"runs, a descending pair", []int64{0, 2, 1, 3}, tensor.Shape{4}, nil, 0, nil},
			{"axis 1", []int64{2, 0}, tensor.Shape{2}, nil, 1, nil},
			{"negative", []int64{0, -1}, tensor.Shape{2}, nil, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, nil, 0, nil},
		}
	case "segment_sum_sorted":
		return []indexSet{
			{"runs and a gap", []int64{0, 0, 2, 2}, tensor.Shape{4}, nil, 0, nil},
			{"one a row", []int64{0, 1, 2, 3}, tensor.Shape{4}, nil, 0, nil},
			{"decreasing", []int64{0, 1, 0, 1}, tensor.Shape{4}, nil, 0, nil},
			{"negative", []int64{-1, -1, 0, 0}, tensor.Shape{4}, nil, 0, nil},
		}
	case "scatter_rows":
		return []indexSet{
			{"rows, duplicates", []int64{1, 3, 1}, tensor.Shape{3}, tensor.Shape{3, 3}, 0, nil},
			{"a matrix of rows", []int64{2, 0, 2, 3}, tensor.Shape{2, 2}, tensor.Shape{2, 2, 3}, 0, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2, 3}, 0, nil},
			{"out of range", []int64{4}, tensor.Shape{1}, tensor.Shape{1, 3}, 0, nil},
		}
	case "bincount":
		return []indexSet{
			{"duplicates", []int64{1, 3, 1, 0}, tensor.Shape{4}, tensor.Shape{4}, 0, nil},
			{"rows, axis -1", []int64{2, 0, 2, 1, 1, 0}, tensor.Shape{2, 3}, tensor.Shape{2, 3}, -1, nil},
			{"negative", []int64{-1, 0}, tensor.Shape{2}, tensor.Shape{2}, 0, nil},
			{"one large value", []int64{7}, tensor.Shape{1}, tensor.Shape{1}, 0, nil},
		}
	}
	panic("golden: no index sets for the family " + family)
}

// battery returns every call: for each operator, each version, each index
// set, each element type (those the operator refuses too, by their
// errors), each reduction (and none given), each setting of its
// include-self attribute; and with float32 data, each index type.
func battery(t *testing.T) []call {
	t.Helper()
	var calls []call
	for _, op := range registry.Ops() {
		for _, version := range op.Versions {
			_, b, err := op.Resolve(version)
			if err != nil {
				t.Fatal(err)
			}
			reductions := append([]string{""}, dialect.ReductionNames(b.Reductions)...)
			includes := []string{""}
			if b.IncludeSelf != "" {
				includes = []string{"", "true", "false"}
			}
			idxTypes := b.IndexTypes.List()
			if !slices.Contains(idxTypes, tensor.Int16) {
				idxTypes = append(idxTypes, tensor.Int16) // refused by most
			}
			for _, set := range indexSets(setsOf(op)) {
				for _, d := range tensor.DTypes() {
					its := idxTypes[:1]
					if d == tensor.Float32 {
						its = idxTypes
					}
					for _, it := range its {
						for _, red := range reductions {
							for _, incl := range includes {
								for _, value := range valueForms(op) {
									what := fmt.Sprintf("%s v%d, %s, %v data, %v indices", op.Name, version, set.name, d, it)
									if red != "" {
										what += ", reduction " + red
									}
									if incl != "" {
										what += ", " + b.IncludeSelf + " " + incl
									}
									if value != "" {
										what += ", " + value
									}
									calls = append(calls, call{what, op, build(op, version, set, d, it, red, b.IncludeSelf, incl, value)})
								}
							}
						}
					}
				}
			}
		}
	}
	return calls
}

// valueForms returns the ways an operator's optional value inputs are
// given: for torch.scatter, its src or its scalar value; for a gather
// with a fill value, none or one.
func valueForms(op *dialect.Op) []string {
	for _, p := range op.Inputs {
		switch p.Role {
		case dialect.RoleValue:
			return []string{"src", "value"}
		case dialect.RoleFill:
			return []string{"", "fill_value"}
		}
	}
	return []string{""}
}

// build returns the call of op at version with the index set in type it,
// data and updates of type d, the reduction red (none if ""), include
// attribute incl (unset if "") and the value form.
func build(op *dialect.Op, version int, set indexSet, d, it tensor.DType, red, includeName, incl, value string) dialect.Call {
	c := dialect.Call{Opset: version, Inputs: map[string]tensor.Tensor{}, Attrs: map[string]dialect.Value{}}
	idx := tensor.Must(tensor.New(it, set.shape))
	for i, v := range set.idx {
		idx.SetIntAt(i, v)
	}
	for _, p := range op.Inputs {
		switch p.Role {
		case dialect.RoleData:
			c.Inputs[p.Name] = values(d, dataShape, 0)
		case dialect.RoleIndices:
			c.Inputs[p.Name] = idx
		case dialect.RoleUpdates:
			if value != "value" {
				c.Inputs[p.Name] = values(d, set.updates, 5)
			}
		case dialect.RoleShape:
			c.Inputs[p.Name] = tensor.Must(tensor.From(tensor.Shape{2}, []int64{4, 3}))
		case dialect.RoleAxis:
			c.Inputs[p.Name] = tensor.Scalar(set.axis)
		case dialect.RoleNumSegments:
			c.Inputs[p.Name] = tensor.Scalar(set.attrs[dialect.RoleNumSegments].Int)
		case dialect.RoleValue:
			if value == "value" {
				c.Inputs[p.Name] = values(d, tensor.Shape{}, 2)
			}
		case dialect.RoleFill:
			if value == "fill_value" {
				c.Inputs[p.Name] = values(d, tensor.Shape{}, 2)
			}
		}
	}
	for _, a := range op.Attrs {
		if v, ok := set.attrs[a.Role]; ok {
			c.Attrs[a.Name] = v
			continue
		}
		switch {
		case a.Role == dialect.RoleAxis:
			c.Attrs[a.Name] = one(set.axis)
		case a.Role == dialect.RoleReduction && red != "":
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.String, Str: red}
		case a.Name == includeName && incl != "":
			c.Attrs[a.Name] = dialect.Value{Kind: dialect.Bool, Bool: incl == "true"}
		}
	}
	return c
}
