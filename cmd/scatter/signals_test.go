package main

import (
	"errors"
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

// earlySignalHelperEnv is set for TestEarlySignalHelper when it runs as a
// helper process.
const earlySignalHelperEnv = "SCATTER_EARLY_SIGNAL_HELPER"

// TestEarlySignalHelper is not a test: run as a helper process, it sets up
// the command's signal handling, says it is ready and, once a signal has
// arrived, fails as a command whose output was refused by the abort would
// (exit 1).
func TestEarlySignalHelper(t *testing.T) {
	helpertest.Arg(t, earlySignalHelperEnv)
	cleanUpOnSignal()
	helpertest.Ready()
	<-stopping
	err := atomicfile.Write(filepath.Join(t.TempDir(), "out.npy"), func(io.Writer) error { return nil })
	if !errors.Is(err, atomicfile.ErrAborted) {
		t.Fatalf("the write after the signal: %v, want ErrAborted", err)
	}
	exit(exitInvalid)
}

// TestEarlySignalStatus stops a process of the command with SIGINT before
// it creates its output, and checks that it ends by the signal, not with
// the status of the failure that the stop caused.
func TestEarlySignalStatus(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("no SIGINT to send")
	}
	cmd := helpertest.Start(t, "TestEarlySignalHelper", earlySignalHelperEnv, "1")
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Wait()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !(ws.Signaled() && ws.Signal() == syscall.SIGINT) && ws.ExitStatus() != 130 {
		t.Errorf("the process ended with %v, want killed by SIGINT or status 130", cmd.ProcessState)
	}
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
