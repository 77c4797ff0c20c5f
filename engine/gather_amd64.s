#include "textflag.h"

// Eight indices at a time with AVX-512 (see gather_amd64.go): compare
// them with size, unsigned, so that a negative one is out too; while all
// eight are in, gather their elements from the current row of src and
// store them. A row of indices is last long (a multiple of 8), and the
// rows of src are dstep bytes apart.
//
// Both functions: DI out, SI the current row of src, DX dstep, Z1 size in
// every lane, BX idx, R9 last, CX n, AX the count, R10 where the next row
// of indices starts; Z0 the eight indices and K1 those in range.

#define PROLOGUE \
	MOVQ out+0(FP), DI; \
	MOVQ src+8(FP), SI; \
	MOVQ dstep+16(FP), DX; \
	VPBROADCASTQ size+24(FP), Z1; \
	MOVQ idx+32(FP), BX; \
	MOVQ last+40(FP), R9; \
	MOVQ n+48(FP), CX; \
	XORQ AX, AX; \
	MOVQ R9, R10

// NEXT8 jumps to done when the count reaches n or the next eight indices
// are not all in range, and moves to the next row of src where they
// start one. It clears Z2, which the gather merges into: else each gather
// would wait for the last.
#define NEXT8 \
	CMPQ AX, CX; \
	JGE done; \
	CMPQ AX, R10; \
	JLT same; \
	ADDQ DX, SI; \
	ADDQ R9, R10; \
same: \
	VMOVDQU64 (BX)(AX*8), Z0; \
	VPCMPUQ $1, Z1, Z0, K1; \
	KORTESTB K1, K1; \
	JCC done; \
	VPXORQ Z2, Z2, Z2

#define EPILOGUE \
done: \
	VZEROUPPER; \
	MOVQ AX, ret+56(FP); \
	RET

// func gatherRows32(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int
TEXT ·gatherRows32(SB), NOSPLIT, $0-64
	PROLOGUE
loop:
	NEXT8
	VPGATHERQD (SI)(Z0*4), K1, Y2
	VMOVDQU32 Y2, (DI)(AX*4)
	ADDQ $8, AX
	JMP loop
	EPILOGUE

// func gatherRows64(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int) int
TEXT ·gatherRows64(SB), NOSPLIT, $0-64
	PROLOGUE
loop:
	NEXT8
	VPGATHERQQ (SI)(Z0*8), K1, Z2
	VMOVDQU64 Z2, (DI)(AX*8)
	ADDQ $8, AX
	JMP loop
	EPILOGUE
