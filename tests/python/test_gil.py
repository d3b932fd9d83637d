"""eie releases the GIL while it works: a Python thread keeps running during a solve and
while training (the GIL is taken only for the per-epoch callback)."""
import threading
import time

import torch

import eie
from conftest import model_path


def test_a_python_thread_runs_during_a_long_solve():
    model = eie.load(str(model_path("tsp")))
    instances = {"coords": torch.rand(256, 100, 2, generator=torch.Generator().manual_seed(4))}
    ticks, running = [], True

    def count():
        while running:
            ticks.append(time.monotonic())
            time.sleep(0.001)

    thread = threading.Thread(target=count)
    start = time.monotonic()
    thread.start()
    model.solve(instances, decode="greedy", threads=1)
    end = time.monotonic()
    running = False
    thread.join()
    during = [t for t in ticks if start < t < end]
    # A thread blocked on the GIL would tick once or twice; sleeping 1 ms per tick, a free
    # one ticks hundreds of times a second (at least 50 on a busy machine).
    assert end - start > 0.2
    assert len(during) > 50 * (end - start)


def test_a_python_thread_runs_during_training_and_its_callback(tmp_path):
    ticks, running, rows = [], True, []

    def count():
        while running:
            ticks.append(time.monotonic())
            time.sleep(0.001)

    def on_epoch(row):
        before = len(ticks)
        time.sleep(0.05)  # sleep releases the GIL: the thread ticks on
        rows.append(len(ticks) - before)

    thread = threading.Thread(target=count)
    start = time.monotonic()
    thread.start()
    eie.train(n=10, epochs=3, steps=10, batch=32, val_size=32, baseline_eval_size=32,
              embed_dim=16, heads=2, layers=1, ff_hidden=16, out=tmp_path / "run", threads=1,
              on_epoch=on_epoch)
    end = time.monotonic()
    running = False
    thread.join()
    during = [t for t in ticks if start < t < end]
    assert len(rows) == 3 and all(count > 5 for count in rows)
    assert end - start > 0.2
    assert len(during) > 50 * (end - start)
