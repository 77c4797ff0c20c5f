#include "textflag.h"

// Eight indices at a time with AVX-512 (see gather_amd64.go): compare
// them with size, unsigned, so that a negative one is out too; while all
// eight are in, gather their elements and store them.

// func gatherIn32(out, row unsafe.Pointer, size uint64, idx *int64, n int) int
TEXT ·gatherIn32(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ idx+24(FP), BX
	MOVQ n+32(FP), CX
	VPBROADCASTQ size+16(FP), Z1
	XORQ AX, AX
loop32:
	LEAQ 8(AX), R8
	CMPQ R8, CX
	JGT done32
	VMOVDQU64 (BX)(AX*8), Z0
	VPCMPUQ $1, Z1, Z0, K1 // K1: idx < size
	KORTESTB K1, K1        // CF: all eight
	JCC done32
	VPGATHERQD (SI)(Z0*4), K1, Y2
	VMOVDQU32 Y2, (DI)(AX*4)
	MOVQ R8, AX
	JMP loop32
done32:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET

// func gatherIn64(out, row unsafe.Pointer, size uint64, idx *int64, n int) int
TEXT ·gatherIn64(SB), NOSPLIT, $0-48
	MOVQ out+0(FP), DI
	MOVQ row+8(FP), SI
	MOVQ idx+24(FP), BX
	MOVQ n+32(FP), CX
	VPBROADCASTQ size+16(FP), Z1
	XORQ AX, AX
loop64:
	LEAQ 8(AX), R8
	CMPQ R8, CX
	JGT done64
	VMOVDQU64 (BX)(AX*8), Z0
	VPCMPUQ $1, Z1, Z0, K1
	KORTESTB K1, K1
	JCC done64
	VPGATHERQQ (SI)(Z0*8), K1, Z2
	VMOVDQU64 Z2, (DI)(AX*8)
	MOVQ R8, AX
	JMP loop64
done64:
	VZEROUPPER
	MOVQ AX, ret+40(FP)
	RET
