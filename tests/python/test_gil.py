"""eie releases the GIL while it works: a Python thread keeps running during a solve."""
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
