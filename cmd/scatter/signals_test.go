package main

import (
	"io"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/internal/atomicfile"
	"github.com/scatter-dev/scatter/testkit/helpertest"
)

// signalHelperEnv names the output that TestSignalHelper writes when it
// runs as a helper process.
const signalHelperEnv = "SCATTER_SIGNAL_HELPER_OUT"

// TestSignalHelper is not a test: run as a helper process, it sets up the
// command's signal handling, starts writing the output its environment
// names, says it is ready and waits for a signal.
func TestSignalHelper(t *testing.T) {
	path := helpertest.Arg(t, signalHelperEnv)
	cleanUpOnSignal()
	err := atomicfile.Write(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		helpertest.Ready()
		time.Sleep(time.Minute)
		return nil
	})
	t.Fatalf("the write was not stopped: %v", err)
}

// TestSignalLeavesNoTemporary stops a process of the command with SIGTERM,
// then SIGINT, in the middle of writing an output, and checks that the
// process ended by the signal and left neither the output nor its
// temporary file.
func TestSignalLeavesNoTemporary(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no SIGTERM to send")
	}
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dir := t.TempDir()
		cmd := helpertest.Start(t, "TestSignalHelper", signalHelperEnv, filepath.Join(dir, "out.npy"))
		if names := helpertest.DirNames(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], ".out.npy.tmp-") {
			cmd.Process.Kill()
			t.Fatalf("while writing, the directory holds %v, want the temporary file", names)
		}
		cmd.Process.Signal(sig)
		cmd.Wait()
		ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
		if !ok || !(ws.Signaled() && ws.Signal() == sig) && ws.ExitStatus() != 128+int(sig) {
			t.Errorf("%v: the process ended with %v, want killed by the signal or status %d", sig, cmd.ProcessState, 128+int(sig))
		}
		if names := helpertest.DirNames(t, dir); len(names) != 0 {
			t.Errorf("%v: the directory holds %v, want nothing", sig, names)
		}
	}
}
