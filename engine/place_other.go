package engine

import "unsafe"

// placeRowsGo is the specification of placeRows, which amd64 has in
// assembly, and what every other build runs (purego.go): row t of src,
// bytes bytes at src + t*bytes, copied to dst + offs[t]*esize for each t
// in [0, n), in order, an offset of -1 skipped. It builds everywhere, so
// that a test compares it with the assembly on amd64.
func placeRowsGo(dst unsafe.Pointer, esize uintptr, offs *int32, n int, src unsafe.Pointer, bytes uintptr) {
	for t, o := range unsafe.Slice(offs, n) {
		if o >= 0 {
			// The row's address made only where it is read: one past the
			// last row is no pointer to make (checkptr).
			row := unsafe.Add(src, uintptr(t)*bytes)
			copyBytes(unsafe.Add(dst, uintptr(o)*esize), row, bytes)
		}
	}
}
