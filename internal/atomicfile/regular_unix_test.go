//go:build unix

package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// within fails t if f does not return within a few seconds: an open of a
// named pipe that has no writer blocks for ever.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s blocked", what)
	}
}

// TestOpenRegularRefuses checks that a named pipe without a writer, a
// device and a directory are refused, naming their kind, without blocking.
func TestOpenRegularRefuses(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, kind string }{
		{fifo, "a named pipe"},
		{link, "a named pipe"},
		{"/dev/null", "a device"},
		{dir, "a directory"},
	} {
		within(t, "OpenRegular("+c.path+")", func() {
			f, _, err := OpenRegular(c.path)
			if err == nil {
				f.Close()
			}
			if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.path+": not a regular file but "+c.kind) {
				t.Errorf("OpenRegular(%s): %v, want ErrNotRegular naming %s", c.path, err, c.kind)
			}
		})
	}
}

// fileAndLink makes in dir a regular file holding contents and a symbolic
// link to it, and returns their paths.
func fileAndLink(t *testing.T, dir, contents string) (file, link string) {
	t.Helper()
	file, link = filepath.Join(dir, "file"), filepath.Join(dir, "link")
	if err := os.WriteFile(file, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	return file, link
}

// TestOpenRegularReads checks that a regular file, and a link to one, open
// and read as usual.
func TestOpenRegularReads(t *testing.T) {
	dir := t.TempDir()
	name, link := fileAndLink(t, dir, "abc")
	for _, p := range []string{name, link} {
		f, fi, err := OpenRegular(p)
		if err != nil {
			t.Fatalf("OpenRegular(%s): %v", p, err)
		}
		b, err := io.ReadAll(f)
		f.Close()
		if err != nil || string(b) != "abc" || fi.Size() != 3 {
			t.Errorf("OpenRegular(%s): read %q, %v, size %d; want abc, 3", p, b, err, fi.Size())
		}
	}
}

// TestWriteRefusesSpecialTargets checks that Write refuses a symbolic
// link, a named pipe and a device rather than replace them with a regular
// file, and leaves them as they were.
func TestWriteRefusesSpecialTargets(t *testing.T) {
	dir := t.TempDir()
	target, link := fileAndLink(t, dir, "keep")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip("no named pipes:", err)
	}
	for _, c := range []struct {
		path, kind string
		mode       os.FileMode
	}{
		{link, "a symbolic link", os.ModeSymlink},
		{fifo, "a named pipe", os.ModeNamedPipe},
		{"/dev/null", "a device", os.ModeDevice},
	} {
		err := Write(c.path, func(w io.Writer) error {
			_, err := w.Write([]byte("new"))
			return err
		})
		if !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), c.kind) {
			t.Errorf("Write(%s): %v, want ErrNotRegular naming %s", c.path, err, c.kind)
		}
		if err := CheckTarget(c.path); !errors.Is(err, ErrNotRegular) {
			t.Errorf("CheckTarget(%s): %v, want ErrNotRegular", c.path, err)
		}
		if fi, err := os.Lstat(c.path); err != nil || fi.Mode()&c.mode == 0 {
			t.Errorf("after Write(%s): %v, %v; want it left as %s", c.path, fi.Mode(), err, c.kind)
		}
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "keep" {
		t.Errorf("the link's target holds %q, %v; want it unchanged", b, err)
	}
	if err := CheckTarget(filepath.Join(dir, "new")); err != nil {
		t.Errorf("CheckTarget of a new file: %v", err)
	}
}
