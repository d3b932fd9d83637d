"""What the Python module's tests share: the eie binary of the same build, the shipped
models, and small instance files and datasets made by the CLI itself."""
import json
import os
import random
import subprocess
from pathlib import Path

import pytest

ROOT = Path(os.environ.get("EIE_ROOT", Path(__file__).resolve().parents[2]))
BINARY = os.environ.get("EIE_BINARY", str(ROOT / "build/src/cli/eie"))
MODELS = ROOT / "results/models"
PROBLEMS = ["tsp", "cvrp", "bpp3d"]


def cli(*args):
    """Runs the eie binary; its stdout (one JSON object when --json is given)."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


def cli_json(*args):
    return json.loads(cli(*args, "--json"))


def model_path(problem):
    return MODELS / f"{problem}100.h5"


@pytest.fixture(scope="session")
def datasets(tmp_path_factory):
    """A small dataset per problem, written by `eie gen`."""
    folder = tmp_path_factory.mktemp("datasets")
    paths = {}
    for problem in PROBLEMS:
        paths[problem] = folder / f"{problem}.h5"
        cli("gen", "--problem", problem, "--n", 20, "--count", 6, "--seed", 11, "--out",
            paths[problem])
    return paths


def write_vrp(path, n, seed):
    """A CVRPLIB file of n customers (integer coordinates, capacity 50)."""
    rng = random.Random(seed)
    lines = [f"NAME : {path.stem}", "TYPE : CVRP", f"DIMENSION : {n + 1}",
             "EDGE_WEIGHT_TYPE : EUC_2D", "CAPACITY : 50", "NODE_COORD_SECTION"]
    lines += [f"{i + 1} {rng.randint(0, 1000)} {rng.randint(0, 1000)}" for i in range(n + 1)]
    lines += ["DEMAND_SECTION", "1 0"] + [f"{i + 2} {rng.randint(1, 9)}" for i in range(n)]
    lines += ["DEPOT_SECTION", "1", "-1", "EOF"]
    path.write_text("\n".join(lines) + "\n")


def write_bpp(path, n, seed):
    """A .bpp packing file of n boxes on a 120 x 100 base."""
    rng = random.Random(seed)
    lines = [f"120 100 {n}"] + [" ".join(str(rng.randint(10, 50)) for _ in range(3))
                                for _ in range(n)]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="session")
def instance_files(tmp_path_factory):
    """One instance file per problem: kroA100.tsp, and generated .vrp and .bpp files."""
    folder = tmp_path_factory.mktemp("files")
    write_vrp(folder / "small.vrp", 30, 5)
    write_bpp(folder / "small.bpp", 20, 5)
    return {"tsp": ROOT / "data/instances/kroA100.tsp", "cvrp": folder / "small.vrp",
            "bpp3d": folder / "small.bpp"}
