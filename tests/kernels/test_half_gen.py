"""The 16-bit kernel generator (asm_kernels/half_gen.py) and the catalogue's naming of 16-bit
variants."""

from __future__ import annotations

import pytest

from asm_kernels import half_gen
from asm_kernels.catalogue import catalogue, kernel_dir, variant


def test_generated_files_are_current():
    stale = [p.name for p, text in half_gen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"regenerate with: python -m asm_kernels.half_gen ({stale})"


def test_binary16_and_bfloat16_files_differ_only_in_format():
    """The two formats' files of a family come from one template: with the suffixes and the
    constants of 1.0 swapped they are the same text."""
    for src in half_gen.SOURCES:
        if src.shared:
            continue
        fp16, bf16 = (half_gen.outputs()[half_gen.HERE / f"{src.stem}_{p}.s"]
                      for p in ("fp16", "bf16"))
        swapped = (bf16.replace(".ah", ".h").replace("_bf16", "_fp16").replace("bfloat16",
                   "IEEE binary16").replace("0x3f803f80", "0x3c003c00"))
        assert swapped == fp16, src.stem


@pytest.mark.parametrize("name, prec, want", [
    ("relu_fw", "fp32", "relu_fw"), ("relu_fw", "fp16", "relu_fw_16"),
    ("relu_fw", "bf16", "relu_fw_16"), ("add", "bf16", "add_bf16"),
    ("sgd_update", "fp16", "sgd_update_fp16"), ("copy", "bf16", "copy_16"),
])
def test_variant_names_the_kernel_of_a_precision(name, prec, want):
    assert variant(name, prec) == want
    assert want in catalogue()


def test_variant_refuses_unknown():
    with pytest.raises(KeyError, match="no fp16 variant"):
        variant("vexp", "fp16")
    with pytest.raises(ValueError, match="precision"):
        variant("add", "fp8")


def test_every_16_bit_family_is_named_after_an_fp32_one():
    fams = {k.family for k in catalogue().values()}
    for fam in fams:
        for suffix in ("_fp16", "_bf16", "_16"):
            if fam.endswith(suffix):
                assert fam.removesuffix(suffix) in fams, fam


@pytest.mark.parametrize("name, isa, ext", [
    ("add_fp16", "rv32imfc_xpulpv2", "xf16|xfvec"),
    ("sgd_update_bf16", "rv32imfc_xpulpv2", "xf16|xfvec"),
    ("fp32_to_bf16", "rv32imfc_xpulpv2_xf16_xfvec", "xf16alt"),
    ("depthwise_bf16", "rv32imfc_xpulpv2_xf16_xfvec", "xf16alt")])
def test_isa_without_the_format_is_refused_before_the_run(name, isa, ext):
    """A core whose ISA lacks the 16-bit extensions cannot run the kernels: the assembler
    refuses them naming the extension and the kernel file's line."""
    import numpy as np

    from asm_kernels.runner import run_kernel
    from toolchain.asm import AsmError
    k = catalogue()["mm_dw_bf16" if name == "depthwise_bf16" else name]
    args = {f: (np.zeros(4, np.uint16) if kind == "ptr" else 1) for f, kind in k.args.fields}
    with pytest.raises(AsmError, match=rf"{k.file}:\d+:\d+: .*extension ({ext})\b"):
        run_kernel(k.name, args, cores=2, xpulp=isa)


def test_every_16_bit_file_assembles_for_its_catalogue_isa():
    """A core with exactly the extensions a kernel's catalogue isa names runs it: its file
    assembles for that ISA (the binary16 files without Xf16alt, the shared ones with no
    smallFloat extension at all)."""
    from toolchain.asm import assemble
    files = {}
    for k in catalogue().values():
        if (k.file.endswith(("_fp16.s", "_bf16.s", "_16.s")) and "matmul" not in k.file
                and k.regfile == "f"):      # (zfinx entries: tests/kernels/test_zfinx.py)
            assert files.setdefault(k.file, k.isa) == k.isa, k.file
    assert len(files) == 19
    for file, isa in sorted(files.items()):
        assemble(kernel_dir().joinpath(file).read_text(), filename=file, family=isa,
                 include_dirs=[kernel_dir()])
