package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/scatter-dev/scatter/testkit/helpertest"
)

// TestWriteErrorNamesPath fails a write to the temporary file, as a full
// disk would, by a limit on the size of files (which makes write(2) fail
// with EFBIG; Go ignores the SIGXFSZ that comes with it): the error that
// write gets names the path, not the temporary file, and keeps the
// system's error; the temporary file goes.
func TestWriteErrorNamesPath(t *testing.T) {
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Skip(err)
	}
	lim := old
	lim.Cur = 4
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Skip(err)
	}
	defer syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	dir := t.TempDir()
	path := filepath.Join(dir, "out.bin")
	var werr error
	err := Write(path, func(w io.Writer) error {
		_, werr = io.WriteString(w, "more than four bytes")
		return werr
	})
	syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old)
	var pe *fs.PathError
	if err != werr || !errors.As(err, &pe) || pe.Path != path || pe.Op != "write" || !errors.Is(err, syscall.EFBIG) {
		t.Errorf("got %v (%#v), want write's error: an *fs.PathError of write on %s with EFBIG", err, err, path)
	}
	if err != nil && strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("%v names the temporary file", err)
	}
	if names := helpertest.DirNames(t, dir); len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}
