package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/scatter-dev/scatter/bench"
	"github.com/scatter-dev/scatter/bench/chart"
	"github.com/scatter-dev/scatter/engine"
	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// benchCommand times the benchmark workloads.
var benchCommand = &command{
	name:  "bench",
	short: "time the benchmark workloads through the public API, and chart them against peers",
	about: "Times each bulk workload (W) through the Into form (reuse) and the allocating form (fresh),\n" +
		"and each small call (S) through the Into form in a loop, per call, with its heap allocations;\n" +
		"each line ends with the median's ratio to the fastest peer's on that workload.\n" +
		"With --plot, draws a panel per workload of these times, the peers' and the memory bound.\n",
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &benchOptions{}
		fs.Var(&o.ids, "workload", "the workloads to run, comma-separated as in `W1,W3`, or one per --workload (default: all, "+
			strings.Join(bench.IDs(), ",")+")")
		fs.IntVar(&o.reps, "reps", 7, "timed repetitions `N` per workload and API")
		fs.IntVar(&o.threads, "threads", runtime.NumCPU(), "run with GOMAXPROCS set to `N`")
		fs.StringVar(&o.jsonPath, "json", "", "also write the results to `FILE` as a JSON list")
		fs.StringVar(&o.plotPath, "plot", "", "also draw the results, with the peers' and the memory bounds, as a PNG chart in `FILE.png`")
		fs.Var(&o.peers, "peers", "the peers' results to compare with and draw with --plot, from `FILE.json|none`: a file the peers' scripts\n"+
			"write (results.json, raw/IMPL.json, small.json, family.json) or --json writes, one per --peers, or none for no peers\n"+
			"(default: the bundled figures of NumPy, PyTorch and ONNX Runtime, from "+bench.PeersSource()+")")
		return o.run
	},
}

// benchWarmup is the number of untimed calls before each run's reps, to
// which bench.Run adds while a fresh output's heap settles.
const benchWarmup = 1

// benchOptions are the flags of bench.
type benchOptions struct {
	ids                idList
	reps, threads      int
	jsonPath, plotPath string
	peers              peerFiles
}

// peerFiles collects the --peers flags.
type peerFiles []string

func (p *peerFiles) repeatable() {}

func (p *peerFiles) String() string { return strings.Join(*p, ",") }

func (p *peerFiles) Set(s string) error {
	*p = append(*p, s)
	return nil
}

func (o *benchOptions) run(pos []string, stdout, _ io.Writer) error {
	switch {
	case len(pos) > 0:
		return usagef("bench takes no arguments, got %s", strings.Join(pos, " "))
	case o.reps < 1:
		return usagef("bench: --reps must be at least 1, got %d", o.reps)
	case o.threads < 1:
		return usagef("bench: --threads must be at least 1, got %d", o.threads)
	}
	workloads, err := bench.Find(o.ids)
	if err != nil {
		return usagef("bench: --workload: %v", err)
	}
	switch {
	case o.plotPath != "" && !hasExt(o.plotPath, ".png"):
		return usagef("bench: --plot %s: want a file name ending in .png", o.plotPath)
	case o.plotPath != "" && o.jsonPath != "" && filepath.Clean(o.plotPath) == filepath.Clean(o.jsonPath):
		return usagef("bench: --plot and --json are both %s", o.plotPath)
	case slices.Contains(o.peers, ""):
		return usagef("bench: --peers needs a FILE or none")
	case len(o.peers) > 1 && slices.Contains(o.peers, "none"):
		return usagef("bench: --peers none leaves out every peer; give no other --peers")
	}
	// Fail now rather than after the whole run.
	for _, out := range []struct{ flag, path string }{{"json", o.jsonPath}, {"plot", o.plotPath}} {
		if out.path == "" {
			continue
		}
		if err := checkOutput(out.flag, out.path); err != nil {
			return fmt.Errorf("bench: %w", err)
		}
	}
	peers, peerNotes, err := loadPeers(o.peers)
	if err != nil {
		return err
	}

	prev := runtime.GOMAXPROCS(o.threads)
	defer runtime.GOMAXPROCS(prev)
	started := time.Now()
	fmt.Fprintf(stdout, "scatter bench: %d %s, %d %s after %d or more warm-up calls, %s %s/%s\n",
		o.threads, plural(o.threads, "thread"), o.reps, plural(o.reps, "rep"), benchWarmup, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintln(stdout, strategyLine())
	width := 0
	for _, w := range workloads {
		width = max(width, len(w.Name))
	}
	var results []bench.Result
	for _, w := range workloads {
		best, ok := bestPeer(peers, w.ID)
		rs, err := benchWorkload(w, o.reps, func(r bench.Result) {
			line := benchLine(w, r, width)
			if ok {
				line += vsPeer(w, r, best)
			}
			fmt.Fprintln(stdout, line)
		})
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	var notes []string
	if o.plotPath != "" {
		notes = append([]string{fmt.Sprintf("scatter: this run, %d %s on %s, %s.",
			o.threads, plural(o.threads, "thread"), machine(), started.Format("2006-01-02 15:04"))}, peerNotes...)
	}
	return writeBenchFiles(o.jsonPath, o.plotPath, results, peers, notes)
}

// strategyLine is the second line of bench's header: the copy strategy
// the engine chose (engine.StrategyFor) and the processor it chose it for,
// so that a sitting's figures name both.
func strategyLine() string {
	return fmt.Sprintf("copy strategy: %s (for %s)", engine.HostStrategy(), engine.HostCPU())
}

// writeBenchFiles writes results to jsonPath as a JSON list, and draws
// them with the peers' results and the caption's notes as a PNG chart in
// plotPath (either path "" for none), each file whole or not at all. It
// encodes and draws both before it writes either, so that what fails
// other than a write (a result the chart refuses) leaves neither file.
func writeBenchFiles(jsonPath, plotPath string, results, peers []bench.Result, notes []string) error {
	type output struct {
		flag, path string
		data       []byte
	}
	var outs []output
	if jsonPath != "" {
		b, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return fmt.Errorf("bench: --json: %w", err)
		}
		outs = append(outs, output{"json", jsonPath, append(b, '\n')})
	}
	if plotPath != "" {
		b, err := drawBenchPlot(results, peers, notes)
		if err != nil {
			return err
		}
		outs = append(outs, output{"plot", plotPath, b})
	}
	for _, out := range outs {
		err := atomicfile.Write(out.path, func(w io.Writer) error {
			_, err := w.Write(out.data)
			return err
		})
		if err != nil {
			return fmt.Errorf("bench: --%s: %w", out.flag, err)
		}
	}
	return nil
}

// machine names the machine bench runs on, for the chart: its processor
// (from /proc/cpuinfo where there is one) and its number of logical CPUs.
func machine() string {
	cpu := runtime.GOARCH
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for line := range strings.Lines(string(b)) {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
	}
	return fmt.Sprintf("%s, %d %s", cpu, runtime.NumCPU(), plural(runtime.NumCPU(), "CPU"))
}

// loadPeers returns the peers' results named by the --peers flags, with a
// line for the chart saying where each set comes from: the bundled ones
// for no flag, none for "none", else those in the files
// (bench.ReadPeersFile), which must not hold results of this module's
// impl, which would clash with the run's own, nor two results of one peer
// for the same workload and API.
func loadPeers(args []string) ([]bench.Result, []string, error) {
	switch {
	case len(args) == 0:
		bundled := bench.Peers()
		return bundled, []string{peersNote("bundled", bench.PeersSource(), bundled)}, nil
	case len(args) == 1 && args[0] == "none":
		return nil, nil, nil
	}
	var peers []bench.Result
	var notes []string
	for _, arg := range args {
		rs, source, err := bench.ReadPeersFile(arg)
		if err != nil {
			return nil, nil, err
		}
		for i, r := range rs {
			if r.Impl == bench.Impl {
				return nil, nil, fmt.Errorf("bench: --peers %s: results[%d] has impl %q, which is this run's; give the peers other impl names",
					arg, i, bench.Impl)
			}
			if slices.ContainsFunc(peers, func(p bench.Result) bool {
				return p.Workload == r.Workload && p.Impl == r.Impl && p.API == r.API
			}) {
				return nil, nil, fmt.Errorf("bench: --peers %s: %s %s %s is also in an earlier --peers file", arg, r.Workload, r.Impl, r.API)
			}
		}
		peers = append(peers, rs...)
		notes = append(notes, peersNote(filepath.Base(arg), source, rs))
	}
	return peers, notes, nil
}

// peersNote is the chart's line about a set of peers' results: which
// peers, from where.
func peersNote(from, source string, rs []bench.Result) string {
	var impls []string
	for _, r := range rs {
		if !slices.Contains(impls, r.Impl) {
			impls = append(impls, r.Impl)
		}
	}
	slices.Sort(impls)
	note := fmt.Sprintf("Peers (%s): %s, each its fastest correct call", from, strings.Join(impls, ", "))
	if source != "" && source != from {
		note += ", measured on " + source
	}
	return note + "."
}

// drawBenchPlot draws ours and the peers' results for the workloads that
// ours cover, with the caption's notes, and returns the chart as a PNG
// image.
func drawBenchPlot(ours, peers []bench.Result, notes []string) ([]byte, error) {
	results := slices.Clone(ours)
	for _, p := range peers {
		if slices.ContainsFunc(ours, func(r bench.Result) bool { return r.Workload == p.Workload }) {
			results = append(results, p)
		}
	}
	chart, err := chart.NewChart(results, notes...)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := chart.WritePNG(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// benchWorkload prepares w and runs it through each API, reporting each
// result as it comes. The prepared inputs are garbage once it returns, so
// that only one workload's inputs are live at a time.
func benchWorkload(w bench.Workload, reps int, report func(bench.Result)) ([]bench.Result, error) {
	runtime.GC() // let the previous workload's inputs go before allocating these
	c, err := w.Prepare()
	if err != nil {
		return nil, err
	}
	var results []bench.Result
	for _, api := range w.APIs() {
		r, err := bench.Run(c, api, reps, benchWarmup)
		if err != nil {
			return nil, err
		}
		report(r)
		results = append(results, r)
	}
	return results, nil
}

// bestPeer returns the peers' result of the least median on the workload
// id, through either API, and whether there is one.
func bestPeer(peers []bench.Result, id string) (bench.Result, bool) {
	var best bench.Result
	found := false
	for _, p := range peers {
		if p.Workload == id && p.Median() > 0 && (!found || p.Median() < best.Median()) {
			best, found = p, true
		}
	}
	return best, found
}

// vsPeer is the end of the line of r, a result on w: its median as a
// multiple of the best peer's, and which call of which peer that is:
//
//	0.42x the best peer (torch zeros+index_add_(0), 672.95 ms)
func vsPeer(w bench.Workload, r, best bench.Result) string {
	unit := "ms"
	if w.Small {
		unit = "ns"
	}
	return fmt.Sprintf("  %.2fx the best peer (%s %s, %.2f %s)", r.Median()/best.Median(), best.Impl, best.Call, best.Median(), unit)
}

// benchLine formats a result as one line of aligned columns, the name
// padded to width; a bulk workload's in milliseconds and GB/s, a small
// call's in nanoseconds and heap allocations per call:
//
//	W1 scatternd_elem_none  fresh  median    20.34 ms  min    19.01  max    23.10  (7 reps after 12 warm-up)    6.6 GB/s
//	S2 kv_cache_write       reuse  median    95.12 ns  min    93.80  max    99.01  (7 reps of 262144 calls)  0.00 allocs/call
func benchLine(w bench.Workload, r bench.Result, width int) string {
	if w.Small {
		return fmt.Sprintf("%s %-*s  %-5s  median %8.2f ns  min %8.2f  max %8.2f  (%d %s of %d calls)  %.2f allocs/call",
			w.ID, width, w.Name, r.API, r.MedianNS, r.MinNS, r.MaxNS, r.Reps, plural(r.Reps, "rep"), r.Calls, r.AllocsPerCall)
	}
	return fmt.Sprintf("%s %-*s  %-5s  median %8.2f ms  min %8.2f  max %8.2f  (%d %s after %d warm-up)  %6.1f GB/s",
		w.ID, width, w.Name, r.API, r.MedianMS, r.MinMS, r.MaxMS, r.Reps, plural(r.Reps, "rep"), r.Warmup, r.GBps)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// idList collects workload IDs from comma-separated, repeatable flags.
type idList []string

func (l *idList) repeatable() {}

func (l *idList) String() string { return strings.Join(*l, ",") }

func (l *idList) Set(s string) error {
	for id := range strings.SplitSeq(s, ",") {
		if id = strings.TrimSpace(id); id == "" {
			return fmt.Errorf("empty workload ID in %q", s)
		}
		*l = append(*l, id)
	}
	return nil
}
