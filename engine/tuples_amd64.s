//go:build amd64 && !purego

#include "textflag.h"

// COMPONENT wraps the index value at byte i of the tuple by its limit's
// fromEnd (at byte i*2+8 of lims), v + (v>>63 & fromEnd), into R12, and
// jumps to done unless it is below size (unsigned, so that a negative
// value is out too); then multiplies it by its stride (byte i of strides).
#define COMPONENT(i, size) \
	MOVQ i(SI), R12 \
	MOVQ R12, R13 \
	SARQ $63, R13 \
	ANDQ 2*i+8(BX), R13 \
	ADDQ R13, R12 \
	CMPQ R12, size \
	JCC done \
	IMULQ i(DX), R12

// func triples(offs *int32, ind *int64, n int, lims *limit, strides *int) int
//
// For t from 0 while t < n: the components of the triple at ind + 24t,
// each wrapped and checked against its limit (lims[0], lims[1], lims[2]),
// times their strides, summed into offs[t]; returns the first t with a
// component outside its limit, or n.
//
// DI offs, SI the triple, CX n, AX t, BX lims, DX strides, R8-R10 the
// limits' sizes, R11 the offset, R12 and R13 a component.
TEXT ·triples(SB), NOSPLIT, $0-48
	MOVQ offs+0(FP), DI
	MOVQ ind+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ lims+24(FP), BX
	MOVQ strides+32(FP), DX
	MOVQ 0(BX), R8
	MOVQ 16(BX), R9
	MOVQ 32(BX), R10
	XORQ AX, AX
	JMP test
loop:
	COMPONENT(0, R8)
	MOVQ R12, R11
	COMPONENT(8, R9)
	ADDQ R12, R11
	COMPONENT(16, R10)
	ADDQ R12, R11
	MOVL R11, (DI)(AX*4)
	ADDQ $24, SI
	INCQ AX
test:
	CMPQ AX, CX
	JLT loop
done:
	MOVQ AX, ret+40(FP)
	RET
