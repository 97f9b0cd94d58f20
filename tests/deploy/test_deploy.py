"""``trainlib deploy`` + ``isasim run``: one program trains for N steps on the cluster; the
losses it prints and the parameters it leaves at its symbols are the step-by-step runs' bit for
bit and the golden model's within rounding."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isasim import cli as isasim_cli
from isasim.machine import Machine
from toolchain.commands import assemble_file
from toolchain.elf import read_elf
from trainlib import cli
from trainlib.choices import Choice, ChoiceTable
from trainlib.deploy import data_symbol, deploy, read_back, run_deployed
from trainlib.driver import args_layout
from trainlib.model import Model
from trainlib.train import train

from .helpers import (
    assert_close_to_golden,
    assert_same_as_step_runs,
    printed_losses,
    small_model_file,
)

STEPS = 3
TUNED = Path(__file__).parent / "small.tuned.toml"


def _run_elf(elf: str, capsys) -> str:
    assert isasim_cli.main(["run", elf, "--cores", "8", "--quiet"]) == 0
    return capsys.readouterr().out


def _params_at_symbols(elf: str, model: Model) -> dict:
    """Run the ELF again and read the final parameters at their symbols."""
    m = Machine("pulp-open", cores=8).load(elf)
    assert m.run().exit_code == 0
    shapes = model.shapes()
    out: dict = {}
    for i, la in enumerate(model.layers):
        for p, shape in la.params(shapes[i]).items():
            sym = data_symbol(f"param.{la.name}.{p}")
            out.setdefault(la.name, {})[p] = m.read(sym, int(np.prod(shape)),
                                                    np.float32).reshape(shape)
    return out


@pytest.mark.parametrize("memory,order", [("tcdm", "conventional"), ("l2", "reordered"),
                                          ("l2", "conventional")])
def test_cli_deploy_then_isasim_run(tmp_path, capsys, memory, order):
    path = small_model_file(tmp_path, memory)
    elf = str(tmp_path / "net.elf")
    assert cli.main(["deploy", path, "-o", elf, "--steps", str(STEPS), "--order", order]) == 0
    assert "isasim run" in capsys.readouterr().out
    losses = printed_losses(_run_elf(elf, capsys))
    assert len(losses) == STEPS and losses[-1] < losses[0]
    model = Model.load(path)
    params = _params_at_symbols(elf, model)
    res = train(model, STEPS)
    assert_same_as_step_runs(losses, params, res)
    assert_close_to_golden(losses, params, model, STEPS)


def _deploy_with_choices(tmp_path, capsys, choices: Path, order: str) -> None:
    path = small_model_file(tmp_path, "l2")
    elf = str(tmp_path / "net.elf")
    assert cli.main(["deploy", path, "-o", elf, "--steps", "2", "--choices", str(choices),
                     "--order", order]) == 0
    capsys.readouterr()
    losses = printed_losses(_run_elf(elf, capsys))
    model = Model.load(path)
    res = train(model, 2, choices=ChoiceTable.load(choices))
    assert_same_as_step_runs(losses, _params_at_symbols(elf, model), res)


@pytest.mark.parametrize("order", ["conventional", "reordered"])
def test_deploy_with_the_tuners_choices(tmp_path, capsys, order):
    """The autotuner's table (blocked kernels, tiles) for the small model."""
    _deploy_with_choices(tmp_path, capsys, TUNED, order)


def test_deploy_with_hand_written_choices(tmp_path, capsys):
    table = ChoiceTable(meta={"cores": 8})
    for layer, step, kernel, tile in (("fc", "fw", "mm_4x4_n", 2), ("fc", "ig", "mm_1x4_m", 16),
                                      ("pw1", "ig", "mm_2x2_n", 3), ("pw1", "wg", "mm_2x4_n", 2),
                                      ("dw1", "wg", "mm_dw_in_grad_1x2", 3)):
        table.add(Choice(layer, step, kernel, tile))
    table.save(tmp_path / "hand.toml")
    _deploy_with_choices(tmp_path, capsys, tmp_path / "hand.toml", "reordered")


@pytest.mark.parametrize("order", ["conventional", "reordered"])
def test_default_net_with_the_tuners_choices(tmp_path, order):
    model = Model.load("examples/pulp_trainlib_net0.toml")
    choices = ChoiceTable.load(Path(__file__).parent / "net0.tuned.toml")
    dep = deploy(model, 2, order=order, choices=choices)
    run = run_deployed(dep, program=dep.write(tmp_path / "net.elf"))
    res = train(model, 2, choices=choices)
    assert_same_as_step_runs(run.losses, run.params, res)
    assert_close_to_golden(run.losses, run.params, model, 2)
    tuned = {(p.layer, p.step): p.spec.kernel for p in dep.plan.phases}
    assert any(k not in (None, "mm_naive_n", "mm_naive_m", "mm_dw", "mm_dw_in_grad")
               for k in tuned.values())
    # tuned for the step runs' TCDM, dw3 fw's tile does not fit the program's (1 KiB stacks)
    notes = {p.title: p.note for p in dep.plan.phases if p.note}
    assert "tile C=8 needs" in notes["dw3 fw"] and "the fewest tiles that fit" in notes["dw3 fw"]


@pytest.mark.slow
def test_tune_then_deploy(tmp_path, capsys):
    path = small_model_file(tmp_path, "l2")
    assert cli.main(["tune", path, "-o", str(tmp_path / "t.toml"), "--no-cache",
                     "--workers", "1"]) == 0
    _deploy_with_choices(tmp_path, capsys, tmp_path / "t.toml", "reordered")


@pytest.mark.parametrize("name", ["pulp_trainlib_net0", "ds_cnn_kws"])
def test_example_models(name, tmp_path):
    model = Model.load(f"examples/{name}.toml")
    dep = deploy(model, 2)
    elf = dep.write(tmp_path / "net.elf")
    run = run_deployed(dep, program=elf)
    assert printed_losses(run.stdout) == run.losses
    res = train(model, 2)
    assert_same_as_step_runs(run.losses, run.params, res)
    assert_close_to_golden(run.losses, run.params, model, 2)


def test_emitted_assembly_rebuilds_the_program(tmp_path, capsys):
    path = small_model_file(tmp_path, "l2")
    elf = tmp_path / "net.elf"
    assert cli.main(["deploy", path, "-o", str(elf), "--emit-asm", str(tmp_path / "asm")]) == 0
    source = (tmp_path / "asm" / "net.s").read_text()
    assert "phase_fc_wg:" in source and "# layer fc wg" in source
    again, _ = assemble_file(tmp_path / "asm" / "net.s", tmp_path / "again.elf")
    a, b = read_elf(elf.read_bytes()), read_elf(again.read_bytes())
    assert [(s.addr, bytes(s.data)) for s in a.sections] == \
        [(s.addr, bytes(s.data)) for s in b.sections]


def _corrupted_run(tmp_path, routine: str, field: str):
    """Run a 2-step deployment of the small model with one argument word of ``routine``
    pointing outside memory: the first call's first field, or the first DMA command."""
    model = Model.load(small_model_file(tmp_path, "l2"))
    dep = deploy(model, 2)
    k = next(i for i, r in enumerate(dep.routines) if r.symbol == routine)
    lay = args_layout(dep.routines[k].items)
    off = lay.calls[0] if field == "call" else lay.dma[0]
    machine = Machine(dep.cfg).load(dep.program)
    machine.write(dep.program.symbol(f"__args_{k}") + off, np.array([0xF0000000], np.uint32))
    return machine.run()


def test_a_fault_in_a_kernel_names_the_layer_and_step(tmp_path):
    """The trap handler names the phase and step, then the fault is reported as usual."""
    result = _corrupted_run(tmp_path, "phase_fc_ig", "call")
    assert result.fault is not None and "load" in result.fault.kind
    assert "faulted in step 1 of 2, layer fc ig" in result.stdout
    assert "step 1 loss" in result.stdout and "step 2 loss" not in result.stdout


def test_a_fault_in_a_phase_routine_is_named_by_its_symbol(tmp_path):
    result = _corrupted_run(tmp_path, "phase_fc_fw", "dma")
    assert result.fault is not None and result.fault.kind == "device misuse"
    assert "in phase_fc_fw+" in result.fault.format()


def test_read_back_has_the_losses_and_stamps(tmp_path):
    model = Model.load(small_model_file(tmp_path, "tcdm"))
    dep = deploy(model, 2)
    m = Machine(dep.cfg).load(dep.program)
    m.run()
    run = read_back(m, dep)
    # where each core was last: the store routine (after the last phase) of step 2 (index 1)
    where = m.read("__deploy_where", 2 * 8, np.uint32).reshape(8, 2)
    store = next(i for i, r in enumerate(dep.routines) if r.symbol == "__deploy_store")
    assert where.tolist() == [[store, 1]] * 8
    assert run.phase_cycles().shape == (2, len(dep.plan.phases))
    assert (run.phase_cycles() > 0).all()
    assert run.step_cycles()[1] == run.phase_cycles()[1].sum()


def test_layer_names_that_give_one_symbol_are_refused(tmp_path, capsys):
    path = Path(small_model_file(tmp_path))
    path.write_text(path.read_text().replace('name = "flat"', 'name = "l.relu"')
                    .replace('name = "lrelu"', 'name = "l_relu"'))
    assert cli.main(["deploy", str(path), "-o", str(tmp_path / "x.elf")]) == 2
    err = capsys.readouterr().err
    assert "layers 'l_relu' and 'l.relu' give the same program symbols" in err


def test_an_unwritable_output_is_one_line(tmp_path, capsys):
    path = small_model_file(tmp_path)
    assert cli.main(["deploy", path, "-o", str(tmp_path / "no" / "x.elf")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("trainlib: error: cannot write") and err.count("\n") == 1
