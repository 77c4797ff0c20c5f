package stablehlo

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unsafe"

	"github.com/scatter-dev/scatter/tensor"
)

// ErrSyntax is matched (with errors.Is) by the error of text that is not
// MLIR as this reader reads it: a missing bracket, a malformed number, a
// value of the wrong kind.
var ErrSyntax = errors.New("invalid MLIR")

// ErrUnsupported is matched (with errors.Is) by the error of MLIR that is
// well formed but outside the subset this reader knows: an operation,
// an element type, a dynamic dimension or an attribute form it does not
// read, or a scatter's update computation that is not one of the known
// ones.
var ErrUnsupported = errors.New("not supported")

// Error is the error of Parse: where in which file, and what. Err wraps
// ErrSyntax, ErrUnsupported or, for a constant too large to allocate,
// tensor.ErrTooLarge.
type Error struct {
	File      string
	Line, Col int // 1-based
	Err       error
}

// Error returns "file:line:col: what".
func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %v", e.File, e.Line, e.Col, e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// maxDepth bounds the nesting of regions, attribute lists and dense
// literals, so that no input can exhaust the stack.
const maxDepth = 64

// parser reads one section of a file. Positions are byte offsets into
// src; lines holds the offset at which each line starts, for errors and
// the Line fields of what it returns.
type parser struct {
	file      string
	src       []byte
	pos       int
	lines     []int
	firstLine int // the line number of src[0] in the whole file
	depth     int
	// held counts the bytes that the whole file's parse holds so far, as
	// hold counts them, shared by the parsers of its sections.
	held *int64
}

func newParser(file string, src []byte, firstLine int, held *int64) *parser {
	p := &parser{file: file, src: src, firstLine: firstLine, lines: []int{0}, held: held}
	for i, c := range src {
		if c == '\n' {
			p.lines = append(p.lines, i+1)
		}
	}
	return p
}

// The bytes that the parse holds for each thing it reads, besides the
// constants' elements: a line's start, an integer of a list, a value's
// name, and an operation with its names, types and attributes (an
// estimate of what the Op and the maps and slices that make it take). A
// dense literal's elements go straight into the constant (see literal).
const (
	lineBytes = int64(unsafe.Sizeof(int(0)))
	intBytes  = 8
	nameBytes = int64(unsafe.Sizeof(""))
	opBytes   = 1024
)

// hold adds n bytes to those the file's parse holds, and fails at pos
// once they are more than the limit of tensor.SetMaxBytes: a file of
// millions of literal elements or operations is refused while it is read,
// before it takes many times its size in memory.
func (p *parser) hold(pos int, n int64) error {
	total := *p.held + n
	if total < *p.held {
		total = math.MaxInt64 // past a limit of math.MaxInt64, which is none
	}
	*p.held = total
	if err := tensor.CheckBytes("the parse of the file", total, 1); err != nil {
		return p.errAt(pos, err, "the file holds too much to read")
	}
	return nil
}

// lineCol returns the line (in the whole file) and column of offset pos.
func (p *parser) lineCol(pos int) (int, int) {
	i := sort.Search(len(p.lines), func(i int) bool { return p.lines[i] > pos }) - 1
	return p.firstLine + i, pos - p.lines[i] + 1
}

// line returns the line of the next token.
func (p *parser) line() int {
	p.skipSpace()
	l, _ := p.lineCol(p.pos)
	return l
}

// errAt returns an *Error at offset pos wrapping sentinel.
func (p *parser) errAt(pos int, sentinel error, format string, args ...any) error {
	l, c := p.lineCol(pos)
	return &Error{File: p.file, Line: l, Col: c, Err: fmt.Errorf("%w: %s", sentinel, fmt.Sprintf(format, args...))}
}

// fail returns an ErrSyntax error at the next token: "expected what,
// found ...".
func (p *parser) fail(what string) error {
	p.skipSpace()
	return p.errAt(p.pos, ErrSyntax, "expected %s, found %s", what, p.found())
}

// unsupported returns an ErrUnsupported error at offset pos.
func (p *parser) unsupported(pos int, format string, args ...any) error {
	return p.errAt(pos, ErrUnsupported, format, args...)
}

// found describes the text at the current position for an error.
func (p *parser) found() string {
	if p.pos >= len(p.src) {
		return "the end of the text"
	}
	end := p.pos
	for end < len(p.src) && end-p.pos < 24 && p.src[end] != '\n' {
		end++
	}
	if end == p.pos {
		end++
	}
	return strconv.Quote(string(p.src[p.pos:end]))
}

// enter counts one more level of nesting, failing beyond maxDepth; leave
// undoes it.
func (p *parser) enter() error {
	if p.depth >= maxDepth {
		return p.unsupported(p.pos, "nesting deeper than %d levels", maxDepth)
	}
	p.depth++
	return nil
}

func (p *parser) leave() { p.depth-- }

// skipSpace skips white space and // comments.
func (p *parser) skipSpace() {
	for p.pos < len(p.src) {
		switch c := p.src[p.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.pos++
		case c == '/' && p.pos+1 < len(p.src) && p.src[p.pos+1] == '/':
			for p.pos < len(p.src) && p.src[p.pos] != '\n' {
				p.pos++
			}
		default:
			return
		}
	}
}

// peek returns the next byte after white space, or 0 at the end.
func (p *parser) peek() byte {
	p.skipSpace()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

// punct consumes the punctuation s if it comes next.
func (p *parser) punct(s string) bool {
	p.skipSpace()
	if p.pos+len(s) <= len(p.src) && string(p.src[p.pos:p.pos+len(s)]) == s {
		p.pos += len(s)
		return true
	}
	return false
}

// expect consumes the punctuation s or fails.
func (p *parser) expect(s string) error {
	if !p.punct(s) {
		return p.fail(strconv.Quote(s))
	}
	return nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isIdentChar reports whether c may continue a bare identifier (MLIR's
// bare-id: letters, digits, '_', '$', '.').
func isIdentChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '$' || c == '.' }

// ident reads a bare identifier ("stablehlo.add", "dims"), or returns ""
// without consuming anything.
func (p *parser) ident() string {
	p.skipSpace()
	if p.pos >= len(p.src) || !isLetter(p.src[p.pos]) {
		return ""
	}
	start := p.pos
	for p.pos < len(p.src) && isIdentChar(p.src[p.pos]) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

// keyword consumes the bare identifier kw if it comes next.
func (p *parser) keyword(kw string) bool {
	save := p.pos
	if p.ident() == kw {
		return true
	}
	p.pos = save
	return false
}

// expectKeyword consumes kw or fails.
func (p *parser) expectKeyword(kw string) error {
	if !p.keyword(kw) {
		return p.fail(strconv.Quote(kw))
	}
	return nil
}

// expectKey consumes "kw =", which introduces a value in custom forms
// ("dims = [0]"), or fails.
func (p *parser) expectKey(kw string) error {
	if err := p.expectKeyword(kw); err != nil {
		return err
	}
	return p.expect("=")
}

// expectSeq reads a fixed form piece by piece, as the pieces say: a
// string is a keyword (expectKeyword) when it starts with a letter and
// punctuation (expect) otherwise; a *string receives a value use
// (valueUse). It stops at the first piece that fails.
func (p *parser) expectSeq(pieces ...any) error {
	for _, piece := range pieces {
		var err error
		switch piece := piece.(type) {
		case string:
			if isLetter(piece[0]) {
				err = p.expectKeyword(piece)
			} else {
				err = p.expect(piece)
			}
		case *string:
			*piece, err = p.valueUse()
		default:
			panic(fmt.Sprintf("stablehlo: expectSeq takes strings and *strings, not %T", piece))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// isSuffixChar reports whether c may appear in the name of a value or a
// block after its sigil (MLIR's suffix-id).
func isSuffixChar(c byte) bool { return isLetter(c) || isDigit(c) || c == '$' || c == '.' || c == '-' }

// sigilName reads a name introduced by sigil ('%' for values, '^' for
// blocks), returning it with the sigil, or "" without consuming anything.
func (p *parser) sigilName(sigil byte) string {
	p.skipSpace()
	if p.pos+1 >= len(p.src) || p.src[p.pos] != sigil || !isSuffixChar(p.src[p.pos+1]) {
		return ""
	}
	start := p.pos
	p.pos++
	for p.pos < len(p.src) && isSuffixChar(p.src[p.pos]) {
		p.pos++
	}
	return string(p.src[start:p.pos])
}

// valueDef reads the name of a value an operation defines ("%0").
func (p *parser) valueDef() (string, error) {
	if v := p.sigilName('%'); v != "" {
		return v, nil
	}
	return "", p.fail("a value name such as %0")
}

// valueUse reads a use of a value: "%x", or "%x#1" for the second result
// of a multi-result operation.
func (p *parser) valueUse() (string, error) {
	v, err := p.valueDef()
	if err != nil {
		return "", err
	}
	if p.pos < len(p.src) && p.src[p.pos] == '#' {
		start := p.pos
		p.pos++
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
		if p.pos == start+1 {
			return "", p.fail("a result number after #")
		}
		v += string(p.src[start:p.pos])
	}
	return v, nil
}

// operandList reads "(%a, %b, ...)", a parenthesized list of value uses,
// possibly empty.
func (p *parser) operandList() ([]string, error) {
	if err := p.expect("("); err != nil {
		return nil, err
	}
	vs, err := p.valueUses()
	if err != nil {
		return nil, err
	}
	return vs, p.expect(")")
}

// valueUses reads a comma-separated list of value uses, possibly empty,
// up to the first comma not followed by a value.
func (p *parser) valueUses() ([]string, error) {
	var vs []string
	if p.peek() != '%' {
		return nil, nil
	}
	for {
		v, err := p.valueUse()
		if err == nil {
			err = p.hold(p.pos, nameBytes)
		}
		if err != nil {
			return nil, err
		}
		vs = append(vs, v)
		save := p.pos
		if !p.punct(",") || p.peek() != '%' { // a ',' before something else is the caller's
			p.pos = save
			return vs, nil
		}
	}
}

// symbol reads a symbol reference "@name" (or "@\"name\""), returning
// the name without '@'.
func (p *parser) symbol() (string, error) {
	if !p.punct("@") {
		return "", p.fail("a symbol such as @main")
	}
	if p.pos < len(p.src) && p.src[p.pos] == '"' {
		return p.stringLit()
	}
	start := p.pos
	for p.pos < len(p.src) && (isIdentChar(p.src[p.pos]) || p.src[p.pos] == '-') {
		p.pos++
	}
	if p.pos == start {
		return "", p.fail("a symbol name after @")
	}
	return string(p.src[start:p.pos]), nil
}

// stringLit reads a double-quoted string with MLIR's escapes (\" \\ \n
// \t and two hex digits).
func (p *parser) stringLit() (string, error) {
	p.skipSpace()
	if p.pos >= len(p.src) || p.src[p.pos] != '"' {
		return "", p.fail("a string")
	}
	start := p.pos
	p.pos++
	var b []byte
	for {
		if p.pos >= len(p.src) || p.src[p.pos] == '\n' {
			return "", p.errAt(start, ErrSyntax, "string not closed on its line")
		}
		c := p.src[p.pos]
		p.pos++
		switch {
		case c == '"':
			return string(b), nil
		case c != '\\':
			b = append(b, c)
		case p.pos >= len(p.src):
			return "", p.errAt(start, ErrSyntax, "string not closed")
		default:
			e := p.src[p.pos]
			p.pos++
			switch e {
			case '"', '\\':
				b = append(b, e)
			case 'n':
				b = append(b, '\n')
			case 't':
				b = append(b, '\t')
			default:
				if p.pos >= len(p.src) {
					return "", p.errAt(start, ErrSyntax, "string not closed")
				}
				v, err := strconv.ParseUint(string([]byte{e, p.src[p.pos]}), 16, 8)
				if err != nil {
					return "", p.errAt(p.pos-2, ErrSyntax, "invalid escape in string")
				}
				p.pos++
				b = append(b, byte(v))
			}
		}
	}
}

// integer reads a decimal integer, possibly negative.
func (p *parser) integer() (int64, error) {
	p.skipSpace()
	start := p.pos
	if p.pos < len(p.src) && p.src[p.pos] == '-' {
		p.pos++
	}
	for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
		p.pos++
	}
	v, err := strconv.ParseInt(string(p.src[start:p.pos]), 10, 64)
	if err != nil {
		p.pos = start
		return 0, p.fail("an integer")
	}
	return v, nil
}

// commaList reads items, separated by commas, up to and including the
// punctuation close; the list may be empty.
func (p *parser) commaList(close string, item func() error) error {
	if p.punct(close) {
		return nil
	}
	for {
		if err := item(); err != nil {
			return err
		}
		if p.punct(close) {
			return nil
		}
		if err := p.expect(","); err != nil {
			return err
		}
	}
}

// intList reads "[1, 2, 3]" (possibly empty).
func (p *parser) intList() ([]int64, error) {
	if err := p.expect("["); err != nil {
		return nil, err
	}
	vs := []int64{}
	err := p.commaList("]", func() error {
		v, err := p.integer()
		if err == nil {
			err = p.hold(p.pos, intBytes)
		}
		vs = append(vs, v)
		return err
	})
	return vs, err
}
