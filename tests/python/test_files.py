"""eie.read and eie.write: eie's instance files and datasets as tensors."""
import subprocess

import pytest
import torch

import eie
from conftest import BINARY, PROBLEMS, ROOT, cli, cli_json


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
    assert data["problem"] == "tsp" and data["options"] == {"domain": "unit", "distribution": "uniform"}
    assert torch.equal(data["instances"]["coords"], coords)
    assert cli_json("solve", "--dataset", path)["count"] == 5


def test_dataset_of_the_cli_reads_as_its_fields(datasets):
    data = eie.read(str(datasets["cvrp"]))
    assert sorted(data["instances"]) == ["capacity", "coords", "demand", "depot"]
    assert data["instances"]["coords"].shape == (6, 20, 2)


# What each problem's classical method is called, and its solution's name in tensors.
CLASSICAL = {"tsp": ("nn", "tours", ".tour"), "cvrp": ("savings", "routes", ".sol"),
             "bpp3d": ("heightmap", "placements", ".txt")}


@pytest.mark.parametrize("problem", PROBLEMS)
def test_solution_files_of_the_cli_round_trip(problem, instance_files, tmp_path):
    path = instance_files[problem]
    method, name, extension = CLASSICAL[problem]
    written = tmp_path / f"cli{extension}"
    cli("solve", path, "--method", method, "--out", written)
    solved = eie.solve_file(str(path), method=method)[name]
    read = eie.read(written, instance=path)
    assert read["problem"] == problem
    got = read["solution"][name]
    assert got.dtype == solved.dtype and got.shape[0] == 1
    assert torch.equal(got, solved[:, :got.shape[1]]) and not solved[:, got.shape[1]:].any()
    again = tmp_path / f"again{extension}"
    eie.write(again, solution=read["solution"], instance=path)
    assert again.read_bytes() == written.read_bytes()


def test_a_broken_solution_is_the_clis_error(instance_files, tmp_path):
    tsp = instance_files["tsp"]
    tour = tmp_path / "twice.tour"
    tour.write_text("TYPE : TOUR\nDIMENSION : 100\nTOUR_SECTION\n" +
                    "\n".join(["1"] * 100) + "\n-1\nEOF\n")
    done = subprocess.run([BINARY, "plot", tsp, tour, "--out", tmp_path / "x.png"],
                          capture_output=True, text=True)
    assert done.returncode != 0
    with pytest.raises(ValueError) as raised:
        eie.read(tour, instance=tsp)
    assert str(raised.value) in done.stderr and "not a tour of kroA100" in str(raised.value)
    with pytest.raises(ValueError, match="not a tour of kroA100"):
        eie.write(tmp_path / "bad.tour", solution={"tours": torch.zeros(1, 100, dtype=torch.long)},
                  instance=tsp)
    with pytest.raises(ValueError, match="solution: 'tours' must be"):
        eie.write(tmp_path / "bad.tour", solution={"tours": torch.arange(100)}, instance=tsp)
    assert not (tmp_path / "bad.tour").exists()
    with pytest.raises(FileNotFoundError, match="nowhere.tour: no such file"):
        eie.read("nowhere.tour", instance=tsp)
