//go:build amd64 && !purego

#include "textflag.h"

// GATHER_STORE gathers by GATHER into R the eight elements of scale
// bytes that the indices in Z0 select in the current row of src (K1 those
// in range), stores them at out's element AX by PLAIN, or around the
// cache (VMOVNTDQ, at label nt) where R12 (stream) is set, and goes on
// with the next eight.
#define GATHER_STORE(GATHER, R, scale, PLAIN, nt) \
	GATHER (SI)(Z0*scale), K1, R; \
	TESTQ R12, R12; \
	JNZ nt; \
	PLAIN R, (DI)(AX*scale); \
	ADDQ $8, AX; \
	JMP loop; \
	nt:; \
	VMOVNTDQ R, (DI)(AX*scale); \
	ADDQ $8, AX; \
	JMP loop

// func gatherRows(out, src unsafe.Pointer, dstep uintptr, size uint64, idx *int64, last, n int, wide, stream bool) int
//
// Eight indices at a time with AVX-512 (see gather_amd64.go): compare
// them with size, unsigned, so that a negative one is out too; while all
// eight are in, gather their elements from the current row of src, 4
// bytes each (8 if wide), and store them, with non-temporal stores if
// stream (out is then aligned to the 32 or 64 bytes they store). A row of
// indices is last long (a multiple of 8), and the rows of src are dstep
// bytes apart.
//
// DI out, SI the current row of src, DX dstep, Z1 size in every lane, BX
// idx, R9 last, CX n, R11 wide, R12 stream, AX the count, R10 where the
// next row of indices starts; Z0 the eight indices and K1 those in range.
// Z2, which the gathers merge into, is cleared first: else each would
// wait for the last.
TEXT ·gatherRows(SB), NOSPLIT, $0-72
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ dstep+16(FP), DX
	VPBROADCASTQ size+24(FP), Z1
	MOVQ idx+32(FP), BX
	MOVQ last+40(FP), R9
	MOVQ n+48(FP), CX
	MOVBQZX wide+56(FP), R11
	MOVBQZX stream+57(FP), R12
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
	GATHER_STORE(VPGATHERQD, Y2, 4, VMOVDQU32, stream4)
wide:
	GATHER_STORE(VPGATHERQQ, Z2, 8, VMOVDQU64, stream8)
done:
	VZEROUPPER
	MOVQ AX, ret+64(FP)
	RET

// MOVE_PAIRS is movePairsAhead's loop for elements of scale bytes, moved
// by MOV, with its labels next, take and put.
#define MOVE_PAIRS(MOV, scale, next, take, put) \
	next:; \
	CMPQ R10, CX; \
	JGE done; \
	CMPQ R10, R13; \
	JGE take; \
	MOVQ 8(R10)(R12*1), R9; \
	PREFETCHT1 (SI)(R9*scale); \
	take:; \
	MOVQ 8(R10), R8; \
	MOVQ 0(R10), R9; \
	XORL AX, AX; \
	TESTQ R8, R8; \
	JS put; \
	MOV (SI)(R8*scale), AX; \
	put:; \
	MOV AX, (DI)(R9*scale); \
	ADDQ $16, R10; \
	JMP next

// func movePairsAhead(dst, src unsafe.Pointer, ps *pair, n, ahead int, wide bool)
//
// For each of the n pairs at ps, in order: dst's element at pair.d set to
// src's at pair.s, or to zero where pair.s is negative; elements of 4
// bytes (8 if wide). src's element of the pair ahead pairs on is
// prefetched into the L2 (PREFETCHT1, as prefetchL2), while there is one:
// src is a table past the cache, read at random, whose misses would
// otherwise be waited on a few at a time. A negative pair.s asks for an
// address before src, which a prefetch ignores.
//
// DI dst, SI src, R10 the pair, R13 the last pair that prefetches, CX the
// end of the pairs, R12 ahead in bytes of pairs; R8 and R9 the pair's s
// and d, AX the element.
TEXT ·movePairsAhead(SB), NOSPLIT, $0-41
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ps+16(FP), R10
	MOVQ n+24(FP), CX
	MOVQ ahead+32(FP), R12
	SHLQ $4, CX
	ADDQ R10, CX
	SHLQ $4, R12
	MOVQ CX, R13
	SUBQ R12, R13
	CMPB wide+40(FP), $0
	JNE wide
	MOVE_PAIRS(MOVL, 4, next4, take4, put4)

wide:
	MOVE_PAIRS(MOVQ, 8, next8, take8, put8)

done:
	RET

// PAIR_OFFSET sets R8 to the offset in src of the tuple at tup: its two
// index values wrapped by their limits' fromEnd (8(R12) and 24(R12)), as
// v + (v>>63 & fromEnd), times their strides (0(R11) and 8(R11)), summed;
// with check, first jumping to bad unless both lie below their limits'
// sizes (0(R12) and 16(R12); unsigned, so that a negative value is out
// too). R9 and R13 are clobbered.
#define PAIR_OFFSET(tup, check, bad) \
	MOVQ 0(tup), R8; \
	MOVQ R8, R9; \
	SARQ $63, R9; \
	ANDQ 8(R12), R9; \
	ADDQ R9, R8; \
	MOVQ 8(tup), R9; \
	MOVQ R9, R13; \
	SARQ $63, R13; \
	ANDQ 24(R12), R13; \
	ADDQ R13, R9; \
	check(R8, R9, bad); \
	IMULQ 0(R11), R8; \
	IMULQ 8(R11), R9; \
	ADDQ R9, R8

// CHECKED jumps to bad unless a and b lie below the limits' sizes.
#define CHECKED(a, b, bad) \
	CMPQ a, 0(R12); \
	JCC bad; \
	CMPQ b, 16(R12); \
	JCC bad

// UNCHECKED checks nothing: the offset of a tuple ahead, only prefetched.
#define UNCHECKED(a, b, bad)

// PAIR_LOOP is gatherPairElems' loop for elements of scale bytes, moved
// by MOV through R9, with its labels loop and load.
#define PAIR_LOOP(MOV, scale, loop, load) \
	loop:; \
	CMPQ AX, CX; \
	JGE pairsDone; \
	CMPQ AX, DX; \
	JGE load; \
	LEAQ (R10)(BX*1), R15; \
	PAIR_OFFSET(R15, UNCHECKED, pairsDone); \
	PREFETCHT1 (SI)(R8*scale); \
	load:; \
	PAIR_OFFSET(R10, CHECKED, pairsDone); \
	MOV (SI)(R8*scale), R9; \
	MOV R9, (DI)(AX*scale); \
	ADDQ $16, R10; \
	INCQ AX; \
	JMP loop

// func gatherPairElems(out, src unsafe.Pointer, ind *int64, n int, lims *limit, strides *int, ahead int, wide bool) int
//
// For t from 0 while t < n: out[t] set to src's element at the offset of
// the tuple of two index values at ind + 16t, each wrapped and checked
// against its limit (lims[0], lims[1]) and times its stride; elements of
// 4 bytes (8 if wide). It returns the first t whose tuple lies outside
// the limits, or n. The element of the tuple ahead tuples on is
// prefetched into the L2 (PREFETCHT1, as prefetchL2), its offset computed
// but not checked (a prefetch of a wild address faults nowhere): src is a
// table past the cache, read at random.
//
// DI out, SI src, R10 the tuple, CX n, AX t, DX n-ahead (the last t that
// prefetches), BX ahead tuples in bytes, R15 the tuple ahead, R11 the
// strides, R12 the limits, R8 the offset, R9 and R13 scratch.
TEXT ·gatherPairElems(SB), NOSPLIT, $0-72
	MOVQ out+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ ind+16(FP), R10
	MOVQ n+24(FP), CX
	MOVQ lims+32(FP), R12
	MOVQ strides+40(FP), R11
	MOVQ ahead+48(FP), BX
	MOVQ CX, DX
	SUBQ BX, DX
	SHLQ $4, BX
	XORQ AX, AX
	CMPB wide+56(FP), $0
	JNE pairsWide
	PAIR_LOOP(MOVL, 4, pairs4, load4)

pairsWide:
	PAIR_LOOP(MOVQ, 8, pairs8, load8)

pairsDone:
	MOVQ AX, ret+64(FP)
	RET
