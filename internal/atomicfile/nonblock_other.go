//go:build !unix

package atomicfile

// nonblock is 0 where the platform has no named pipes to block an open
// (Windows, WebAssembly): the check before the open is all there is.
const nonblock = 0
