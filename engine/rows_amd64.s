//go:build amd64 && !purego

#include "textflag.h"

// func rowsFloat32(dst, src *float32, ps *pair, n, block, op int)
//
// For each of the n pairs at ps, in order: the block elements of dst at
// pair.d combined with those of src at pair.s, element by element: op 0
// adds (dst + src), 1 takes VMAXPS(dst, src) and 2 VMINPS(dst, src). Eight
// elements an AVX instruction, then one at a time. The dst block of the
// pair eight on is prefetched. VADDPS keeps its first operand's NaN
// (dst's), then the second's, and makes the negative quiet NaN of two
// numbers: the engine's rule (nan.go). VMAXPS(v, u) is v when v > u, else
// u: std::max(u, v), MinMaxStdUpdate's max; VMINPS(v, u) is v when v < u,
// else u: its min.
//
// DI dst, SI src, BX the pair, CX n, DX block, R8 op, AX the pair's
// number, R12 the last number that prefetches, R9 and R10 the elements of
// dst and src, R11 the elements left in the block.
TEXT ·rowsFloat32(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ps+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ block+32(FP), DX
	MOVQ op+40(FP), R8
	XORQ AX, AX
	LEAQ -8(CX), R12

pair:
	CMPQ AX, CX
	JGE done
	CMPQ AX, R12
	JGE take
	MOVQ 128(BX), R9
	PREFETCHT0 (DI)(R9*4)

take:
	MOVQ 0(BX), R9
	MOVQ 8(BX), R10
	LEAQ (DI)(R9*4), R9
	LEAQ (SI)(R10*4), R10
	MOVQ DX, R11

eight:
	CMPQ R11, $8
	JLT one
	VMOVUPS (R9), Y0
	CMPQ R8, $1
	JEQ max8
	JGT min8
	VADDPS (R10), Y0, Y0
	JMP store8

max8:
	VMAXPS (R10), Y0, Y0
	JMP store8

min8:
	VMINPS (R10), Y0, Y0

store8:
	VMOVUPS Y0, (R9)
	ADDQ $32, R9
	ADDQ $32, R10
	SUBQ $8, R11
	JMP eight

one:
	CMPQ R11, $0
	JLE next
	VMOVSS (R9), X0
	CMPQ R8, $1
	JEQ max1
	JGT min1
	VADDSS (R10), X0, X0
	JMP store1

max1:
	VMAXSS (R10), X0, X0
	JMP store1

min1:
	VMINSS (R10), X0, X0

store1:
	VMOVSS X0, (R9)
	ADDQ $4, R9
	ADDQ $4, R10
	DECQ R11
	JMP one

next:
	ADDQ $16, BX
	INCQ AX
	JMP pair

done:
	VZEROUPPER
	RET
