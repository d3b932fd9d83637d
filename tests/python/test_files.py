"""eie.read and eie.write: eie's instance files and datasets as tensors."""
import torch

import eie
from conftest import ROOT, cli_json


def test_read_a_tsplib_file():
    data = eie.read(str(ROOT / "data/instances/kroA100.tsp"))
    assert data["problem"] == "tsp"
    assert data["name"] == "kroA100"
    coords = data["instances"]["coords"]
    assert coords.shape == (1, 100, 2) and coords.dtype == torch.float32


def test_written_dataset_is_read_back_and_solved_by_the_cli(tmp_path):
    coords = torch.rand(5, 12, 2)
    path = tmp_path / "mine.h5"
    eie.write(str(path), "tsp", {"coords": coords})
    data = eie.read(str(path))
    assert data["problem"] == "tsp" and data["options"] == {"domain": "unit"}
    assert torch.equal(data["instances"]["coords"], coords)
    assert cli_json("solve", "--dataset", path)["count"] == 5


def test_dataset_of_the_cli_reads_as_its_fields(datasets):
    data = eie.read(str(datasets["cvrp"]))
    assert sorted(data["instances"]) == ["capacity", "coords", "demand", "depot"]
    assert data["instances"]["coords"].shape == (6, 20, 2)
