package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/scatter-dev/scatter/bench"
	"github.com/scatter-dev/scatter/internal/atomicfile"
)

const benchUsage = "usage: scatter bench [--workload ID[,ID]...] [--reps N] [--threads N] [--json FILE] [--plot FILE.png [--peers FILE.json|none]]"

// benchWarmup is the number of untimed calls before each run's reps.
const benchWarmup = 1

func benchCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stdout)
	var ids idList
	fs.Var(&ids, "workload", "the workload `IDs` to run, comma-separated or repeated (default: all, "+
		strings.Join(bench.IDs(), ",")+")")
	reps := fs.Int("reps", 7, "timed repetitions `N` per workload and API")
	threads := fs.Int("threads", runtime.NumCPU(), "run with GOMAXPROCS set to `N`")
	jsonPath := fs.String("json", "", "also write the results to `FILE` as a JSON list")
	plotPath := fs.String("plot", "", "also draw the results, with the peers' and the memory bounds, as a PNG chart in `FILE.png`")
	peersArg := fs.String("peers", "", "the peers' results to draw with --plot: a JSON `FILE` like --json writes, or none\n"+
		"(default: the bundled medians of NumPy, PyTorch and ONNX Runtime from the speed issue (issue 4), taken on a 2-vCPU machine)")
	fs.Usage = func() {
		fmt.Fprintln(stdout, benchUsage)
		fmt.Fprintln(stdout, "Times each workload through the Into form (reuse) and the allocating form (fresh).")
		fmt.Fprintln(stdout, "With --plot, draws a panel per workload of these times, the peers' and the memory bound.")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	switch {
	case len(pos) > 0:
		return usagef("bench takes no arguments, got %s", strings.Join(pos, " "))
	case *reps < 1:
		return usagef("bench: --reps must be at least 1, got %d", *reps)
	case *threads < 1:
		return usagef("bench: --threads must be at least 1, got %d", *threads)
	}
	workloads, err := bench.Find(ids)
	if err != nil {
		return usagef("bench: --workload: %v", err)
	}
	peersGiven := false
	fs.Visit(func(f *flag.Flag) { peersGiven = peersGiven || f.Name == "peers" })
	switch {
	case *plotPath != "" && !strings.EqualFold(filepath.Ext(*plotPath), ".png"):
		return usagef("bench: --plot %s: want a file name ending in .png", *plotPath)
	case *plotPath != "" && *jsonPath != "" && filepath.Clean(*plotPath) == filepath.Clean(*jsonPath):
		return usagef("bench: --plot and --json are both %s", *plotPath)
	case peersGiven && *plotPath == "":
		return usagef("bench: --peers is for --plot, which is not given")
	case peersGiven && *peersArg == "":
		return usagef("bench: --peers needs a FILE or none")
	}
	// Fail now rather than after the whole run.
	for _, out := range []struct{ flag, path string }{{"json", *jsonPath}, {"plot", *plotPath}} {
		if out.path == "" {
			continue
		}
		if dir := filepath.Dir(out.path); !isDir(dir) {
			return fmt.Errorf("bench: --%s %s: directory %s does not exist", out.flag, out.path, dir)
		}
	}
	var peers []bench.Result
	if *plotPath != "" {
		if peers, err = loadPeers(*peersArg); err != nil {
			return err
		}
	}

	prev := runtime.GOMAXPROCS(*threads)
	defer runtime.GOMAXPROCS(prev)
	fmt.Fprintf(stdout, "scatter bench: %d %s, %d %s after %d warm-up, %s %s/%s\n",
		*threads, plural(*threads, "thread"), *reps, plural(*reps, "rep"), benchWarmup, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	width := 0
	for _, w := range workloads {
		width = max(width, len(w.Name))
	}
	var results []bench.Result
	for _, w := range workloads {
		rs, err := benchWorkload(w, *reps, func(r bench.Result) {
			fmt.Fprintln(stdout, benchLine(w, r, width))
		})
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	if *jsonPath != "" {
		err := atomicfile.Write(*jsonPath, func(f io.Writer) error {
			enc := json.NewEncoder(f)
			enc.SetIndent("", "  ")
			return enc.Encode(results)
		})
		if err != nil {
			return err
		}
	}
	if *plotPath != "" {
		return writeBenchPlot(*plotPath, results, peers)
	}
	return nil
}

// isDir reports whether path is an existing directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// loadPeers returns the peers' results named by the --peers flag: the
// bundled ones for "", none for "none", else those in the file, which
// must not hold results of this module's impl: they would clash with the
// run's own.
func loadPeers(arg string) ([]bench.Result, error) {
	switch arg {
	case "":
		return bench.Peers(), nil
	case "none":
		return nil, nil
	}
	peers, err := bench.ReadResultsFile(arg)
	if err != nil {
		return nil, err
	}
	if i := slices.IndexFunc(peers, func(r bench.Result) bool { return r.Impl == bench.Impl }); i >= 0 {
		return nil, fmt.Errorf("bench: --peers %s: results[%d] has impl %q, which is this run's; give the peers other impl names",
			arg, i, bench.Impl)
	}
	return peers, nil
}

// writeBenchPlot draws ours and the peers' results for the workloads
// that ours cover, and writes the chart to path as a PNG image, whole or
// not at all.
func writeBenchPlot(path string, ours, peers []bench.Result) error {
	results := slices.Clone(ours)
	for _, p := range peers {
		if slices.ContainsFunc(ours, func(r bench.Result) bool { return r.Workload == p.Workload }) {
			results = append(results, p)
		}
	}
	chart, err := bench.NewChart(results)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, chart.WritePNG)
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
	for _, api := range bench.APIs() {
		r, err := bench.Run(c, api, reps, benchWarmup)
		if err != nil {
			return nil, err
		}
		report(r)
		results = append(results, r)
	}
	return results, nil
}

// benchLine formats a result as one line of aligned columns, the name
// padded to width:
//
//	W1 scatternd_elem_none  reuse  median    12.34 ms  min    12.01  max    13.10  (7 reps)   10.9 GB/s
func benchLine(w bench.Workload, r bench.Result, width int) string {
	return fmt.Sprintf("%s %-*s  %-5s  median %8.2f ms  min %8.2f  max %8.2f  (%d %s)  %6.1f GB/s",
		w.ID, width, w.Name, r.API, r.MedianMS, r.MinMS, r.MaxMS, r.Reps, plural(r.Reps, "rep"), r.GBps)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// idList collects workload IDs from comma-separated, repeatable flags.
type idList []string

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
