package bench

import (
	"bytes"
	_ "embed"
	"fmt"
)

// peersJSON holds the peers' figures; see Peers.
//
//go:embed peers.json
var peersJSON []byte

// Peers returns the bundled results of the peer implementations on the
// nine workloads: NumPy and PyTorch, which allocate a fresh output per
// call (API Fresh), and ONNX Runtime, which writes into a pre-allocated
// output (API Reuse), under the impl names "numpy", "pytorch" and
// "onnxruntime".
//
// They are the median times reported in the speed issue (issue 4), measured on a 2-vCPU
// machine, whose memory-bandwidth bounds are the workloads' BoundMS. Only
// the medians are known, so MinMS and MaxMS equal MedianMS; Reps is 7;
// GBps is the workload's Bytes over the median. ONNX Runtime's W3 time
// was taken with one thread.
//
// Each call returns a new slice.
func Peers() []Result {
	results, err := readResults(bytes.NewReader(peersJSON))
	if err != nil {
		panic(fmt.Sprintf("bench: bundled peers.json: %v", err)) // a test checks the file
	}
	return results
}
