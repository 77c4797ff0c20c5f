//go:build amd64 && !purego

#include "textflag.h"

// ROWS_BLOCK reduces the block of DX elements of src at R10 into dst's
// at R9 by op R8 (0 going to ROWS_ADD, 1 and 2 to ROWS_MAXMIN), eight
// elements an instruction and then one, and goes to next; ROWS_ADD is op
// 0's loop, ROWS_MAXMIN ops 1 and 2's sixteen a round, which then go on
// to eight and one. rowsFloat32 and offsRowsFloat32 expand them, each
// with its own labels.
#define ROWS_BLOCK \
	MOVQ DX, R11; \
	TESTQ R8, R8; \
	JEQ add16; \
	CMPQ R8, $2; \
	JLT max16; \
	JEQ min16; \
	eight:; \
	CMPQ R11, $8; \
	JLT one; \
	VMOVUPS (R9), Y0; \
	CMPQ R8, $2; \
	JLT max8; \
	JEQ min8; \
	VMOVUPS (R10), Y1; \
	CMPQ R8, $3; \
	JGT minLast8; \
	VMAXPS Y0, Y1, Y2; \
	JMP last8; \
	minLast8:; \
	VMINPS Y0, Y1, Y2; \
	last8:; \
	VCMPPS $3, Y1, Y1, Y3; \
	VBLENDVPS Y3, Y1, Y2, Y0; \
	JMP store8; \
	max8:; \
	VMAXPS (R10), Y0, Y0; \
	JMP store8; \
	min8:; \
	VMINPS (R10), Y0, Y0; \
	store8:; \
	VMOVUPS Y0, (R9); \
	ADDQ $32, R9; \
	ADDQ $32, R10; \
	SUBQ $8, R11; \
	JMP eight; \
	one:; \
	CMPQ R11, $0; \
	JLE next; \
	VMOVSS (R9), X0; \
	CMPQ R8, $2; \
	JLT max1; \
	JEQ min1; \
	VMOVSS (R10), X1; \
	CMPQ R8, $3; \
	JGT minLast1; \
	VMAXSS X0, X1, X2; \
	JMP last1; \
	minLast1:; \
	VMINSS X0, X1, X2; \
	last1:; \
	VCMPSS $3, X1, X1, X3; \
	VBLENDVPS X3, X1, X2, X0; \
	JMP store1; \
	max1:; \
	VMAXSS (R10), X0, X0; \
	JMP store1; \
	min1:; \
	VMINSS (R10), X0, X0; \
	store1:; \
	VMOVSS X0, (R9); \
	ADDQ $4, R9; \
	ADDQ $4, R10; \
	DECQ R11; \
	JMP one;

// ROWS_SIXTEEN is the loop, at label loop, that combines sixteen
// elements a round by VOP (dst's first: VOP(src, dst) in Intel's order),
// in two registers, while sixteen are left, then goes to exit.
#define ROWS_SIXTEEN(loop, VOP, exit) \
	loop:; \
	CMPQ R11, $16; \
	JLT exit; \
	VMOVUPS (R9), Y0; \
	VMOVUPS 32(R9), Y1; \
	VOP (R10), Y0, Y0; \
	VOP 32(R10), Y1, Y1; \
	VMOVUPS Y0, (R9); \
	VMOVUPS Y1, 32(R9); \
	ADDQ $64, R9; \
	ADDQ $64, R10; \
	SUBQ $16, R11; \
	JMP loop

#define ROWS_ADD \
	ROWS_SIXTEEN(add16, VADDPS, add8); \
	add8:; \
	CMPQ R11, $8; \
	JLT add1; \
	VMOVUPS (R9), Y0; \
	VADDPS (R10), Y0, Y0; \
	VMOVUPS Y0, (R9); \
	ADDQ $32, R9; \
	ADDQ $32, R10; \
	SUBQ $8, R11; \
	add1:; \
	CMPQ R11, $0; \
	JLE next; \
	VMOVSS (R9), X0; \
	VADDSS (R10), X0, X0; \
	VMOVSS X0, (R9); \
	ADDQ $4, R9; \
	ADDQ $4, R10; \
	DECQ R11; \
	JMP add1;

#define ROWS_MAXMIN \
	ROWS_SIXTEEN(max16, VMAXPS, eight); \
	ROWS_SIXTEEN(min16, VMINPS, eight);

// func rowsFloat32(dst, src *float32, ps *pair, n, block, op int)
//
// For each of the n pairs at ps, in order: the block elements of dst at
// pair.d combined with those of src at pair.s, element by element: op 0
// adds (dst + src), 1 takes VMAXPS(dst, src), 2 VMINPS(dst, src), 3
// VMAXPS(src, dst) and 4 VMINPS(src, dst), 3 and 4 then taking src's
// element where it is a NaN. Eight elements an AVX instruction, then one
// at a time; op 0 has a loop of its own, sixteen elements a round, so
// that the op is chosen once a pair, not once a round. The dst block of
// the pair eight on is prefetched. VADDPS keeps its first operand's NaN
// (dst's), then the second's, and makes the negative quiet NaN of two
// numbers: the engine's rule (nan.go).
// VMAXPS(v, u) is v when v > u, else u (u when either is a NaN): std::max(u,
// v), MinMaxStdUpdate's max; VMINPS(v, u) is v when v < u, else u: its
// min. VMAXPS(u, v) is u when u > v, else v: with a NaN u taken,
// MinMaxLastNaN's max (maxLastNaN); with VMINPS, its min.
//
// DI dst, SI src, BX the pair, CX n, DX block, R8 op, AX the pair's
// number, R12 the last number that prefetches, R9 and R10 the elements of
// dst and src, R11 the elements left in the block; Y0 dst's elements and
// the result, Y1 src's, Y2 the maximum or minimum, Y3 the NaNs of src.
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
	ROWS_BLOCK

next:
	ADDQ $16, BX
	INCQ AX
	JMP pair

done:
	VZEROUPPER
	RET

// Op 0, adding, taken once a pair: sixteen elements a round in two
// registers, then eight, then one; ops 1 and 2 sixteen a round, then the
// eight and the one of ROWS_BLOCK.
	ROWS_ADD
	ROWS_MAXMIN


// func offsRowsFloat32(dst, src *float32, offs *int32, n, block, op int)
//
// rowsFloat32 for the n blocks of src one after another: block t, at
// src's element t*block, into dst's block at offs[t], skipped where that
// is -1 (a dropped index), in order. The registers are rowsFloat32's,
// BX the offset, R13 the element of src at block t; the dst block of the
// offset 32 on is prefetched (at -1, a hint before dst that does not
// fault): W10 streams its updates past dst, whose blocks then come from
// memory, and eight ahead left most of that wait exposed. src, read once,
// is asked for 1 KiB ahead as non-temporal (PREFETCHNTA), so that its
// lines pass through the caches without pushing out dst's (README's Speed
// section has the figures).
TEXT ·offsRowsFloat32(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ offs+16(FP), BX
	MOVQ n+24(FP), CX
	MOVQ block+32(FP), DX
	MOVQ op+40(FP), R8
	XORQ AX, AX
	XORQ R13, R13
	LEAQ -32(CX), R12

pair:
	CMPQ AX, CX
	JGE done
	CMPQ AX, R12
	JGE take
	MOVLQSX 128(BX), R9
	PREFETCHT0 (DI)(R9*4)
	PREFETCHNTA 1024(SI)(R13*4)

take:
	MOVLQSX 0(BX), R9
	TESTQ R9, R9
	JLT next
	LEAQ (DI)(R9*4), R9
	LEAQ (SI)(R13*4), R10
	ROWS_BLOCK

next:
	ADDQ $4, BX
	ADDQ DX, R13
	INCQ AX
	JMP pair

done:
	VZEROUPPER
	RET

// Op 0, adding, taken once a pair: sixteen elements a round in two
// registers, then eight, then one; ops 1 and 2 sixteen a round, then the
// eight and the one of ROWS_BLOCK.
	ROWS_ADD
	ROWS_MAXMIN


// func sumRunFloat32(out, src *float32, rows, inner, mode int)
//
// Sums the rows rows of inner elements at src (one after another) into
// the inner elements at out, element by element in row order: from +0
// where mode has bit 0 (EigenStart's start), else from the first row;
// then divides each sum by rows where mode has bit 1 (a mean). Columns
// go 32 at a time in four accumulators, then 8 in one, then one at a
// time. VADDPS keeps the accumulator's NaN, then the row's, and makes the
// negative quiet NaN of two numbers; VDIVPS by the count keeps the sum's
// NaN, quieted: the engine's rule (nan.go), as add and quo make it.
//
// DI out, SI src at the column, CX rows, DX inner, R8 mode, R13 a row's
// bytes, R11 the columns left, R10 the row being added, R12 the rows
// left; Y0-Y3 the sums, Y15 the count in every lane.
TEXT ·sumRunFloat32(SB), NOSPLIT, $0-40
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ rows+16(FP), CX
	MOVQ inner+24(FP), DX
	MOVQ mode+32(FP), R8
	MOVQ DX, R13
	SHLQ $2, R13
	VCVTSI2SSQ CX, X15, X15
	VSHUFPS $0, X15, X15, X15
	VINSERTF128 $1, X15, Y15, Y15
	MOVQ DX, R11

group32:
	CMPQ R11, $32
	JLT group8
	MOVQ SI, R10
	MOVQ CX, R12
	TESTQ $1, R8
	JNZ zero32
	VMOVUPS (R10), Y0
	VMOVUPS 32(R10), Y1
	VMOVUPS 64(R10), Y2
	VMOVUPS 96(R10), Y3
	ADDQ R13, R10
	DECQ R12
	JMP rows32

zero32:
	VXORPS Y0, Y0, Y0
	VXORPS Y1, Y1, Y1
	VXORPS Y2, Y2, Y2
	VXORPS Y3, Y3, Y3

rows32:
	TESTQ R12, R12
	JLE end32
	VADDPS (R10), Y0, Y0
	VADDPS 32(R10), Y1, Y1
	VADDPS 64(R10), Y2, Y2
	VADDPS 96(R10), Y3, Y3
	ADDQ R13, R10
	DECQ R12
	JMP rows32

end32:
	TESTQ $2, R8
	JZ store32
	VDIVPS Y15, Y0, Y0
	VDIVPS Y15, Y1, Y1
	VDIVPS Y15, Y2, Y2
	VDIVPS Y15, Y3, Y3

store32:
	VMOVUPS Y0, (DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	ADDQ $128, DI
	ADDQ $128, SI
	SUBQ $32, R11
	JMP group32

group8:
	CMPQ R11, $8
	JLT group1
	MOVQ SI, R10
	MOVQ CX, R12
	TESTQ $1, R8
	JNZ zero8
	VMOVUPS (R10), Y0
	ADDQ R13, R10
	DECQ R12
	JMP rows8

zero8:
	VXORPS Y0, Y0, Y0

rows8:
	TESTQ R12, R12
	JLE end8
	VADDPS (R10), Y0, Y0
	ADDQ R13, R10
	DECQ R12
	JMP rows8

end8:
	TESTQ $2, R8
	JZ store8
	VDIVPS Y15, Y0, Y0

store8:
	VMOVUPS Y0, (DI)
	ADDQ $32, DI
	ADDQ $32, SI
	SUBQ $8, R11
	JMP group8

group1:
	CMPQ R11, $0
	JLE sumDone
	MOVQ SI, R10
	MOVQ CX, R12
	TESTQ $1, R8
	JNZ zero1
	VMOVSS (R10), X0
	ADDQ R13, R10
	DECQ R12
	JMP rows1

zero1:
	VXORPS X0, X0, X0

rows1:
	TESTQ R12, R12
	JLE end1
	VADDSS (R10), X0, X0
	ADDQ R13, R10
	DECQ R12
	JMP rows1

end1:
	TESTQ $2, R8
	JZ store1
	VDIVSS X15, X0, X0

store1:
	VMOVSS X0, (DI)
	ADDQ $4, DI
	ADDQ $4, SI
	DECQ R11
	JMP group1

sumDone:
	VZEROUPPER
	RET
