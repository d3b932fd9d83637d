"""eie.bench runs a benchmark file as `eie bench` does: the same cells, the same tables."""
import pytest

import eie
from conftest import ROOT, cli

TOML = """name = "tiny"
problem = "tsp"
sizes = [20]
instances = 4
seeds = [1]
models = ["{model}"]
scales = ["sqrt"]
decodes = ["greedy"]
methods = ["nn"]
"""


def test_bench_cells_and_tables_equal_the_cli(tmp_path):
    config = tmp_path / "tiny.toml"
    config.write_text(TOML.format(model=ROOT / "results/models/tsp100.h5"))
    table = eie.bench(config, out=tmp_path / "py", threads=2)
    cli("bench", config, "--out", tmp_path / "cli", "--threads", 2)
    assert table["name"] == "tiny"
    assert len(table["rows"]) == 2
    cells = {(c["row"], c["n"]): c for c in table["cells"]}
    assert len(cells) == 2 and all(c["costs"].shape == (4,) for c in cells.values())
    csv = (tmp_path / "cli/tiny.csv").read_text().splitlines()
    for line in csv[1:]:
        row, n, mean = line.split(",")[:3]
        assert cells[(row, int(n))]["mean"] == pytest.approx(float(mean), rel=1e-4)
    assert (tmp_path / "py/tiny.md").exists()


def test_bench_missing_file():
    with pytest.raises(FileNotFoundError):
        eie.bench("nowhere.toml")
