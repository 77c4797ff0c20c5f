// Package optest holds what the dialects' differential tests share: the
// check of one operator outcome against the reference's, in every form of
// the call; the fuzz target that decodes calls and checks them so; and
// pieces of the dialects' models (a refusal, the version an opset selects,
// scatter_nd's shape argument).
//
// Like every package under testkit/, it serves this module's own tests:
// no non-test package of the module imports it, and its API may change
// with them.
package optest

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/scatter-dev/scatter/dialect"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/rawalloc"
	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/reftest"
	"github.com/scatter-dev/scatter/testkit/tensortest"
)

// Main runs a test package whose tests call the allocating forms, as its
// TestMain: func TestMain(m *testing.M) { optest.Main(m) }. Every output
// they allocate is poisoned (rawalloc.Poison): an element the Into form
// left unwritten reads as rawalloc.PoisonByte bytes and fails the test
// that checks it. Benchmarks run as the library does, unpoisoned.
func Main(m *testing.M) {
	flag.Parse()
	if b := flag.Lookup("test.bench"); b == nil || b.Value.String() == "" {
		rawalloc.Poison(0)
	}
	os.Exit(m.Run())
}

// sentinels are the errors of the engine and the dialect layer that every
// operator error wraps one of.
var sentinels = []error{engine.ErrIndex, engine.ErrShape, engine.ErrType, engine.ErrArgument,
	dialect.ErrVersion, dialect.ErrAttribute, dialect.ErrInput}

// IsIndex reports whether err is an index error of the engine.
func IsIndex(err error) bool { return errors.Is(err, engine.ErrIndex) }

// WantClass returns the class of operator error that wantErr, the
// reference's or a model's error, calls for: the engine's class that a
// reference's error wraps, or the class a model gave Refuse; nil for an
// error of neither kind.
func WantClass(wantErr error) error {
	for _, s := range sentinels {
		if errors.Is(wantErr, s) {
			return s
		}
	}
	return nil
}

// SameClass reports whether err, an operator's error, is of the class that
// wantErr calls for (WantClass).
func SameClass(err, wantErr error) bool {
	c := WantClass(wantErr)
	return c != nil && errors.Is(err, c)
}

// Check fails t unless the outcome (got, err) of the operator named op
// agrees with the reference's (want, wantErr): the same error or not, an
// error of the class that wantErr calls for (SameClass), and the same values,
// bit for bit but for NaN payloads. An error must be a *dialect.OpError
// naming op that wraps one of the engine's or the dialect layer's sentinel
// errors, and an index error also an *engine.IndexError (or, for segment
// ids out of order, an *engine.SegmentError). form says
// which form of the call this was ("call", "Into", "in place"), call
// describes the inputs for the failure message.
func Check(t testing.TB, form, op string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error, call any) {
	t.Helper()
	if err != nil {
		var oe *dialect.OpError
		var ie *engine.IndexError
		var se *engine.SegmentError
		switch {
		case !errors.As(err, &oe) || oe.Op != op:
			t.Fatalf("%s: error %v does not name %s\n%v", form, err, op, call)
		case IsIndex(err) && !errors.As(err, &ie) && !errors.As(err, &se):
			t.Fatalf("%s: index error %v is not an *engine.IndexError\n%v", form, err, call)
		case !slices.ContainsFunc(sentinels, func(s error) bool { return errors.Is(err, s) }):
			t.Fatalf("%s: error %v wraps none of %v\n%v", form, err, sentinels, call)
		}
	}
	if d := reftest.Disagreement(got, err, want, wantErr, SameClass); d != "" {
		t.Fatalf("%s: %s\n%v", form, d, call)
	}
}

// Call is one fuzzer-chosen call of an operator that reads one tensor and
// may update it in place (a scatter) or not (a gather).
type Call interface {
	fmt.Stringer
	// Name is the operator's name ("onnx.ScatterND"), as its dialect.Op
	// has it.
	Name() string
	// Model is the reference outcome and the output's shape (nil when the
	// reference refuses the call before it has one); viaRun asks for the
	// outcome through the operator's dialect.Op rather than its typed
	// function, which may differ in how attributes are checked.
	Model(viaRun bool) (want tensor.Tensor, shape tensor.Shape, err error)
	// ViaRun reports whether the allocating form goes through the
	// dialect.Op (with Args) rather than the typed API (Call).
	ViaRun() bool
	// Call runs the allocating form of the typed API.
	Call() (tensor.Tensor, error)
	// Args is the call for the operator's dialect.Op.
	Args() dialect.Call
	// Into runs the Into form with dst and the given input tensor.
	Into(dst, input tensor.Tensor) error
	// Input is the tensor read (or updated, for a scatter).
	Input() tensor.Tensor
	// Scatter reports whether the operator may run in place.
	Scatter() bool
}

// ZeroScatter is implemented by a Call whose operator may scatter onto
// zeros of a shape it is given (tf.scatter_nd, mindspore.scatter_nd)
// rather than read an input tensor.
type ZeroScatter interface {
	// Zeros reports the type and shape of the output when the call is
	// such a scatter.
	Zeros() (dt tensor.DType, shape tensor.Shape, ok bool)
}

// OutTyped is implemented by a Call whose output's element type may
// differ from its input's (NumPy's add.reduceat of int8 is int64): Into
// gets a dst of OutType.
type OutTyped interface {
	OutType() tensor.DType
}

// Checker is implemented by a Call that checks more of an outcome than
// Check does (which index an error names, say); its Check replaces
// optest.Check for it.
type Checker interface {
	Check(t *testing.T, form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error)
}

// Forms runs c in each of its forms and checks each outcome with Check
// (or c's own, if c is a Checker): allocating (through the typed API, or
// when c.ViaRun the dialect.Op of table that c names), which must leave
// the input alone; Into a dst full of junk, which a failed scatter onto zeros must
// leave as it was; and for a scatter in place, where a failed call must
// leave the input as it was.
func Forms(t *testing.T, table []*dialect.Op, c Call) {
	t.Helper()
	check := func(form string, got tensor.Tensor, err error, want tensor.Tensor, wantErr error) {
		t.Helper()
		if ck, ok := c.(Checker); ok {
			ck.Check(t, form, got, err, want, wantErr)
			return
		}
		Check(t, form, c.Name(), got, err, want, wantErr, c)
	}
	var (
		zeros bool
		dt    tensor.DType
		zs    tensor.Shape
	)
	if z, ok := c.(ZeroScatter); ok {
		dt, zs, zeros = z.Zeros()
	}
	want, shape, wantErr := c.Model(c.ViaRun())
	var input tensor.Tensor
	if !zeros {
		input = c.Input().Clone()
		dt = input.DType()
	}
	if o, ok := c.(OutTyped); ok {
		dt = o.OutType()
	}
	got, err := run(table, c)
	check("call", got, err, want, wantErr)
	if !zeros && !tensor.Equal(c.Input(), input) {
		t.Fatalf("the call changed its input\n%v", c)
	}
	if c.ViaRun() {
		want, shape, wantErr = c.Model(false)
	}
	switch {
	case zeros:
		if _, err := zs.NumElements(); err != nil {
			return // no dst of that shape
		}
		shape = zs
	case shape == nil:
		shape = tensor.Shape{}
	}
	dst := tensortest.Junk(dt, shape)
	err = c.Into(dst, c.Input())
	if zeros && err != nil && !tensor.Equal(dst, tensortest.Junk(dt, shape)) {
		t.Fatalf("Into: the failed call (%v) changed dst to %v\n%v", err, dst, c)
	}
	check("Into", dst, err, want, wantErr)
	if c.Scatter() {
		x := input.Clone()
		err := c.Into(x, x)
		if err != nil && !tensor.Equal(x, input) {
			t.Fatalf("in place: the failed call (%v) changed the input to %v\n%v", err, x, c)
		}
		check("in place", x, err, want, wantErr)
	}
}

// run runs the allocating form of c: when c.ViaRun, through the
// operator's dialect.Op, which dialect.Find finds in table by c's name.
func run(table []*dialect.Op, c Call) (tensor.Tensor, error) {
	if !c.ViaRun() {
		return c.Call()
	}
	return dialect.Find(table, c.Name()).Run(c.Args())
}

// Fuzz is a dialect's fuzz target: it seeds f and runs Forms (with table,
// the dialect's operators) on the call that read decodes from each input,
// whose first byte picks one of ops
// (read picks ops[Pick(len(ops))]). A seed is the byte i for ops[i], then
// one of heads[ops[i]] (the choices read makes next), then one of
// tails(ops[i]) (shapes and values); every such seed is added, in the
// order of ops. Heads for a name not in ops, or for one without tails,
// fail f.
func Fuzz[C Call](f *testing.F, table []*dialect.Op, ops []string, heads map[string][][]byte,
	tails func(op string) [][]byte, read func(*tensortest.Fuzz) C) {
	for op := range heads {
		if !slices.Contains(ops, op) {
			f.Fatalf("seeds for %q, which is not one of %q", op, ops)
		}
	}
	for i, op := range ops {
		if len(heads[op]) > 0 && len(tails(op)) == 0 {
			f.Fatalf("seeds for %q, which has no tails", op)
		}
		for _, head := range heads[op] {
			for _, tail := range tails(op) {
				f.Add(slices.Concat([]byte{byte(i)}, head, tail))
			}
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		Forms(t, table, read(tensortest.NewFuzz(b)))
	})
}

// ErrRefused is what a model returns (wrapped, by Refuse) for a call that
// the framework refuses for a reason other than an index value.
var ErrRefused = errors.New("refused by the framework")

// Refuse returns ErrRefused with the reason why, wrapping class, the error
// class the operator must report it with: one of the engine's or the
// dialect layer's sentinels (engine.ErrShape, dialect.ErrInput, ...). It
// panics for another class.
func Refuse(class error, why string) error {
	if !slices.Contains(sentinels, class) {
		panic(fmt.Sprintf("optest: %v is not an error class", class))
	}
	return fmt.Errorf("%w: %w: %s", ErrRefused, class, why)
}

// Version returns the version of an operator that opset selects, given the
// versions the operator has in increasing order: the newest not newer than
// opset, or the newest for opset 0; false when there is none.
func Version(versions []int, opset int) (int, bool) {
	if opset == 0 {
		return versions[len(versions)-1], true
	}
	v := 0
	for _, x := range versions {
		if x <= opset {
			v = x
		}
	}
	return v, v > 0
}

// GiveShape gives call a shape (scatter_nd's output shape) the way form
// says: with bit 0 set as the attribute "shape", else as the input
// "shape", an int32 tensor with bit 1 set and an int64 one without.
func GiveShape(call dialect.Call, shape tensor.Shape, form int) {
	dims := make([]int64, len(shape))
	for i, d := range shape {
		dims[i] = int64(d)
	}
	v := dialect.Value{Kind: dialect.Ints, Ints: dims}
	switch {
	case form&1 != 0:
		call.Attrs["shape"] = v
	case form&2 != 0:
		call.Inputs["shape"] = tensortest.FromInts(tensor.Int32, tensor.Shape{len(shape)}, shape...)
	default:
		call.Inputs["shape"] = v.Tensor()
	}
}

// NaNCase is a case of the shared rule on which NaN max and min keep, on
// float32 values: a NaN already in place stays; otherwise the first NaN
// update wins, and stays. With ExcludeSelf the value in place takes no
// part (OpenVINO's use_init_val false). Want holds the bits of the result.
type NaNCase struct {
	Name        string
	Data        float32
	Updates     []float32
	ExcludeSelf bool
	Want        uint32
}

// NaNCases returns the cases of the shared NaN rule, with NaNs of distinct
// payloads and signs, so that a result keeping another NaN fails.
func NaNCases() []NaNCase {
	a, b, c := math.Float32frombits(0x7fc00001), math.Float32frombits(0xffc00002), math.Float32frombits(0x7fc00003)
	return []NaNCase{
		{Name: "a NaN in place stays", Data: a, Updates: []float32{1, b}, Want: 0x7fc00001},
		{Name: "the first NaN update wins", Data: 1, Updates: []float32{b, c}, Want: 0xffc00002},
		{Name: "and stays", Data: 1, Updates: []float32{b, 2}, Want: 0xffc00002},
		{Name: "without the value in place, the first NaN update", Data: a, Updates: []float32{1, b, c}, ExcludeSelf: true,
			Want: 0xffc00002},
	}
}

// numbers are the integers quoted in an error message.
var numbers = regexp.MustCompile(`-?[0-9]+`)

// QuotesShifted reports whether msg quotes, as a number of its own, v
// shifted by a small nonzero amount: what an error quotes when it adds a
// rank to an extreme value, or negates it, and overflows.
func QuotesShifted(msg string, v int64) bool {
	for _, s := range numbers.FindAllString(msg, -1) {
		n, err := strconv.ParseInt(s, 10, 64)
		// n - v, unless that overflows (then n is far from v).
		if err != nil || v < 0 && n > math.MaxInt64+v || v > 0 && n < math.MinInt64+v {
			continue
		}
		if d := n - v; d != 0 && -64 <= d && d <= 64 {
			return true
		}
	}
	return false
}

// hloRefusals pairs each of the reference's error classes with the
// dialect layer's class for what the stablehlo and jax dialects refuse
// before the engine: an attribute out of range, an input of a type the
// operator does not take.
var hloRefusals = map[error]error{engine.ErrShape: dialect.ErrAttribute, engine.ErrType: dialect.ErrInput,
	engine.ErrArgument: dialect.ErrAttribute}

// SameHLOClass reports whether err, a general operator's error (the
// stablehlo and jax dialects), is of the class of the reference's wantErr:
// SameClass, or the dialect's class for the same fault (hloRefusals).
func SameHLOClass(err, wantErr error) bool {
	if SameClass(err, wantErr) {
		return true
	}
	c := hloRefusals[WantClass(wantErr)]
	return c != nil && errors.Is(err, c)
}
