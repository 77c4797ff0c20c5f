//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"syscall"
)

// leftBy reports whether the temporary file name, whose name holds the
// process id pid, was left by a process that no longer runs: it is a
// regular file of this user, and no process has that id. (A process that
// runs under another user, or whose id was reused, keeps its files.)
func leftBy(name string, pid int) bool {
	fi, err := os.Lstat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Getuid() {
		return false
	}
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
