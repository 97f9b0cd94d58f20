# Double buffering on the PULP cluster: the DMA brings tile t+1 from L2 while the 8 cores sum
# tile t in TCDM.  Run:  isasim run examples/cluster/dma_double_buffer.s
#
# 256 words (0..255) live in L2 and are summed in 4 tiles of 64 words.  Core 0 drives the DMA
# (mchan-style command: word, TCDM address, L2 address; completion event on line 8) and every
# core sums its 8 words of the current tile.  Hardware barrier 0 (event line 16) separates the
# tiles: after it, the tile just computed may be overwritten and the next one has arrived.
#
#   core 0:  DMA tile 0 -> A, wait                 |  others: -
#   barrier
#   loop:    core 0 starts DMA tile t+1 -> B        |
#            all cores sum their part of A         |  (the DMA runs meanwhile)
#            core 0 waits for the DMA event         |
#            barrier; swap A and B
#
# Core 0 waits for the DMA with only event line 8 in its event mask and for the barrier with
# only line 16, so neither wait consumes the other's event.  At the end the cores meet once
# more, core 0 adds the 8 partial sums, prints the verdict through the simulator's putchar
# device and exits with 0 when the sum is 255 * 256 / 2 = 32640.

    .equ EU, 0x10204000          # event unit, per-core view
    .equ DMA, 0x10204400         # cluster DMA, per-core view
    .equ SIMDEV, 0x1A110000      # simulator device: +0 putchar
    .equ TILE, 256               # bytes per tile
    .equ NTILES, 4
    .equ CMD, (1 << 17) | (1 << 18) | (1 << 20) | TILE   # L2 -> TCDM, incremental, event
    .equ EXPECTED, 32640

    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 0x1f            # core id
    li s1, EU
    li t0, 0xff
    sw t0, 0x200(s1)             # barrier 0: the 8 cores trigger it ...
    sw t0, 0x20c(s1)             # ... and are woken by it
    li t0, 1 << 16
    sw t0, 0x0(s1)               # event mask: the barrier only
    li s2, DMA
    la s3, input                 # L2 address of the next tile to fetch
    la s4, buf_a                 # tile being summed
    la s5, buf_b                 # tile being filled
    li s6, 0                     # this core's partial sum
    li s7, NTILES                # tiles left to sum
    bnez s0, 1f
    mv a0, s4
    mv a1, s3
    call dma_in                  # core 0: tile 0 -> A
    call dma_wait
    addi s3, s3, TILE
1:  p.elw t0, 0x21c(s1)          # barrier: tile 0 is in A

tile:
    addi s7, s7, -1
    bnez s0, 2f
    beqz s7, 2f
    mv a0, s5
    mv a1, s3
    call dma_in                  # core 0: tile t+1 -> B, in the background
    addi s3, s3, TILE
2:  slli t1, s0, 5               # this core's 8 words: 32 bytes at 32 * core id
    add t1, t1, s4
    lp.setupi x0, 8, 3f
    lw t2, 0(t1)
    addi t1, t1, 4
3:  add s6, s6, t2
    bnez s0, 4f
    beqz s7, 4f
    call dma_wait                # core 0: tile t+1 has landed in B
4:  p.elw t0, 0x21c(s1)          # barrier: A is free, B is full
    mv t0, s4                    # swap A and B
    mv s4, s5
    mv s5, t0
    bnez s7, tile

    la t0, partial               # publish the partial sums
    slli t1, s0, 2
    add t0, t0, t1
    sw s6, 0(t0)
    p.elw t0, 0x21c(s1)
    li a0, 0
    bnez s0, exit
    la t0, partial               # core 0: reduce and report
    li t1, 8
    li s6, 0
5:  lw t2, 0(t0)
    addi t0, t0, 4
    add s6, s6, t2
    addi t1, t1, -1
    bnez t1, 5b
    li t0, EXPECTED
    la a0, msg_ok
    beq s6, t0, 6f
    la a0, msg_bad
6:  call puts
    li t0, EXPECTED
    sub a0, s6, t0
    snez a0, a0                  # exit code 0: the sum is right
exit:
    li a7, 93
    ecall

# dma_in(a0 = TCDM destination, a1 = L2 source): push one TILE-byte command
dma_in:
    li t0, CMD
    sw t0, 0(s2)
    sw a0, 0(s2)
    sw a1, 0(s2)
    ret

# dma_wait: sleep until the DMA's completion event (line 8), then listen to the barrier again
dma_wait:
    li t0, 1 << 8
    sw t0, 0x0(s1)
    p.elw t0, 0x3c(s1)           # wait for a masked event and clear it
    li t0, 1 << 16
    sw t0, 0x0(s1)
    ret

# puts(a0 = NUL-terminated string) through the simulator's putchar register
puts:
    li t1, SIMDEV
1:  lbu t0, 0(a0)
    beqz t0, 2f
    sb t0, 0(t1)
    addi a0, a0, 1
    j 1b
2:  ret

    .data
msg_ok:  .asciz "double buffering: sum of 256 words = 32640, ok\n"
msg_bad: .asciz "double buffering: wrong sum\n"
    .p2align 2
input:
    .word 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    .word 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    .word 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
    .word 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
    .word 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 77, 78, 79
    .word 80, 81, 82, 83, 84, 85, 86, 87, 88, 89, 90, 91, 92, 93, 94, 95
    .word 96, 97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111
    .word 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126, 127
    .word 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142, 143
    .word 144, 145, 146, 147, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159
    .word 160, 161, 162, 163, 164, 165, 166, 167, 168, 169, 170, 171, 172, 173, 174, 175
    .word 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191
    .word 192, 193, 194, 195, 196, 197, 198, 199, 200, 201, 202, 203, 204, 205, 206, 207
    .word 208, 209, 210, 211, 212, 213, 214, 215, 216, 217, 218, 219, 220, 221, 222, 223
    .word 224, 225, 226, 227, 228, 229, 230, 231, 232, 233, 234, 235, 236, 237, 238, 239
    .word 240, 241, 242, 243, 244, 245, 246, 247, 248, 249, 250, 251, 252, 253, 254, 255

    .section .l1, "aw"
    .p2align 6
buf_a:   .zero TILE
buf_b:   .zero TILE
partial: .zero 32
