package bench

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"time"

	"github.com/scatter-dev/scatter/tensor"
)

// Impl is the implementation name that Run puts in every Result, to tell
// this module's results from those of the peers measured alongside it.
const Impl = "scatter"

// API is the form of the public API that a run calls.
type API string

// The two forms of the API that are timed.
const (
	// Reuse calls the operator's ...Into form with a destination that
	// Prepare allocated once.
	Reuse API = "reuse"
	// Fresh calls the operator's allocating form, which returns a new
	// output every call.
	Fresh API = "fresh"
)

// APIs returns the APIs in the order they are run: Reuse, then Fresh.
func APIs() []API { return []API{Reuse, Fresh} }

// APIs returns the APIs that w is judged through, in the order they are
// run: both for a bulk workload, Reuse alone for a small call.
func (w Workload) APIs() []API {
	if w.Small {
		return []API{Reuse}
	}
	return APIs()
}

// Case is a prepared workload: its inputs, generated once, and a
// destination for Reuse, allocated once.
type Case struct {
	// Workload is the workload the case runs.
	Workload Workload

	reuse, fresh func() error
	dst          tensor.Tensor // Reuse's destination
	last         tensor.Tensor // Fresh's latest output
}

// Prepare generates w's inputs from its fixed seed and allocates the
// destination that Reuse writes into (left untouched: the first call
// touches its pages); a small call in place writes into its data instead.
// This takes up to about a second and 300 MiB.
func (w Workload) Prepare() (*Case, error) {
	s := w.spec
	if s == nil {
		return nil, fmt.Errorf("bench: workload %q does not come from Workloads", w.ID)
	}
	in := s.gen(rand.New(rand.NewPCG(s.seed, s.seed)), s)
	for _, t := range []struct {
		name string
		got  tensor.Tensor
		want tensor.Shape
	}{{"data", in.data, s.data}, {"indices", in.indices, s.indices}, {"updates", in.updates, s.updates}} {
		if t.want != nil && !t.got.HasShape(t.want) {
			return nil, fmt.Errorf("bench: %s: %s has shape %v, want %v", w.ID, t.name, t.got.Shape(), t.want)
		}
	}
	dst := in.data
	if !s.inPlace {
		var err error
		if dst, err = tensor.New(in.data.DType(), s.out); err != nil {
			return nil, fmt.Errorf("bench: %s: %w", w.ID, err)
		}
	}
	c := &Case{Workload: w, dst: dst}
	c.reuse = func() error { return s.into(dst, in) }
	if s.alloc != nil {
		c.fresh = func() error {
			out, err := s.alloc(in)
			c.last = out
			return err
		}
	}
	return c, nil
}

// Reuse runs the workload's operator once through its ...Into form, into
// the destination allocated by Prepare. A scatter copies data into the
// destination first, as part of the call.
func (c *Case) Reuse() error { return c.Call(Reuse) }

// Fresh runs the workload's operator once through its allocating form,
// which returns a new output. A small call need not have one: S8's
// numpy.put works in place only, and its Fresh is an error.
func (c *Case) Fresh() error { return c.Call(Fresh) }

// Call runs the operator once through the given API.
func (c *Case) Call(api API) error {
	f, err := c.op(api)
	if err != nil {
		return err
	}
	return f()
}

// op returns the function that runs api.
func (c *Case) op(api API) (func() error, error) {
	var f func() error
	switch api {
	case Reuse:
		f = c.reuse
	case Fresh:
		f = c.fresh
	default:
		return nil, fmt.Errorf("bench: unknown API %q (known: %s, %s)", api, Reuse, Fresh)
	}
	switch {
	case c.reuse == nil:
		return nil, errors.New("bench: the Case was not made by Prepare")
	case f == nil:
		// A small call in place whose operator has no allocating form (S8).
		return nil, fmt.Errorf("bench: %s (%s) has no %s form", c.Workload.ID, c.Workload.Op, api)
	}
	return f, nil
}

// Result is the timing of one workload through one API. Its JSON form is
// the schema shared with the peers' benchmark scripts; for a bulk workload
//
//	{"workload": "W1", "impl": "scatter", "api": "reuse", "median_ms": 12.3,
//	 "min_ms": 12.0, "max_ms": 13.1, "reps": 7, "gbps": 12.6}
//
// and for a small call, in nanoseconds per call as the peers'
// small_calls.py writes them, with the calls per repetition and the heap
// allocations per call:
//
//	{"workload": "S2", "impl": "scatter", "api": "reuse", "median_ns": 95.1,
//	 "min_ns": 93.8, "max_ns": 99.0, "reps": 9, "calls": 131072,
//	 "allocs_per_call": 0}
//
// Either may carry "warmup" and, for a peer, "call": the peer's own name
// for what it timed.
type Result struct {
	// Workload is the workload's ID, "W1".
	Workload string
	// Impl is the implementation measured: Impl for this module.
	Impl string
	// API is "reuse" or "fresh".
	API API
	// MedianMS, MinMS and MaxMS summarise the timed repetitions of a bulk
	// workload, in milliseconds. With an even number of repetitions the
	// median is the mean of the middle two.
	MedianMS float64
	MinMS    float64
	MaxMS    float64
	// MedianNS, MinNS and MaxNS summarise the timed repetitions of a
	// small call, in nanoseconds per call.
	MedianNS float64
	MinNS    float64
	MaxNS    float64
	// Reps is the number of timed repetitions; 0 for a peer's result that
	// does not say.
	Reps int
	// GBps is a bulk workload's Bytes divided by the median time, in GB/s
	// (10⁹ bytes per second).
	GBps float64
	// Calls is the number of calls in each repetition of a small call,
	// and AllocsPerCall the heap allocations per call over all of them;
	// 0 where not known, as for the peers.
	Calls         int
	AllocsPerCall float64
	// Warmup is the number of untimed calls before the timed ones (see
	// Run); 0 where not known, as for the peers. It may be left out of
	// the JSON.
	Warmup int
	// Call is, for a peer's result, the peer's own name for the call it
	// timed ("clone+scatter_add_"); "" for this module's.
	Call string
}

// Median, Min and Max return the result's statistics in the unit of its
// workload: milliseconds for a bulk workload, nanoseconds for a small call.
func (r Result) Median() float64 { return r.pick(r.MedianMS, r.MedianNS) }

// Min returns the fastest repetition, in the unit of Median.
func (r Result) Min() float64 { return r.pick(r.MinMS, r.MinNS) }

// Max returns the slowest repetition, in the unit of Median.
func (r Result) Max() float64 { return r.pick(r.MaxMS, r.MaxNS) }

func (r Result) pick(ms, ns float64) float64 {
	if isSmall(r.Workload) {
		return ns
	}
	return ms
}

// Spread returns (Max - Min) / Median: how far apart the repetitions
// were, relative to the median; 0 when the median is 0.
func (r Result) Spread() float64 {
	if m := r.Median(); m > 0 {
		return (r.Max() - r.Min()) / m
	}
	return 0
}

// TooWide is the Spread above which a result is flagged as too noisy to
// trust: its fastest and slowest repetitions differ by more than half the
// median.
const TooWide = 0.5

// Run times c through api. A small call is timed by runSmall (see
// there); a bulk workload so: warmup untimed calls (one is enough to touch
// the pages of Reuse's destination and to fault in the inputs), then reps
// calls, each timed on its own with the monotonic clock. It collects
// garbage before the warm-up, so that the garbage of earlier work is not
// collected inside the timed calls. The first error from the operator
// stops the run.
//
// A call that allocates its output (Fresh) grows the Go heap from the
// operating system, page fault by page fault, until the collector has run
// a couple of times; from then on it mostly reuses the memory of outputs
// that have become garbage, and a collection runs every few calls. So
// while a warm-up call allocates settleBytes or more, the warm-up goes on
// until two collections have completed since it began, or for at most
// settleCalls more calls: the timed calls see the heap at the size it
// settles at, as in a program that calls the operator in a loop, and the
// median is the time of a typical such call. Result.Warmup says how many
// warm-up calls there were.
func Run(c *Case, api API, reps, warmup int) (Result, error) {
	return run(c, api, reps, warmup, time.Now)
}

// The bounds of the warm-up that lets the heap settle (see Run).
const (
	settleBytes = 1 << 20
	settleCalls = 32
)

// heapCounts returns the number of garbage collections completed and the
// bytes allocated on the heap, since the program began.
func heapCounts() (gcs, allocs uint64) {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64(), s[1].Value.Uint64()
}

// warm makes the warm-up calls of Run, reading the heap's counters with
// counts: warmup calls of f, and then more while the heap settles. It
// returns the number of calls made.
func warm(f func() error, warmup int, counts func() (gcs, allocs uint64)) (calls int, err error) {
	gc0, _ := counts()
	var allocated uint64 // by the latest call
	call := func() error {
		_, a0 := counts()
		if err := f(); err != nil {
			return err
		}
		_, a1 := counts()
		allocated = a1 - a0
		calls++
		return nil
	}
	for range warmup {
		if err := call(); err != nil {
			return calls, err
		}
	}
	for range settleCalls {
		if gcs, _ := counts(); allocated < settleBytes || gcs-gc0 >= 2 {
			break
		}
		if err := call(); err != nil {
			return calls, err
		}
	}
	return calls, nil
}

// run is Run with the clock as a parameter, for tests.
func run(c *Case, api API, reps, warmup int, now func() time.Time) (Result, error) {
	if c == nil {
		return Result{}, errors.New("bench: nil Case")
	}
	if reps < 1 {
		return Result{}, fmt.Errorf("bench: reps must be at least 1, got %d", reps)
	}
	if warmup < 0 {
		return Result{}, fmt.Errorf("bench: warmup must not be negative, got %d", warmup)
	}
	f, err := c.op(api)
	if err != nil {
		return Result{}, err
	}
	fail := func(err error) (Result, error) {
		return Result{}, fmt.Errorf("%s %s: %w", c.Workload.ID, api, err)
	}
	if c.Workload.Small {
		r, err := runSmall(c.Workload, api, f, reps, warmup, now, heapObjects)
		if err != nil {
			return fail(err)
		}
		return r, nil
	}
	runtime.GC()
	warmed, err := warm(f, warmup, heapCounts)
	if err != nil {
		return fail(err)
	}
	times := make([]time.Duration, reps)
	for i := range times {
		start := now()
		err := f()
		times[i] = now().Sub(start)
		if err != nil {
			return fail(err)
		}
	}
	r := summarize(c.Workload, api, times)
	r.Warmup = warmed
	return r, nil
}

// stats returns the median, the minimum and the maximum of times, which
// is not empty; with an even count the median is the mean of the middle
// two.
func stats(times []time.Duration) (median, lo, hi time.Duration) {
	sorted := slices.Clone(times)
	slices.Sort(sorted)
	n := len(sorted)
	median = sorted[n/2]
	if n%2 == 0 {
		median = (sorted[n/2-1] + sorted[n/2]) / 2
	}
	return median, sorted[0], sorted[n-1]
}

// summarize makes the Result of the timed repetitions in times.
func summarize(w Workload, api API, times []time.Duration) Result {
	median, lo, hi := stats(times)
	r := Result{
		Workload: w.ID,
		Impl:     Impl,
		API:      api,
		MedianMS: ms(median),
		MinMS:    ms(lo),
		MaxMS:    ms(hi),
		Reps:     len(times),
	}
	if median > 0 {
		r.GBps = float64(w.Bytes) / float64(median.Nanoseconds()) // bytes per ns = GB/s
	}
	return r
}

// ms converts d to milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// smallRep is the least time one repetition of a small call takes: the
// calls in it are as many as take that long. It is the length of the
// peers' small_calls.py runs (0.2 s), so that on a shared machine, whose
// speed drifts by tens of percent from one second to the next, both
// sides' medians take in the drift of as long a stretch (seven runs of
// 20 ms took a tenth of it).
const smallRep = 200 * time.Millisecond

// heapObjects returns the number of heap objects allocated since the
// program began, to the object: runtime.ReadMemStats first gathers what
// each P's cache has handed out. (The runtime/metrics count of objects
// takes a cached span's objects in only when the span goes back, at a
// refill or a collection, so a repetition could be charged with an object
// allocated before it, or not with one allocated during it.)
func heapObjects() uint64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.Mallocs
}

// runSmall times a small call f, as the peers' small_calls.py times
// theirs: after warmup calls (at least one), it doubles the number of
// calls in a repetition until one repetition takes smallRep, then times
// reps repetitions of that many calls, each on its own, and reports
// nanoseconds per call and the heap objects that objects counts as
// allocated per call over all the timed repetitions.
func runSmall(w Workload, api API, f func() error, reps, warmup int, now func() time.Time, objects func() uint64) (Result, error) {
	runtime.GC()
	for range max(warmup, 1) {
		if err := f(); err != nil {
			return Result{}, err
		}
	}
	loop := func(calls int) (time.Duration, error) {
		start := now()
		for range calls {
			if err := f(); err != nil {
				return 0, err
			}
		}
		return now().Sub(start), nil
	}
	calls := 1
	for {
		d, err := loop(calls)
		if err != nil {
			return Result{}, err
		}
		if d >= smallRep || calls >= 1<<30 {
			break
		}
		calls *= 2
	}
	times := make([]time.Duration, reps)
	before := objects()
	for i := range times {
		d, err := loop(calls)
		if err != nil {
			return Result{}, err
		}
		times[i] = d
	}
	allocs := objects() - before
	med, lo, hi := stats(times)
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(calls) }
	return Result{
		Workload:      w.ID,
		Impl:          Impl,
		API:           api,
		MedianNS:      per(med),
		MinNS:         per(lo),
		MaxNS:         per(hi),
		Reps:          reps,
		Calls:         calls,
		AllocsPerCall: float64(allocs) / float64(calls*reps),
		Warmup:        max(warmup, 1),
	}, nil
}
