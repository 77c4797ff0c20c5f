package conformance_test

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/scatter-dev/scatter/conformance"
	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/tensor"
)

// TestOfficialSuite runs the 26 bundled ONNX node tests; each must pass.
func TestOfficialSuite(t *testing.T) {
	results, err := conformance.Run(conformance.Suite(), ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(results) != 26 {
		t.Errorf("found %d tests, want 26", len(results))
	}
	for _, r := range results {
		t.Run(r.Name, func(t *testing.T) {
			if r.Err != nil {
				t.Error(r.Err)
			}
		})
	}
	if got := conformance.Summary(results); got != "26 passed, 0 failed (onnx 26 of 26)" {
		t.Errorf("summary %q", got)
	}
}

// copyTest copies one bundled test into a map file system.
func copyTest(t testing.TB, name string) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	err := fs.WalkDir(conformance.Suite(), name, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(conformance.Suite(), p)
		m[p] = &fstest.MapFile{Data: b}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMismatchIsReported: a wrong expected output makes the test fail and
// says where.
func TestMismatchIsReported(t *testing.T) {
	m := copyTest(t, "test_scatternd")
	out := "test_scatternd/test_data_set_0/output_0.pb"
	want, name, err := onnxpb.DecodeTensor(m[out].Data)
	if err != nil {
		t.Fatal(err)
	}
	changed := want.Clone()
	changed.Data().([]float32)[5] = 1234
	m[out].Data, err = onnxpb.EncodeTensor(changed, name)
	if err != nil {
		t.Fatal(err)
	}
	err = conformance.RunTest(m, "test_scatternd")
	if !errors.Is(err, conformance.ErrMismatch) || !strings.Contains(err.Error(), "element 5 (of 64)") {
		t.Errorf("got %v", err)
	}
	r := conformance.Result{Name: "test_scatternd", Err: err}
	if line := conformance.Line(r); !strings.HasPrefix(line, "FAIL test_scatternd: ") {
		t.Errorf("line %q", line)
	}
	// A wrong shape is reported as such.
	m[out].Data, _ = onnxpb.EncodeTensor(tensor.Must(tensor.New(tensor.Float32, tensor.Shape{2})), name)
	if err := conformance.RunTest(m, "test_scatternd"); err == nil || !strings.Contains(err.Error(), "want float32[2]") {
		t.Errorf("got %v", err)
	}
}

func TestFindAndErrors(t *testing.T) {
	m := copyTest(t, "test_gather_0")
	dirs, err := conformance.Find(m, "test_gather_0")
	if err != nil || len(dirs) != 1 {
		t.Errorf("Find on a test directory: %v %v", dirs, err)
	}
	if _, err := conformance.Find(fstest.MapFS{"x/y.txt": {}}, "x"); err == nil {
		t.Error("Find on a directory without tests succeeded")
	}
	delete(m, "test_gather_0/test_data_set_0/input_1.pb")
	if err := conformance.RunTest(m, "test_gather_0"); err == nil || !strings.Contains(err.Error(), "input_1.pb") {
		t.Errorf("missing input: %v", err)
	}
}

// TestRunAllErrors checks what RunAll says of a directory without tests,
// of one it cannot read, and of test files over the size limit.
func TestRunAllErrors(t *testing.T) {
	if _, err := conformance.RunAll(fstest.MapFS{"x/y.txt": {}}, "x"); err == nil || !strings.Contains(err.Error(), "x holds no test") {
		t.Errorf("a directory without tests: %v", err)
	}
	if _, err := conformance.RunAll(fstest.MapFS{"x/y.txt": {}}, "z"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a directory that does not exist: %v, want fs.ErrNotExist", err)
	}
	// A file over the limit is refused before it is read: a failed test
	// naming the file, among the others.
	m := copyTest(t, "test_gather_0")
	m["a.mlir"] = &fstest.MapFile{Data: []byte(strings.Repeat(" ", 200))}
	defer tensor.SetMaxBytes(tensor.SetMaxBytes(100)) // model.onnx has 165 bytes
	results, err := conformance.RunAll(m, ".")
	if err != nil || len(results) != 2 {
		t.Fatalf("RunAll: %v, %v", results, err)
	}
	for i, file := range []string{"model.onnx", "a.mlir"} {
		if r := results[i]; !errors.Is(r.Err, tensor.ErrTooLarge) || !strings.Contains(r.Err.Error(), file) {
			t.Errorf("%s (%s): %v, want ErrTooLarge naming %s", r.Name, r.Suite, r.Err, file)
		}
	}
}
