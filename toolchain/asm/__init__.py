"""GNU-as-compatible assembler for RV32IMFC + Xpulp producing a linked :class:`Program`.

Modules, one job each: ``lexer`` (lines to statements), ``macros`` (.macro/.rept/.irp expansion),
``expr`` (expressions), ``directives``, ``pseudo`` (li/la/call/tail), ``encode`` (instructions
and compression), ``sections`` (flags and placement), ``items``, ``symbols``, ``layout``
(relaxation loop), ``driver`` (``assemble``).
"""

from toolchain.asm.driver import assemble
from toolchain.asm.errors import AsmError, Diagnostic

__all__ = ["AsmError", "Diagnostic", "assemble"]
