package rawalloc

import (
	"runtime"
	"testing"
	"unsafe"
)

// TestUnzeroed: below MinBytes there is no block; from it, a block of the
// size asked for, poisoned under Poison, that survives a collection.
func TestUnzeroed(t *testing.T) {
	if p := Unzeroed(MinBytes - 1); p != nil {
		t.Errorf("Unzeroed(MinBytes-1) = %p, want nil", p)
	}
	if p := Unzeroed(0); p != nil {
		t.Errorf("Unzeroed(0) = %p, want nil", p)
	}
	defer Poison(MinBytes)()
	p := Unzeroed(MinBytes + 3)
	if p == nil {
		t.Fatal("Unzeroed(MinBytes+3) = nil")
	}
	runtime.GC() // the memory must be a live object of the right size
	b := unsafe.Slice((*byte)(p), MinBytes+3)
	for _, i := range []int{0, MinBytes / 2, MinBytes + 2} {
		if b[i] != PoisonByte {
			t.Errorf("byte %d is %#x, want %#x", i, b[i], PoisonByte)
		}
	}
}

// TestPoisonUndo: Poison's undo restores the size and leaves memory
// unpoisoned.
func TestPoisonUndo(t *testing.T) {
	undo := Poison(0)
	if minBytes != 0 || !poison {
		t.Fatalf("under Poison(0): min %d, poison %v", minBytes, poison)
	}
	if p := Unzeroed(1); p == nil || *(*byte)(p) != PoisonByte {
		t.Errorf("under Poison(0), Unzeroed(1) = %p, want a poisoned byte", p)
	}
	undo()
	if minBytes != MinBytes || poison {
		t.Fatalf("after undo: min %d, poison %v", minBytes, poison)
	}
}
