//go:build unix

package atomicfile

import "syscall"

// nonblock opens a file without waiting for it: a named pipe put where a
// regular file was examined does not block OpenRegular.
const nonblock = syscall.O_NONBLOCK
