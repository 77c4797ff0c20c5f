//go:build unix

package main

import "syscall"

// addressSpaceLimit returns the limit on the process's address space
// (RLIMIT_AS, set by ulimit -v or prlimit --as), and whether there is one.
func addressSpaceLimit() (int64, bool) {
	var r syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &r); err != nil || r.Cur > 1<<62 { // RLIM_INFINITY is all ones, or 2^63-1
		return 0, false
	}
	return int64(r.Cur), true
}
