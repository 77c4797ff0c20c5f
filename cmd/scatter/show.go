package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/scatter-dev/scatter/format"
	"github.com/scatter-dev/scatter/format/npy"
	"github.com/scatter-dev/scatter/format/onnxpb"
	"github.com/scatter-dev/scatter/tensor"
)

// showCommand prints tensor files.
var showCommand = &command{
	name:  "show",
	short: "print the element type, shape and elements of .npy and .pb tensor files",
	args:  "FILE...",
	about: "Prints each .npy or .pb tensor file (- reads .npy from standard input): its element type,\n" +
		"shape (and name, for .pb) and elements, nested by dimension. Of a tensor of more than 1000\n" +
		"elements, only the first and last 3 positions of each dimension are shown.\n",
	define: func(fs *flag.FlagSet) func([]string, io.Writer, io.Writer) error {
		o := &showOptions{}
		addMaxBytes(fs, &o.maxBytes)
		return o.run
	},
}

// stdin is what show reads for the file name -.
var stdin io.Reader = os.Stdin

// showOptions are the flags of show.
type showOptions struct {
	maxBytes byteSize
}

// Above showLimit elements, show prints showEdge positions at each end of
// every dimension, as NumPy prints arrays.
const (
	showLimit = 1000
	showEdge  = 3
)

func (o *showOptions) run(files []string, stdout, _ io.Writer) error {
	if len(files) == 0 {
		return usagef("show: missing FILE")
	}
	for _, f := range files {
		if err := format.Check(f); err != nil && f != "-" {
			return usagef("show: %v", err)
		}
	}
	tensor.SetMaxBytes(int64(o.maxBytes))
	for i, f := range files {
		var t tensor.Tensor
		var name string
		var err error
		switch {
		case f == "-":
			t, err = npy.Read(stdin)
		case hasExt(f, ".pb"):
			t, name, err = onnxpb.ReadTensorFile(f)
		default:
			t, err = format.ReadFile(f)
		}
		if err != nil {
			return fmt.Errorf("show: %w", err)
		}
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		fmt.Fprintln(stdout, showHeader(f, name, t))
		fmt.Fprintln(stdout, formatTensor(t))
	}
	return nil
}

// showHeader is the line above a tensor's elements: file, type and shape,
// name if any, and whether elements are elided.
func showHeader(file, name string, t tensor.Tensor) string {
	s := fmt.Sprintf("%s: %v%v", file, t.DType(), t.Shape())
	if name != "" {
		s += fmt.Sprintf(", name %q", name)
	}
	if t.Len() > showLimit {
		s += fmt.Sprintf(", %d elements (the first and last %d of each dimension shown)", t.Len(), showEdge)
	}
	return s
}

// formatTensor lays out t's elements as NumPy prints an array: nested in
// brackets by dimension, a row per line, 2-D blocks apart by a blank line,
// each number right-aligned to the widest shown. Above showLimit
// elements, each dimension longer than 2*showEdge shows its first and
// last showEdge positions around "...".
func formatTensor(t tensor.Tensor) string {
	shape := t.Shape()
	if len(shape) == 0 {
		return tensor.FormatElem(t.At(0))
	}
	p := &printer{t: t, shape: shape, strides: shape.Strides(), elide: t.Len() > showLimit, texts: map[int]string{}}
	p.measure(0, 0)
	var b strings.Builder
	p.write(&b, 0, 0, "")
	return b.String()
}

// printer formats one tensor for formatTensor.
type printer struct {
	t       tensor.Tensor
	shape   tensor.Shape
	strides []int
	elide   bool
	texts   map[int]string // the shown elements by offset
	width   int            // in runes, of the widest shown number
}

// shown returns the positions of dimension dim to show, -1 standing for
// the elided ones.
func (p *printer) shown(dim int) []int {
	n := p.shape[dim]
	if !p.elide || n <= 2*showEdge {
		return seq(n)
	}
	pos := append(seq(showEdge), -1)
	for i := n - showEdge; i < n; i++ {
		pos = append(pos, i)
	}
	return pos
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// measure formats the shown elements under offset off at dimension dim.
func (p *printer) measure(dim, off int) {
	for _, i := range p.shown(dim) {
		switch {
		case i < 0:
		case dim == len(p.shape)-1:
			s := tensor.FormatElem(p.t.At(off + i))
			p.texts[off+i] = s
			if p.t.DType() != tensor.String { // strings are not aligned
				p.width = max(p.width, utf8.RuneCountInString(s))
			}
		default:
			p.measure(dim+1, off+i*p.strides[dim])
		}
	}
}

// write writes the sub-tensor at offset off from dimension dim on, its
// lines after the first indented by indent.
func (p *printer) write(b *strings.Builder, dim, off int, indent string) {
	b.WriteByte('[')
	last := dim == len(p.shape)-1
	for k, i := range p.shown(dim) {
		if k > 0 {
			if last {
				b.WriteByte(' ')
			} else {
				b.WriteString(strings.Repeat("\n", len(p.shape)-1-dim) + indent + " ")
			}
		}
		switch {
		case i < 0:
			b.WriteString("...")
		case last:
			s := p.texts[off+i]
			b.WriteString(strings.Repeat(" ", max(p.width-utf8.RuneCountInString(s), 0)) + s)
		default:
			p.write(b, dim+1, off+i*p.strides[dim], indent+" ")
		}
	}
	b.WriteByte(']')
}
