//go:build amd64 && !purego

#include "textflag.h"

// LOAD_FOUR loads into R8-R11 the four indices at byte i of idx from k.
#define LOAD_FOUR(i) \
	MOVQ i+0(SI)(AX*8), R8 \
	MOVQ i+8(SI)(AX*8), R9 \
	MOVQ i+16(SI)(AX*8), R10 \
	MOVQ i+24(SI)(AX*8), R11

// ADD_FOUR adds the four updates at byte u of upd from k to the elements
// of dst's row at R8-R11, one after the other.
#define ADD_FOUR(u) \
	MOVSS (DI)(R8*4), X0 \
	ADDSS u+0(BX)(AX*4), X0 \
	MOVSS X0, (DI)(R8*4) \
	MOVSS (DI)(R9*4), X1 \
	ADDSS u+4(BX)(AX*4), X1 \
	MOVSS X1, (DI)(R9*4) \
	MOVSS (DI)(R10*4), X2 \
	ADDSS u+8(BX)(AX*4), X2 \
	MOVSS X2, (DI)(R10*4) \
	MOVSS (DI)(R11*4), X3 \
	ADDSS u+12(BX)(AX*4), X3 \
	MOVSS X3, (DI)(R11*4)

// ADD_ONE adds the update at u to dst's element at R8.
#define ADD_ONE(u) \
	MOVSS (DI)(R8*4), X0 \
	ADDSS u, X0 \
	MOVSS X0, (DI)(R8*4)

// func addFloats(dst *float32, size uint64, idx *int64, upd *float32, n, last int, avx2 bool) int
//
// For k from 0 while k < n, in order: dst[r*size + idx[k]] += upd[k],
// r = k/last (the updates come in rows of last, each into its row of
// dst), while idx[k] < size (unsigned, so that a negative index is out
// too); returns the k it stopped at. With avx2, eight a round while eight
// are left in the row and all eight are in, their check two AVX2
// compares; then (or without avx2) four a round while four are left in
// the row and all four are in, then one at a time to the end of the row.
// Each sum is dst's element plus the update, in that order, as Go
// computes it (x86 keeps the first operand's NaN).
//
// DI the row of dst, DX size, SI idx, BX upd, CX n, AX k, R13 where the
// next row starts, R12 the last k that starts a round of four in this
// row (and, four less, of eight), R8-R11 four indices; Y8 size-1 in each quadword, Y9
// their sign bits.
TEXT ·addFloats(SB), NOSPLIT, $0-64
	MOVQ dst+0(FP), DI
	MOVQ size+8(FP), DX
	MOVQ idx+16(FP), SI
	MOVQ upd+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ last+40(FP), R13
	XORQ AX, AX
	CMPB avx2+48(FP), $0
	JEQ row
	LEAQ -1(DX), R8
	MOVQ R8, X8
	VPBROADCASTQ X8, Y8
	MOVQ $0x8000000000000000, R8
	MOVQ R8, X9
	VPBROADCASTQ X9, Y9
	JMP row
next:
	CMPQ AX, CX
	JGE done
	LEAQ (DI)(DX*4), DI
	ADDQ last+40(FP), R13
row:
	MOVQ R13, R12
	CMPQ CX, R12
	CMOVQLT CX, R12
	SUBQ $4, R12
	CMPB avx2+48(FP), $0
	JEQ four
eight:
	LEAQ 4(AX), R8
	CMPQ R8, R12
	JGT four
	VMOVDQU 0(SI)(AX*8), Y0
	VMOVDQU 32(SI)(AX*8), Y1
	VPCMPGTQ Y8, Y0, Y2
	VPCMPGTQ Y8, Y1, Y3
	VPOR Y0, Y2, Y2
	VPOR Y1, Y3, Y3
	VPOR Y2, Y3, Y3
	VPTEST Y9, Y3
	JNE four
	LOAD_FOUR(0)
	ADD_FOUR(0)
	LOAD_FOUR(32)
	ADD_FOUR(16)
	ADDQ $8, AX
	JMP eight
four:
	CMPQ AX, R12
	JGT one
	LOAD_FOUR(0)
	CMPQ R8, DX
	JCC one
	CMPQ R9, DX
	JCC one
	CMPQ R10, DX
	JCC one
	CMPQ R11, DX
	JCC one
	ADD_FOUR(0)
	ADDQ $4, AX
	JMP four
one:
	CMPQ AX, CX
	JGE done
	CMPQ AX, R13
	JGE next
	MOVQ 0(SI)(AX*8), R8
	CMPQ R8, DX
	JCC done
	ADD_ONE(0(BX)(AX*4))
	INCQ AX
	JMP one
done:
	MOVQ AX, ret+56(FP)
	CMPB avx2+48(FP), $0
	JEQ out
	VZEROUPPER
out:
	RET

// func addFloatsAt(dst *float32, size int, pos *int64, upd *float32, n, last int)
//
// For k from 0 to n-1, in order: dst[r*size + pos[k]] += upd[k], r being
// k/last (n is a multiple of last: rows of last positions, each into its
// row of size elements of dst), eight a round while eight are left in
// the row, then one at a time, with no check: the positions are the
// caller's own copy, which it has checked (see scratch.placed). Each sum
// is dst's element plus the update, in that order, as addFloats computes
// it.
//
// DI the row of dst, R12 size in bytes, SI pos, BX upd, CX n, R14 last,
// AX k, R13 where the row ends, DX the last k of the row that starts a
// round of eight, R8-R11 four positions.
TEXT ·addFloatsAt(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ size+8(FP), R12
	SHLQ $2, R12
	MOVQ pos+16(FP), SI
	MOVQ upd+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ last+40(FP), R14
	XORQ AX, AX
	MOVQ R14, R13
	JMP rowtest
nextrow:
	ADDQ R12, DI
	ADDQ R14, R13
rowtest:
	CMPQ AX, CX
	JGE rowsdone
	LEAQ -8(R13), DX
	JMP eighttest
eightat:
	LOAD_FOUR(0)
	ADD_FOUR(0)
	LOAD_FOUR(32)
	ADD_FOUR(16)
	ADDQ $8, AX
eighttest:
	CMPQ AX, DX
	JLE eightat
	JMP onetest
oneat:
	MOVQ 0(SI)(AX*8), R8
	ADD_ONE(0(BX)(AX*4))
	INCQ AX
onetest:
	CMPQ AX, R13
	JLT oneat
	JMP nextrow
rowsdone:
	RET

// func addEntries(dst *float32, es *entry[float32], n int)
//
// For each of the n entries at es, in order: dst[e.off] += e.v, as
// addFloats adds (dst's element first). The element of the entry sixteen
// on is prefetched: the halves' dst is a few MiB, each element a miss of
// the core's cache, and the loop is short enough that the processor alone
// keeps only a few misses under way. The offsets were checked when the
// entries were made (sortHalves).
//
// DI dst, SI es, CX n, AX k, R12 the last k that prefetches, R8 the
// entry's offset, R9 the offset sixteen on.
TEXT ·addEntries(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ es+8(FP), SI
	MOVQ n+16(FP), CX
	XORQ AX, AX
	LEAQ -16(CX), R12

entry:
	CMPQ AX, CX
	JGE entriesDone
	CMPQ AX, R12
	JGE entryAdd
	MOVLQSX 128(SI)(AX*8), R9
	PREFETCHT0 (DI)(R9*4)

entryAdd:
	MOVLQSX 0(SI)(AX*8), R8
	ADD_ONE(4(SI)(AX*8))
	INCQ AX
	JMP entry

entriesDone:
	RET

// func sortEntries(b0, b1 *entry[float32], ind *int64, upd *float32, n, split int, wide bool) (n0, n1 int, most uint64)
//
// sortHalves for float32 (see scatter_halves.go): for each of the n
// updates, in order, the entry {v - split*hi, u} (hi: v >= split, signed)
// written to both buckets, as one quadword (the offset's low 32 bits and
// u's), and only its own bucket's count moved on; most is the largest
// index taken as unsigned. The buckets hold n+1 entries each.
//
// With wide, eight updates a round with AVX-512 while eight are left:
// their entries made side by side, and each bucket's compressed to the
// front of a register (VPCOMPRESSQ keeps their order) and stored whole
// at the bucket's count, which then moves on by as many as it took. A
// bucket has taken no more than the k updates before the round, so the
// store ends within the first k+8 <= n entries. The rest one at a time.
//
// DI b0, R15 b1, SI ind, BX upd, CX n, DX split, AX k, R11 n0, R12 n1,
// R13 most, R8 the index and then the offset, R9 the entry, R10 hi,
// R14 split or 0 (in the rounds, the last k with eight left). Rounds: Z8
// split and Z10 the low 32 bits set, in every lane; Z9 most in each lane;
// Z0 the indices and then the entries, Z1 the updates, K1 hi, K2 not hi,
// Z2 and Z3 the entries of b0 and b1.
TEXT ·sortEntries(SB), NOSPLIT, $0-80
	MOVQ b0+0(FP), DI
	MOVQ b1+8(FP), R15
	MOVQ ind+16(FP), SI
	MOVQ upd+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ split+40(FP), DX
	XORQ AX, AX
	XORQ R11, R11
	XORQ R12, R12
	XORQ R13, R13
	CMPB wide+48(FP), $0
	JEQ sortTest
	VPBROADCASTQ DX, Z8
	VPXORQ Z9, Z9, Z9
	MOVL $0xffffffff, R8
	VPBROADCASTQ R8, Z10
	LEAQ -8(CX), R14

sort8:
	CMPQ AX, R14
	JGT sort8Done
	VMOVDQU64 (SI)(AX*8), Z0
	VPMAXUQ Z0, Z9, Z9
	VPCMPQ $5, Z8, Z0, K1 // K1: v >= split
	VPSUBQ Z8, Z0, K1, Z0
	VPANDQ Z10, Z0, Z0
	VPMOVZXDQ (BX)(AX*4), Z1
	VPSLLQ $32, Z1, Z1
	VPORQ Z1, Z0, Z0
	KNOTW K1, K2
	VPCOMPRESSQ Z0, K2, Z2
	VPCOMPRESSQ Z0, K1, Z3
	VMOVDQU64 Z2, (DI)(R11*8)
	VMOVDQU64 Z3, (R15)(R12*8)
	KMOVW K1, R10
	POPCNTL R10, R10
	ADDQ R10, R12
	ADDQ $8, R11
	SUBQ R10, R11
	ADDQ $8, AX
	JMP sort8

sort8Done:
	VALIGNQ $4, Z9, Z9, Z1
	VPMAXUQ Z1, Z9, Z9
	VALIGNQ $2, Z9, Z9, Z1
	VPMAXUQ Z1, Z9, Z9
	VALIGNQ $1, Z9, Z9, Z1
	VPMAXUQ Z1, Z9, Z9
	VMOVQ X9, R13
	VZEROUPPER
	JMP sortTest

sortEntry:
	MOVQ (SI)(AX*8), R8
	CMPQ R8, R13
	CMOVQHI R8, R13
	XORL R10, R10
	XORL R14, R14
	CMPQ R8, DX
	SETGE R10
	CMOVQGE DX, R14
	SUBQ R14, R8
	MOVL (BX)(AX*4), R9
	SHLQ $32, R9
	MOVL R8, R8
	ORQ R8, R9
	MOVQ R9, (DI)(R11*8)
	MOVQ R9, (R15)(R12*8)
	ADDQ R10, R12
	XORQ $1, R10
	ADDQ R10, R11
	INCQ AX

sortTest:
	CMPQ AX, CX
	JLT sortEntry
	MOVQ R11, n0+56(FP)
	MOVQ R12, n1+64(FP)
	MOVQ R13, most+72(FP)
	RET
