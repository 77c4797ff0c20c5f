package format_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/scatter-dev/scatter/format"
	"github.com/scatter-dev/scatter/format/npy"
	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/tensor"
)

func TestByExtension(t *testing.T) {
	dir := t.TempDir()
	x := tensor.Must(tensor.From(tensor.Shape{2}, []int64{3, -4}))
	for _, name := range []string{"a.npy", "b.pb", "C.NPY"} {
		p := filepath.Join(dir, name)
		if err := format.WriteFile(p, x, "t"); err != nil {
			t.Fatal(err)
		}
		got, err := format.ReadFile(p)
		if err != nil || !tensor.Equal(got, x) {
			t.Errorf("%s: %v %v", name, got, err)
		}
	}
	// The format really is the one the extension names.
	if _, err := npy.ReadFile(filepath.Join(dir, "a.npy")); err != nil {
		t.Error(err)
	}
	if _, name, err := onnxpb.ReadTensorFile(filepath.Join(dir, "b.pb")); err != nil || name != "t" {
		t.Error(name, err)
	}
	for _, bad := range []string{"x.txt", "x", "x.npz"} {
		if err := format.WriteFile(filepath.Join(dir, bad), x, ""); !errors.Is(err, format.ErrExtension) {
			t.Errorf("%s: %v", bad, err)
		}
		if _, err := format.ReadFile(bad); !errors.Is(err, format.ErrExtension) {
			t.Errorf("%s: %v", bad, err)
		}
	}
	// A tensor npy cannot hold: an error, and no file.
	bf := tensor.Must(tensor.New(tensor.BFloat16, tensor.Shape{1}))
	if err := format.WriteFile(filepath.Join(dir, "bf.npy"), bf, ""); !errors.Is(err, npy.ErrFormat) {
		t.Errorf("bfloat16 to npy: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "bf.npy")); !os.IsNotExist(err) {
		t.Error("a failed write left a file")
	}
}

func TestCheck(t *testing.T) {
	tests := []struct {
		path string
		ok   bool
	}{
		{"x.npy", true},
		{"dir.d/X.PB", true},
		{"x.Npy", true},
		{"npy", false},
		{"x.npy.bak", false},
		{"x.onnx", false},
		{"", false},
	}
	for _, ext := range format.Extensions() {
		if err := format.Check("f" + strings.ToUpper(ext)); err != nil {
			t.Errorf("Check of extension %s: %v", ext, err)
		}
	}
	for _, tt := range tests {
		err := format.Check(tt.path)
		if tt.ok {
			if err != nil {
				t.Errorf("Check(%q) = %v, want nil", tt.path, err)
			}
			continue
		}
		if !errors.Is(err, format.ErrExtension) || !strings.Contains(err.Error(), "(want a .npy or .pb file)") {
			t.Errorf("Check(%q) = %v, want an ErrExtension error naming .npy and .pb", tt.path, err)
		}
	}
}

// TestWriteFileErrors: a file that cannot be written, its directory
// missing or a regular file, is named in the error as given, with the
// system's error and without the temporary file, and nothing is left in
// the directory.
func TestWriteFileErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	x := tensor.Must(tensor.From(tensor.Shape{2}, []float32{1, 2}))
	for _, parent := range []string{filepath.Join(dir, "missing"), file} {
		for _, name := range []string{"out.npy", "out.pb"} {
			path := filepath.Join(parent, name)
			err := format.WriteFile(path, x, "x")
			if err == nil || !strings.Contains(err.Error(), "writing "+path+": ") || strings.Contains(err.Error(), ".tmp-") ||
				!errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTDIR) {
				t.Errorf("WriteFile(%s): %v, want an error naming the path alone, with the system's error", path, err)
			}
		}
	}
	if err := onnxpb.WriteModelFile(filepath.Join(file, "m.onnx"), &onnxpb.Model{}); err == nil ||
		!strings.HasPrefix(err.Error(), "onnxpb: writing "+filepath.Join(file, "m.onnx")+": ") || strings.Contains(err.Error(), ".tmp-") {
		t.Errorf("WriteModelFile: %v, want an error naming the path alone", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
}
