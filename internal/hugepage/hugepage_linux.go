package hugepage

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// advise marks the n bytes at p, a multiple of Size at a multiple of
// Size, with MADV_HUGEPAGE. A kernel without transparent huge pages
// refuses (EINVAL), which leaves the memory as it was.
func advise(p unsafe.Pointer, n uintptr) bool {
	return syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE) == nil
}

// Marked reports whether the memory at address p has been marked for huge
// pages, as /proc/self/smaps says (the flag "hg" of its mapping), for
// tests.
func Marked(p uintptr) (bool, error) {
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(f[0], "-"); ok && !strings.HasSuffix(f[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 == nil && err2 == nil {
				in = uint64(p) >= l && uint64(p) < h
				continue
			}
		}
		if in && f[0] == "VmFlags:" {
			return slices.Contains(f[1:], "hg"), nil
		}
	}
	return false, fmt.Errorf("hugepage: %#x is in no mapping of /proc/self/smaps", p)
}

// Observable returns nil if this process can see the mark of huge pages in
// /proc/self/smaps, for tests: it maps memory of its own, marks it with
// madvise directly and asks Marked. Under an emulator such as qemu-user,
// whose /proc/self/smaps describes the guest's mappings without their
// marks, it returns an error saying so, and the tests that need the mark
// skip.
func Observable() error {
	b, err := syscall.Mmap(-1, 0, 2*Size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		return fmt.Errorf("hugepage: mmap: %w", err)
	}
	defer syscall.Munmap(b)
	p := uintptr(unsafe.Pointer(&b[0]))
	start, end := inside(p, uintptr(len(b))) // 2*Size bytes hold a whole page
	if err := syscall.Madvise(b[start-p:end-p], syscall.MADV_HUGEPAGE); err != nil {
		return fmt.Errorf("hugepage: madvise: %w", err)
	}
	marked, err := Marked(start)
	if err != nil {
		return err
	}
	if !marked {
		return errors.New("hugepage: memory marked with madvise shows no mark in /proc/self/smaps (an emulator such as qemu-user shows none)")
	}
	return nil
}
