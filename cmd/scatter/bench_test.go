package main

import (
	"encoding/json"
	"image"
	"image/png"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/bench"
	"github.com/scatter-dev/scatter/engine"
)

// benchTestWorkload is the workload the end-to-end test runs: about 100 MB
// of inputs, and about a second for one rep of each API.
const benchTestWorkload = "W2"

func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a real workload")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	chart := filepath.Join(dir, "chart.png")
	procs := runtime.GOMAXPROCS(0)
	code, stdout, stderr := runArgs("bench", "--workload", benchTestWorkload, "--reps", "1", "--threads", "1", "--json", out, "--plot", chart)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if runtime.GOMAXPROCS(0) != procs {
		t.Errorf("GOMAXPROCS left at %d, was %d", runtime.GOMAXPROCS(0), procs)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	// Each line ends with its ratio to the bundled peers' fastest on W2,
	// ONNX Runtime's (3.671 ms).
	line := regexp.MustCompile(`^W2 scatternd_slice_none  (reuse|fresh)  median +[0-9.]+ ms  min +[0-9.]+  max +[0-9.]+  \(1 rep after [1-9][0-9]* warm-up\) +[0-9.]+ GB/s` +
		`  [0-9]+\.[0-9][0-9]x the best peer \(ort_c OrtApi::Run, pre-allocated output, 3\.67 ms\)$`)
	if len(lines) != 4 || !strings.HasPrefix(lines[0], "scatter bench: 1 thread, 1 rep after 1 or more warm-up calls") ||
		lines[1] != "copy strategy: "+engine.HostStrategy().String()+" (for "+engine.HostCPU().String()+")" ||
		!line.MatchString(lines[2]) || !line.MatchString(lines[3]) ||
		!strings.Contains(lines[2], "reuse") || !strings.Contains(lines[3], "fresh") {
		t.Errorf("stdout:\n%s", stdout)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var results []map[string]any
	if err := json.Unmarshal(b, &results); err != nil {
		t.Fatalf("%v in:\n%s", err, b)
	}
	if len(results) != 2 {
		t.Fatalf("%d results:\n%s", len(results), b)
	}
	keys := []string{"api", "gbps", "impl", "max_ms", "median_ms", "min_ms", "reps", "warmup", "workload"}
	for i, api := range []string{"reuse", "fresh"} {
		r := results[i]
		got := slices.Sorted(maps.Keys(r))
		if !reflect.DeepEqual(got, keys) || r["workload"] != "W2" || r["impl"] != "scatter" || r["api"] != api ||
			r["reps"] != 1.0 || !(r["median_ms"].(float64) > 0) || !(r["gbps"].(float64) > 0) || !(r["warmup"].(float64) >= 1) {
			t.Errorf("result %d: %v", i, r)
		}
	}
	if !strings.HasPrefix(string(b), "[\n  {\n    \"workload\": \"W2\",\n") {
		t.Errorf("not pretty-printed:\n%s", b)
	}
	// One panel, of 5 by 3 inches and 12-point margins, under three lines
	// of caption (what the bars are, this run, the bundled peers), at 96
	// dpi.
	checkPNG(t, chart, 512, 396)
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("stray files: %v", entries)
	}
}

// TestBenchSmall runs small calls, S2 through the ONNX dialect and S8
// through numpy's: one line each in nanoseconds and allocations per call,
// through the Into form only, ending with the ratio to the best of the
// peers given (none: no ratio), and its JSON in the small calls' schema.
func TestBenchSmall(t *testing.T) {
	dir := t.TempDir()
	peers := filepath.Join(dir, "peers.json")
	if err := os.WriteFile(peers, []byte(`[{"workload": "S8", "impl": "mine", "api": "np.put", "median_ns": 1000, "min_ns": 900, "max_ns": 1100},
		{"workload": "S8", "impl": "yours", "api": "put_", "median_ns": 2000, "min_ns": 1900, "max_ns": 2100}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct{ id, name, peers, vs string }{
		{"S2", "kv_cache_write", "none", ""},
		{"S8", "put_small", peers, `  [0-9]+\.[0-9][0-9]x the best peer \(mine np\.put, 1000\.00 ns\)`},
	} {
		out := filepath.Join(dir, "out.json")
		code, stdout, stderr := runArgs("bench", "--workload", w.id, "--reps", "2", "--json", out, "--peers", w.peers)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", w.id, code, stderr)
		}
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		line := regexp.MustCompile(`^` + w.id + ` ` + w.name + `  reuse  median +[0-9.]+ ns  min +[0-9.]+  max +[0-9.]+  \(2 reps of [1-9][0-9]* calls\)  [0-9.e+-]+ allocs/call` + w.vs + `$`)
		if len(lines) != 3 || lines[1] != strategyLine() || !line.MatchString(lines[2]) {
			t.Errorf("%s: stdout:\n%s", w.id, stdout)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var results []map[string]any
		if err := json.Unmarshal(b, &results); err != nil || len(results) != 1 {
			t.Fatalf("%s: %v in:\n%s", w.id, err, b)
		}
		keys := []string{"allocs_per_call", "api", "calls", "impl", "max_ns", "median_ns", "min_ns", "reps", "warmup", "workload"}
		if r := results[0]; !slices.Equal(slices.Sorted(maps.Keys(r)), keys) || r["workload"] != w.id || r["api"] != "reuse" ||
			r["reps"] != 2.0 || !(r["median_ns"].(float64) > 0) || !(r["calls"].(float64) >= 1) {
			t.Errorf("%s: result: %v", w.id, r)
		}
	}
}

// TestVsPeer: a line ends with the ratio of its median to the least
// median of the peers on its workload, whatever their API, in the unit
// of the workload.
func TestVsPeer(t *testing.T) {
	ws, err := bench.Find([]string{"W10", "S7"})
	if err != nil {
		t.Fatal(err)
	}
	peers := []bench.Result{
		{Workload: "W10", Impl: "numpy", API: bench.Fresh, MedianMS: 900, MinMS: 800, MaxMS: 1000, Call: "bincount"},
		{Workload: "W10", Impl: "torch", API: bench.Fresh, MedianMS: 600, MinMS: 500, MaxMS: 700, Call: "index_add_"},
		{Workload: "W10", Impl: "ort_c", API: bench.Reuse, MedianMS: 0, Call: "not measured"},
		{Workload: "W11", Impl: "torch", API: bench.Fresh, MedianMS: 1, MinMS: 1, MaxMS: 1, Call: "segment_reduce"},
		{Workload: "S7", Impl: "numpy", API: bench.Reuse, MedianNS: 2000, MinNS: 2000, MaxNS: 2000, Call: "np.add.reduceat"},
	}
	ours := bench.Result{Workload: "W10", Impl: bench.Impl, API: bench.Reuse, MedianMS: 150}
	best, ok := bestPeer(peers, "W10")
	if got, want := vsPeer(ws[0], ours, best), "  0.25x the best peer (torch index_add_, 600.00 ms)"; !ok || got != want {
		t.Errorf("W10: %q, %v; want %q", got, ok, want)
	}
	ours = bench.Result{Workload: "S7", Impl: bench.Impl, API: bench.Reuse, MedianNS: 3000}
	best, ok = bestPeer(peers, "S7")
	if got, want := vsPeer(ws[1], ours, best), "  1.50x the best peer (numpy np.add.reduceat, 2000.00 ns)"; !ok || got != want {
		t.Errorf("S7: %q, %v; want %q", got, ok, want)
	}
	if _, ok := bestPeer(peers, "W12"); ok {
		t.Error("a best peer for W12, which has none")
	}
}

// checkPNG checks that path holds a PNG image of the given size.
func checkPNG(t *testing.T, path string, width, height int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if got := img.Bounds(); got != image.Rect(0, 0, width, height) {
		t.Errorf("%s: bounds %v, want %dx%d", path, got, width, height)
	}
}

// writeResults writes rs as a JSON file in dir and returns its path.
func writeResults(t *testing.T, dir, name string, rs []bench.Result) string {
	t.Helper()
	b, err := json.Marshal(rs)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// fakeResult returns a result of median ms, as if measured.
func fakeResult(workload, impl string, api bench.API, ms float64) bench.Result {
	return bench.Result{Workload: workload, Impl: impl, API: api, MedianMS: ms, MinMS: ms, MaxMS: ms, Reps: 3, GBps: 1}
}

func TestLoadPeers(t *testing.T) {
	dir := t.TempDir()
	mine := []bench.Result{fakeResult("W2", "mine", bench.Reuse, 5), fakeResult("W7", "mine", bench.Fresh, 6)}
	file := writeResults(t, dir, "mine.json", mine)
	other := writeResults(t, dir, "other.json", []bench.Result{fakeResult("W2", "yours", bench.Reuse, 4)})
	clash := writeResults(t, dir, "clash.json", []bench.Result{mine[0], fakeResult("W2", bench.Impl, bench.Reuse, 5)})
	bad := writeResults(t, dir, "bad.json", []bench.Result{fakeResult("W2", "mine", bench.Reuse, -5)})
	// A file that the peers' family_calls.py writes: its fastest correct
	// candidate of each peer and workload.
	family := filepath.Join(dir, "family.json")
	if err := os.WriteFile(family, []byte(`[
		{"workload": "W10", "impl": "torch", "api": "zeros+scatter_add_(0)", "median_ms": 965, "min_ms": 839, "max_ms": 1116, "reps": 7, "output_ok": true},
		{"workload": "W10", "impl": "torch", "api": "zeros+index_add_(0)", "median_ms": 673, "min_ms": 454, "max_ms": 766, "reps": 7, "output_ok": true},
		{"workload": "S7", "impl": "numpy", "api": "np.add.at", "median_ns": 5, "min_ns": 4, "max_ns": 6, "reps": 7, "output_ok": false}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	w10, _ := bench.Find([]string{"W10"})
	// A file that the peers' small_calls.py writes.
	small := filepath.Join(dir, "small.json")
	if err := os.WriteFile(small, []byte(`[{"workload": "S6", "impl": "torch", "api": "index_add_(0)", "median_ns": 477, "min_ns": 474, "max_ns": 496}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	bundled := "Peers (bundled): numpy, ort_c, torch, each its fastest correct call, measured on " + bench.PeersSource() + "."
	for _, tc := range []struct {
		args      []string
		want      []bench.Result
		wantNotes []string
		wantErr   string
	}{
		{nil, bench.Peers(), []string{bundled}, ""},
		{[]string{"none"}, nil, nil, ""},
		{[]string{file}, mine, []string{"Peers (mine.json): mine, each its fastest correct call."}, ""},
		{[]string{file, small}, append(slices.Clone(mine), bench.Result{Workload: "S6", Impl: "torch", API: bench.Reuse,
			MedianNS: 477, MinNS: 474, MaxNS: 496, Call: "index_add_(0)"}),
			[]string{"Peers (mine.json): mine, each its fastest correct call.", "Peers (small.json): torch, each its fastest correct call."}, ""},
		{[]string{family}, []bench.Result{{Workload: "W10", Impl: "torch", API: bench.Fresh, MedianMS: 673, MinMS: 454, MaxMS: 766,
			Reps: 7, GBps: float64(w10[0].Bytes) / 673e6, Call: "zeros+index_add_(0)"}},
			[]string{"Peers (family.json): torch, each its fastest correct call."}, ""},
		{[]string{file, other}, append(slices.Clone(mine), fakeResult("W2", "yours", bench.Reuse, 4)),
			[]string{"Peers (mine.json): mine, each its fastest correct call.", "Peers (other.json): yours, each its fastest correct call."}, ""},
		{[]string{file, file}, nil, nil, "bench: --peers " + file + ": W2 mine reuse is also in an earlier --peers file"},
		{[]string{clash}, nil, nil, `bench: --peers ` + clash + `: results[1] has impl "scatter", which is this run's`},
		{[]string{bad}, nil, nil, "bench: " + bad + ": results[0]: W2 mine reuse: median_ms is -5"},
		{[]string{filepath.Join(dir, "nope.json")}, nil, nil, "bench: open " + filepath.Join(dir, "nope.json")},
	} {
		got, notes, err := loadPeers(tc.args)
		if tc.wantErr != "" {
			if err == nil || got != nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
				t.Errorf("loadPeers(%q) = %v, %v; want error %q", tc.args, got, err, tc.wantErr)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) || !slices.Equal(notes, tc.wantNotes) {
			t.Errorf("loadPeers(%q) = %v, %q, %v; want %v, %q", tc.args, got, notes, err, tc.want, tc.wantNotes)
		}
	}
}

func TestWriteBenchPlot(t *testing.T) {
	dir := t.TempDir()
	ours := []bench.Result{
		fakeResult("W2", bench.Impl, bench.Reuse, 9), fakeResult("W2", bench.Impl, bench.Fresh, 30),
		fakeResult("W5", bench.Impl, bench.Reuse, 8), fakeResult("W5", bench.Impl, bench.Fresh, 29),
	}
	// The chart has a panel per workload of ours: the peers' others are
	// left out. Panels are 5 by 3 inches with 12-point margins, at 96 dpi,
	// under a caption of 15-point lines: what the bars are, then the notes.
	for _, tc := range []struct {
		name          string
		ours, peers   []bench.Result
		notes         []string
		width, height int
	}{
		{"bundled peers", ours, bench.Peers(), []string{"run", "peers"}, 1008, 396},
		{"no peers", ours[:2], nil, nil, 512, 356},
		{"peers elsewhere", ours[:2], []bench.Result{fakeResult("W7", "mine", bench.Reuse, 3)}, []string{"run"}, 512, 376},
	} {
		path := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-")+".png")
		if err := writeBenchFiles("", path, tc.ours, tc.peers, tc.notes); err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		checkPNG(t, path, tc.width, tc.height)
	}
	// A result the chart refuses leaves an existing file as it was, and
	// writes no JSON, though the JSON comes first.
	dir = t.TempDir()
	path, js := filepath.Join(dir, "chart.png"), filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeBenchFiles(js, path, []bench.Result{fakeResult("W2", bench.Impl, bench.Reuse, -1)}, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "median_ms is -1") {
		t.Errorf("negative time: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the file now holds %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("stray files: %v", entries)
	}
	// A file that cannot be written is named as given, with the flag.
	for _, flag := range []string{"json", "plot"} {
		bad := filepath.Join(dir, "chart.png", "out."+flag)
		jsonPath, plotPath := bad, ""
		if flag == "plot" {
			jsonPath, plotPath = "", bad
		}
		err := writeBenchFiles(jsonPath, plotPath, ours[:2], nil, nil)
		if want := "bench: --" + flag + ": writing " + bad + ": "; err == nil || !strings.HasPrefix(err.Error(), want) ||
			strings.Contains(err.Error(), ".tmp-") {
			t.Errorf("--%s %s: %v, want an error starting %q and naming no temporary file", flag, bad, err, want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("stray files: %v", entries)
	}
}

func TestBenchUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bench", "--workload", "W13"},
		{"bench", "--workload", "W1,,W2"},
		{"bench", "--workload", "W1,nope"},
		{"bench", "--reps", "0"},
		{"bench", "--reps", "x"},
		{"bench", "--threads", "0"},
		{"bench", "--frobnicate"},
		{"bench", "W1"},
		{"bench", "--plot", "chart.jpg"},
		{"bench", "--plot", "chart"},
		{"bench", "--plot", "out.png", "--json", "./out.png"},
		{"bench", "--peers", ""},
		{"bench", "--peers", "none", "--peers", "peers.json"},
		{"bench", "--plot", "chart.png", "--peers", ""},
		{"bench", "--plot", "chart.png", "--peers", "none", "--peers", "peers.json"},
	} {
		code, stdout, stderr := runArgs(args...)
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "scatter bench: ") ||
			!strings.HasSuffix(stderr, " Run 'scatter help bench' for usage.\n") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	code, _, stderr := runArgs("bench", "--workload", "W13")
	if !strings.Contains(stderr, "known: W1, W2, W3, W4, W5, W6, W7, W8, W9, W10, W11, W12, S1, S2, S3, S4, S5, S6, S7, S8") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	// A --json file that cannot be written fails before the run.
	code, stdout, stderr := runArgs("bench", "--workload", "W1", "--json", filepath.Join(t.TempDir(), "no", "out.json"))
	if code != 1 || stdout != "" || !strings.Contains(stderr, "does not exist") {
		t.Errorf("missing --json dir: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// So do a --plot file that cannot be written and a bad --peers file.
	dir := t.TempDir()
	bad := writeResults(t, dir, "bad.json", []bench.Result{fakeResult("W13", "mine", bench.Reuse, 1)})
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--plot", filepath.Join(dir, "no", "chart.png")}, "does not exist"},
		{[]string{"--plot", filepath.Join(dir, "chart.png"), "--peers", filepath.Join(dir, "nope.json")}, "no such file"},
		{[]string{"--plot", filepath.Join(dir, "chart.png"), "--peers", bad}, `results[0]: unknown workload "W13"`},
	} {
		args := append([]string{"bench", "--workload", "W1"}, tc.args...)
		code, stdout, stderr := runArgs(args...)
		if code != 1 || stdout != "" || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", args, code, stdout, stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("stray files: %v", entries)
	}
	if code, stdout, _ := runArgs("bench", "-h"); code != 0 || !strings.Contains(stdout, "usage: scatter bench") {
		t.Errorf("bench -h: exit %d, %q", code, stdout)
	}
}
