package main

import (
	"io"
	"os"
)

// isTerminal reports whether w, a command's standard output, is a
// terminal. It is a variable so that tests can stand in for a terminal.
var isTerminal = fileIsTerminal

// fileIsTerminal reports whether w (or the writer a checkedWriter passes
// writes on to) is a file that is a character device other than the null
// device: a terminal, as far as the file's mode tells without a terminal
// library. Writing to the null device discards what is written, so it is
// not taken for one.
func fileIsTerminal(w io.Writer) bool {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
