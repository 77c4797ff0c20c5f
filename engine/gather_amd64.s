#include "textflag.h"

// Eight indices at a time with AVX-512 (see gather_amd64.go): compare
// them with size, unsigned, so that a negative one is out too; while all
// eight are in, gather their elements from the current row of src and
// store them. A row of indices is last long (a multiple of 8), and the
// rows of src are dstep bytes apart.

// func gatherRows32(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int
TEXT ·gatherRows32(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dstep+16(FP), DX
	VPBROADCASTQ size+24(FP), Z1
	MOVQ idx+32(FP), BX
	MOVQ last+40(FP), R9
	MOVQ n+48(FP), CX
	XORQ AX, AX
	MOVQ R9, R10 // where the next row starts
loop32:
	CMPQ AX, CX
	JGE done32
	CMPQ AX, R10
	JLT row32
	ADDQ DX, SI
	ADDQ R9, R10
row32:
	VMOVDQU64 (BX)(AX*8), Z0
	VPCMPUQ $1, Z1, Z0, K1 // K1: idx < size
	KORTESTB K1, K1        // CF: all eight
	JCC done32
	VPXORQ Z2, Z2, Z2      // else each gather waits for the last: it merges into Z2
	VPGATHERQD (SI)(Z0*4), K1, Y2
	VMOVDQU32 Y2, (DI)(AX*4)
	ADDQ $8, AX
	JMP loop32
done32:
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET

// func gatherRows64(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int
TEXT ·gatherRows64(SB), NOSPLIT, $0-64
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dstep+16(FP), DX
	VPBROADCASTQ size+24(FP), Z1
	MOVQ idx+32(FP), BX
	MOVQ last+40(FP), R9
	MOVQ n+48(FP), CX
	XORQ AX, AX
	MOVQ R9, R10
loop64:
	CMPQ AX, CX
	JGE done64
	CMPQ AX, R10
	JLT row64
	ADDQ DX, SI
	ADDQ R9, R10
row64:
	VMOVDQU64 (BX)(AX*8), Z0
	VPCMPUQ $1, Z1, Z0, K1
	KORTESTB K1, K1
	JCC done64
	VPXORQ Z2, Z2, Z2
	VPGATHERQQ (SI)(Z0*8), K1, Z2
	VMOVDQU64 Z2, (DI)(AX*8)
	ADDQ $8, AX
	JMP loop64
done64:
	VZEROUPPER
	MOVQ AX, ret+56(FP)
	RET
