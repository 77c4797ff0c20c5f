package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/scatter-dev/scatter/explain"
	"github.com/scatter-dev/scatter/internal/atomicfile"
)

// explainCommand runs one operator and shows what it did: in the terminal,
// or as an SVG or PNG picture.
var explainCommand = &command{
	name:  "explain",
	short: "run an operator and show what happened to every cell, as text or a picture",
	args:  "OP",
	about: "Runs OP as eval does and shows what happened to every cell: as text, or as a\n" +
		"picture with --svg or --png (not both).\n",
	groups: []group{oneOf("svg", "png")},
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &explainOptions{call: addCallFlags(fs)}
		fs.StringVar(&o.svg, "svg", "", "draw the picture into `FILE` (.svg) instead of printing")
		fs.StringVar(&o.png, "png", "", "draw the picture into `FILE` (.png) instead of printing")
		fs.StringVar(&o.color, "color", "auto", "colour the printed cells `WHEN`: always, never, or auto, which colours them on a terminal unless NO_COLOR is set")
		return o.run
	},
}

// explainOptions are the flags of explain.
type explainOptions struct {
	call            *callFlags
	svg, png, color string
}

func (o *explainOptions) run(pos []string, stdout, stderr io.Writer) error {
	op, err := lookupOp("explain", pos)
	if err != nil {
		return err
	}
	switch {
	case o.svg != "" && o.png != "":
		return usagef("explain: give --svg or --png, not both")
	case o.svg != "" && !hasExt(o.svg, ".svg"):
		return usagef("explain: --svg %s: the file name must end in .svg", o.svg)
	case o.png != "" && !hasExt(o.png, ".png"):
		return usagef("explain: --png %s: the file name must end in .png", o.png)
	}
	picture, pictureFlag := o.svg, "svg" // at most one of them is given
	if o.png != "" {
		picture, pictureFlag = o.png, "png"
	}
	if picture != "" {
		if err := checkOutput(pictureFlag, picture); err != nil {
			return fmt.Errorf("%s: %w", op.Name, err)
		}
	}
	colored, err := useColor(o.color, stdout)
	if err != nil {
		return err
	}
	call, err := o.call.call("explain", op)
	if err != nil {
		return err
	}
	tr, err := explain.Run(op, call)
	if err != nil {
		// An index out of range still shows the inputs, the offending
		// index marked; a picture is not drawn for a failed call.
		if tr != nil && o.svg == "" && o.png == "" {
			if werr := tr.WriteText(stdout, colored); werr != nil {
				return errors.Join(err, werr)
			}
		}
		return err
	}
	switch {
	case o.svg != "":
		return writePicture(stderr, tr, o.svg, tr.WriteSVG)
	case o.png != "":
		return writePicture(stderr, tr, o.png, tr.WritePNG)
	}
	return tr.WriteText(stdout, colored)
}

// writePicture checks that tr can be drawn and writes it to path with
// write, atomically, then says so on stderr.
func writePicture(stderr io.Writer, tr *explain.Trace, path string, write func(io.Writer) error) error {
	if err := tr.Fits(); err != nil {
		return fmt.Errorf("%w (without --svg or --png, explain prints a summary)", err)
	}
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("%s: picture: %w", tr.Op, err)
	}
	fmt.Fprintf(stderr, "scatter explain: %s: wrote %s\n", tr.Op, path)
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
		return os.Getenv("NO_COLOR") == "" && isTerminal(stdout), nil
	}
	return false, usagef("explain: --color %q: want auto, always or never", mode)
}
