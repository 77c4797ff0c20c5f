package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// stopSignals are the signals that stop the command in an orderly way.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}

// cleanUpOnSignal makes SIGINT and SIGTERM remove the temporary file of an
// output being written (atomicfile.Abort), so that no .NAME.tmp-* file is
// left beside it, before the process ends as the signal would have ended
// it: killed by it, which a shell reports as status 128 + its number (130,
// 143), or where the signal cannot be raised again, exiting with that
// status.
func cleanUpOnSignal() {
	c := make(chan os.Signal, 1)
	signal.Notify(c, stopSignals...)
	go func() {
		sig := <-c
		close(stopping)
		atomicfile.Abort()
		signal.Reset(stopSignals...)
		if p, err := os.FindProcess(os.Getpid()); err == nil && p.Signal(sig) == nil {
			time.Sleep(time.Second) // the signal ends the process meanwhile
		}
		code := exitInvalid
		if s, ok := sig.(syscall.Signal); ok {
			code = 128 + int(s)
		}
		os.Exit(code)
	}()
}

// stopping is closed when a stop signal has arrived.
var stopping = make(chan struct{})

// exit ends the process with status code, unless a stop signal has
// arrived: then the signal's handler ends it, as the signal would have,
// even though the command has meanwhile failed (its output's write
// refused once the handler has aborted it) and returned another status.
func exit(code int) {
	select {
	case <-stopping:
		select {} // the handler exits
	default:
		os.Exit(code)
	}
}
