"""eie.train: eie train's flags as keywords, a callback that watches and may end the run,
and the CLI's errors."""
import csv
import subprocess

import pytest

import eie
from conftest import BINARY, cli

# A run of a few seconds: TSP10, a tiny network, tiny batches.
TINY = {"n": 10, "epochs": 5, "steps": 2, "batch": 8, "val_size": 8, "baseline_eval_size": 8,
        "embed_dim": 16, "heads": 2, "layers": 1, "ff_hidden": 16, "lr": 1e-3}


def flags(settings):
    """The same settings as eie train's command line (n is -n, or --size)."""
    return [f"--{'size' if key == 'n' else key.replace('_', '-')}={value}"
            for key, value in settings.items()]


def log_rows(run):
    with open(run / "log.csv") as log:
        return list(csv.DictReader(log))


def cli_error(*args):
    """The CLI's one-line message for a command that must fail."""
    done = subprocess.run([BINARY, *map(str, args)], capture_output=True, text=True)
    assert done.returncode != 0
    return done.stderr.strip().splitlines()[-1]


def test_a_callback_stops_the_run_after_epoch_2_with_its_checkpoint(tmp_path):
    run = tmp_path / "run"
    rows = []

    def on_epoch(row):
        rows.append(row)
        return row["epoch"] < 1  # two epochs, 0 and 1

    model = eie.train(**TINY, out=run, seed=3, threads=1, on_epoch=on_epoch)
    assert model == str(run / "model.h5")
    assert [row["epoch"] for row in rows] == [0, 1]
    logged = log_rows(run)
    assert len(logged) == 2
    assert list(rows[0]) == list(logged[0])  # the log's columns, in its order
    for row, line in zip(rows, logged):
        assert row["val_greedy_cost"] == pytest.approx(float(line["val_greedy_cost"]), abs=1e-5)
        assert isinstance(row["baseline_replaced"], bool)
    assert (run / "checkpoint.h5").exists()
    assert eie.load(model).problem == "tsp"
    # The checkpoint continues: a resumed run starts after epoch 1.
    resumed = []
    eie.train(**{**TINY, "epochs": 3}, out=run, resume=True, seed=3, threads=1,
              on_epoch=lambda row: resumed.append(row["epoch"]))
    assert resumed == [2]


def test_the_same_run_as_the_cli(tmp_path):
    eie.train(**TINY, out=tmp_path / "module", seed=5, threads=1)
    cli("train", *flags(TINY), "--out", tmp_path / "cli", "--seed", 5, "--threads", 1)
    module, binary = log_rows(tmp_path / "module"), log_rows(tmp_path / "cli")
    for column in ("epoch", "mean_train_cost", "val_greedy_cost", "baseline_replaced", "p_value",
                   "lr"):
        assert [row[column] for row in module] == [row[column] for row in binary], column
    assert (eie.load(str(tmp_path / "module/model.h5")).fingerprint ==
            eie.load(str(tmp_path / "cli/model.h5")).fingerprint)


def test_what_the_callback_raises_ends_the_run(tmp_path):
    run = tmp_path / "run"

    def on_epoch(row):
        raise KeyError(f"stop at {row['epoch']}")

    with pytest.raises(KeyError, match="stop at 0"):
        eie.train(**TINY, out=run, threads=1, on_epoch=on_epoch)
    assert len(log_rows(run)) == 1
    assert (run / "checkpoint.h5").exists()


@pytest.mark.parametrize("settings", [
    {"epochs": 0},
    {"baseline": "greedy"},
    {"bias_learn": True},
    {"baseline": "multistart", "warmup_epochs": 3},
    {"embed_dim": 10, "heads": 3},
    {"resume": True},
    {"run_budget": -1},
    {"stop_after": 0},
    {"time_budget": 5, "run_budget": 5},
])
def test_bad_settings_are_the_clis_errors(tmp_path, settings):
    run = tmp_path / "run"
    message = cli_error("train", *flags({**TINY, **settings}), "--out", run)
    with pytest.raises(ValueError) as raised:
        eie.train(**{**TINY, **settings}, out=run)
    assert str(raised.value) in message
    assert not run.exists()


def test_bad_keywords_and_files(tmp_path):
    with pytest.raises(ValueError, match="--out is required"):
        eie.train(**TINY)
    with pytest.raises(ValueError, match="eie train has no --epoch"):
        eie.train(epoch=3, out=tmp_path / "run")
    with pytest.raises(FileNotFoundError, match="nowhere.h5: no such file"):
        eie.train(**TINY, init="nowhere.h5", out=tmp_path / "run")
    with pytest.raises(ValueError, match="unknown problem 'knapsack'"):
        eie.train(**TINY, problem="knapsack", out=tmp_path / "run")
    with pytest.raises(TypeError):
        eie.train(**{**TINY, "epochs": "many"}, out=tmp_path / "run")
    assert eie.TrainSettings().epochs == 500  # the defaults eie train --help shows
