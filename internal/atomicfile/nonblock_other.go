//go:build !unix

package atomicfile

// nonblock is no flag outside Unix: js, wasip1 and plan9 have none in the
// syscall package, and Windows keeps its named pipes out of the file
// system that paths here name.
const nonblock = 0
