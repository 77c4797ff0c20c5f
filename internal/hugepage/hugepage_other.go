//go:build !linux

package hugepage

import (
	"errors"
	"unsafe"
)

// advise does nothing outside Linux.
func advise(p unsafe.Pointer, n uintptr) bool { return false }

// Marked reports errors.ErrUnsupported outside Linux.
func Marked(p uintptr) (bool, error) { return false, errors.ErrUnsupported }

// Observable reports errors.ErrUnsupported outside Linux.
func Observable() error { return errors.ErrUnsupported }
