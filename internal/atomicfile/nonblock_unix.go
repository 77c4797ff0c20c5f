//go:build unix

package atomicfile

import "syscall"

// nonblock opens a file without waiting for a writer (a named pipe) or a
// device to be ready.
const nonblock = syscall.O_NONBLOCK
