package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/scatter-dev/scatter/explain"
	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// explainCmd runs one operator and shows what it did: in the terminal, or
// as an SVG or PNG picture.
func explainCmd(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stdout)
	cf := addCallFlags(fs)
	svg := fs.String("svg", "", "draw the picture into `FILE` (.svg) instead of printing")
	png := fs.String("png", "", "draw the picture into `FILE` (.png) instead of printing")
	color := fs.String("color", "auto", "colour the printed cells: `auto` (on a terminal, unless NO_COLOR is set), always or never")
	fs.Usage = func() {
		fmt.Fprintln(stdout, "usage: scatter explain OP [--opset N] [--attr NAME=VALUE]... [--in NAME=FILE|TYPE:VALUES]... [--svg FILE | --png FILE] [--color auto|always|never]")
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return err
	}
	op, err := lookupOp("explain", pos)
	if err != nil {
		return err
	}
	switch {
	case *svg != "" && *png != "":
		return usagef("explain: give --svg or --png, not both")
	case *svg != "" && !strings.EqualFold(filepath.Ext(*svg), ".svg"):
		return usagef("explain: --svg %s: the file name must end in .svg", *svg)
	case *png != "" && !strings.EqualFold(filepath.Ext(*png), ".png"):
		return usagef("explain: --png %s: the file name must end in .png", *png)
	}
	colored, err := useColor(*color, stdout)
	if err != nil {
		return err
	}
	call, err := cf.call("explain", op)
	if err != nil {
		return err
	}
	tr, err := explain.Run(op, call)
	if err != nil {
		// An index out of range still shows the inputs, the offending
		// index marked; a picture is not drawn for a failed call.
		if tr != nil && *svg == "" && *png == "" {
			if werr := tr.WriteText(stdout, colored); werr != nil {
				return errors.Join(err, werr)
			}
		}
		return err
	}
	switch {
	case *svg != "":
		return writePicture(stdout, tr, *svg, tr.WriteSVG)
	case *png != "":
		return writePicture(stdout, tr, *png, tr.WritePNG)
	}
	return tr.WriteText(stdout, colored)
}

// writePicture checks that tr can be drawn and writes it to path with
// write, atomically.
func writePicture(stdout io.Writer, tr *explain.Trace, path string, write func(io.Writer) error) error {
	if err := tr.Fits(); err != nil {
		return fmt.Errorf("%w (without --svg or --png, explain prints a summary)", err)
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("%s: picture: %w", tr.Op, err)
	}
	fmt.Fprintf(stdout, "%s: wrote %s\n", tr.Op, path)
	return nil
}

// useColor resolves the --color flag: auto colours when stdout is a
// terminal and the NO_COLOR environment variable is unset or empty.
func useColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		f, ok := stdout.(*os.File)
		if !ok || os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		fi, err := f.Stat()
		return err == nil && fi.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, usagef("explain: --color %q: want auto, always or never", mode)
}
