package onnxpb

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scatter-dev/scatter/tensor"
	"github.com/scatter-dev/scatter/testkit/helpertest"
)

func TestTensorFileRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "x.pb")
	want := must(tensor.From(tensor.Shape{2, 2}, []float32{1, 2, 3, 4}))
	if err := WriteTensorFile(path, want, "x"); err != nil {
		t.Fatal(err)
	}
	got, name, err := ReadTensorFile(path)
	if err != nil || name != "x" || !tensor.Equal(got, want) {
		t.Fatalf("got %v %q %v", got, name, err)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v)", fi.Mode(), err)
	}
	// Replacing keeps the old file's permissions.
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	want2 := tensor.Scalar(int64(9))
	if err := WriteTensorFile(path, want2, "y"); err != nil {
		t.Fatal(err)
	}
	got, name, err = ReadTensorFile(path)
	if err != nil || name != "y" || !tensor.Equal(got, want2) {
		t.Fatalf("got %v %q %v", got, name, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after replacing", fi.Mode())
	}
	if names := helpertest.DirNames(t, dir); len(names) != 1 {
		t.Errorf("directory holds %v", names)
	}
}

func TestWriteTensorFileRelativePath(t *testing.T) {
	t.Chdir(t.TempDir())
	if err := WriteTensorFile("rel.pb", tensor.Scalar(true), ""); err != nil {
		t.Fatal(err)
	}
	if got, _, err := ReadTensorFile("rel.pb"); err != nil || !tensor.Equal(got, tensor.Scalar(true)) {
		t.Errorf("got %v, %v", got, err)
	}
}

func TestWriteTensorFileFailureLeavesFileAlone(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.pb")
	old := []byte("old contents")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	// Encoding fails: nothing is written.
	if err := WriteTensorFile(path, tensor.Tensor{}, "z"); !errors.Is(err, ErrFormat) {
		t.Errorf("err = %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != string(old) {
		t.Errorf("file changed to %q", b)
	}
	// Renaming fails (the target is a non-empty directory): the temporary
	// file is removed.
	target := filepath.Join(dir, "adir")
	if err := os.MkdirAll(filepath.Join(target, "inner"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := WriteTensorFile(target, tensor.Scalar(1.0), "")
	if err == nil || errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "onnxpb: ") {
		t.Errorf("err = %v", err)
	}
	if names := helpertest.DirNames(t, dir); len(names) != 2 {
		t.Errorf("directory holds %v, want keep.pb and adir", names)
	}
	// The directory does not exist.
	if err := WriteTensorFile(filepath.Join(dir, "no", "such.pb"), tensor.Scalar(1.0), ""); err == nil {
		t.Error("no error for a missing directory")
	}
	// Models go through the same path.
	if err := WriteModelFile(path, nil); !errors.Is(err, ErrFormat) {
		t.Errorf("err = %v", err)
	}
	if err := WriteModelFile(target, &Model{}); err == nil {
		t.Error("no error writing a model over a directory")
	}
	if b, _ := os.ReadFile(path); string(b) != string(old) {
		t.Errorf("file changed to %q", b)
	}
	if names := helpertest.DirNames(t, dir); len(names) != 2 {
		t.Errorf("directory holds %v", names)
	}
}

func TestModelFileRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.onnx")
	m := fullModel()
	if err := WriteModelFile(path, m); err != nil {
		t.Fatal(err)
	}
	got, err := ReadModelFile(path)
	if err != nil {
		t.Fatal(err)
	}
	modelsEqual(t, got, m)
}

func TestReadFileErrors(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.pb")
	if _, _, err := ReadTensorFile(missing); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrFormat) {
		t.Errorf("ReadTensorFile: %v", err)
	}
	if _, err := ReadModelFile(missing); !errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrFormat) {
		t.Errorf("ReadModelFile: %v", err)
	}
	bad := filepath.Join(dir, "bad.pb")
	if err := os.WriteFile(bad, []byte{0xff}, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := ReadTensorFile(bad)
	if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "onnxpb: "+bad+": tensor: malformed protobuf") {
		t.Errorf("ReadTensorFile: %v", err)
	}
	_, err = ReadModelFile(bad)
	if !errors.Is(err, ErrFormat) || !strings.HasPrefix(err.Error(), "onnxpb: "+bad+": model: malformed protobuf") {
		t.Errorf("ReadModelFile: %v", err)
	}
}
