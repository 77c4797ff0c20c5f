//go:build amd64 && !purego

#include "textflag.h"

// func orWords(ind []int64, lo int64, avx2 bool) uint64
//
// With avx2, sixteen values a round in four independent chains of VPSUBQ
// and VPOR on four values each, while sixteen are left; then eight a
// round in four chains of PSUBQ and POR on pairs (SSE2, which every amd64
// processor has).
TEXT ·orWords(SB), NOSPLIT, $0-48
	MOVQ ind_base+0(FP), SI
	MOVQ ind_len+8(FP), CX
	MOVQ lo+24(FP), AX
	MOVQ AX, X8
	PUNPCKLQDQ X8, X8
	PXOR X0, X0
	PXOR X1, X1
	PXOR X2, X2
	PXOR X3, X3
	MOVBQZX avx2+32(FP), DX
	TESTQ DX, DX
	JZ loop
	VPBROADCASTQ X8, Y8
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
wide:
	CMPQ CX, $16
	JLT narrow
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y6
	VMOVDQU 96(SI), Y7
	VPSUBQ Y8, Y4, Y4
	VPSUBQ Y8, Y5, Y5
	VPSUBQ Y8, Y6, Y6
	VPSUBQ Y8, Y7, Y7
	VPOR Y4, Y0, Y0
	VPOR Y5, Y1, Y1
	VPOR Y6, Y2, Y2
	VPOR Y7, Y3, Y3
	ADDQ $128, SI
	SUBQ $16, CX
	JMP wide
narrow:
	// Fold the upper halves in, then go on eight at a time.
	VEXTRACTI128 $1, Y0, X4
	VEXTRACTI128 $1, Y1, X5
	VEXTRACTI128 $1, Y2, X6
	VEXTRACTI128 $1, Y3, X7
	VPOR X4, X0, X0
	VPOR X5, X1, X1
	VPOR X6, X2, X2
	VPOR X7, X3, X3
	VZEROUPPER
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
	MOVQ AX, ret+40(FP)
	RET

// func copyOrWords(dst, ind *int64, n int) uint64
//
// Copies the n values at ind to dst, n a multiple of 16, and returns the
// OR of the values: sixteen a round with AVX2, which the caller has
// checked for, in two chains.
TEXT ·copyOrWords(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ ind+8(FP), SI
	MOVQ n+16(FP), CX
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	TESTQ CX, CX
	JEQ fold
round:
	VMOVDQU 0(SI), Y4
	VMOVDQU 32(SI), Y5
	VMOVDQU 64(SI), Y6
	VMOVDQU 96(SI), Y7
	VMOVDQU Y4, 0(DI)
	VMOVDQU Y5, 32(DI)
	VMOVDQU Y6, 64(DI)
	VMOVDQU Y7, 96(DI)
	VPOR Y4, Y0, Y0
	VPOR Y5, Y1, Y1
	VPOR Y6, Y0, Y0
	VPOR Y7, Y1, Y1
	ADDQ $128, SI
	ADDQ $128, DI
	SUBQ $16, CX
	JNE round
fold:
	VPOR Y1, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPOR X1, X0, X0
	VPSHUFD $0xee, X0, X1
	VPOR X1, X0, X0
	VMOVQ X0, AX
	VZEROUPPER
	MOVQ AX, ret+24(FP)
	RET
