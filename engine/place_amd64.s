//go:build amd64 && !purego

#include "textflag.h"

// MOVE_FOUR copies four words of w bytes, by the move MOV through the
// registers A-D, from the row of src to the row of dst, at byte R10.
#define MOVE_FOUR(MOV, w, A, B, C, D) \
	MOV 0(BX)(R10*1), A \
	MOV w(BX)(R10*1), B \
	MOV 2*w(BX)(R10*1), C \
	MOV 3*w(BX)(R10*1), D \
	MOV A, 0(R9)(R10*1) \
	MOV B, w(R9)(R10*1) \
	MOV C, 2*w(R9)(R10*1) \
	MOV D, 3*w(R9)(R10*1)

// func placeRows(dst unsafe.Pointer, esize uintptr, offs *int32, n int, src unsafe.Pointer, bytes uintptr, avx bool)
//
// For t from 0 to n-1: unless offs[t] < 0, copies the bytes bytes of row t
// of src (at src + t*bytes) to dst + offs[t]*esize. bytes is a positive
// multiple of 16: with avx 128 bytes a step (four AVX moves) while 128 are
// left, then 64 a step while 64 are left, then 16; rows of whole steps of
// 128 bytes (S2's) in a loop of their own, which tests for no tail.
//
// DI dst, R8 esize, SI offs, CX n, BX the row of src, DX bytes, AX t,
// R9 the row of dst, R10 the byte within the row, R11 the last byte at
// which a step of 64 starts, R12 of 128 (-1 without avx).
TEXT ·placeRows(SB), NOSPLIT, $0-49
	MOVQ dst+0(FP), DI
	MOVQ esize+8(FP), R8
	MOVQ offs+16(FP), SI
	MOVQ n+24(FP), CX
	MOVQ src+32(FP), BX
	MOVQ bytes+40(FP), DX
	MOVQ DX, R11
	SUBQ $64, R11
	MOVQ $-1, R12
	XORQ AX, AX
	CMPB avx+48(FP), $0
	JEQ test
	LEAQ -128(DX), R12
	TESTQ $127, DX
	JEQ wholetest
	JMP test
whole:
	MOVLQSX (SI)(AX*4), R9
	TESTQ R9, R9
	JS wholenext
	IMULQ R8, R9
	ADDQ DI, R9
	XORQ R10, R10
wholestep:
	MOVE_FOUR(VMOVDQU, 32, Y0, Y1, Y2, Y3)
	ADDQ $128, R10
	CMPQ R10, DX
	JLT wholestep
wholenext:
	ADDQ DX, BX
	INCQ AX
wholetest:
	CMPQ AX, CX
	JLT whole
	VZEROUPPER
	RET
row:
	MOVLQSX (SI)(AX*4), R9
	TESTQ R9, R9
	JS next
	IMULQ R8, R9
	ADDQ DI, R9
	XORQ R10, R10
	CMPQ R10, R12
	JGT sixtyfourtest
onetwentyeight:
	MOVE_FOUR(VMOVDQU, 32, Y0, Y1, Y2, Y3)
	ADDQ $128, R10
	CMPQ R10, R12
	JLE onetwentyeight
sixtyfourtest:
	CMPQ R10, R11
	JGT sixteen
sixtyfour:
	MOVE_FOUR(MOVOU, 16, X0, X1, X2, X3)
	ADDQ $64, R10
	CMPQ R10, R11
	JLE sixtyfour
sixteen:
	CMPQ R10, DX
	JGE next
	MOVOU (BX)(R10*1), X0
	MOVOU X0, (R9)(R10*1)
	ADDQ $16, R10
	JMP sixteen
next:
	ADDQ DX, BX
	INCQ AX
test:
	CMPQ AX, CX
	JLT row
	CMPB avx+48(FP), $0
	JEQ out
	VZEROUPPER
out:
	RET
