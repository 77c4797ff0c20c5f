package engine_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	. "github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// TestWrapAndClampElements: OutOfRangeWrap takes an index modulo the
// size, as Python's % does, and OutOfRangeClamp with NegativeError sends a
// negative index to 0 and one past the end to the last position (NumPy's
// take modes "wrap" and "clip"), for the general gather and scatter of
// single elements and of rows.
func TestWrapAndClampElements(t *testing.T) {
	wrap := IndexRules{OutOfRange: OutOfRangeWrap}
	clip := IndexRules{OutOfRange: OutOfRangeClamp}
	data := tensortest.FromInts(tensor.Int32, tensor.Shape{3}, 10, 11, 12)
	rows := tensortest.FromInts(tensor.Int32, tensor.Shape{3, 2}, 10, 11, 12, 13, 14, 15)
	ind := tensortest.FromInts(tensor.Int64, tensor.Shape{6}, -1, 3, 7, -5, 0, 2)
	for _, c := range []struct {
		name  string
		data  tensor.Tensor
		rules IndexRules
		want  []int32
	}{
		// -1 -> 2, 3 -> 0, 7 -> 1, -5 -> 1 (Python: -5 % 3 == 1).
		{"wrap elements", data, wrap, []int32{12, 10, 11, 11, 10, 12}},
		{"clip elements", data, clip, []int32{10, 12, 12, 10, 10, 12}},
		{"wrap rows", rows, wrap, []int32{14, 15, 10, 11, 12, 13, 12, 13, 10, 11, 14, 15}},
		{"clip rows", rows, clip, []int32{10, 11, 14, 15, 14, 15, 10, 11, 10, 11, 14, 15}},
	} {
		d := GatherAxisDims(c.data.Shape(), 1, 0, 0)
		out := tensor.Must(tensor.New(tensor.Int32, MustShape(d.Shape(c.data.Shape(), ind.Shape(), false))))
		if err := GatherGeneral(out, c.data, ind, &d, GatherOptions{Rules: c.rules}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := out.Data().([]int32); fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s: gathered %v, want %v", c.name, got, c.want)
		}
	}
	// A scatter, in place: 3 and -3 both land on 0, in index order.
	dst := tensortest.FromInts(tensor.Int32, tensor.Shape{3}, 0, 0, 0)
	sind := tensortest.FromInts(tensor.Int64, tensor.Shape{3, 1}, 3, -3, 5)
	upd := tensortest.FromInts(tensor.Int32, tensor.Shape{3}, 1, 2, 4)
	d := ScatterNDDims(1, sind.Shape())
	if err := ScatterGeneral(dst, dst, sind, upd, &d, ScatterOptions{Reduction: Add, Rules: wrap}); err != nil {
		t.Fatal(err)
	}
	if got := dst.Data().([]int32); fmt.Sprint(got) != "[3 0 4]" {
		t.Errorf("wrapped scatter gave %v, want [3 0 4]", got)
	}
}

// TestWrapEmptyDimension: a dimension of size 0 admits no index under
// OutOfRangeWrap, in a gather and in a scatter, which leaves dst as it
// was; the forms refuse the rule, naming it.
func TestWrapEmptyDimension(t *testing.T) {
	wrap := IndexRules{OutOfRange: OutOfRangeWrap}
	empty := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{0}))
	ind := tensortest.FromInts(tensor.Int64, tensor.Shape{1}, 0)
	d := GatherAxisDims(empty.Shape(), 1, 0, 0)
	out := tensor.Must(tensor.New(tensor.Float32, tensor.Shape{1}))
	var ie *IndexError
	if err := GatherGeneral(out, empty, ind, &d, GatherOptions{Rules: wrap}); !errors.As(err, &ie) || ie.Size != 0 {
		t.Errorf("wrapped gather from a dimension of size 0: err = %v, want an *IndexError of size 0", err)
	}
	sind := tensortest.FromInts(tensor.Int64, tensor.Shape{1, 1}, 0)
	upd := tensortest.FromInts(tensor.Float32, tensor.Shape{1}, 1)
	sd := ScatterNDDims(1, sind.Shape())
	if err := ScatterGeneral(empty, empty, sind, upd, &sd, ScatterOptions{Rules: wrap}); !errors.Is(err, ErrIndex) {
		t.Errorf("wrapped scatter into a dimension of size 0: err = %v, want ErrIndex", err)
	}
	data := tensortest.FromInts(tensor.Float32, tensor.Shape{2}, 1, 2)
	if err := Gather(out, data, ind, 0, 0, wrap); !errors.Is(err, ErrArgument) ||
		!strings.Contains(err.Error(), "Gather does not take OutOfRangeClamp or OutOfRangeWrap") {
		t.Errorf("Gather with OutOfRangeWrap: err = %v, want an ErrArgument naming the rule", err)
	}
}

// TestWrapClampReference checks the general kernels under OutOfRangeWrap
// and OutOfRangeClamp (NegativeError) against the reference loops of the
// forms whose dimension numbers they run, on random calls with indices
// far outside the dimensions.
func TestWrapClampReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(24, 1))
	both := []IndexRules{{OutOfRange: OutOfRangeWrap}, {OutOfRange: OutOfRangeClamp}}
	for i := range 300 {
		rules := both[i%2]
		shape := tensor.Shape{1 + rng.IntN(4), rng.IntN(4)}
		n := shape[0] * shape[1]
		vals := make([]int, n)
		for j := range vals {
			vals[j] = j + 1
		}
		data := tensortest.FromInts(tensor.Float64, shape, vals...)
		axis := rng.IntN(2)
		is := tensor.Shape{rng.IntN(5)}
		iv := make([]int, is[0])
		for j := range iv {
			iv[j] = rng.IntN(41) - 20
		}
		ind := tensortest.FromInts(tensor.Int32, is, iv...)
		want, wantErr := reftest.Gather(data, ind, axis, 0, rules)
		d := GatherAxisDims(shape, 1, axis, 0)
		got := tensor.Must(tensor.New(tensor.Float64, MustShape(d.Shape(shape, is, false))))
		err := GatherGeneral(got, data, ind, &d, GatherOptions{Rules: rules})
		if msg := reftest.Disagreement(got, err, want, wantErr, sameClass); msg != "" {
			t.Fatalf("gather %v axis %d of %v, indices %v: %s", rules, axis, shape, iv, msg)
		}
		// The scatter of ScatterElements' dimension numbers, in place,
		// adding: indices of data's shape.
		ev := make([]int, n)
		for j := range ev {
			ev[j] = rng.IntN(41) - 20
		}
		eind := tensortest.FromInts(tensor.Int64, shape, ev...)
		upd := tensortest.FromInts(tensor.Float64, shape, vals...)
		swant, swantErr := reftest.ScatterElements(data, eind, upd, axis, ScatterOptions{Rules: rules, Reduction: Add})
		sd := ScatterElementsDims(2, axis)
		dst := data.Clone()
		serr := ScatterGeneral(dst, dst, eind, upd, &sd, ScatterOptions{Reduction: Add, Rules: rules})
		if msg := reftest.Disagreement(dst, serr, swant, swantErr, sameClass); msg != "" {
			t.Fatalf("scatter %v axis %d of %v, indices %v: %s", rules, axis, shape, ev, msg)
		}
		// ScatterND's rows, multiplying, into another dst.
		rind := tensortest.FromInts(tensor.Int16, tensor.Shape{len(iv), 1}, iv...)
		uv := make([]int, len(iv)*shape[1])
		for j := range uv {
			uv[j] = j + 2
		}
		rupd := tensortest.FromInts(tensor.Float64, tensor.Shape{len(iv), shape[1]}, uv...)
		rwant, rwantErr := reftest.ScatterND(data, rind, rupd, ScatterOptions{Rules: rules, Reduction: Mul})
		rd := ScatterNDDims(2, rind.Shape())
		rdst := tensortest.Junk(tensor.Float64, shape)
		rerr := ScatterGeneral(rdst, data, rind, rupd, &rd, ScatterOptions{Reduction: Mul, Rules: rules})
		if msg := reftest.Disagreement(rdst, rerr, rwant, rwantErr, sameClass); msg != "" {
			t.Fatalf("scatter of rows %v of %v, indices %v: %s", rules, shape, iv, msg)
		}
	}
}
