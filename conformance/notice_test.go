package conformance

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoticeNamesBundledData checks that the module is licensed under
// Apache-2.0 and that NOTICE names every directory of third-party test
// data bundled here, with its licence.
func TestNoticeNamesBundledData(t *testing.T) {
	license, err := os.ReadFile(filepath.Join("..", "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	if fields := strings.Join(strings.Fields(string(license)), " "); !strings.HasPrefix(fields, "Apache License Version 2.0, January 2004") {
		t.Errorf("LICENSE is not the Apache License 2.0: %.60q", fields)
	}
	notice, err := os.ReadFile(filepath.Join("..", "NOTICE"))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir("testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := "conformance/testdata/" + e.Name() + "/"
		_, rest, ok := strings.Cut(string(notice), "- "+dir)
		if !ok {
			t.Errorf("NOTICE does not name %s", dir)
			continue
		}
		item, _, _ := strings.Cut(rest, "\n\n")
		if !strings.Contains(strings.Join(strings.Fields(item), " "), "licensed under ") {
			t.Errorf("NOTICE does not give the licence of %s", dir)
		}
	}
}
