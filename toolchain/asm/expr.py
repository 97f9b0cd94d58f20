"""Assembler expressions: parse once into a small tree, evaluate against the current layout.

Syntax as GNU as accepts it: decimal, ``0x``, ``0b`` and octal-free integers, character literals
(``'a'``, ``'\\n'``), symbols, ``.`` (the current location), numeric local label references
(``1b``/``1f``), unary ``- ~ + !``, binary operators with the precedence GNU as 2.40 applies
(``* / % << >>`` bind tightest, then ``| & ^ !`` (``!`` is or-not), then ``+ -``, then the
comparisons ``== != <> < > <= >=``, then ``&&``, then ``||``; its manual puts the comparisons
with ``+ -``, its code and output do not) and the relocation operators ``%hi``, ``%lo``,
``%pcrel_hi``, ``%pcrel_lo``.  A comparison is -1 when true and 0 when false, signed, as in GNU
as; ``&&``, ``||`` and unary ``!`` give 1 or 0.  Since our programs are fully linked the
relocation operators are computed here rather than left to a linker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

RELOCS = ("hi", "lo", "pcrel_hi", "pcrel_lo")
_TOKEN = re.compile(r"""
    (?P<space>\s+)
  | (?P<hex>0[xX][0-9a-fA-F]+)
  | (?P<bin>0[bB][01]+)
  | (?P<local>\d+[bf])(?![\w.$])
  | (?P<dec>\d+)
  | (?P<char>'(?:\\(?:[0-7]{1,3}|x[0-9a-fA-F]+|.)|[^\\])'?)
  | (?P<reloc>%[A-Za-z_]+)
  | (?P<name>[A-Za-z_.$][\w.$]*)
  | (?P<op><<|>>|==|!=|<>|<=|>=|&&|\|\||[-+*/%&|^~()<>!])
""", re.VERBOSE)
_ESCAPES = {"n": 10, "t": 9, "r": 13, "b": 8, "f": 12, "v": 11, "a": 7, "\\": 92, "'": 39,
            '"': 34, "e": 27}
_BINARY = {"*": 6, "/": 6, "%": 6, "<<": 6, ">>": 6, "|": 5, "&": 5, "^": 5, "!": 5, "+": 4,
           "-": 4, "==": 3, "!=": 3, "<>": 3, "<": 3, ">": 3, "<=": 3, ">=": 3, "&&": 2, "||": 1}
_TIGHTEST = max(_BINARY.values())
# parentheses and unary operators one inside another, and operators one under another in the
# tree: far beyond any real expression, and within Python's recursion limit for the parser
# (about 8 frames a parenthesis) and for evaluating the tree (one frame a level)
MAX_NESTING = 64
MAX_TREE_DEPTH = 256


class ExprError(ValueError):
    """A malformed or uncomputable expression; ``offset`` is 0-based in its text, if known."""

    def __init__(self, message: str, offset: int | None = None):
        super().__init__(message)
        self.message = message
        self.offset = offset


# ---- tree --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Num:
    value: int


@dataclass(frozen=True)
class Sym:
    name: str


@dataclass(frozen=True)
class LocalRef:
    """``1b`` / ``1f``: resolved per statement (which definition is 'before' depends on it)."""

    number: str
    forward: bool


@dataclass(frozen=True)
class Dot:
    pass


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Reloc:
    kind: str
    operand: Node


Node = Num | Sym | LocalRef | Dot | Unary | Binary | Reloc


class Env(Protocol):
    """What evaluation needs from the assembler at one statement."""

    pc: int

    def symbol(self, name: str) -> int: ...

    def local(self, number: str, forward: bool) -> str: ...

    def pcrel_lo(self, auipc_addr: int) -> int: ...


# ---- parsing -----------------------------------------------------------------------------------
def char_value(literal: str) -> int:
    """Value of a character literal body such as ``a``, ``\\n``, ``\\101`` or ``\\x41``."""
    if not literal.startswith("\\"):
        return ord(literal)
    body = literal[1:]
    if body[0] in "01234567":
        return int(body, 8) & 0xFF
    if body[0] == "x" and len(body) > 1:
        return int(body[1:], 16) & 0xFF
    return _ESCAPES.get(body, ord(body))


def _tokens(text: str) -> list[tuple[str, str, int]]:
    out: list[tuple[str, str, int]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            raise ExprError(f"unexpected {text[pos]!r} in expression", pos)
        kind = m.lastgroup or ""
        if kind != "space":
            out.append((kind, m.group(), pos))
        pos = m.end()
    return out


class _Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.nesting = 0

    def peek(self) -> tuple[str, str, int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str, int]:
        tok = self.peek()
        if tok is None:
            raise ExprError("expression ends too early", len(self.text))
        self.i += 1
        return tok

    def expect(self, value: str) -> None:
        tok = self.take()
        if tok[1] != value:
            raise ExprError(f"expected {value!r}, got {tok[1]!r}", tok[2])

    def binary(self, level: int) -> Node:
        if level > _TIGHTEST:
            return self.unary()
        left = self.binary(level + 1)
        while (tok := self.peek()) and tok[0] == "op" and _BINARY.get(tok[1]) == level:
            self.i += 1
            left = Binary(tok[1], left, self.binary(level + 1))
        return left

    def unary(self) -> Node:
        self.nesting += 1
        try:
            return self._operand()
        finally:
            self.nesting -= 1

    def _operand(self) -> Node:
        kind, value, pos = self.take()
        if self.nesting > MAX_NESTING:
            raise ExprError(f"expression nested too deeply (more than {MAX_NESTING} parentheses "
                            "and unary operators one inside another)", pos)
        if kind == "op" and value in ("-", "~", "+", "!"):
            return Unary(value, self.unary())
        if kind == "op" and value == "(":
            node = self.binary(1)
            self.expect(")")
            return node
        if kind == "reloc":
            name = value[1:].lower()
            if name not in RELOCS:
                raise ExprError(f"unknown operator {value!r} (known: "
                                  f"{', '.join('%' + r for r in RELOCS)})", pos)
            self.expect("(")
            node = self.binary(1)
            self.expect(")")
            return Reloc(name, node)
        if kind == "hex" or kind == "bin" or kind == "dec":
            return Num(int(value, 0) if kind != "dec" else int(value, 10))
        if kind == "local":
            return LocalRef(value[:-1], value[-1] == "f")
        if kind == "char":
            return Num(char_value(value[1:-1] if value.endswith("'") and len(value) > 2
                                  else value[1:]))
        if kind == "name":
            return Dot() if value == "." else Sym(value)
        raise ExprError(f"unexpected {value!r} in expression", pos)


def parse(text: str) -> Node:
    """The tree of ``text``; ExprError if it is malformed."""
    p = _Parser(text)
    if not p.toks:
        raise ExprError("missing expression", 0)
    node = p.binary(1)
    extra = p.peek()
    if extra is not None:
        raise ExprError(f"unexpected {extra[1]!r} after expression", extra[2])
    if _depth(node) > MAX_TREE_DEPTH:
        raise ExprError(f"expression too deep to evaluate (more than {MAX_TREE_DEPTH} operators "
                        "one under another)", 0)
    return node


def _depth(root: Node) -> int:
    """Levels of the tree, counted without recursion (the tree may be too deep for it)."""
    deepest = 0
    stack = [(root, 1)]
    while stack:
        node, d = stack.pop()
        deepest = max(deepest, d)
        if isinstance(node, Unary | Reloc):
            stack.append((node.operand, d + 1))
        elif isinstance(node, Binary):
            stack += [(node.left, d + 1), (node.right, d + 1)]
    return deepest


# ---- evaluation --------------------------------------------------------------------------------
def hi20(value: int) -> int:
    """Upper 20 bits for lui/auipc such that ``(hi20 << 12) + lo12(value)`` is ``value``."""
    return ((value + 0x800) >> 12) & 0xFFFFF


def lo12(value: int) -> int:
    """Low 12 bits of ``value`` as the signed addend paired with :func:`hi20`."""
    low = value & 0xFFF
    return low - 0x1000 if low & 0x800 else low


def evaluate(node: Node, env: Env) -> int:
    if isinstance(node, Num):
        return node.value
    if isinstance(node, Sym):
        return env.symbol(node.name)
    if isinstance(node, LocalRef):
        return env.symbol(env.local(node.number, node.forward))
    if isinstance(node, Dot):
        return env.pc
    if isinstance(node, Unary):
        v = evaluate(node.operand, env)
        if node.op == "!":
            return int(v == 0)
        return -v if node.op == "-" else ~v if node.op == "~" else v
    if isinstance(node, Binary):
        a = evaluate(node.left, env)
        b = evaluate(node.right, env)
        return _apply(node.op, a, b)
    if isinstance(node, Reloc):
        v = evaluate(node.operand, env)
        if node.kind == "hi":
            return hi20(v)
        if node.kind == "lo":
            return lo12(v)
        if node.kind == "pcrel_hi":
            return hi20(v - env.pc)
        return env.pcrel_lo(v)
    raise TypeError(node)


def _apply(op: str, a: int, b: int) -> int:
    if op in "/%" and b == 0:
        raise ExprError("division by zero")
    if op in ("<<", ">>") and not 0 <= b < 64:
        raise ExprError(f"shift count {b} out of range [0, 63]")
    if op == "/":   # C semantics: truncate toward zero
        q = abs(a) // abs(b)
        return q if (a < 0) == (b < 0) else -q
    if op == "%":
        return a - b * _apply("/", a, b)
    if op in _COMPARISONS:
        return -1 if _COMPARISONS[op](a, b) else 0
    return _OPERATIONS[op](a, b)


# computed only for the operator at hand: a shift by a huge or negative count must never run
_OPERATIONS = {
    "*": int.__mul__, "<<": int.__lshift__, ">>": int.__rshift__, "|": int.__or__,
    "&": int.__and__, "^": int.__xor__, "!": lambda a, b: a | ~b, "+": int.__add__,
    "-": int.__sub__, "&&": lambda a, b: int(a != 0 and b != 0),
    "||": lambda a, b: int(a != 0 or b != 0),
}
_COMPARISONS = {"==": int.__eq__, "!=": int.__ne__, "<>": int.__ne__, "<": int.__lt__,
                ">": int.__gt__, "<=": int.__le__, ">=": int.__ge__}


def walk(node: Node):
    """Every node of the tree, depth first."""
    yield node
    if isinstance(node, Unary | Reloc):
        yield from walk(node.operand)
    elif isinstance(node, Binary):
        yield from walk(node.left)
        yield from walk(node.right)
