# C[N x N] = A[N x N] . B[N x N] in fp32 on an 8-core PULP cluster: the kernel of
# docs/worked-example.md.
#
# Core 0 writes one row pattern per matrix in L2 and copies it into every row of A and B in
# the TCDM with the cluster DMA;
# every core meets in hardware barrier 0; core c then computes rows c, c+8, ... of C with a
# 1x2 register block (one A load, two B loads, two fmadd per k) and the cores meet again.
#
# Two knobs, both explained in the worked example:
# * PITCH, the row pitch (in words) of A, B and C in the TCDM.  With PITCH = N = 32 a row is
#   128 bytes, a multiple of the 16 banks x 4 bytes, so A[c][k] is in the same bank for every
#   core c; PITCH = N + 1 spreads the rows over the banks.
# * STAGGER = 1 makes core c start at column pair c (and wrap around), so the cores do not all
#   read the same words of B at the same time.
    .equ N, 32
    .equ PITCH, N
    .equ STAGGER, 0
    .equ EU, 0x10204000
    .equ DMA, 0x10204400
    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 31            # core id
    li s1, EU
    li t0, 0xff
    sw t0, 0x200(s1)           # hardware barrier 0: cores 0..7 trigger ...
    sw t0, 0x20c(s1)           # ... and are woken
    li t0, (1 << 16) | (1 << 8)
    sw t0, 0x8(s1)             # listen to barrier and DMA events
    bnez s0, 1f
    call fill_l2
    call dma_in
1:  call barrier
    call matmul_rows
    call barrier
    li a0, 0
    li a7, 93
    ecall

# one row pattern for each matrix: arow[k] = k % 5 + 1, brow[j] = j % 3 - 1 (as floats)
    .globl fill_l2
fill_l2:
    la t0, arow
    la t1, brow
    li t2, N
    li a0, 1                   # k % 5 + 1
    li a1, -1                  # j % 3 - 1
2:  fcvt.s.w ft0, a0
    fsw ft0, 0(t0)
    fcvt.s.w ft0, a1
    fsw ft0, 0(t1)
    addi a0, a0, 1
    li t3, 6
    bne a0, t3, 8f
    li a0, 1
8:  addi a1, a1, 1
    li t3, 2
    bne a1, t3, 9f
    li a1, -1
9:  addi t0, t0, 4
    addi t1, t1, 4
    addi t2, t2, -1
    bnez t2, 2b
    ret

# every row of A (of B) is a DMA copy of arow (of brow), L2 -> TCDM, one transfer at a time
    .globl dma_in
dma_in:
    li s2, DMA
    la t1, A
    la t3, B
    li t4, N
3:  la a0, arow
    mv a1, t1
    jal a2, dma_row
    la a0, brow
    mv a1, t3
    jal a2, dma_row
    addi t1, t1, PITCH*4
    addi t3, t3, PITCH*4
    addi t4, t4, -1
    bnez t4, 3b
    ret

# copy N words from a0 (L2) to a1 (TCDM) and wait for the transfer's event; returns to a2
    .globl dma_row
dma_row:
    lw a3, 0(s2)               # allocate a transfer id
    li a4, (1 << 17) | (1 << 18) | (1 << 20) | (N*4)
    sw a4, 0(s2)
    sw a1, 0(s2)
    sw a0, 0(s2)
    lw a4, 0x3c(s1)            # sleep until the DMA event, clear it
    jr a2

    .globl barrier
barrier:
    p.elw t0, 0x21c(s1)        # barrier 0: trigger, wait, clear
    ret

# rows i = core, core + 8, ... of C; columns in pairs
    .globl matmul_rows
matmul_rows:
    li s7, N
    mv s4, s0                  # i
4:  bge s4, s7, 7f
    li t5, 2 * STAGGER
    mul s5, s0, t5
    andi s5, s5, N - 1         # first column j
    li s6, N / 2               # column pairs left
5:  la t0, A
    li t1, PITCH*4
    mul t1, s4, t1
    add t0, t0, t1             # &A[i][0]
    la t2, B
    slli t3, s5, 2
    add t2, t2, t3             # &B[0][j]
    fmv.w.x ft0, zero
    fmv.w.x ft1, zero
    lp.setupi x0, N, 6f
    flw ft2, 0(t0)             # A[i][k]
    flw ft3, 0(t2)             # B[k][j]
    flw ft4, 4(t2)             # B[k][j+1]
    addi t0, t0, 4
    addi t2, t2, PITCH*4
    fmadd.s ft0, ft2, ft3, ft0
6:  fmadd.s ft1, ft2, ft4, ft1
    la t4, C
    li t1, PITCH*4
    mul t1, s4, t1
    add t4, t4, t1
    slli t3, s5, 2
    add t4, t4, t3
    fsw ft0, 0(t4)
    fsw ft1, 4(t4)
    addi s5, s5, 2
    andi s5, s5, N - 1
    addi s6, s6, -1
    bnez s6, 5b
    addi s4, s4, 8
    j 4b
7:  ret

    .data
arow: .zero N*4
brow: .zero N*4
    .section .l1, "aw"
A:  .zero N*PITCH*4
B:  .zero N*PITCH*4
C:  .zero N*PITCH*4
