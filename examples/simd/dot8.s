# An 8-bit dot product with packed SIMD on the 8-core cluster, the inner loop of PULP-NN style
# int8 kernels.  Run:  isasim run examples/simd/dot8.s --cores 8
#
# sum_i a[i] * b[i] over N = 2048 signed bytes.  A hardware loop loads four bytes of each vector
# per p.lw (post-increment) and multiplies and accumulates them with pv.sdotsp.b (rD += the sum
# of the four signed byte products, one cycle).  Core c takes the words c, c + 8, c + 16, ... of
# both vectors: the TCDM interleaves words over 16 banks, so the eight cores, running in step,
# read eight different banks in every cycle (contiguous quarters of 256 bytes would start in
# the same bank and collide on every load).  The loop is unrolled twice so that no dot product
# waits for the load just before it.  Each core stores its partial sum, the cores meet at
# barrier 0, core 0 adds the eight partials and stores the sum in `result` (and leaves it in
# its s2).
#
# Inputs: a[i] = (37 i + 11) mod 256 and b[i] = (73 i + 5) mod 256 as signed bytes (the
# assembler fills them); tests/isa/test_dot8_example.py checks the sum against numpy, for these
# and for random inputs written before the run.

    .equ EU, 0x10204000          # event unit, per-core view (barrier 0 at +0x200)
    .equ N, 2048                 # bytes per vector
    .equ CHUNK, N / 8            # bytes per core

    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 0x1f            # core id
    li s1, EU
    li t0, 0xff
    sw t0, 0x200(s1)             # barrier 0: all 8 cores trigger it ...
    sw t0, 0x20c(s1)             # ... and all 8 wake up
    li t0, 1 << 16
    sw t0, 0x8(s1)               # listen to the barrier event

    slli t0, s0, 2               # word c
    la a1, vec_a
    add a1, a1, t0
    la a2, vec_b
    add a2, a2, t0
    li a0, 0
    lp.setupi x0, CHUNK / 8, 1f  # 2 words of each vector per iteration
    p.lw t1, 32(a1!)             # every eighth word
    p.lw t2, 32(a2!)
    p.lw t3, 32(a1!)
    p.lw t4, 32(a2!)
    pv.sdotsp.b a0, t1, t2
1:  pv.sdotsp.b a0, t3, t4

    la t0, partial
    slli t1, s0, 2
    add t0, t0, t1
    sw a0, 0(t0)
    p.elw t0, 0x21c(s1)          # barrier 0: wait for every partial sum
    bnez s0, done

    la t0, partial               # core 0: the sum of the partials
    li a0, 0
    lp.setupi x0, 8, 2f
    p.lw t1, 4(t0!)
2:  add a0, a0, t1
    la t0, result
    sw a0, 0(t0)
    mv s2, a0
done:
    li a0, 0
    li a7, 93
    ecall

    .section .l1, "aw"
    .p2align 2
vec_a:
    .set i, 0
    .rept N
    .byte (37 * i + 11) & 0xff
    .set i, i + 1
    .endr
vec_b:
    .set i, 0
    .rept N
    .byte (73 * i + 5) & 0xff
    .set i, i + 1
    .endr
partial: .zero 8 * 4
result:  .zero 4
