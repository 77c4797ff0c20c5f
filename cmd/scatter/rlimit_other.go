//go:build !unix

package main

// addressSpaceLimit reports that the process's address space has no limit
// that this platform lets it read.
func addressSpaceLimit() (int64, bool) { return 0, false }
