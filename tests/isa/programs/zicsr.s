# Zicsr: the six CSR instructions (old value returned, then write / set / clear), the fcsr /
# frm / fflags views of one register, read-only counters and machine information registers.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    li t0, 0x0f0f
    csrrw t1, mscratch, t0     # old 0
    sw t1, 0(s0)
    li t0, 0xf000
    csrrs t1, mscratch, t0     # returns 0x0f0f, sets bits
    sw t1, 4(s0)
    li t0, 0x00ff
    csrrc t1, mscratch, t0     # returns 0xff0f, clears bits
    sw t1, 8(s0)
    csrrwi t1, mscratch, 21    # returns 0xff00
    sw t1, 12(s0)
    csrrsi t1, mscratch, 10    # returns 21 (0b10101), sets 0b01010
    sw t1, 16(s0)
    csrrci t1, mscratch, 3     # returns 31, clears 0b00011
    sw t1, 20(s0)
    csrr t1, mscratch          # 28
    sw t1, 24(s0)
    csrrs t1, mscratch, zero   # rs1 = x0: read only
    sw t1, 28(s0)
    # fcsr = frm << 5 | fflags
    li t0, 0xff
    csrw fcsr, t0              # bits above 7 are not kept
    csrr t1, frm
    sw t1, 32(s0)              # 7
    csrr t1, fflags
    sw t1, 36(s0)              # 0x1f
    csrwi frm, 2
    csrci fflags, 0x15
    csrr t1, fcsr
    sw t1, 40(s0)              # 2 << 5 | 0x0a
    fsrmi t1, 4                # swap: returns the old frm
    sw t1, 44(s0)
    fsflagsi t1, 1
    sw t1, 48(s0)              # old flags 0x0a
    frcsr t1
    sw t1, 52(s0)              # 4 << 5 | 1
    li t0, 0x3ff
    csrw fcsr, t0
    csrr t1, fcsr
    sw t1, 56(s0)              # 0xff
    csrwi fcsr, 0
    # counters advance; machine information
    rdcycle t2
    rdinstret t3
    nop
    rdinstret t4
    sub t4, t4, t3             # two instructions retired in between
    sw t4, 60(s0)
    rdcycle t5
    sltu t5, t2, t5            # cycle went up
    sw t5, 64(s0)
    csrr t1, mhartid
    sw t1, 68(s0)
    csrr t1, misa
    sw t1, 72(s0)
    csrr t1, mstatus
    srli t1, t1, 13
    andi t1, t1, 3             # FS is on at reset in this model (fs_reset = 3, Dirty)
    sw t1, 76(s0)
    csrr t1, cycleh
    sw t1, 80(s0)
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 96
