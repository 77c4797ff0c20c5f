package hugepage

import (
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
