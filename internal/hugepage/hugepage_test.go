package hugepage

import (
	"os"
	"runtime"
	"testing"
	"unsafe"
)

// TestInside: the whole huge pages within a range, none when it holds no
// whole one.
func TestInside(t *testing.T) {
	const s = Size
	for _, c := range []struct{ p, n, start, end uintptr }{
		{0, 2 * s, 0, 2 * s},
		{1, 2 * s, s, 2 * s},
		{s - 1, s + 1, s, 2 * s},
		{s + 1, s, 2 * s, 2 * s}, // no whole page: end <= start
		{3*s + 5, 4*s - 10, 4 * s, 6 * s},
	} {
		if start, end := inside(c.p, c.n); start != c.start || end != c.end {
			t.Errorf("inside(%#x, %#x) = %#x, %#x; want %#x, %#x", c.p, c.n, start, end, c.start, c.end)
		}
	}
}

// TestAdvise: memory of MinBytes or more is marked for huge pages where
// the kernel has them, smaller memory and memory advised while Advise is
// off are not.
func TestAdvise(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("no transparent huge pages here:", err)
	}
	if err := Observable(); err != nil {
		t.Skip("huge pages cannot be observed here:", err)
	}
	var keep [][]byte // so that no check's memory lies in an earlier one's
	defer runtime.KeepAlive(keep)
	check := func(name string, n uintptr, want bool) {
		t.Helper()
		b := make([]byte, n)
		keep = append(keep, b)
		p := unsafe.Pointer(&b[0])
		if got := Advise(p, n); got != want {
			t.Errorf("%s: Advise = %v, want %v", name, got, want)
		}
		start, _ := inside(uintptr(p), n)
		if start >= uintptr(p)+n {
			start = uintptr(p)
		}
		marked, err := Marked(start)
		if err != nil {
			t.Fatal(err)
		}
		if marked != want {
			t.Errorf("%s: marked %v, want %v", name, marked, want)
		}
	}
	check("MinBytes", MinBytes, true)
	check("less", Size+Size/2, false)
	if !Enable(false) {
		t.Error("Enable(false) says Advise was off")
	}
	check("MinBytes, Advise off", MinBytes, false)
	if Enable(true) {
		t.Error("Enable(true) says Advise was on")
	}
}
