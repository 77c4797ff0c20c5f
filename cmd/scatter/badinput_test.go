package main

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// npyFile returns a version 1.0 .npy file with the given header dictionary
// and data bytes.
func npyFile(dict string, data []byte) []byte {
	h := dict + strings.Repeat(" ", 63-(10+len(dict))%64) + "\n"
	b := append([]byte("\x93NUMPY\x01\x00"), 0, 0)
	binary.LittleEndian.PutUint16(b[8:], uint16(len(h)))
	return append(append(b, h...), data...)
}

// pbTensor returns a TensorProto with the given dims, data_type and
// raw_data, encoded field by field.
func pbTensor(dims []int64, dtype int32, raw []byte) []byte {
	var b []byte
	for _, d := range dims {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(d))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(dtype))
	b = protowire.AppendTag(b, 9, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

func le64(vs ...int64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	return b
}

// TestBadInput runs eval on one class of bad input per case. Each must end
// with exit 1 and one line on stderr that names the operator, says what is
// wrong and where, leave an existing output file as it was and
// beyond32 are what TestBadInput's cases whose sizes fit int64 but not a
// 32-bit int say where int has 32 bits: the size is refused as beyond it
// before the limit is asked.
var beyond32 = map[string]string{
	"output shape over the size limit":         "shape[0] = 1099511627776 is beyond a 32-bit int (too large)",
	"npy header declaring more than the limit": "dimension 0 (4294967296) is more than a 32-bit int counts",
	"npy shape overflowing int":                "dimension 0 (4294967296) is more than a 32-bit int counts",
	"pb dims over the size limit":              "dimension 0 (1099511627776) is more than a 32-bit int counts",
}

// create no other file.
func TestBadInput(t *testing.T) {
	f32x4 := npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", make([]byte, 16))
	idx := func(vs ...int64) []byte {
		return npyFile(fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': (%d, 1), }", len(vs)), le64(vs...))
	}
	tests := []struct {
		class string
		files map[string][]byte
		args  []string
		want  string
	}{
		{"index past the end", map[string][]byte{"d.npy": f32x4, "i.npy": idx(0, 4), "u.npy": npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", make([]byte, 8))},
			[]string{"onnx.ScatterND", "--in", "data=d.npy", "--in", "indices=i.npy", "--in", "updates=u.npy"},
			"onnx.ScatterND: index out of range: indices[1] = [4]: component 0 is 4, allowed range [-4, 3] for dimension 0 of data [4]"},
		{"negative index where the framework forbids it", nil,
			[]string{"tf.gather_nd", "--in", "params=float32:[1,2,3]", "--in", "indices=int64:[[-1]]"},
			"tf.gather_nd: indices[0] = [-1] does not index into param shape [3]"},
		{"huge index value", nil,
			[]string{"onnx.GatherElements", "--in", "data=float32:[1,2,3]", "--in", "indices=int64:[-9223372036854775808]"},
			"onnx.GatherElements: index out of range: indices[0] = -9223372036854775808"},
		{"updates of the wrong shape", nil,
			[]string{"onnx.ScatterElements", "--in", "data=float32:[1,2,3]", "--in", "indices=int64:[0,1]", "--in", "updates=float32:[1]"},
			"shape mismatch: updates has shape [1], indices has shape [2]"},
		{"index tuple longer than the rank", nil,
			[]string{"onnx.GatherND", "--in", "data=float32:[1,2,3]", "--in", "indices=int64:[[0,0]]"},
			"indices.shape[-1] = 2 must be in [1, 1]"},
		{"float indices", nil,
			[]string{"onnx.Gather", "--in", "data=float32:[1,2,3]", "--in", "indices=float32:[0]"},
			"indices must be int32 or int64, got float32"},
		{"unknown reduction", nil,
			[]string{"onnx.ScatterND", "--attr", "reduction=avg", "--in", "data=float32:[1]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]"},
			`reduction "avg" is not allowed in version 18`},
		{"attribute newer than the opset", nil,
			[]string{"onnx.ScatterND", "--opset", "13", "--attr", "reduction=add", "--in", "data=float32:[1]", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]"},
			"attribute \"reduction\" is defined from version 16, this is version 13"},
		{"axis out of range", nil,
			[]string{"onnx.Gather", "--attr", "axis=3", "--in", "data=float32:[1,2,3]", "--in", "indices=int64:[0]"},
			"onnx.Gather: invalid attribute: axis 3 is out of range [-1, 0]"},
		{"output shape over the size limit", nil,
			[]string{"tf.scatter_nd", "--attr", "shape=1099511627776", "--in", "indices=int64:[[0]]", "--in", "updates=float32:[1]"},
			"tf.scatter_nd: tensor: too large: float32[1099511627776] takes 4398046511104 bytes, over the limit of 17179869184 bytes (raise the limit with --max-bytes)"},
		{"gather output over a --max-bytes limit", nil,
			[]string{"onnx.Gather", "--max-bytes", "64B", "--in", "data=float32:[[1,2,3,4,5,6,7,8]]", "--in", "indices=int64:[0,0,0]"},
			"onnx.Gather: tensor: too large: float32[3,8] takes 96 bytes, over the limit of 64 bytes"},
		{"npy header declaring more than the limit", map[string][]byte{"d.npy": npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 1024), }", nil)},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`takes 35184372088832 bytes, over the limit`},
		{"npy shape overflowing int", map[string][]byte{"d.npy": npyFile("{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }", nil)},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`element count of [4294967296,4294967296,4294967296] overflows int`},
		{"npy data shorter than its header says", map[string][]byte{"d.npy": f32x4[:len(f32x4)-3]},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`data section is truncated`},
		{"npy bad magic", map[string][]byte{"d.npy": []byte("PK\x03\x04 not an array")},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`not a .npy file`},
		{"npy header length beyond the file", map[string][]byte{"d.npy": []byte("\x93NUMPY\x01\x00\xff\xff{'descr'")},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`input ends inside the header`},
		{"npy absurd rank", map[string][]byte{"d.npy": npyFile("{'descr': '<f4', 'fortran_order': False, 'shape': ("+strings.Repeat("1,", 65)+"), }", make([]byte, 4))},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`more than 64 dimensions`},
		{"npy object array (pickle)", map[string][]byte{"d.npy": npyFile("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", make([]byte, 8))},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`pickled object arrays are not supported`},
		{"npy bool byte other than 0 or 1", map[string][]byte{"d.npy": npyFile("{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }", []byte{1, 7})},
			[]string{"onnx.Gather", "--in", "data=d.npy", "--in", "indices=int64:[0]"},
			`element 1 is byte 0x07, want 0 or 1`},
		{"pb raw_data shorter than its dims", map[string][]byte{"d.pb": pbTensor([]int64{4}, 1, make([]byte, 12))},
			[]string{"onnx.Gather", "--in", "data=d.pb", "--in", "indices=int64:[0]"},
			`raw_data has 12 bytes, want 16 bytes`},
		{"pb dims over the size limit", map[string][]byte{"d.pb": pbTensor([]int64{1 << 40, 1 << 10}, 1, nil)},
			[]string{"onnx.Gather", "--in", "data=d.pb", "--in", "indices=int64:[0]"},
			`too large: float32[1099511627776,1024]`},
		{"pb negative dimension", map[string][]byte{"d.pb": pbTensor([]int64{-4}, 1, nil)},
			[]string{"onnx.Gather", "--in", "data=d.pb", "--in", "indices=int64:[0]"},
			`dimension 0 is negative (-4)`},
		{"pb unknown data_type", map[string][]byte{"d.pb": pbTensor([]int64{1}, 99, make([]byte, 4))},
			[]string{"onnx.Gather", "--in", "data=d.pb", "--in", "indices=int64:[0]"},
			`unsupported data_type 99`},
		{"pb garbage bytes", map[string][]byte{"d.pb": []byte{0xff, 0xff, 0xff, 0xff, 0x0f}},
			[]string{"onnx.Gather", "--in", "data=d.pb", "--in", "indices=int64:[0]"},
			`malformed protobuf`},
		{"missing input file", nil,
			[]string{"onnx.Gather", "--in", "data=nope.npy", "--in", "indices=int64:[0]"},
			`no such file or directory`},
	}
	for _, tt := range tests {
		t.Run(tt.class, func(t *testing.T) {
			dir := t.TempDir()
			for name, b := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			args := []string{"eval"}
			for _, a := range tt.args {
				if name, file, ok := strings.Cut(a, "="); ok && strings.HasSuffix(file, "npy") || strings.HasSuffix(file, ".pb") {
					a = name + "=" + filepath.Join(dir, file)
				}
				args = append(args, a)
			}
			out := filepath.Join(dir, "out.npy")
			if err := os.WriteFile(out, []byte("old contents"), 0o644); err != nil {
				t.Fatal(err)
			}
			if w, ok := beyond32[tt.class]; ok && bits.UintSize == 32 {
				tt.want = w
			}
			code, stdout, stderr := runArgs(append(args, "--out", out)...)
			if code != 1 || stdout != "" || !strings.HasPrefix(stderr, "scatter eval: "+tt.args[0]+": ") || !strings.Contains(stderr, tt.want) ||
				strings.Count(stderr, "\n") != 1 {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 1 and a line naming %s and saying %q", code, stdout, stderr, tt.args[0], tt.want)
			}
			if b, _ := os.ReadFile(out); string(b) != "old contents" {
				t.Errorf("the output file was changed: %q", b)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != len(tt.files)+1 {
				t.Errorf("stray files: %v", entries)
			}
		})
	}
}
