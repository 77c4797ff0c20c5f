package onnxpb

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/scatter-dev/scatter/internal/atomicfile"
	"github.com/scatter-dev/scatter/tensor"
)

// ReadTensorFile reads a file holding one serialized TensorProto (such as a
// node test's input_0.pb) and decodes it as DecodeTensor does, reading no
// more of it than it must: the fields around the elements first, so that
// a tensor over the size limit (tensor.SetMaxBytes) or unlike its dims is
// refused before its elements are read, then the elements straight into
// the tensor's memory. The file must be a regular file (or a symbolic
// link to one), whose size is known before it is read: a device or a pipe
// is refused.
func ReadTensorFile(path string) (tensor.Tensor, string, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return tensor.Tensor{}, "", err
	}
	defer f.Close()
	t, name, err := decodeTensor(fileSource(f, size), "")
	var fe *formatError
	switch {
	case errors.As(err, &fe):
		return tensor.Tensor{}, "", withPath(err, path)
	case err != nil:
		return tensor.Tensor{}, "", fmt.Errorf("onnxpb: %s: %w", path, err)
	}
	return t, name, nil
}

// ErrNotRegular is matched (with errors.Is) by the error of reading a file
// that is not a regular file. It is atomicfile.ErrNotRegular.
var ErrNotRegular = atomicfile.ErrNotRegular

// openRegular opens the file at path for reading and returns its size; it
// refuses a file that is not a regular file, which might never end, before
// an open that could block (atomicfile.OpenRegular).
func openRegular(path string) (*os.File, int64, error) {
	f, fi, err := atomicfile.OpenRegular(path)
	if err != nil {
		return nil, 0, fmt.Errorf("onnxpb: %w", err)
	}
	return f, fi.Size(), nil
}

// WriteTensorFile writes t, named name, to path as a serialized
// TensorProto (see EncodeTensor). It writes a temporary file in the same
// directory and renames it to path only once it is complete, so path is
// either left as it was or replaced by the whole new file; on failure the
// temporary file is removed. A file that is replaced keeps its permission
// bits; a new one gets 0644.
func WriteTensorFile(path string, t tensor.Tensor, name string) error {
	// Check the tensor first, so that one that cannot be encoded creates
	// no file.
	e, err := newTensorEncoder(t, name, fmt.Sprintf("tensor %q", name))
	if err != nil {
		return err
	}
	return writeFileAtomic(path, e.write)
}

// ReadModelFile reads a .onnx file and decodes it as DecodeModel does. The
// file must be a regular file, as for ReadTensorFile.
func ReadModelFile(path string) (*Model, error) {
	f, size, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := tensor.CheckBytes("model file "+path, size, 1); err != nil {
		return nil, fmt.Errorf("onnxpb: %w", err)
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(f, b); err != nil {
		return nil, fmt.Errorf("onnxpb: %s: %w", path, err)
	}
	m, err := DecodeModel(b)
	if err != nil {
		return nil, withPath(err, path)
	}
	return m, nil
}

// WriteModelFile writes m to path as a serialized ModelProto (see
// EncodeModel), replacing path atomically as WriteTensorFile does.
func WriteModelFile(path string, m *Model) error {
	b, err := EncodeModel(m)
	if err != nil {
		return err
	}
	return writeFileAtomic(path, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// writeFileAtomic writes to path what write writes, through
// atomicfile.Write.
func writeFileAtomic(path string, write func(w io.Writer) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("onnxpb: %w", err)
	}
	return nil
}
