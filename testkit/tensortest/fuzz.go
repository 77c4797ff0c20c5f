package tensortest

import (
	"math"

	"github.com/scatter-dev/scatter/tensor"
)

// Fuzz reads a fuzzer's bytes as small numbers, shapes and tensors, for
// the operators' fuzz targets. When the bytes run out it reads zeros, so
// every input decodes.
type Fuzz struct{ b []byte }

// NewFuzz returns a reader of b.
func NewFuzz(b []byte) *Fuzz { return &Fuzz{b: b} }

// Next returns the next byte as a signed number in [-128, 127].
func (f *Fuzz) Next() int {
	if len(f.b) == 0 {
		return 0
	}
	v := int(int8(f.b[0]))
	f.b = f.b[1:]
	return v
}

// Shape returns a shape of rank 0 to 3 with dimensions 0 to 3.
func (f *Fuzz) Shape() tensor.Shape {
	s := make(tensor.Shape, f.Next()&3)
	for i := range s {
		s[i] = f.Next() & 3
	}
	return s
}

// Values returns a tensor of type d and shape s whose elements are Next
// values, converted as FromInts converts.
func (f *Fuzz) Values(d tensor.DType, s tensor.Shape) tensor.Tensor {
	return FromInts(d, s, f.ints(s, func(v int) int { return v })...)
}

// Indices returns a tensor of integer type d and shape s whose elements
// are Next values reduced to [-5, 5]: mostly valid for dimensions of size
// up to 3, with negative and out-of-range values among them.
func (f *Fuzz) Indices(d tensor.DType, s tensor.Shape) tensor.Tensor {
	return FromInts(d, s, f.ints(s, func(v int) int { return v % 6 })...)
}

func (f *Fuzz) ints(s tensor.Shape, conv func(int) int) []int {
	n, _ := s.NumElements()
	v := make([]int, n)
	for i := range v {
		v[i] = conv(f.Next())
	}
	return v
}

// Pick returns the next byte as an unsigned number modulo n, for a choice
// among n things; n must be positive.
func (f *Fuzz) Pick(n int) int { return int(uint8(f.Next())) % n }

// Bool returns the low bit of the next byte.
func (f *Fuzz) Bool() bool { return f.Next()&1 == 1 }

// Fit returns s, or one time in eight another shape (Shape), so that
// shapes derived to fit each other now and then do not.
func (f *Fuzz) Fit(s tensor.Shape) tensor.Shape {
	if f.Pick(8) == 0 {
		return f.Shape()
	}
	return s
}

// Within returns a shape of s's rank whose dimension d is at most s[d],
// except dimension axis (when it is one of s's), which is 0 to 3.
func (f *Fuzz) Within(s tensor.Shape, axis int) tensor.Shape {
	out := make(tensor.Shape, len(s))
	for d := range out {
		if d == axis {
			out[d] = f.Pick(4)
		} else {
			out[d] = f.Pick(s[d] + 1)
		}
	}
	return out
}

// Elements returns a tensor of type d and shape s whose elements come one
// byte each and include the values the arithmetic has corners for. A
// floating-point element is NaN, +Inf, -Inf, -0, 65504 (the largest
// float16) or 1000 for the bytes 127, 126, -127, -128, 125 and 124, and
// otherwise the byte divided by 3, rounded to the type (so that sums
// round). An integer element is the byte, converted as Go converts; a bool
// is the byte's low bit; a complex element has the floating-point value as
// its real part and the byte's low two bits as its imaginary part; a
// string is "" or one of the letters a to g.
func (f *Fuzz) Elements(d tensor.DType, s tensor.Shape) tensor.Tensor {
	x := tensor.Must(tensor.New(d, s))
	for i := 0; i < x.Len(); i++ {
		v := f.Next()
		r := real64(v)
		switch e := x.Data().(type) {
		case []bool:
			e[i] = v&1 == 1
		case []complex64:
			e[i] = complex(float32(r), float32(v&3))
		case []complex128:
			e[i] = complex(r, float64(v&3))
		case []string:
			if v&7 != 0 {
				e[i] = string(rune('a' + v&7 - 1))
			}
		default: // an integer (converted as Go converts) or a real float
			if !x.SetIntAt(i, int64(v)) {
				x.SetFloatAt(i, r)
			}
		}
	}
	return x
}

// real64 is the floating-point value Elements reads from byte v.
func real64(v int) float64 {
	switch v {
	case 127:
		return math.NaN()
	case 126:
		return math.Inf(1)
	case -127:
		return math.Inf(-1)
	case -128:
		return math.Copysign(0, -1)
	case 125:
		return 65504
	case 124:
		return 1000
	}
	return float64(v) / 3
}

// IndicesFor returns a tensor of integer type d and shape s whose elements
// are index values for dimensions of the given sizes: element i addresses
// a dimension of size sizes[i%len(sizes)] (3 when sizes is empty). Five
// bytes in eight give a value in [0, size-1], two a negative one in
// [-size, -1], and one a value just outside [-size, size-1]. Values are
// converted to d as Go converts, so a negative one wraps in an unsigned
// type.
func (f *Fuzz) IndicesFor(d tensor.DType, s tensor.Shape, sizes []int) tensor.Tensor {
	n, _ := s.NumElements()
	v := make([]int, n)
	for i := range v {
		size := 3
		if len(sizes) > 0 {
			size = sizes[i%len(sizes)]
		}
		u := int(uint8(f.Next()))
		step := u / 8
		switch {
		case u%8 == 7 && step&1 == 0:
			v[i] = size + step/2%3
		case u%8 == 7:
			v[i] = -size - 1 - step/2%3
		case size == 0:
			v[i] = step % 3
		case u%8 >= 5:
			v[i] = -1 - step%size
		default:
			v[i] = step % size
		}
	}
	return FromInts(d, s, v...)
}

// ND returns the indices of type it of a scatter or gather of index tuples
// (ScatterND, GatherND) into data of shape ds with b batch dimensions (b
// at most len(ds)): of shape ds[:b] + lead + [k], one time in eight
// another shape (Fit), where k, read first, is 0 to len(ds)-b+1 (up to one
// more than fits) and lead is a Shape; element j of each tuple indexes
// dimension b+j (IndicesFor). For a scatter (b 0) it then reads the shape
// of the updates, us: lead + ds[k:], one time in eight another shape, or
// any Shape when k > len(ds).
func (f *Fuzz) ND(it tensor.DType, ds tensor.Shape, b int, scatter bool) (indices tensor.Tensor, us tensor.Shape) {
	k := f.Pick(len(ds) - b + 2)
	lead := f.Shape()
	indices = f.IndicesFor(it, f.Fit(Join(ds[:b], lead, tensor.Shape{k})), Sizes(ds, b, k))
	switch {
	case !scatter:
	case k <= len(ds):
		us = f.Fit(Join(lead, ds[k:]))
	default:
		us = f.Shape()
	}
	return indices, us
}

// Along returns the indices of type it of an operator that takes one index
// per element along axis of data of shape ds (ScatterElements,
// GatherElements): of shape Within(ds, axis), one time in eight another
// shape (Fit), with values for dimension axis (IndicesFor). axis out of
// [0, len(ds)) stands for no dimension of ds.
func (f *Fuzz) Along(it tensor.DType, ds tensor.Shape, axis int) tensor.Tensor {
	return f.IndicesFor(it, f.Fit(f.Within(ds, axis)), Sizes(ds, axis, 1))
}

// MaybeNegative returns a copy of s whose first dimension is, one time in
// sixteen, negative (-1 - s[0]): a shape given as numbers, which a
// negative dimension makes invalid. It reads no byte for a rank-0 s.
func (f *Fuzz) MaybeNegative(s tensor.Shape) tensor.Shape {
	out := s.Clone()
	if len(s) > 0 && f.Pick(16) == 15 {
		out[0] = -1 - out[0]
	}
	return out
}

// Junk returns a tensor of type d and shape s whose elements are all 7
// (true, "sssssss"): a destination whose old contents must not show
// through what an operator writes into it. s must be a valid shape.
func Junk(d tensor.DType, s tensor.Shape) tensor.Tensor {
	n, _ := s.NumElements()
	v := make([]int, n)
	for i := range v {
		v[i] = 7
	}
	return FromInts(d, s, v...)
}

// Mostly returns dt, or one time in sixteen one of others, so that a
// target also tries mismatched element types.
func (f *Fuzz) Mostly(dt tensor.DType, others []tensor.DType) tensor.DType {
	if f.Pick(16) == 0 {
		return others[f.Pick(len(others))]
	}
	return dt
}

// Sizes returns the sizes of dimensions from to from+n-1 of s, 3 for
// those s does not have.
func Sizes(s tensor.Shape, from, n int) []int {
	out := make([]int, n)
	for j := range out {
		out[j] = 3
		if d := from + j; d >= 0 && d < len(s) {
			out[j] = s[d]
		}
	}
	return out
}

// Join returns the shapes one after the other as one shape.
func Join(parts ...tensor.Shape) tensor.Shape {
	out := tensor.Shape{}
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// Count returns the number of elements of shape s (NumElements), which
// must be valid.
func Count(s tensor.Shape) int {
	n, err := s.NumElements()
	if err != nil {
		panic(err)
	}
	return n
}

// AxisOf returns axis in [0, rank) when it is in [-rank, rank-1], else -1.
func AxisOf(axis, rank int) int {
	if axis < -rank || axis >= rank {
		return -1
	}
	if axis < 0 {
		axis += rank
	}
	return axis
}
