package bench

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestReadResults(t *testing.T) {
	// What scatter bench --json writes reads back unchanged.
	want := []Result{
		{Workload: "W1", Impl: Impl, API: Reuse, MedianMS: 12.5, MinMS: 12, MaxMS: 13.25, Reps: 7, GBps: 10.5},
		{Workload: "W1", Impl: Impl, API: Fresh, MedianMS: 30, MinMS: 29, MaxMS: 31, Reps: 7, GBps: 5, Warmup: 12},
		{Workload: "W9", Impl: "pytorch", API: Fresh, MedianMS: 0, MinMS: 0, MaxMS: 0, Reps: 1, GBps: 0},
	}
	b, err := json.MarshalIndent(want, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadResults(bytes.NewReader(b))
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %v, %v\nwant %v", got, err, want)
	}
	if got, err := ReadResults(strings.NewReader(" [ ]\n")); err != nil || got == nil || len(got) != 0 {
		t.Errorf("empty list: got %#v, %v", got, err)
	}
}

func TestReadResultsErrors(t *testing.T) {
	const good = `"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7`
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", ``, "bench: not a JSON list of results: EOF"},
		{"null", `null`, "bench: not a JSON list of results: null"},
		{"object", `{` + good + `, "gbps": 1}`, "bench: not a JSON list of results: json: cannot unmarshal object"},
		{"trailing", `[] []`, "bench: unexpected data after the list of results"},
		{"null entry", `[null]`, "bench: results[0]: want an object, got null"},
		{"missing field", `[{` + good + `, "gbps": 1}, {` + good + `}]`, "bench: results[1]: missing gbps"},
		{"missing fields", `[{"workload": "W1", "reps": 1}]`, "bench: results[0]: missing impl, api, median_ms, min_ms, max_ms, gbps"},
		{"unknown field", `[{` + good + `, "gbps": 1, "mean_ms": 2}]`, `bench: results[0]: json: unknown field "mean_ms"`},
		{"wrong type", `[{` + good + `, "gbps": "fast"}]`, "bench: results[0]: json: cannot unmarshal string"},
		{"fractional reps", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7.5, "gbps": 1}]`,
			"bench: results[0]: json: cannot unmarshal number 7.5"},
		{"unknown workload", `[{"workload": "W13", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			`bench: results[0]: unknown workload "W13" (known: W1, W2, W3, W4, W5, W6, W7, W8, W9, W10, W11, W12, S1, S2, S3, S4, S5, S6, S7, S8)`},
		{"workload by name", `[{"workload": "gather_axis0", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			`bench: results[0]: unknown workload "gather_axis0"`},
		{"empty impl", `[{"workload": "W4", "impl": "", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			"bench: results[0]: W4: empty impl"},
		{"unknown api", `[{"workload": "W4", "impl": "numpy", "api": "inplace", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			`bench: results[0]: W4 numpy: unknown api "inplace" (known: reuse, fresh)`},
		{"negative median", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": -2, "min_ms": -3, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			"bench: results[0]: W4 numpy fresh: median_ms is -2, want a finite number not below 0"},
		{"negative min", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": -1, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			"bench: results[0]: W4 numpy fresh: min_ms is -1, want a finite number not below 0"},
		{"negative gbps", `[{` + good + `, "gbps": -1}]`, "bench: results[0]: W4 numpy fresh: gbps is -1, want a finite number not below 0"},
		{"min above median", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 2.5, "max_ms": 3, "reps": 7, "gbps": 1}]`,
			"bench: results[0]: W4 numpy fresh: want min_ms <= median_ms <= max_ms, got 2.5, 2, 3"},
		{"max below median", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 1.5, "reps": 7, "gbps": 1}]`,
			"bench: results[0]: W4 numpy fresh: want min_ms <= median_ms <= max_ms, got 1, 2, 1.5"},
		{"no reps", `[{"workload": "W4", "impl": "numpy", "api": "fresh", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 0, "gbps": 1}]`,
			"bench: results[0]: W4 numpy fresh: reps is 0, want at least 1"},
		{"negative warmup", `[{` + good + `, "gbps": 1, "warmup": -1}]`,
			"bench: results[0]: W4 numpy fresh: warmup is -1, want at least 0"},
		{"duplicate", `[{` + good + `, "gbps": 1}, {"workload": "W4", "impl": "numpy", "api": "reuse", "median_ms": 2, "min_ms": 1, "max_ms": 3, "reps": 7, "gbps": 1}, {` + good + `, "gbps": 2}]`,
			"bench: results[2]: W4 numpy fresh is also results[0]"},
	} {
		got, err := ReadResults(strings.NewReader(tc.in))
		if err == nil || got != nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, %v\nwant error %q", tc.name, got, err, tc.want)
		}
	}
}

func TestCheckResultNotFinite(t *testing.T) {
	// JSON cannot spell these, but NewChart takes results from Go too.
	for _, v := range []float64{math.NaN(), math.Inf(1)} {
		r := Result{Workload: "W1", Impl: Impl, API: Reuse, MedianMS: v, MinMS: 0, MaxMS: v, Reps: 1}
		if err := checkResult(r, IDs()); err == nil || !strings.Contains(err.Error(), "median_ms is") {
			t.Errorf("median %v: %v", v, err)
		}
	}
}

func TestReadResultsFile(t *testing.T) {
	rs, err := ReadResultsFile(filepath.Join("testdata", "results.json"))
	if err != nil || len(rs) != 24 {
		t.Fatalf("got %d results, %v", len(rs), err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`[{"workload": "W1"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, want string }{
		{bad, "bench: " + bad + ": results[0]: missing impl,"},
		{filepath.Join(dir, "none.json"), "bench: open " + filepath.Join(dir, "none.json") + ": no such file"},
	} {
		if rs, err := ReadResultsFile(tc.path); err == nil || rs != nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v, %v; want error %q", tc.path, rs, err, tc.want)
		}
	}
}

// TestPeers checks the bundled files: NumPy, PyTorch and ONNX Runtime's C
// API on W1 to W9, NumPy and PyTorch on every other workload, each once,
// with the APIs ReadPeersFile gives them, and where they come from.
func TestPeers(t *testing.T) {
	got := Peers()
	family := []string{"W10", "W11", "W12", "S7", "S8"}
	for _, w := range Workloads() {
		peers := map[string]API{"numpy": Fresh, "torch": Fresh, "ort_c": Reuse}
		switch {
		case w.Small:
			peers = map[string]API{"numpy": Reuse, "torch": Reuse}
		case slices.Contains(family, w.ID):
			peers = map[string]API{"numpy": Fresh, "torch": Fresh}
		}
		for impl, api := range peers {
			i := slices.IndexFunc(got, func(r Result) bool { return r.Workload == w.ID && r.Impl == impl })
			if i < 0 {
				t.Errorf("no %s %s", w.ID, impl)
				continue
			}
			if r := got[i]; r.API != api || r.Median() <= 0 || r.Call == "" || !w.Small && r.GBps <= 0 {
				t.Errorf("%s %s: %+v", w.ID, impl, r)
			}
		}
	}
	if n := 9*3 + 6*2 + 5*2; len(got) != n {
		t.Errorf("%d results, want %d", len(got), n)
	}
	// The fastest correct call of each peer, of the candidates that
	// family_calls.py timed: W10's torch took index_add_ (672.954 ms)
	// over scatter_add_ (964.996 ms), S7's numpy reduceat over add.at.
	for _, want := range []Result{
		{Workload: "W10", Impl: "torch", API: Fresh, MedianMS: 672.954, MinMS: 454.185, MaxMS: 766.357, Reps: 7,
			GBps: float64(76<<20) / 672.954e6, Call: "zeros+index_add_(0)"},
		{Workload: "S7", Impl: "numpy", API: Reuse, MedianNS: 227904.43, MinNS: 23043.51, MaxNS: 381009.016, Reps: 7,
			Call: "np.add.reduceat"},
	} {
		if !slices.Contains(got, want) {
			t.Errorf("no %+v", want)
		}
	}
	src := PeersSource()
	if !strings.HasPrefix(src, "AMD EPYC, 2 vCPU (KVM), 2026-11-25T16:56:47 (W1-W9, S1-S6); ") ||
		!strings.HasSuffix(src, "AMD EPYC, 2 vCPU (KVM), 2026-11-29T01:02:18 (W10-W12, S7-S8)") {
		t.Errorf("PeersSource() = %q", src)
	}
	got[0].MedianMS = -1
	if Peers()[0].MedianMS < 0 {
		t.Error("Peers returned a shared slice")
	}
}

// TestReadPeersFile reads the files the peers' scripts write, and a list
// as scatter bench --json writes it.
func TestReadPeersFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	report := write("results.json", `{"generated": "2026-11-25T15:28:00", "schema": {},
		"machine": {"Model name": "AMD EPYC", "nproc": 2, "Hypervisor vendor": "KVM"},
		"best": [
		 {"workload": "W8", "impl": "ort_c", "api": "OrtApi::Run, pre-allocated output", "median_ms": 2.5, "min_ms": 2.4, "max_ms": 3, "reps": 7, "threads": 2, "output_ok": true},
		 {"workload": "W8", "impl": "torch", "api": "d[i]", "median_ms": 30, "min_ms": 29, "max_ms": 40, "reps": 7, "samples_ms": [30]},
		 {"workload": "W8", "impl": "tfjs", "api": "-", "error": "not available"},
		 {"workload": "W8", "impl": "ort", "api": "session.run", "median_ms": 1, "min_ms": 1, "max_ms": 1, "reps": 7, "output_ok": false},
		 {"workload": "W8", "impl": "bound_stream", "api": "derived", "median_ms": 1.3, "min_ms": 1.3, "max_ms": 1.3, "reps": 0}
		]}`)
	raw := write("numpy.json", `[
		 {"workload": "W3", "impl": "numpy", "api": "copy+np.add.at", "median_ms": 290, "min_ms": 270, "max_ms": 380, "reps": 7},
		 {"workload": "W3", "impl": "numpy", "api": "d+bincount", "median_ms": 21.5, "min_ms": 20, "max_ms": 22, "reps": 7}]`)
	small := write("small.json", `[
		 {"workload": "S4", "impl": "torch", "api": "scatter_add_(1)", "median_ns": 993, "min_ns": 987, "max_ns": 999}]`)
	// family_calls.py's list: every candidate, output_ok on each, W10 to
	// W12 in ms and S7, S8 in ns.
	family := write("family.json", `[
		 {"workload": "W12", "impl": "torch", "api": "scatter_reduce_", "median_ms": 1582.5, "min_ms": 1074.3, "max_ms": 2281.2, "reps": 7, "output_ok": true},
		 {"workload": "W12", "impl": "torch", "api": "index_reduce_", "median_ms": 629.2, "min_ms": 370.3, "max_ms": 2663.3, "reps": 7, "output_ok": true},
		 {"workload": "W12", "impl": "numpy", "api": "wrong", "median_ms": 1, "min_ms": 1, "max_ms": 1, "reps": 7, "output_ok": false},
		 {"workload": "S8", "impl": "numpy", "api": "np.put", "median_ns": 7938.9, "min_ns": 3727, "max_ns": 12236.7, "reps": 7, "output_ok": true}]`)
	ours := write("ours.json", `[{"workload": "W1", "impl": "go", "api": "reuse", "median_ms": 5, "min_ms": 4, "max_ms": 6, "reps": 3, "gbps": 1}]`)
	bytes8 := Workloads()[7].Bytes
	for _, tc := range []struct {
		path, source string
		want         []Result
	}{
		{report, "AMD EPYC, 2 vCPU (KVM), 2026-11-25T15:28:00", []Result{
			{Workload: "W8", Impl: "ort_c", API: Reuse, MedianMS: 2.5, MinMS: 2.4, MaxMS: 3, Reps: 7, GBps: float64(bytes8) / 2.5e6, Call: "OrtApi::Run, pre-allocated output"},
			{Workload: "W8", Impl: "torch", API: Fresh, MedianMS: 30, MinMS: 29, MaxMS: 40, Reps: 7, GBps: float64(bytes8) / 30e6, Call: "d[i]"},
		}},
		{raw, "numpy.json", []Result{{Workload: "W3", Impl: "numpy", API: Fresh, MedianMS: 21.5, MinMS: 20, MaxMS: 22, Reps: 7,
			GBps: float64(Workloads()[2].Bytes) / 21.5e6, Call: "d+bincount"}}},
		{small, "small.json", []Result{{Workload: "S4", Impl: "torch", API: Reuse, MedianNS: 993, MinNS: 987, MaxNS: 999, Call: "scatter_add_(1)"}}},
		{family, "family.json", []Result{
			{Workload: "W12", Impl: "torch", API: Fresh, MedianMS: 629.2, MinMS: 370.3, MaxMS: 2663.3, Reps: 7,
				GBps: float64(Workloads()[11].Bytes) / 629.2e6, Call: "index_reduce_"},
			{Workload: "S8", Impl: "numpy", API: Reuse, MedianNS: 7938.9, MinNS: 3727, MaxNS: 12236.7, Reps: 7, Call: "np.put"},
		}},
		{ours, "ours.json", []Result{{Workload: "W1", Impl: "go", API: Reuse, MedianMS: 5, MinMS: 4, MaxMS: 6, Reps: 3, GBps: 1}}},
	} {
		got, source, err := ReadPeersFile(tc.path)
		if err != nil || source != tc.source || !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %+v, %q, %v\nwant %+v, %q", filepath.Base(tc.path), got, source, err, tc.want, tc.source)
		}
	}
	for _, tc := range []struct{ text, want string }{
		{`{"best": [{"workload": "W13", "impl": "x", "median_ms": 1, "min_ms": 1, "max_ms": 1}]}`, `results[0]: unknown workload "W13"`},
		{`{"generated": "today"}`, `no "best" list`},
		{`[{"workload": "S1", "impl": "torch", "median_ms": 1, "min_ms": 1, "max_ms": 1}]`, "S1 torch: want median_ns, min_ns and max_ns"},
		{`[{"workload": "W1", "impl": "torch", "median_ms": 3, "min_ms": 4, "max_ms": 5}]`, "want min_ms <= median_ms <= max_ms"},
		{`nonsense`, "not a JSON list of results"},
	} {
		path := write("bad.json", tc.text)
		if rs, _, err := ReadPeersFile(path); err == nil || rs != nil || !strings.Contains(err.Error(), tc.want) ||
			!strings.HasPrefix(err.Error(), "bench: "+path+": ") {
			t.Errorf("%s: got %v, %v; want error %q", tc.text, rs, err, tc.want)
		}
	}
}

// TestBounds checks the workloads' memory bounds against the bundled
// peers' report (the larger of its bound_stream and bound_random per bulk
// workload); the small calls and W10 to W12, which it does not cover,
// have none.
func TestBounds(t *testing.T) {
	want := map[string]float64{
		"W1": 1.63, "W2": 1.23, "W3": 1.9, "W4": 1.69, "W5": 1.23, "W6": 7.37, "W7": 2.46, "W8": 1.23, "W9": 9.09,
		// W10 to W12: none measured on that machine.
	}
	ws := Workloads()
	if len(ws) != 20 {
		t.Fatalf("%d workloads, want 20", len(ws))
	}
	for _, w := range ws {
		if w.BoundMS != want[w.ID] {
			t.Errorf("%s: BoundMS %v, want %v", w.ID, w.BoundMS, want[w.ID])
		}
	}
}

// TestIsSmall: isSmall holds for the small calls' IDs alone.
func TestIsSmall(t *testing.T) {
	for _, w := range Workloads() {
		if isSmall(w.ID) != w.Small {
			t.Errorf("isSmall(%s) = %v, want %v", w.ID, isSmall(w.ID), w.Small)
		}
	}
	for _, id := range []string{"", "S0", "S9", "s1", "W1 ", "W10"} {
		if isSmall(id) {
			t.Errorf("isSmall(%q) holds", id)
		}
	}
}
