"""The module solves as `eie solve` does: the same solutions and costs, every problem,
three decodings, on datasets and on instance files."""
import pytest
import torch

import eie
from conftest import PROBLEMS, cli, cli_json, model_path

DECODINGS = ["greedy", "sample:4", "multistart:5+aug8"]


@pytest.mark.parametrize("problem", PROBLEMS)
@pytest.mark.parametrize("decode", DECODINGS)
def test_dataset_costs_equal_the_cli(problem, decode, datasets):
    expected = cli_json("solve", "--dataset", datasets[problem], "--decode", decode,
                        "--seed", 7, "--threads", 2)
    model = eie.load(model_path(problem))
    data = eie.read(str(datasets[problem]))
    assert data["problem"] == problem
    out = model.solve(data["instances"], decode=decode, seed=7, threads=2)
    assert out["cost"].shape == (expected["count"],)
    for name, value in expected.items():
        if name.startswith("mean_"):
            assert out[name[5:]].mean().item() == pytest.approx(value, rel=1e-12), name
    # The returned solutions are feasible and cost what the problem's check says.
    solution = {"tsp": "tours", "cvrp": "routes", "bpp3d": "placements"}[problem]
    assert solution in out
    if problem != "bpp3d":
        checked = eie.check(problem, data["instances"], out[solution])
        assert torch.equal(checked, out["cost"])


def read_solution(path):
    return path.read_text()


@pytest.mark.parametrize("problem", PROBLEMS)
@pytest.mark.parametrize("decode", DECODINGS)
def test_file_solution_equals_the_cli(problem, decode, instance_files, tmp_path):
    path = instance_files[problem]
    cli_out, py_out = tmp_path / "cli.sol", tmp_path / "py.sol"
    expected = cli_json("solve", path, "--decode", decode, "--seed", 3, "--threads", 2,
                        "--out", cli_out)
    got = eie.solve_file(str(path), decode=decode, seed=3, threads=2, out=str(py_out))
    assert read_solution(py_out) == read_solution(cli_out)
    for name, value in expected.items():
        if name not in ("seconds",):
            assert got[name] == pytest.approx(value, rel=1e-12), name


def test_model_describes_itself():
    model = eie.load(str(model_path("tsp")))
    assert model.problem == "tsp"
    assert model.architecture == "attention_model"
    assert len(model.fingerprint) == 16
    assert model.spec["train_n"] == 100


def test_classical_method_and_improvement(instance_files):
    got = eie.solve_file(str(instance_files["tsp"]), method="nn", improve="2opt")
    expected = cli_json("solve", instance_files["tsp"], "--method", "nn", "--improve", "2opt")
    assert got["cost"] == expected["cost"]
