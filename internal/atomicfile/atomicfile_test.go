package atomicfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scatter-dev/scatter/testkit/helpertest"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "f.bin")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(path, func(w io.Writer) error {
		w.Write([]byte("partial"))
		return boom
	})
	if err != boom {
		t.Errorf("got %v, want the writer's own error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("failed write changed the file: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary file left behind: %v", entries)
	}
	if err := Write(path, func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new" || fi.Mode().Perm() != 0o600 {
		t.Errorf("got %q mode %v", b, fi.Mode())
	}
	fresh := filepath.Join(dir, "g.bin")
	if err := Write(fresh, func(io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(fresh); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v", fi.Mode())
	}
	// A missing directory: the error names the path, not the temporary
	// file it could not create, and keeps the system's error.
	missing := filepath.Join(dir, "missing", "x")
	err = Write(missing, func(io.Writer) error { return nil })
	if want := "writing " + missing + ": create: "; err == nil || !strings.HasPrefix(err.Error(), want) ||
		strings.Contains(err.Error(), ".tmp-") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("writing into a missing directory: %v, want fs.ErrNotExist starting %q", err, want)
	}
	// A directory in the way: it is refused before a temporary file is
	// made, the error names the path alone, and nothing is left behind.
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "keep"), nil, 0o644)
	err = Write(sub, func(io.Writer) error { return nil })
	if want := "writing " + sub + ": not a regular file but a directory"; err == nil || err.Error() != want || !errors.Is(err, ErrNotRegular) {
		t.Errorf("replacing a directory: %v, want an error starting %q", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 3 {
		t.Errorf("left behind: %v", entries)
	}
}

// TestWritePanics: a write that panics leaves neither the target nor a
// temporary file behind, and the panic goes on to the caller.
func TestWritePanics(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.npy")
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the panic did not reach the caller")
			}
		}()
		Write(path, func(w io.Writer) error {
			io.WriteString(w, "partial")
			panic("boom")
		})
	}()
	if names, _ := os.ReadDir(dir); len(names) != 0 {
		t.Errorf("left behind: %v", names)
	}
}

// TestAbort stops a write in progress: its temporary file goes at once,
// the write fails with ErrAborted leaving the old file, and so does every
// later Write, which creates nothing.
func TestAbort(t *testing.T) {
	defer func() { temps.aborted = false }()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.npy")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	started, resume, done := make(chan string), make(chan bool), make(chan error)
	go func() {
		done <- Write(path, func(w io.Writer) error {
			io.WriteString(w, "new")
			started <- w.(tempWriter).f.Name()
			<-resume
			return nil
		})
	}()
	temp := <-started
	if _, err := os.Stat(temp); err != nil {
		t.Fatalf("no temporary file during the write: %v", err)
	}
	if err := Abort(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(temp); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Abort left the temporary file: %v", err)
	}
	close(resume)
	if err := <-done; !errors.Is(err, ErrAborted) {
		t.Errorf("the aborted write returned %v, want ErrAborted", err)
	}
	if err := Write(filepath.Join(dir, "later.npy"), func(io.Writer) error { return nil }); !errors.Is(err, ErrAborted) {
		t.Errorf("a later write returned %v, want ErrAborted", err)
	}
	if names := helpertest.DirNames(t, dir); !slices.Equal(names, []string{"out.npy"}) {
		t.Errorf("left behind: %v", names)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("the aborted write changed the file to %q", b)
	}
}

// helperEnv names the path that TestHelperWrite writes to when it runs as
// a helper process.
const helperEnv = "ATOMICFILE_HELPER_PATH"

// TestHelperWrite is not a test: run as a helper process, it starts
// writing the file its environment names, says it is ready and waits to
// be killed.
func TestHelperWrite(t *testing.T) {
	path := helpertest.Arg(t, helperEnv)
	Write(path, func(w io.Writer) error {
		io.WriteString(w, "partial")
		helpertest.Ready()
		time.Sleep(time.Minute)
		return nil
	})
}

// TestStaleTemporaries kills a process in the middle of a write, as kill
// -9 or a crash would, and checks that the next Write to the same path
// removes the temporary file it left, and only the temporary files it can
// tell were left by processes that no longer run.
func TestStaleTemporaries(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "plan9" {
		t.Skip("stale temporary files are removed on Unix only")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "out.npy")
	cmd := helpertest.Start(t, "TestHelperWrite", helperEnv, path)
	cmd.Process.Kill()
	cmd.Wait()
	left := helpertest.DirNames(t, dir)
	if len(left) != 1 || !strings.HasPrefix(left[0], ".out.npy.tmp-"+strconv.Itoa(cmd.Process.Pid)+"-") {
		t.Fatalf("the killed writer left %v, want its temporary file", left)
	}
	// Files that look alike but are not provably stale stay: this
	// process's, a running process's (the parent of this one), other
	// names, another file's.
	keep := []string{
		".out.npy.tmp-" + strconv.Itoa(os.Getpid()) + "-1",
		".out.npy.tmp-" + strconv.Itoa(os.Getppid()) + "-2",
		".out.npy.tmp-123456789",
		".out.npy.tmp-x-3",
		".other.npy.tmp-" + strconv.Itoa(cmd.Process.Pid) + "-4",
	}
	for _, name := range keep {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	want := append(slices.Clone(keep), "out.npy")
	slices.Sort(want)
	if got := helpertest.DirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("after a new write the directory holds %v, want %v", got, want)
	}
}
