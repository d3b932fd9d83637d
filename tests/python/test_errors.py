"""Bad input from Python is a Python exception with the CLI's one-line message, never a
crash."""
import pytest
import torch

import eie
from conftest import ROOT, model_path


@pytest.fixture(scope="module")
def tsp_model():
    return eie.load(str(model_path("tsp")))


def coords(*shape, dtype=torch.float32):
    return torch.rand(*shape, dtype=dtype)


@pytest.mark.parametrize("instances, message", [
    ({"coords": coords(2, 10, 3)}, r"tsp: coords must have shape \[count, n, 2\]"),
    ({"coords": coords(2, 10)}, r"coords must have shape \[count, n, 2\], got 2 dimensions"),
    ({"coords": coords(2, 10, 2, dtype=torch.float64)}, "coords must be float32, got float64"),
    ({"coords": torch.full((2, 10, 2), float("nan"))}, "NaN"),
    ({"coords": torch.empty(2, 10, 2, device="meta")}, "device 'meta'"),
    ({}, "missing field 'coords'"),
    ({"coords": coords(2, 10, 2), "demand": coords(2, 10)}, "unknown field 'demand'"),
    ({"coords": [[0.0, 1.0]]}, "must be a torch.Tensor"),
    ({"coords": coords(2, 2, 2)}, "n must be at least 3"),
])
def test_bad_instances(tsp_model, instances, message):
    with pytest.raises(ValueError, match=message):
        tsp_model.solve(instances)
    if "coords" in instances and isinstance(instances["coords"], torch.Tensor):
        with pytest.raises(ValueError, match=message):
            eie.Env("tsp", instances)


@pytest.mark.parametrize("kwargs, message", [
    ({"decode": "beam:3"}, "beam:3"),
    ({"threads": 0}, "--threads must be >= 1, got 0"),
    ({"seed": -1}, "--seed must be >= 0"),
    ({"batch": 0}, "--batch must be >= 1"),
    ({"scale": "nonsense"}, "nonsense"),
    ({"window": -2}, "--window must be >= 0"),
    ({"time_limit": float("nan")}, "--time-limit"),
])
def test_bad_settings(tsp_model, kwargs, message):
    with pytest.raises(ValueError, match=message):
        tsp_model.solve({"coords": coords(2, 10, 2)}, **kwargs)


def test_a_model_for_another_problem():
    with pytest.raises(ValueError, match="model was trained for cvrp, not tsp"):
        eie.solve_file(str(ROOT / "data/instances/kroA100.tsp"), model=str(model_path("cvrp")),
                       decode="greedy")
    model = eie.load(str(model_path("cvrp")))
    with pytest.raises(ValueError, match="cvrp: missing field 'depot'"):
        model.solve({"coords": coords(2, 10, 2)})


def test_missing_files():
    with pytest.raises(FileNotFoundError, match="nowhere.h5: no such file"):
        eie.load("nowhere.h5")
    with pytest.raises(FileNotFoundError):
        eie.read("nowhere.tsp")
    with pytest.raises(FileNotFoundError):
        eie.solve_file("nowhere.tsp")


def test_broken_files_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match="not a readable HDF5 file"):
        eie.load(str(ROOT / "tests/data/broken/corrupt.h5"))
    with pytest.raises(ValueError, match="nan_coords.tsp"):
        eie.read(str(ROOT / "tests/data/broken/nan_coords.tsp"))


def test_unknown_problem_and_device():
    with pytest.raises(ValueError, match="unknown problem 'knapsack'"):
        eie.Env("knapsack", {"coords": coords(2, 10, 2)})
    with pytest.raises(ValueError, match="--device: expected cpu or cuda, got 'tpu'"):
        eie.load(str(model_path("tsp")), device="tpu")


def test_infeasible_solution_is_a_value_error():
    with pytest.raises(ValueError, match="check:"):
        eie.check("tsp", {"coords": coords(1, 4, 2)}, torch.tensor([[0, 0, 1, 2]]))
