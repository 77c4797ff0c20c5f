//go:build amd64 && !purego

#include "textflag.h"

// The few instructions Go has no other way to ask for: see stream.go.
// SSE2 and SSE, which every amd64 processor has.

// func prefetchBytes(p unsafe.Pointer, n uintptr)
TEXT ·prefetchBytes(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
prefetch:
	CMPQ CX, $0
	JLE done
	PREFETCHT0 (SI)
	ADDQ $64, SI
	SUBQ $64, CX
	JMP prefetch
done:
	RET

// func copyStreaming(dst, src unsafe.Pointer, n uintptr)
TEXT ·copyStreaming(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
copy:
	CMPQ CX, $0
	JLE done
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $64, SI
	ADDQ $64, DI
	SUBQ $64, CX
	JMP copy
done:
	RET

// func storeFence()
TEXT ·storeFence(SB), NOSPLIT, $0-0
	SFENCE
	RET
