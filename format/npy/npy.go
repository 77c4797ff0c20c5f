// Package npy reads and writes NumPy .npy files as tensor.Tensor values.
//
// Read accepts format versions 1.0, 2.0 and 3.0 holding booleans ('|b1'),
// signed and unsigned integers of 1 to 8 bytes, float16, float32, float64,
// complex64, complex128 and fixed-width unicode strings ('<U{n}'), in either
// byte order and in C or Fortran order. Fortran-ordered data is transposed
// into the row-major order of a tensor.Tensor. Pickled object arrays,
// structured dtypes, byte strings and date-times are not supported.
//
// Write produces the bytes NumPy itself writes for the same array: a
// little-endian, C-order file of format version 1.0 (2.0 if the header does
// not fit in 65535 bytes), its header padded with spaces and a newline so
// that the data starts at a multiple of 64 bytes.
//
// String tensors are stored as NumPy unicode arrays: n UTF-32 code units per
// element, where n is the largest rune count of any element (at least 1).
// Shorter elements are padded with NULs, and Read strips trailing NULs as
// NumPy does, so a string that ends in NUL does not round-trip. Write encodes
// each byte of invalid UTF-8 as U+FFFD, as a Go range loop decodes it; Read
// rejects code units that are not Unicode code points (surrogates and values
// above U+10FFFF).
//
// BFloat16 tensors have no NumPy dtype and cannot be written; store them in
// an ONNX TensorProto (.pb) file instead.
package npy

import (
	"errors"
	"fmt"
	"io"

	"github.com/scatter-dev/scatter/internal/atomicfile"
	"github.com/scatter-dev/scatter/tensor"
)

// ErrFormat is matched (with errors.Is) by every error about input that is
// not a well-formed .npy file or uses a feature this package does not
// support, and by Write's error for a tensor that a .npy file cannot hold.
// Errors from the underlying reader or writer do not match it.
var ErrFormat = errors.New("npy: malformed or unsupported file")

// npyError is the type of every error the package returns. It prefixes the
// message with "npy: " and, for ReadFile, the file's path.
type npyError struct {
	path   string
	format bool // whether the error matches ErrFormat
	err    error
}

func (e *npyError) Error() string {
	if e.path != "" {
		return "npy: " + e.path + ": " + e.err.Error()
	}
	return "npy: " + e.err.Error()
}

func (e *npyError) Unwrap() error { return e.err }

func (e *npyError) Is(target error) bool { return e.format && target == ErrFormat }

// formatErrorf returns an error matching ErrFormat. The format must not
// start with "npy: "; the prefix is added.
func formatErrorf(format string, args ...any) error {
	return &npyError{format: true, err: fmt.Errorf(format, args...)}
}

// ioErrorf returns an error about the underlying reader or writer, which
// does not match ErrFormat.
func ioErrorf(format string, args ...any) error {
	return &npyError{err: fmt.Errorf(format, args...)}
}

// Read reads one .npy array from r and returns it as a tensor. It consumes
// exactly the array's bytes, so arrays written one after another can be read
// back in turn.
//
// The declared data size is checked before the data is allocated: when r is
// an *os.File for a regular file or has a Len method (as *bytes.Reader and
// *strings.Reader do), against the bytes that remain; otherwise the data is
// read in bounded chunks, so a short input declaring a huge array fails
// without allocating the whole array.
func Read(r io.Reader) (tensor.Tensor, error) {
	h, err := readHeader(r)
	if err != nil {
		return tensor.Tensor{}, err
	}
	return readData(r, h)
}

// ReadFile reads the .npy file at path. Its errors name the file. The
// file must be a regular file (or a symbolic link to one): a named pipe or
// a device, which might never end or block the open, is refused before it
// is opened (atomicfile.OpenRegular), with an error matching
// atomicfile.ErrNotRegular. Read reads from a pipe.
func ReadFile(path string) (tensor.Tensor, error) {
	f, _, err := atomicfile.OpenRegular(path)
	if err != nil {
		return tensor.Tensor{}, ioErrorf("%w", err)
	}
	defer f.Close()
	t, err := Read(f)
	if err != nil {
		var e *npyError
		if errors.As(err, &e) && e.path == "" {
			e.path = path
		}
		return tensor.Tensor{}, err
	}
	return t, nil
}

// Write writes t to w as a little-endian, C-order .npy array. It fails,
// before writing anything, for a BFloat16 tensor (NumPy has no such dtype)
// and for the zero Tensor.
func Write(w io.Writer, t tensor.Tensor) error {
	enc, err := newEncoder(t)
	if err != nil {
		return err
	}
	return enc.encode(w, t.Shape())
}

// WriteFile writes t to the .npy file at path. It writes to a temporary file
// in the same directory and renames it to path only once everything has
// been written and synced, so it never leaves a partial file: when it fails,
// the temporary file is removed and any existing file at path is left as it
// was. A file that replaces an existing one keeps that file's permission
// bits; a new file gets mode 0644.
func WriteFile(path string, t tensor.Tensor) error {
	// Check the tensor first so that a tensor Write rejects creates no file.
	enc, err := newEncoder(t)
	if err != nil {
		return err
	}
	err = atomicfile.Write(path, func(w io.Writer) error { return enc.encode(w, t.Shape()) })
	var e *npyError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &e):
		if e.path == "" {
			e.path = path
		}
		return err
	}
	return ioErrorf("%w", err)
}
