package bench

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// peersJSON and familyJSON hold the peers' figures; see Peers.
//
//go:embed peers.json
var peersJSON []byte

//go:embed family_peers.json
var familyJSON []byte

// bundledPeers are the bundled files of the peers' figures, each a
// report as run_peers.sh writes it, and the workloads each covers.
var bundledPeers = []struct {
	name   string
	data   []byte
	covers string
}{
	// run_peers.sh's report, with small_calls.py's records appended.
	{"peers.json", peersJSON, "W1-W9, S1-S6"},
	// family_calls.py's records in a report of the same form.
	{"family_peers.json", familyJSON, "W10-W12, S7-S8"},
}

// Peers returns the bundled results of the peer implementations: NumPy
// ("numpy") and PyTorch ("torch") on every workload, and ONNX Runtime
// through its C API with a pre-allocated output ("ort_c") on W1 to W9,
// each the fastest correct call that the peers' own scripts (shared/peers:
// run_peers.sh and small_calls.py for W1 to W9 and S1 to S6,
// family_calls.py for W10 to W12, S7 and S8) found, measured on the
// machines and at the times PeersSource names. The API of each is as
// ReadPeersFile assigns it. Each call returns a new slice.
func Peers() []Result {
	results, _ := bundled()
	return slices.Clone(results)
}

// PeersSource says where and when each set of the bundled peers' figures
// was measured, and which workloads it covers: "AMD EPYC, 2 vCPU (KVM),
// 2026-11-25T16:56:47 (W1-W9, S1-S6); AMD EPYC, 2 vCPU (KVM),
// 2026-11-29T01:02:18 (W10-W12, S7-S8)".
func PeersSource() string {
	_, source := bundled()
	return source
}

// bundled reads the bundled files once: the results of all, and
// PeersSource's text.
var bundled = sync.OnceValues(func() ([]Result, string) {
	var all []Result
	var parts []string
	for _, f := range bundledPeers {
		results, source, err := readPeers(bytes.NewReader(f.data), f.name)
		if err != nil {
			panic(fmt.Sprintf("bench: bundled %s: %v", f.name, err)) // a test checks the files
		}
		all = append(all, results...)
		parts = append(parts, source+" ("+f.covers+")")
	}
	return all, strings.Join(parts, "; ")
})

// peerRecord is one record of the peers' scripts (shared/peers, README's
// common result schema), in milliseconds for the bulk workloads
// (run_peers.sh; family_calls.py for W10 to W12) or nanoseconds per call
// for the small ones (small_calls.py; family_calls.py for S7 and S8).
type peerRecord struct {
	Workload string `json:"workload"`
	Impl     string `json:"impl"`
	API      string `json:"api"`
	timesJSON
	Reps     int    `json:"reps"`
	Error    string `json:"error"`
	OutputOK *bool  `json:"output_ok"`
}

// peerReport is the report run_peers.sh writes (results.json), in the
// parts read here: when and on what it ran, and each peer's fastest
// correct call per workload.
type peerReport struct {
	Generated string          `json:"generated"`
	Machine   map[string]any  `json:"machine"`
	Best      json.RawMessage `json:"best"`
}

// MaxPeersFile is the largest file ReadPeersFile reads: the peers'
// scripts write a few kilobytes.
const MaxPeersFile = 64 << 20

// ReadPeersFile reads the results of peer implementations from the named
// file and returns them with a line saying where they come from. It reads
// what the peers' scripts write: run_peers.sh's report (results.json, whose
// fastest correct call per workload and peer it takes, and whose machine
// and date it quotes), a runner's list of records (raw/numpy.json, ...),
// small_calls.py's (small.json) and family_calls.py's (family.json: every
// candidate call of W10 to W12 in milliseconds and of S7 and S8 in
// nanoseconds, each with output_ok), whose fastest call per workload and
// peer it takes, quoting the file's name; and a list as scatter bench
// --json writes it. Records with an error, a wrong output or an impl
// named bound_... (the report's memory bounds) are left out.
//
// The file must be a regular file (or a symbolic link to one) of at most
// MaxPeersFile bytes: a device or a named pipe is refused before it is
// opened (atomicfile.OpenRegular), so that /dev/zero is not read without
// end.
//
// A peer's API is Reuse where it wrote into a buffer it was given: ONNX
// Runtime's C API ("ort_c") on the bulk workloads, and every peer on the
// small calls (small_calls.py and family_calls.py write into a
// pre-allocated output or in place where the API allows). Every other bulk
// call, which returns a new array (family_calls.py's W10 to W12 make a new
// output of zeros each call), is Fresh. Result.Call keeps the peer's own name for the call.
func ReadPeersFile(path string) ([]Result, string, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, "", fmt.Errorf("bench: %w", err)
	}
	defer f.Close()
	if fi.Size() > MaxPeersFile {
		return nil, "", fmt.Errorf("bench: %s: %d bytes, more than a peers' file may take (%d)", path, fi.Size(), MaxPeersFile)
	}
	// A file that grows while it is read is cut at the bound, and fails to
	// parse, rather than read without end.
	results, source, err := readPeers(io.LimitReader(f, MaxPeersFile), filepath.Base(path))
	if err != nil {
		return nil, "", fmt.Errorf("bench: %s: %w", path, err)
	}
	return results, source, nil
}

// readPeers is ReadPeersFile on r, name being the file's name.
func readPeers(r io.Reader, name string) ([]Result, string, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, "", err
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && t[0] == '{' {
		var rep peerReport
		dec := json.NewDecoder(bytes.NewReader(b))
		if err := dec.Decode(&rep); err != nil {
			return nil, "", fmt.Errorf("not a peers' report: %w", err)
		}
		if rep.Best == nil {
			return nil, "", errors.New("not a peers' report: no \"best\" list")
		}
		results, err := peerResults(rep.Best)
		return results, rep.source(), err
	}
	if ours(b) {
		results, err := readResults(bytes.NewReader(b))
		return results, name, err
	}
	results, err := peerResults(b)
	return results, name, err
}

// ours reports whether b, a JSON list, holds results as scatter bench
// --json writes them: with gbps or calls, which the peers' records lack.
func ours(b []byte) bool {
	var rs []map[string]json.RawMessage
	if json.Unmarshal(b, &rs) != nil {
		return false
	}
	return slices.ContainsFunc(rs, func(r map[string]json.RawMessage) bool {
		_, gbps := r["gbps"]
		_, calls := r["calls"]
		return gbps || calls
	})
}

// source describes where the report was made: "AMD EPYC, 2 vCPU (KVM),
// 2026-11-25T15:28:00".
func (rep peerReport) source() string {
	var parts []string
	if m, ok := rep.Machine["Model name"].(string); ok {
		parts = append(parts, m)
	}
	if n, ok := rep.Machine["nproc"].(float64); ok {
		cpu := fmt.Sprintf("%g vCPU", n)
		if h, ok := rep.Machine["Hypervisor vendor"].(string); ok {
			cpu += " (" + h + ")"
		}
		parts = append(parts, cpu)
	}
	if rep.Generated != "" {
		parts = append(parts, rep.Generated)
	}
	return strings.Join(parts, ", ")
}

// peerResults reads a JSON list of peer records as results, keeping the
// fastest usable call of each peer on each workload.
func peerResults(b []byte) ([]Result, error) {
	raw, err := readList(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	ws := workloads()
	ids := idsOf(ws)
	var results []Result
	for i, msg := range raw {
		var p peerRecord
		if err := json.Unmarshal(msg, &p); err != nil {
			return nil, fmt.Errorf("results[%d]: %w", i, err)
		}
		if p.Error != "" || p.OutputOK != nil && !*p.OutputOK || strings.HasPrefix(p.Impl, "bound_") {
			continue
		}
		r, err := p.result(ws)
		if err != nil {
			return nil, fmt.Errorf("results[%d]: %w", i, err)
		}
		if err := checkResult(r, ids); err != nil {
			return nil, fmt.Errorf("results[%d]: %w", i, err)
		}
		j := slices.IndexFunc(results, func(q Result) bool { return q.Workload == r.Workload && q.Impl == r.Impl })
		switch {
		case j < 0:
			results = append(results, r)
		case r.Median() < results[j].Median():
			results[j] = r
		}
	}
	return results, nil
}

// result converts a peer record, ws being the workloads.
func (p peerRecord) result(ws []Workload) (Result, error) {
	i := slices.IndexFunc(ws, func(w Workload) bool { return w.ID == p.Workload })
	if i < 0 {
		return Result{}, fmt.Errorf("unknown workload %q (known: %s)", p.Workload, strings.Join(idsOf(ws), ", "))
	}
	w := ws[i]
	r := Result{Workload: w.ID, Impl: p.Impl, Reps: p.Reps, Call: p.API}
	if r.Call == "" {
		r.Call = p.Impl
	}
	triple := func(unit string, med, lo, hi *float64) (float64, float64, float64, error) {
		if med == nil || lo == nil || hi == nil {
			return 0, 0, 0, fmt.Errorf("%s %s: want median_%s, min_%s and max_%s", w.ID, p.Impl, unit, unit, unit)
		}
		return *med, *lo, *hi, nil
	}
	var err error
	if w.Small {
		r.API = Reuse
		r.MedianNS, r.MinNS, r.MaxNS, err = triple("ns", p.MedianNS, p.MinNS, p.MaxNS)
		return r, err
	}
	r.API = Fresh
	if p.Impl == "ort_c" {
		r.API = Reuse
	}
	r.MedianMS, r.MinMS, r.MaxMS, err = triple("ms", p.MedianMS, p.MinMS, p.MaxMS)
	if err == nil && r.MedianMS > 0 {
		r.GBps = float64(w.Bytes) / (r.MedianMS * 1e6)
	}
	return r, err
}
