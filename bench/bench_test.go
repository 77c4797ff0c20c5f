package bench

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/tensor"
	"github.com/x448/float16"
)

func TestWorkloads(t *testing.T) {
	const mib = 1 << 20
	want := []struct {
		id, name, op string
		bytes        int64
	}{
		// Scatters: 2×data + indices + updates; gathers: 2×output + indices.
		{"W1", "scatternd_elem_none", "onnx.ScatterND", 2*64*mib + 16*mib + 4*mib},
		{"W2", "scatternd_slice_none", "onnx.ScatterND", 2*64*mib + mib/8 + 16*mib},
		{"W3", "scatternd_add_dups", "onnx.ScatterND", 2*4*mib + 32*mib + 16*mib},
		{"W4", "scatter_elements_add_axis1", "onnx.ScatterElements", 2*64*mib + 32*mib + 16*mib},
		{"W5", "gathernd_slice", "onnx.GatherND", 2*64*mib + mib/2},
		{"W6", "gathernd_elem", "onnx.GatherND", 2*16*mib + 64*mib},
		{"W7", "gather_elements_axis1", "onnx.GatherElements", 2*64*mib + 128*mib},
		{"W8", "gather_axis0", "onnx.Gather", 2*64*mib + mib/2},
		{"W9", "scatter_elements_max_axis0", "onnx.ScatterElements", 2*64*mib + 32*mib + 16*mib},
		// Segment reductions: data + ids + output.
		{"W10", "unsorted_segment_sum", "tf.math.unsorted_segment_sum", 64*mib + 8*mib + 4*mib},
		{"W11", "sorted_segment_mean", "tf.math.segment_mean", 64*mib + 8*mib + 4*mib},
		{"W12", "unsorted_segment_max", "tf.math.unsorted_segment_max", 64*mib + 8*mib + 4*mib},
		// The small calls are judged per call: no bytes.
		{"S1", "gather_rows_small", "onnx.Gather", 0},
		{"S2", "kv_cache_write", "onnx.ScatterND", 0},
		{"S3", "gather_elements_small", "onnx.GatherElements", 0},
		{"S4", "scatter_elements_add_small", "onnx.ScatterElements", 0},
		{"S5", "gathernd_small", "onnx.GatherND", 0},
		{"S6", "scatternd_add_small", "onnx.ScatterND", 0},
		{"S7", "segment_sum_small", "tf.math.segment_sum", 0},
		{"S8", "put_small", "numpy.put", 0},
	}
	ws := Workloads()
	if len(ws) != len(want) {
		t.Fatalf("%d workloads, want %d", len(ws), len(want))
	}
	for i, w := range ws {
		if x := want[i]; w.ID != x.id || w.Name != x.name || w.Op != x.op || w.Bytes != x.bytes || w.Small != (x.id[0] == 'S') {
			t.Errorf("workload %d: got %s %s %s %d bytes small %v, want %s %s %s %d",
				i, w.ID, w.Name, w.Op, w.Bytes, w.Small, x.id, x.name, x.op, x.bytes)
		}
		if wantAPIs := []API{Reuse, Fresh}; w.Small && !slices.Equal(w.APIs(), wantAPIs[:1]) || !w.Small && !slices.Equal(w.APIs(), wantAPIs) {
			t.Errorf("%s: APIs %v", w.ID, w.APIs())
		}
	}
	if got := IDs(); !slices.Equal(got, []string{"W1", "W2", "W3", "W4", "W5", "W6", "W7", "W8", "W9", "W10", "W11", "W12",
		"S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8"}) {
		t.Errorf("IDs() = %v", got)
	}
	// Each call is a fresh copy.
	ws[0].ID = "changed"
	if Workloads()[0].ID != "W1" {
		t.Error("Workloads returned a shared table")
	}
}

func TestFind(t *testing.T) {
	ids := func(ws []Workload) []string {
		var s []string
		for _, w := range ws {
			s = append(s, w.ID)
		}
		return s
	}
	for _, tc := range []struct {
		in   []string
		want []string
	}{
		{nil, IDs()},
		{[]string{"W3"}, []string{"W3"}},
		{[]string{"W9", "w1", " W3 ", "W9"}, []string{"W9", "W1", "W3"}},
		{[]string{"gather_axis0", "W8"}, []string{"W8"}},
		{[]string{"s2", "kv_cache_write", "W1"}, []string{"S2", "W1"}},
		{[]string{"w12", "W1", "put_small", "S7", "sorted_segment_mean"}, []string{"W12", "W1", "S8", "S7", "W11"}},
	} {
		got, err := Find(tc.in)
		if err != nil || !slices.Equal(ids(got), tc.want) {
			t.Errorf("Find(%q) = %v, %v; want %v", tc.in, ids(got), err, tc.want)
		}
	}
	for _, bad := range [][]string{{"W13"}, {"W1", "nope"}, {""}, {"S9"}, {"W01"}} {
		ws, err := Find(bad)
		if err == nil || ws != nil {
			t.Errorf("Find(%q) = %v, %v; want an error", bad, ids(ws), err)
			continue
		}
		if !strings.Contains(err.Error(), "known: W1, W2, W3, W4, W5, W6, W7, W8, W9, W10, W11, W12, S1, S2, S3, S4, S5, S6, S7, S8") {
			t.Errorf("Find(%q): error %q does not list the known IDs", bad, err)
		}
	}
}

// fakeCase returns a Case whose Reuse and Fresh each advance a fake clock
// by the next of their durations and count their calls.
func fakeCase(bytes int64, reuse, fresh []time.Duration) (c *Case, now func() time.Time, calls map[API]int) {
	clock := time.Unix(0, 0)
	calls = map[API]int{}
	step := func(api API, ds []time.Duration) func() error {
		return func() error {
			clock = clock.Add(ds[calls[api]%len(ds)])
			calls[api]++
			return nil
		}
	}
	c = &Case{Workload: Workload{ID: "WX", Bytes: bytes}, reuse: step(Reuse, reuse), fresh: step(Fresh, fresh)}
	return c, func() time.Time { return clock }, calls
}

func TestRun(t *testing.T) {
	ms := time.Millisecond
	c, now, calls := fakeCase(2e9,
		[]time.Duration{100 * ms, 4 * ms, 2 * ms, 3 * ms, 9 * ms, 1 * ms},
		[]time.Duration{100 * ms, 8 * ms, 2 * ms, 4 * ms})
	// The warm-up call takes the first duration and is not counted.
	got, err := run(c, Reuse, 5, 1, now)
	want := Result{Workload: "WX", Impl: "scatter", API: "reuse", MedianMS: 3, MinMS: 1, MaxMS: 9, Reps: 5, GBps: 2e9 / 3e6, Warmup: 1}
	if err != nil || got != want || calls[Reuse] != 6 || calls[Fresh] != 0 {
		t.Errorf("reuse: got %+v, %v after %v calls\nwant %+v", got, err, calls, want)
	}
	// An even number of reps: the mean of the middle two. No warm-up.
	got, err = run(c, Fresh, 4, 0, now)
	want = Result{Workload: "WX", Impl: "scatter", API: "fresh", MedianMS: 6, MinMS: 2, MaxMS: 100, Reps: 4, GBps: 2e9 / 6e6}
	if err != nil || got != want || calls[Fresh] != 4 {
		t.Errorf("fresh: got %+v, %v after %v calls\nwant %+v", got, err, calls, want)
	}
	// One rep; the real clock.
	if got, err := Run(c, Reuse, 1, 0); err != nil || got.Reps != 1 || got.MinMS != got.MedianMS || got.MaxMS != got.MedianMS {
		t.Errorf("one rep: got %+v, %v", got, err)
	}
}

// TestWarmSettlesHeap runs warm on scripted heaps: each call of f
// allocates and completes collections as its case says.
func TestWarmSettlesHeap(t *testing.T) {
	const big = 64 << 20
	tests := []struct {
		name   string
		warmup int
		alloc  func(call int) uint64 // bytes the call (from 1) allocates
		gcAt   []int                 // calls during which a collection completes
		want   int
	}{
		{"no warm-up asked", 0, func(int) uint64 { return big }, nil, 0},
		{"allocates nothing", 2, func(int) uint64 { return 0 }, nil, 2},
		{"allocates below settleBytes", 1, func(int) uint64 { return settleBytes - 1 }, nil, 1},
		{"two collections at calls 3 and 5", 1, func(int) uint64 { return big }, []int{3, 5}, 5},
		{"two collections in the warm-up asked", 3, func(int) uint64 { return big }, []int{1, 2}, 3},
		{"one collection only", 1, func(int) uint64 { return big }, []int{2}, 1 + settleCalls},
		{"never collects", 1, func(int) uint64 { return big }, nil, 1 + settleCalls},
		{"only the first call allocates (a pool filling)", 1, func(c int) uint64 {
			if c == 1 {
				return big
			}
			return 0
		}, nil, 2},
	}
	for _, tt := range tests {
		var gcs, allocs uint64
		calls := 0
		f := func() error {
			calls++
			allocs += tt.alloc(calls)
			if slices.Contains(tt.gcAt, calls) {
				gcs++
			}
			return nil
		}
		got, err := warm(f, tt.warmup, func() (uint64, uint64) { return gcs, allocs })
		if err != nil || got != tt.want || calls != tt.want {
			t.Errorf("%s: %d calls (%d made), %v; want %d", tt.name, got, calls, err, tt.want)
		}
	}
	// An error stops the warm-up at once.
	boom := errors.New("boom")
	n := 0
	got, err := warm(func() error {
		if n++; n == 3 {
			return boom
		}
		return nil
	}, 5, heapCounts)
	if !errors.Is(err, boom) || got != 2 {
		t.Errorf("error: %d calls, %v", got, err)
	}
}

func TestRunErrors(t *testing.T) {
	c, now, calls := fakeCase(1, []time.Duration{time.Millisecond}, []time.Duration{time.Millisecond})
	for _, tc := range []struct {
		c      *Case
		api    API
		reps   int
		warmup int
	}{
		{c, Reuse, 0, 1},
		{c, Reuse, 3, -1},
		{c, "borrowed", 3, 1},
		{nil, Reuse, 3, 1},
		{&Case{}, Fresh, 3, 1}, // not made by Prepare
	} {
		if _, err := run(tc.c, tc.api, tc.reps, tc.warmup, now); err == nil {
			t.Errorf("run(%v, %q, %d, %d) succeeded", tc.c, tc.api, tc.reps, tc.warmup)
		}
	}
	if len(calls) != 0 {
		t.Errorf("invalid runs called the operator: %v", calls)
	}
	// The operator's error stops the run at once, named.
	boom := errors.New("boom")
	n := 0
	c.fresh = func() error {
		if n++; n == 3 {
			return boom
		}
		return nil
	}
	_, err := run(c, Fresh, 5, 1, now)
	if !errors.Is(err, boom) || err.Error() != "WX fresh: boom" || n != 3 {
		t.Errorf("got %v after %d calls", err, n)
	}
	if err := c.Call("borrowed"); err == nil {
		t.Error("Call with an unknown API succeeded")
	}
}

func TestResultJSON(t *testing.T) {
	rs := []Result{
		{Workload: "W1", Impl: Impl, API: Reuse, MedianMS: 12.5, MinMS: 12, MaxMS: 13.25, Reps: 7, GBps: 10.5, Warmup: 3},
		// A small call: nanoseconds, calls and allocations, 0 included.
		{Workload: "S2", Impl: Impl, API: Reuse, MedianNS: 95.5, MinNS: 93, MaxNS: 99.25, Reps: 9, Calls: 1 << 18, Warmup: 1},
		// A peer's: its own name for the call, no calls or allocations.
		{Workload: "S4", Impl: "torch", API: Reuse, MedianNS: 990, MinNS: 987, MaxNS: 999, Call: "scatter_add_(1)"},
	}
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	var got []map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := []map[string]any{
		{"workload": "W1", "impl": "scatter", "api": "reuse",
			"median_ms": 12.5, "min_ms": 12.0, "max_ms": 13.25, "reps": 7.0, "gbps": 10.5, "warmup": 3.0},
		{"workload": "S2", "impl": "scatter", "api": "reuse",
			"median_ns": 95.5, "min_ns": 93.0, "max_ns": 99.25, "reps": 9.0, "calls": float64(1 << 18), "allocs_per_call": 0.0, "warmup": 1.0},
		{"workload": "S4", "impl": "torch", "api": "reuse",
			"median_ns": 990.0, "min_ns": 987.0, "max_ns": 999.0, "reps": 0.0, "call": "scatter_add_(1)"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %s\nwant %v", b, want)
	}
	if !slices.Equal(APIs(), []API{"reuse", "fresh"}) {
		t.Errorf("APIs() = %v", APIs())
	}
}

// TestPrepare runs the cheapest workload for real: its inputs have the
// declared shapes, are the same on every Prepare, and Reuse and Fresh
// compute the same output.
func TestPrepare(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 100 MB")
	}
	if _, err := (Workload{ID: "W1"}).Prepare(); err == nil {
		t.Error("a Workload not from Workloads was prepared")
	}
	ws, err := Find([]string{"W3"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := ws[0].Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reuse(); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(Fresh); err != nil {
		t.Fatal(err)
	}
	if !c.dst.Shape().Equal(tensor.Shape{1 << 20}) || !tensor.Equal(c.dst, c.last) {
		t.Errorf("Reuse and Fresh differ at %d", tensor.FirstDiff(c.dst, c.last))
	}
	first := c.dst.Clone()
	c, err = ws[0].Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reuse(); err != nil {
		t.Fatal(err)
	}
	if !tensor.Equal(c.dst, first) {
		t.Error("a second Prepare made different inputs")
	}
}

// TestRunSmall times a fake small call on a fake clock: each call takes
// 1 ms and allocates two objects, so that the calls per repetition double
// from 1 to the first count that takes smallRep.
func TestRunSmall(t *testing.T) {
	clock := time.Unix(0, 0)
	now := func() time.Time { return clock }
	var objects uint64
	calls := 0
	f := func() error {
		calls++
		clock = clock.Add(time.Millisecond)
		objects += 2
		return nil
	}
	w := Workload{ID: "S3", Small: true}
	got, err := runSmall(w, Reuse, f, 3, 2, now, func() uint64 { return objects })
	perRep := 256 // 1, 2, ..., 128 calls take less than smallRep = 200 ms
	want := Result{Workload: "S3", Impl: Impl, API: Reuse, MedianNS: 1e6, MinNS: 1e6, MaxNS: 1e6, Reps: 3,
		Calls: perRep, AllocsPerCall: 2, Warmup: 2}
	if err != nil || got != want {
		t.Errorf("got %+v, %v\nwant %+v", got, err, want)
	}
	if wantCalls := 2 + (2*perRep - 1) + 3*perRep; calls != wantCalls {
		t.Errorf("%d calls, want %d", calls, wantCalls)
	}
	// The operator's error stops the run.
	boom := errors.New("boom")
	_, err = runSmall(w, Reuse, func() error { return boom }, 3, 1, now, func() uint64 { return 0 })
	if !errors.Is(err, boom) {
		t.Errorf("error: %v", err)
	}
}

// TestPrepareSmall runs a small call in place for real: its destination
// is its data, which the call changes where the indices say.
func TestPrepareSmall(t *testing.T) {
	ws, err := Find([]string{"S2"})
	if err != nil {
		t.Fatal(err)
	}
	c, err := ws[0].Prepare()
	if err != nil {
		t.Fatal(err)
	}
	kv, ok := c.dst.Data().([]float16.Float16)
	if !ok || !c.dst.Shape().Equal(tensor.Shape{1, 8, 512, 64}) {
		t.Fatalf("dst is %v", c.dst.Shape())
	}
	if err := c.Reuse(); err != nil {
		t.Fatal(err)
	}
	for h := range 8 {
		for p := range 512 {
			row := kv[(h*512+p)*64:][:64]
			written := slices.ContainsFunc(row, func(v float16.Float16) bool { return v != 0 })
			if written != (p == 100) {
				t.Errorf("head %d, position %d: written %v", h, p, written)
			}
		}
	}
	r, err := Run(c, Reuse, 1, 1)
	if err != nil || r.Calls < 1 || r.MedianNS <= 0 || r.Reps != 1 {
		t.Errorf("Run: %+v, %v", r, err)
	}
}

// objectSink keeps TestHeapObjects' allocations alive.
var objectSink [3]*[16]byte

// TestHeapObjects: heapObjects counts small objects the moment they are
// allocated, not when their span leaves a P's cache (runtime/metrics'
// count showed 0 of these 3).
func TestHeapObjects(t *testing.T) {
	before := heapObjects()
	for i := range objectSink {
		objectSink[i] = new([16]byte)
	}
	// At least these: another goroutine of the process may allocate too.
	if n := heapObjects() - before; n < uint64(len(objectSink)) {
		t.Errorf("heapObjects counted %d objects, want at least %d", n, len(objectSink))
	}
}

// familyInputs returns the inputs that Prepare makes for the workload id,
// made again from its seed.
func familyInputs(t *testing.T, id string) (Workload, inputs) {
	t.Helper()
	ws, err := Find([]string{id})
	if err != nil {
		t.Fatal(err)
	}
	s := ws[0].spec
	return ws[0], s.gen(rand.New(rand.NewPCG(s.seed, s.seed)), s)
}

// TestPrepareSegmentSmall runs S7 for real: its ids are sorted in
// [0,32) and end at 31, so that its output has the [32,64] of
// WORKLOADS.md, and Reuse writes into it the sums of data's rows by
// segment, as a plain loop adds them in row order; Fresh computes the
// same.
func TestPrepareSegmentSmall(t *testing.T) {
	w, in := familyInputs(t, "S7")
	ids := in.indices.Data().([]int64)
	if !slices.IsSorted(ids) || ids[0] < 0 || ids[len(ids)-1] != 31 {
		t.Fatalf("ids %v: want sorted in [0,32), ending at 31", ids)
	}
	data := in.data.Data().([]float32)
	want := make([]float32, 32*64)
	for r, id := range ids {
		for j := range 64 {
			want[int(id)*64+j] += data[r*64+j]
		}
	}
	c, err := w.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reuse(); err != nil {
		t.Fatal(err)
	}
	if !c.dst.HasShape(tensor.Shape{32, 64}) || !slices.Equal(c.dst.Data().([]float32), want) {
		t.Errorf("Reuse wrote %v, want the segment sums %v", c.dst, want)
	}
	if err := c.Fresh(); err != nil || !tensor.Equal(c.last, c.dst) {
		t.Errorf("Fresh: %v, %v", c.last, err)
	}
	if r, err := Run(c, Reuse, 1, 1); err != nil || r.Calls < 1 || r.MedianNS <= 0 {
		t.Errorf("Run: %+v, %v", r, err)
	}
	if n := testing.AllocsPerRun(10, func() { _ = c.Reuse() }); n != 0 && !raceEnabled {
		t.Errorf("Reuse allocates %v objects a call, want 0", n)
	}
}

// TestPrepareSmallPut runs S8 for real: 64 distinct positions of its
// [4096] data get the 64 values, in place, and nothing else changes; it
// has no allocating form.
func TestPrepareSmallPut(t *testing.T) {
	w, in := familyInputs(t, "S8")
	pos := in.indices.Data().([]int64)
	seen := map[int64]bool{}
	for _, p := range pos {
		if p < 0 || p >= 4096 || seen[p] {
			t.Fatalf("positions %v: want 64 distinct in [0,4096)", pos)
		}
		seen[p] = true
	}
	want := slices.Clone(in.data.Data().([]float32))
	for i, p := range pos {
		want[p] = in.updates.Data().([]float32)[i]
	}
	c, err := w.Prepare()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Reuse(); err != nil {
		t.Fatal(err)
	}
	if len(pos) != 64 || !slices.Equal(c.dst.Data().([]float32), want) {
		t.Errorf("Reuse wrote %v, want %v", c.dst, want)
	}
	if err := c.Fresh(); err == nil || !strings.Contains(err.Error(), "S8 (numpy.put) has no fresh form") {
		t.Errorf("Fresh: %v, want an error that S8 has no fresh form", err)
	}
	if _, err := Run(c, Fresh, 1, 1); err == nil {
		t.Error("Run of S8 through Fresh succeeded")
	}
	if r, err := Run(c, Reuse, 1, 1); err != nil || r.Calls < 1 || r.MedianNS <= 0 {
		t.Errorf("Run: %+v, %v", r, err)
	}
	if n := testing.AllocsPerRun(10, func() { _ = c.Reuse() }); n != 0 && !raceEnabled {
		t.Errorf("Reuse allocates %v objects a call, want 0", n)
	}
}

// TestPrepareSegments runs W10 to W12 for real: their ids are in
// [0,65536) (W11's sorted and ending at 65535, so that its output has the
// [65536,16] rows of WORKLOADS.md), and Reuse and Fresh compute the same
// output.
func TestPrepareSegments(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates about 200 MB")
	}
	for _, id := range []string{"W10", "W11", "W12"} {
		w, in := familyInputs(t, id)
		ids := in.indices.Data().([]int64)
		if lo, hi := slices.Min(ids), slices.Max(ids); lo != 0 || hi != 65535 {
			t.Errorf("%s: ids in [%d,%d], want [0,65535]", id, lo, hi)
		}
		if sorted := slices.IsSorted(ids); sorted != (id == "W11") {
			t.Errorf("%s: ids sorted %v", id, sorted)
		}
		in = inputs{}
		c, err := w.Prepare()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Reuse(); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if err := c.Fresh(); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if !c.dst.HasShape(tensor.Shape{65536, 16}) || !tensor.Equal(c.dst, c.last) {
			t.Errorf("%s: Reuse and Fresh differ at %d", id, tensor.FirstDiff(c.dst, c.last))
		}
	}
}
