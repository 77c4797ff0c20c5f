package bench

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"sync"
)

// isSmall reports whether id is the ID of a small call.
func isSmall(id string) bool { return smallIDs()[id] }

// smallIDs are the IDs of the small calls, from the workload table, which
// is built once for them rather than at every isSmall.
var smallIDs = sync.OnceValue(func() map[string]bool {
	ids := map[string]bool{}
	for _, w := range workloads() {
		if w.Small {
			ids[w.ID] = true
		}
	}
	return ids
})

// timesJSON is the times of a result as this module's results and the
// peers' scripts both spell them: milliseconds for a bulk workload,
// nanoseconds per call for a small call.
type timesJSON struct {
	MedianMS *float64 `json:"median_ms,omitempty"`
	MinMS    *float64 `json:"min_ms,omitempty"`
	MaxMS    *float64 `json:"max_ms,omitempty"`
	MedianNS *float64 `json:"median_ns,omitempty"`
	MinNS    *float64 `json:"min_ns,omitempty"`
	MaxNS    *float64 `json:"max_ns,omitempty"`
}

// resultJSON is the JSON form of a Result, with pointers to tell a missing
// field from a zero one: the fields of a bulk workload's result or those
// of a small call's (see Result).
type resultJSON struct {
	Workload *string `json:"workload"`
	Impl     *string `json:"impl"`
	API      *API    `json:"api"`
	timesJSON
	Reps          *int     `json:"reps"`
	GBps          *float64 `json:"gbps,omitempty"`
	Calls         *int     `json:"calls,omitempty"`
	AllocsPerCall *float64 `json:"allocs_per_call,omitempty"`
	Warmup        int      `json:"warmup,omitempty"`
	Call          string   `json:"call,omitempty"`
}

// MarshalJSON writes r in the schema of its workload: milliseconds and
// GB/s for a bulk workload, nanoseconds, calls and allocations per call
// for a small call.
func (r Result) MarshalJSON() ([]byte, error) {
	j := resultJSON{Workload: &r.Workload, Impl: &r.Impl, API: &r.API, Reps: &r.Reps, Warmup: r.Warmup, Call: r.Call}
	if isSmall(r.Workload) {
		j.MedianNS, j.MinNS, j.MaxNS = &r.MedianNS, &r.MinNS, &r.MaxNS
		if r.Calls > 0 {
			j.Calls, j.AllocsPerCall = &r.Calls, &r.AllocsPerCall
		}
	} else {
		j.MedianMS, j.MinMS, j.MaxMS, j.GBps = &r.MedianMS, &r.MinMS, &r.MaxMS, &r.GBps
	}
	return json.Marshal(j)
}

// ReadResults reads a JSON list of results in the schema of Result, as
// written by scatter bench --json, and checks every entry: a known
// workload ID ("W1", "S2"), the fields of that workload's schema, all
// present, and no others (warmup, call, and a small call's calls and
// allocs_per_call may be left out), an API of "reuse" or "fresh", a
// non-empty impl, times that are not negative with min <= median <= max,
// at least one rep, a gbps that is not negative, and no two entries for
// the same workload, impl and API. An error names the first entry at
// fault by its index in the list.
func ReadResults(r io.Reader) ([]Result, error) {
	results, err := readResults(r)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	return results, nil
}

// ReadResultsFile is ReadResults on the named file; its errors name the
// file.
func ReadResultsFile(path string) ([]Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	results, err := readResults(f)
	if err != nil {
		return nil, fmt.Errorf("bench: %s: %w", path, err)
	}
	return results, nil
}

// readResults is ReadResults without the package name in its errors.
func readResults(r io.Reader) ([]Result, error) {
	raw, err := readList(r)
	if err != nil {
		return nil, err
	}
	results := make([]Result, len(raw))
	for i, msg := range raw {
		r, err := decodeResult(msg)
		if err != nil {
			return nil, fmt.Errorf("results[%d]: %w", i, err)
		}
		results[i] = r
	}
	if err := CheckResults(results); err != nil {
		return nil, err
	}
	return results, nil
}

// readList reads one JSON list, and nothing after it.
func readList(r io.Reader) ([]json.RawMessage, error) {
	dec := json.NewDecoder(r)
	var raw []json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("not a JSON list of results: %w", err)
	}
	if raw == nil {
		return nil, errors.New("not a JSON list of results: null")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the list of results")
	}
	return raw, nil
}

// decodeResult decodes one entry of a results list, rejecting unknown
// fields, the fields of the other schema and missing ones.
func decodeResult(msg json.RawMessage) (Result, error) {
	if bytes.Equal(bytes.TrimSpace(msg), []byte("null")) {
		return Result{}, errors.New("want an object, got null")
	}
	dec := json.NewDecoder(bytes.NewReader(msg))
	dec.DisallowUnknownFields()
	var j resultJSON
	if err := dec.Decode(&j); err != nil {
		return Result{}, err
	}
	small := j.Workload != nil && isSmall(*j.Workload)
	type field struct {
		name    string
		present bool
	}
	common := []field{{"workload", j.Workload != nil}, {"impl", j.Impl != nil}, {"api", j.API != nil}, {"reps", j.Reps != nil}}
	bulk := []field{{"median_ms", j.MedianMS != nil}, {"min_ms", j.MinMS != nil}, {"max_ms", j.MaxMS != nil},
		{"gbps", j.GBps != nil}}
	perCall := []field{{"median_ns", j.MedianNS != nil}, {"min_ns", j.MinNS != nil}, {"max_ns", j.MaxNS != nil}}
	own, other := bulk, append(perCall, field{"calls", j.Calls != nil}, field{"allocs_per_call", j.AllocsPerCall != nil})
	if small {
		own, other = perCall, bulk
	}
	var missing []string
	for _, f := range append(common, own...) {
		if !f.present {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return Result{}, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	for _, f := range other {
		if f.present {
			kind := "a bulk workload"
			if small {
				kind = "a small call"
			}
			return Result{}, fmt.Errorf("%s: field %q is not one of %s", *j.Workload, f.name, kind)
		}
	}
	r := Result{Workload: *j.Workload, Impl: *j.Impl, API: *j.API, Reps: *j.Reps, Warmup: j.Warmup, Call: j.Call}
	val := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	if small {
		r.MedianNS, r.MinNS, r.MaxNS, r.AllocsPerCall = *j.MedianNS, *j.MinNS, *j.MaxNS, val(j.AllocsPerCall)
		if j.Calls != nil {
			r.Calls = *j.Calls
		}
	} else {
		r.MedianMS, r.MinMS, r.MaxMS, r.GBps = *j.MedianMS, *j.MinMS, *j.MaxMS, *j.GBps
	}
	return r, nil
}

// CheckResults checks the values of every result, and that no two are
// for the same workload, impl and API.
func CheckResults(results []Result) error {
	ids := IDs()
	type key struct {
		workload, impl string
		api            API
	}
	first := map[key]int{}
	for i, r := range results {
		if err := checkResult(r, ids); err != nil {
			return fmt.Errorf("results[%d]: %w", i, err)
		}
		k := key{r.Workload, r.Impl, r.API}
		if j, ok := first[k]; ok {
			return fmt.Errorf("results[%d]: %s %s %s is also results[%d]", i, r.Workload, r.Impl, r.API, j)
		}
		first[k] = i
	}
	return nil
}

// checkResult checks the values of one result; ids are the known
// workload IDs. A peer's result (Call set) may leave Reps at 0.
func checkResult(r Result, ids []string) error {
	if !slices.Contains(ids, r.Workload) {
		return fmt.Errorf("unknown workload %q (known: %s)", r.Workload, strings.Join(ids, ", "))
	}
	if r.Impl == "" {
		return fmt.Errorf("%s: empty impl", r.Workload)
	}
	if !slices.Contains(APIs(), r.API) {
		return fmt.Errorf("%s %s: unknown api %q (known: %s, %s)", r.Workload, r.Impl, r.API, Reuse, Fresh)
	}
	name := fmt.Sprintf("%s %s %s", r.Workload, r.Impl, r.API)
	type value struct {
		field string
		v     float64
	}
	unit, values := "ms", []value{{"median_ms", r.MedianMS}, {"min_ms", r.MinMS}, {"max_ms", r.MaxMS}, {"gbps", r.GBps}}
	if isSmall(r.Workload) {
		unit, values = "ns", []value{{"median_ns", r.MedianNS}, {"min_ns", r.MinNS}, {"max_ns", r.MaxNS},
			{"allocs_per_call", r.AllocsPerCall}}
	}
	for _, f := range values {
		if f.v < 0 || math.IsNaN(f.v) || math.IsInf(f.v, 0) {
			return fmt.Errorf("%s: %s is %v, want a finite number not below 0", name, f.field, f.v)
		}
	}
	if r.Min() > r.Median() || r.Median() > r.Max() {
		return fmt.Errorf("%s: want min_%s <= median_%s <= max_%s, got %v, %v, %v",
			name, unit, unit, unit, r.Min(), r.Median(), r.Max())
	}
	if r.Reps < 1 && (r.Call == "" || r.Reps < 0) {
		return fmt.Errorf("%s: reps is %d, want at least 1", name, r.Reps)
	}
	if r.Calls < 0 {
		return fmt.Errorf("%s: calls is %d, want at least 0", name, r.Calls)
	}
	if r.Warmup < 0 {
		return fmt.Errorf("%s: warmup is %d, want at least 0", name, r.Warmup)
	}
	return nil
}
