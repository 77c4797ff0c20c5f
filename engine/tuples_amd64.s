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

// func pairs(offs unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, wide bool) int
//
// offsets2 without skip, four pairs a round with AVX2, while four pairs
// are left and every component of the round's is within its limit: each
// component wrapped (v + (v>>63 & fromEnd)), checked against its limit's
// size (unsigned: the sign bit flipped, compared signed), times its
// stride (the low 32 bits of both, which the caller has seen are all
// there is), the two summed into offs[t], an int32 (an int if wide).
// Returns the t it stopped at, a multiple of four.
//
// DI offs, SI the round's pairs, CX n-3, AX t, R9 wide; Y7 zero, Y8 and
// Y9 the limits' fromEnd, Y10 and Y11 their sizes and Y12 the sign bit
// (the sizes with it flipped), Y13 and Y14 the strides, Y15 where an
// int32 store finds the offsets' low halves; Y2 and Y3 the first and
// second components of pairs 0, 2, 1, 3 of the round, Y4 and Y5 masks.
TEXT ·pairs(SB), NOSPLIT, $0-56
	MOVQ offs+0(FP), DI
	MOVQ ind+8(FP), SI
	MOVQ n+16(FP), CX
	MOVQ lims+24(FP), BX
	MOVQ strides+32(FP), DX
	MOVBQZX wide+40(FP), R9
	VPXOR Y7, Y7, Y7
	VPBROADCASTQ 8(BX), Y8
	VPBROADCASTQ 24(BX), Y9
	MOVQ $0x8000000000000000, R8
	MOVQ R8, X12
	VPBROADCASTQ X12, Y12
	VPBROADCASTQ 0(BX), Y10
	VPXOR Y12, Y10, Y10
	VPBROADCASTQ 16(BX), Y11
	VPXOR Y12, Y11, Y11
	VPBROADCASTQ 0(DX), Y13
	VPBROADCASTQ 8(DX), Y14
	VMOVDQU pairsOrder<>(SB), Y15
	SUBQ $3, CX
	XORQ AX, AX

round:
	CMPQ AX, CX
	JGE done
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPUNPCKLQDQ Y1, Y0, Y2
	VPUNPCKHQDQ Y1, Y0, Y3
	VPCMPGTQ Y2, Y7, Y4 // 0 > v: add fromEnd
	VPAND Y8, Y4, Y4
	VPADDQ Y4, Y2, Y2
	VPCMPGTQ Y3, Y7, Y5
	VPAND Y9, Y5, Y5
	VPADDQ Y5, Y3, Y3
	VPXOR Y12, Y2, Y4
	VPCMPGTQ Y4, Y10, Y4 // size > v, unsigned
	VPXOR Y12, Y3, Y5
	VPCMPGTQ Y5, Y11, Y5
	VPAND Y5, Y4, Y4
	VPMOVMSKB Y4, R8
	CMPL R8, $-1
	JNE done
	VPMULUDQ Y13, Y2, Y2
	VPMULUDQ Y14, Y3, Y3
	VPADDQ Y3, Y2, Y2
	TESTQ R9, R9
	JNZ wide
	VPERMD Y2, Y15, Y2
	VMOVDQU X2, (DI)(AX*4)
	JMP next

wide:
	VPERMQ $0xD8, Y2, Y2 // pairs 0, 1, 2, 3
	VMOVDQU Y2, (DI)(AX*8)

next:
	ADDQ $64, SI
	ADDQ $4, AX
	JMP round

done:
	VZEROUPPER
	MOVQ AX, ret+48(FP)
	RET

// pairsOrder picks the low halves of the offsets of pairs 0, 2, 1, 3
// (quadwords 0 to 3) in the order 0, 1, 2, 3.
DATA pairsOrder<>+0(SB)/4, $0
DATA pairsOrder<>+4(SB)/4, $4
DATA pairsOrder<>+8(SB)/4, $2
DATA pairsOrder<>+12(SB)/4, $6
DATA pairsOrder<>+16(SB)/4, $1
DATA pairsOrder<>+20(SB)/4, $3
DATA pairsOrder<>+24(SB)/4, $5
DATA pairsOrder<>+28(SB)/4, $7
GLOBL pairsOrder<>(SB), RODATA|NOPTR, $32
