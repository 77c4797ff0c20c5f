package tensor

import (
	"os"
	"reflect"
	"testing"
	"unsafe"

	"github.com/scatter-dev/scatter/internal/hugepage"
)

// TestNewOnHugePages: New marks a large tensor's memory for huge pages
// (internal/hugepage's tests hold what is too small to mark).
func TestNewOnHugePages(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage"); err != nil {
		t.Skip("no transparent huge pages here:", err)
	}
	if err := hugepage.Observable(); err != nil {
		t.Skip("huge pages cannot be observed here:", err)
	}
	for _, d := range []DType{Float32, Int8, Complex128} {
		x := Must(New(d, Shape{hugepage.MinBytes / d.Size()}))
		p := reflect.ValueOf(x.Data()).Pointer()
		first := p + (hugepage.Size-p%hugepage.Size)%hugepage.Size // the first whole huge page
		marked, err := hugepage.Marked(first)
		if err != nil {
			t.Fatal(err)
		}
		if !marked {
			t.Errorf("%v: a tensor of %d bytes is not marked", d, hugepage.MinBytes)
		}
	}
}

// TestSetHugePages: SetHugePages turns internal/hugepage's marking off
// and on (whether memory is marked depends on what it held before, as a
// mark stays with the memory: internal/hugepage tests that).
func TestSetHugePages(t *testing.T) {
	b := make([]byte, hugepage.MinBytes)
	if !SetHugePages(false) {
		t.Error("huge pages were off from the start")
	}
	if hugepage.Advise(unsafe.Pointer(&b[0]), uintptr(len(b))) {
		t.Error("with huge pages off, memory is marked")
	}
	if SetHugePages(true) {
		t.Error("SetHugePages(false) left them on")
	}
}
