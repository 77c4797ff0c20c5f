#include "textflag.h"

// func orBlocks(ind []int64, lo int64) uint64
//
// Eight values a round, in four independent chains of PSUBQ and POR on
// pairs of values (SSE2, which every amd64 processor has).
TEXT ·orBlocks(SB), NOSPLIT, $0-40
	MOVQ ind_base+0(FP), SI
	MOVQ ind_len+8(FP), CX
	MOVQ lo+24(FP), AX
	MOVQ AX, X8
	PUNPCKLQDQ X8, X8
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
loop:
	CMPQ CX, $8
	JLT done
	MOVOU 0(SI), X4
	MOVOU 16(SI), X5
	MOVOU 32(SI), X6
	MOVOU 48(SI), X7
	PSUBQ X8, X4
	PSUBQ X8, X5
	PSUBQ X8, X6
	PSUBQ X8, X7
	POR X4, X0
	POR X5, X1
	POR X6, X2
	POR X7, X3
	ADDQ $64, SI
	SUBQ $8, CX
	JMP loop
done:
	POR X1, X0
	POR X3, X2
	POR X2, X0
	PSHUFD $0xee, X0, X1
	POR X1, X0
	MOVQ X0, AX
	MOVQ AX, ret+32(FP)
	RET
