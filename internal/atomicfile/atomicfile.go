// Package atomicfile writes a file so that it is either left as it was or
// replaced by the whole new contents, never by part of them, and so that
// no temporary file outlives the write:
//
//   - a write that fails or panics removes its temporary file;
//   - a program that is stopped in the middle of a write removes it by
//     calling Abort before it exits (the scatter command does on SIGINT
//     and SIGTERM);
//   - a process that is killed outright (kill -9, a crash, a power cut)
//     cannot, but its temporary file's name holds its process id, and the
//     next Write to the same path removes it once that process no longer
//     runs (on Unix; elsewhere such files are left).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// ErrAborted is matched (with errors.Is) by the error of a Write that Abort
// stopped, or that started after it.
var ErrAborted = errors.New("the program is stopping")

// temps are the temporary files of the writes in progress.
var temps = struct {
	sync.Mutex
	names   map[string]bool
	aborted bool
}{names: map[string]bool{}}

// Write creates a temporary file beside path, lets write fill it, syncs it
// and renames it over path. When write fails or panics, or any step fails,
// the temporary file is removed and path is left as it was. An error of
// the file system names path, never the temporary file: "writing PATH:
// STEP: CAUSE" for a step of Write's (create, chmod, sync, close,
// rename), and for a failed write to the io.Writer
// that write gets "write PATH: CAUSE" (an *fs.PathError), which write
// may wrap; CAUSE is the system's error (syscall.ENOSPC, ...), so
// errors.Is finds fs.ErrNotExist and the like. write's other errors are
// returned unchanged. A file
// that replaces an existing one keeps that file's permission bits; a new
// one gets 0644. A path that exists and is not a regular file (a symbolic
// link, a named pipe, a device) is refused with an ErrNotRegular error
// (see CheckTarget) rather than replaced by one.
//
// The temporary file is named ".BASE.tmp-PID-N" (BASE the name of path,
// PID this process's id, N random digits). Before creating it, Write
// removes the files of that form beside path that it can tell were left
// by a process that no longer runs: regular files of this user whose PID
// is that of no process.
func Write(path string, write func(w io.Writer) error) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if err := CheckTarget(path); err != nil {
		return fmt.Errorf("writing %w", err)
	}
	removeStale(dir, base)
	perm := fs.FileMode(0o644)
	if fi, err := os.Lstat(path); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	f, err := create(dir, base)
	if err != nil {
		return fmt.Errorf("writing %s: create: %w", path, cause(err))
	}
	// Whatever stops the write before the rename, an error or a panic in
	// write, the temporary file goes. (Closing it again after a step's
	// Close only returns an error.)
	renamed := false
	defer func() {
		if !renamed {
			f.Close()
			discard(f.Name())
		}
	}()
	if err := write(tempWriter{f, path}); err != nil {
		return err
	}
	for _, step := range []struct {
		name string
		do   func() error
	}{{"chmod", func() error { return f.Chmod(perm) }}, {"sync", f.Sync}, {"close", f.Close}} {
		if err := step.do(); err != nil {
			return fmt.Errorf("writing %s: %s: %w", path, step.name, cause(err))
		}
	}
	if err := rename(f.Name(), path); err != nil {
		return fmt.Errorf("writing %s: rename: %w", path, cause(err))
	}
	renamed = true
	return nil
}

// tempWriter is the temporary file f as write sees it: its errors name
// path, the file the user asked for, rather than f.
type tempWriter struct {
	f    *os.File
	path string
}

func (w tempWriter) Write(p []byte) (int, error) {
	n, err := w.f.Write(p)
	if err != nil {
		err = &fs.PathError{Op: "write", Path: w.path, Err: cause(err)}
	}
	return n, err
}

// cause returns the system's error inside err, an error of an operation on
// the temporary file that names it (*fs.PathError, *os.LinkError); err
// itself for any other error (ErrAborted).
func cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// tempPrefix returns the start of the names of the temporary files for a
// file named base.
func tempPrefix(base string) string { return "." + base + ".tmp-" }

// create creates and records a temporary file for a file named base in
// dir.
func create(dir, base string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	if temps.aborted {
		return nil, ErrAborted
	}
	f, err := os.CreateTemp(dir, tempPrefix(base)+strconv.Itoa(os.Getpid())+"-*")
	if err == nil {
		temps.names[f.Name()] = true
	}
	return f, err
}

// rename renames the temporary file name to path, unless Abort has
// removed it.
func rename(name, path string) error {
	temps.Lock()
	defer temps.Unlock()
	if temps.aborted {
		return ErrAborted
	}
	delete(temps.names, name)
	return os.Rename(name, path)
}

// discard removes the temporary file name.
func discard(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
	os.Remove(name)
}

// Abort removes the temporary files of the writes in progress and makes
// them, and every Write after them, fail with ErrAborted, leaving their
// paths as they were. A program calls it when it must stop in the middle
// of a write, before it exits. It returns the errors of the removals.
func Abort() error {
	temps.Lock()
	defer temps.Unlock()
	temps.aborted = true
	var errs []error
	for name := range temps.names {
		if err := os.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
		delete(temps.names, name)
	}
	return errors.Join(errs...)
}

// removeStale removes the temporary files for base in dir that processes
// which no longer run have left, as far as it can tell; it ignores errors,
// which only leave such files where they are.
func removeStale(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	prefix, self := tempPrefix(base), os.Getpid()
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), prefix)
		if !ok || !e.Type().IsRegular() {
			continue
		}
		p, n, ok := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(p)
		if !ok || err != nil || pid <= 0 || pid == self || !digits(n) || !digits(p) {
			continue
		}
		if name := filepath.Join(dir, e.Name()); leftBy(name, pid) {
			os.Remove(name)
		}
	}
}

// digits reports whether s is a non-empty run of ASCII digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}
