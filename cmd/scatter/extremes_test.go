package main

import (
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestByteSizeExtremes reads --max-bytes at the edges of int64: the
// largest size, in any unit, is taken; one beyond it, and any negative
// size, is refused rather than wrapped.
func TestByteSizeExtremes(t *testing.T) {
	tests := []struct {
		text string
		want int64
		ok   bool
	}{
		{"9223372036854775807", math.MaxInt64, true},
		{"9223372036854775808", 0, false},
		{"18446744073709551615", 0, false},
		{"8589934591GiB", 8589934591 << 30, true},
		{"8589934592GiB", 0, false},
		{"8388607TiB", 8388607 << 40, true},
		{"8388608TiB", 0, false},
		{"9223372036854775TB", 0, false},
		{"-1", 0, false},
		{"-9223372036854775808", 0, false},
	}
	for _, tt := range tests {
		var b byteSize
		err := b.Set(tt.text)
		if (err == nil) != tt.ok || tt.ok && int64(b) != tt.want {
			t.Errorf("--max-bytes %s: %d, %v; want %d (ok %v)", tt.text, b, err, tt.want, tt.ok)
		}
	}
}

// TestByteSizeString checks that a size prints in the largest binary unit
// that holds it exactly, and reads back as the same size: the help's
// default is 16GiB, as README says, not a count of bytes.
func TestByteSizeString(t *testing.T) {
	for _, tt := range []struct {
		n    int64
		want string
	}{
		{16 << 30, "16GiB"}, {3 << 40, "3TiB"}, {1536 << 20, "1536MiB"}, {4 << 10, "4KiB"},
		{1000, "1000"}, {0, "0"}, {math.MaxInt64, "9223372036854775807"},
	} {
		b := byteSize(tt.n)
		var back byteSize
		if got := b.String(); got != tt.want || back.Set(got) != nil || back != b {
			t.Errorf("byteSize(%d).String() = %q (reads back as %d), want %q", tt.n, got, back, tt.want)
		}
	}
	if _, stdout, _ := runArgs("help", "eval"); !strings.Contains(stdout, "(default 16GiB)") {
		t.Errorf("help eval does not give --max-bytes's default as 16GiB:\n%s", stdout)
	}
}

// TestAttrExtremes gives the command attributes at the extremes of int64
// (and just beyond): the operator refuses those it cannot take, quoting
// the value or what it needs, and the command line refuses those beyond
// int64 as a usage error.
func TestAttrExtremes(t *testing.T) {
	in := []string{"--in", "params=float32:[[1,2],[3,4]]", "--in", "indices=int64:[0]"}
	tests := []struct {
		attr string
		code int
		want string
	}{
		{"axis=-9223372036854775808", 1, "tf.gather: invalid attribute: Shape must be at least rank 9223372036854775808 but is rank 2"},
		{"axis=9223372036854775807", 1, "tf.gather: invalid attribute: Shape must be at least rank 9223372036854775808 but is rank 2"},
		{"axis=-9223372036854775807", 1, "tf.gather: invalid attribute: Shape must be at least rank 9223372036854775807 but is rank 2"},
		{"batch_dims=-9223372036854775808", 1, "Shape must be at least rank 9223372036854775808"},
		{"axis=9223372036854775808", 2, `--attr axis: invalid attribute: "9223372036854775808" is beyond the range of int64`},
		{"axis=-9223372036854775809", 2, `"-9223372036854775809" is beyond the range of int64`},
	}
	for _, tt := range tests {
		if bits.UintSize == 32 && tt.code == 1 {
			// An int attribute beyond int is refused before the operator
			// sees it.
			name, _, _ := strings.Cut(tt.attr, "=")
			tt.want = "tf.gather: invalid attribute: attribute \"" + name + "\" = " + strings.TrimPrefix(tt.attr, name+"=") + " is beyond a 32-bit int"
		}
		out := filepath.Join(t.TempDir(), "out.npy")
		code, _, stderr := runArgs(append([]string{"eval", "tf.gather", "--attr", tt.attr, "--out", out}, in...)...)
		if code != tt.code || !strings.Contains(stderr, tt.want) {
			t.Errorf("--attr %s: exit %d, %q; want exit %d saying %q", tt.attr, code, stderr, tt.code, tt.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--attr %s: an output was written", tt.attr)
		}
	}
}
