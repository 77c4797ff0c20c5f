package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ErrNotRegular is matched (with errors.Is) by the error of OpenRegular
// for a path that is not a regular file, and by the error of Write and
// CheckTarget for a path that exists and is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// OpenRegular opens the regular file at path (or at the end of the
// symbolic links that path names) for reading, and returns it with its
// information. Anything else, a named pipe, a device, a socket or a
// directory, is refused with an ErrNotRegular error before it is opened,
// since it might never end or might block the open itself: the file is
// examined first, then opened without blocking and examined again, so a
// pipe put in its place meanwhile is refused too.
func OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	fi, err := os.Stat(path)
	var pe *fs.PathError
	if errors.As(err, &pe) {
		pe.Op = "open" // the error the caller would have had of os.Open
	}
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, notRegular(path, fi.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDONLY|nonblock, 0)
	if err != nil {
		return nil, nil, err
	}
	if fi, err = f.Stat(); err == nil && !fi.Mode().IsRegular() {
		err = notRegular(path, fi.Mode())
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, fi, nil
}

// CheckTarget returns an ErrNotRegular error if path exists and is not a
// regular file: a symbolic link, a named pipe, a device, a socket or a
// directory, which Write would replace by a regular file (or, for a
// directory, fail to). A path that does not exist is a fine target.
func CheckTarget(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || fi.Mode().IsRegular() {
		return nil
	}
	return notRegular(path, fi.Mode())
}

// notRegular is the ErrNotRegular error of path, a file of the given mode.
func notRegular(path string, mode fs.FileMode) error {
	return fmt.Errorf("%s: %w but %s", path, ErrNotRegular, FileKind(mode))
}

// FileKind names the kind of file that mode describes, for an error: "a
// directory", "a named pipe", "a symbolic link"...
func FileKind(mode fs.FileMode) string {
	switch {
	case mode.IsRegular():
		return "a regular file"
	case mode.IsDir():
		return "a directory"
	case mode&fs.ModeSymlink != 0:
		return "a symbolic link"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case mode&fs.ModeSocket != 0:
		return "a socket"
	case mode&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
