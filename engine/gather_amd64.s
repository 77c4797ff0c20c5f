//go:build amd64 && !purego

#include "textflag.h"

// func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide bool) int
//
// Eight indices at a time with AVX-512 (see gather_amd64.go): compare
// them with size, unsigned, so that a negative one is out too; while all
// eight are in, gather their elements from the current row of src, 4
// bytes each (8 if wide), and store them. A row of indices is last long
// (a multiple of 8), and the rows of src are dstep bytes apart.
//
// DI out, SI the current row of src, DX dstep, Z1 size in every lane, BX
// idx, R9 last, CX n, R11 wide, AX the count, R10 where the next row of
// indices starts; Z0 the eight indices and K1 those in range. Z2, which
// the gathers merge into, is cleared first: else each would wait for the
// last.
TEXT ·gatherRows(SB), NOSPLIT, $0-72
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dstep+16(FP), DX
	VPBROADCASTQ size+24(FP), Z1
	MOVQ idx+32(FP), BX
	MOVQ last+40(FP), R9
	MOVQ n+48(FP), CX
	MOVBQZX wide+56(FP), R11
	XORQ AX, AX
	MOVQ R9, R10
loop:
	CMPQ AX, CX
	JGE done
	CMPQ AX, R10
	JLT same
	ADDQ DX, SI
	ADDQ R9, R10
same:
	VMOVDQU64 (BX)(AX*8), Z0
	VPCMPUQ $1, Z1, Z0, K1 // K1: idx < size
	KORTESTB K1, K1        // CF: all eight
	JCC done
	VPXORQ Z2, Z2, Z2
	TESTQ R11, R11
	JNZ wide
	VPGATHERQD (SI)(Z0*4), K1, Y2
	VMOVDQU32 Y2, (DI)(AX*4)
	ADDQ $8, AX
	JMP loop
wide:
	VPGATHERQQ (SI)(Z0*8), K1, Z2
	VMOVDQU64 Z2, (DI)(AX*8)
	ADDQ $8, AX
	JMP loop
done:
	VZEROUPPER
	MOVQ AX, ret+64(FP)
	RET
