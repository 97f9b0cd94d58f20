"""isasim toolchain: one instruction table (data) for RV32IMFC + Xpulp, and the assembler,
disassembler and ELF reader/writer derived from it."""

from toolchain.table import DEFAULT_FAMILY, FAMILIES, Decoded, Entry, Isa, load_isa

__all__ = ["DEFAULT_FAMILY", "FAMILIES", "Decoded", "Entry", "Isa", "load_isa"]
