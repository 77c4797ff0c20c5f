//go:build amd64 && !purego

#include "textflag.h"

// The few instructions Go has no other way to ask for: see stream.go.
// SSE2 and SSE, which every amd64 processor has.

// PREFETCH_LINES asks by PREFETCH for the CX bytes at SI, a line of 64
// at a time.
#define PREFETCH_LINES(PREFETCH, loop, done) \
	loop:; \
	CMPQ CX, $0; \
	JLE done; \
	PREFETCH (SI); \
	ADDQ $64, SI; \
	SUBQ $64, CX; \
	JMP loop

// func prefetchLines(p unsafe.Pointer, n uintptr, l2 bool)
TEXT ·prefetchLines(SB), NOSPLIT, $0-17
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	CMPB l2+16(FP), $0
	JNE l2
	PREFETCH_LINES(PREFETCHT0, l1, done)

l2:
	PREFETCH_LINES(PREFETCHT1, l2Line, done)

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
