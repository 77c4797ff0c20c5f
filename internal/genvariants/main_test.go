package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGeneratedFilesAreCurrent fails when a dialect's file of variants is
// not what genvariants writes from its table: run go generate in the
// dialect's directory.
func TestGeneratedFilesAreCurrent(t *testing.T) {
	for dialect := range dialects {
		want, err := generate(dialect)
		if err != nil {
			t.Fatalf("%s: %v", dialect, err)
		}
		path := filepath.Join("..", "..", "dialect", dialect, fileName)
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is out of date: run go generate ./dialect/%s", path, dialect)
		}
	}
}

// TestGenerateRefusesUnknownDialect: a dialect without a table is an
// error, not an empty file.
func TestGenerateRefusesUnknownDialect(t *testing.T) {
	if src, err := generate("onnx"); err == nil {
		t.Errorf("generate(onnx) = %d bytes, want an error", len(src))
	}
}
