"""Re-measure the committed kernel cycle baselines, show what changed, and rewrite them.

    python bench/regen_baselines.py              # every family with a tests/kernels/test_*.py
    python bench/regen_baselines.py matmul ...   # only these families
    python bench/regen_baselines.py --check      # show the diff, write nothing, exit 1 on change

A family's cases are the ``BASELINE_CASES`` dict (case id -> function returning cycles) of
``tests/kernels/test_<family>.py``, imported by path as a module of the ``tests/kernels``
package (so its relative imports work) without needing ``tests`` to be importable; the
baseline file is ``tests/kernels/baselines/<family>.json`` (``cycle_baselines``).  The tests
compare against that file, so running this script is how an intended change of cycles is
accepted: the table it prints is what goes into the commit message.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
# the repository first: the editable install's finder can shadow asm_kernels' data files
sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

KERNEL_TESTS = ROOT / "tests" / "kernels"
PACKAGE = "_kernel_tests"


def _package() -> ModuleType:
    """tests/kernels as a package named PACKAGE (once per process)."""
    if PACKAGE not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            PACKAGE, KERNEL_TESTS / "__init__.py", submodule_search_locations=[str(KERNEL_TESTS)])
        pkg = importlib.util.module_from_spec(spec)
        sys.modules[PACKAGE] = pkg
        spec.loader.exec_module(pkg)
    return sys.modules[PACKAGE]


def load_module(name: str) -> ModuleType:
    """tests/kernels/<name>.py, imported inside the package."""
    _package()
    full = f"{PACKAGE}.{name}"
    if full not in sys.modules:
        spec = importlib.util.spec_from_file_location(full, KERNEL_TESTS / f"{name}.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[full] = mod
        spec.loader.exec_module(mod)
    return sys.modules[full]


def families() -> list[str]:
    return sorted(p.stem.removeprefix("test_") for p in KERNEL_TESTS.glob("test_*.py")
                  if "BASELINE_CASES" in p.read_text())


def measure(family: str) -> dict[str, int]:
    cases = load_module(f"test_{family}").BASELINE_CASES
    return {case: int(fn()) for case, fn in sorted(cases.items())}


def diff_table(family: str, old: dict[str, int], new: dict[str, int]) -> tuple[Table, int]:
    """The rows that changed (added, removed, other cycles) and how many there are."""
    table = Table(title=f"{family}: cycle baselines", title_justify="left")
    for col, just in (("case", "left"), ("baseline", "right"), ("measured", "right"),
                      ("change", "right"), ("%", "right")):
        table.add_column(col, justify=just)
    changed = 0
    for case in sorted(set(old) | set(new)):
        a, b = old.get(case), new.get(case)
        if a == b:
            continue
        changed += 1
        if a is None:
            table.add_row(case, "-", str(b), "[cyan]new[/]", "")
        elif b is None:
            table.add_row(case, str(a), "-", "[magenta]removed[/]", "")
        else:
            d = b - a
            colour = "green" if d < 0 else "red"
            table.add_row(case, str(a), str(b), f"[{colour}]{d:+d}[/]",
                          f"[{colour}]{100 * d / a:+.2f}[/]")
    return table, changed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("family", nargs="*", help="kernel families (default: all)")
    ap.add_argument("--check", action="store_true", help="only compare; exit 1 on a change")
    args = ap.parse_args(argv)
    known = families()
    unknown = [f for f in args.family if f not in known]
    if unknown:
        ap.error(f"no BASELINE_CASES for {unknown}; known: {', '.join(known)}")
    baselines = load_module("cycle_baselines")
    console = Console()
    any_change = False
    for family in args.family or known:
        t0 = time.perf_counter()
        new = measure(family)
        old = baselines.load(family)
        table, changed = diff_table(family, old, new)
        took = time.perf_counter() - t0
        if changed:
            any_change = True
            console.print(table)
        console.print(f"{family}: {len(new)} cases, {changed} changed ({took:.1f} s)"
                      + ("" if args.check or not changed else
                         f", wrote {baselines.BASELINE_DIR.relative_to(ROOT)}/{family}.json"))
        if changed and not args.check:
            baselines.save(family, new)
    return 1 if args.check and any_change else 0


if __name__ == "__main__":
    sys.exit(main())
