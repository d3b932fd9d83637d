"""Calling eie from Python against the binary, and eie.Env against a plain PyTorch TSP
environment. Run from the repository root after scripts/setup.sh:

    PYTHONPATH=build/python /usr/bin/python3 experiments/python_speed.py [THREADS]

Prints Markdown rows for results/speed.md."""
import json
import statistics
import subprocess
import sys
import tempfile
import time

import torch

import eie

THREADS = int(sys.argv[1]) if len(sys.argv) > 1 else 2
REPEATS = 15
BINARY = "build/src/cli/eie"


def binary_seconds(dataset):
    """`eie solve --dataset`'s own time for solving (file and model loading excluded)."""
    out = subprocess.run([BINARY, "solve", "--dataset", dataset, "--decode", "greedy",
                          "--threads", str(THREADS), "--json"], capture_output=True, text=True,
                         check=True).stdout
    report = json.loads(out)
    return report["seconds_per_instance"] * report["count"]


def module_seconds(model, instances):
    """Model.solve from call to return: conversions, checks, solving, the result dict."""
    start = time.perf_counter()
    model.solve(instances, decode="greedy", threads=THREADS)
    return time.perf_counter() - start


class TorchTsp:
    """A plain PyTorch TSP environment (as rl4co's or Kool et al.'s): visited mask, last
    and first city, tour length accumulated per step."""

    def __init__(self, coords):
        self.coords = coords
        B, n, _ = coords.shape
        self.visited = torch.zeros(B, n, dtype=torch.bool)
        self.first = self.last = None
        self.length = torch.zeros(B)
        self.rows = torch.arange(B)

    def mask(self):
        return ~self.visited

    def step(self, action):
        if self.first is None:
            self.first = action
        else:
            step = self.coords[self.rows, action] - self.coords[self.rows, self.last]
            self.length = self.length + step.norm(dim=1)
        self.last = action
        self.visited[self.rows, action] = True

    def done(self):
        return self.visited.all(1)

    def cost(self):
        back = self.coords[self.rows, self.first] - self.coords[self.rows, self.last]
        return self.length + back.norm(dim=1)


def rollout_seconds(make_env, tours):
    """A rollout of fixed tours, asking the mask at every step as a policy would."""
    start = time.perf_counter()
    env = make_env()
    for t in range(tours.size(1)):
        env.mask()
        env.step(tours[:, t])
    cost = env.cost()
    return time.perf_counter() - start, cost


def main():
    torch.set_num_threads(THREADS)
    model = eie.load("results/models/tsp100.h5")
    with tempfile.TemporaryDirectory() as folder:
        dataset = f"{folder}/tsp100.h5"
        subprocess.run([BINARY, "gen", "--n", "100", "--count", "64", "--seed", "4242", "--out",
                        dataset], check=True, capture_output=True)
        instances = eie.read(dataset)["instances"]
        module_seconds(model, instances)  # warm-up: first-call allocations
        binary, module = [], []
        for _ in range(REPEATS):  # interleaved, so that load changes hit both alike
            binary.append(binary_seconds(dataset))
            module.append(module_seconds(model, instances))
    b, m = statistics.median(binary), statistics.median(module)
    print(f"| greedy TSP, n = 100, batch 64, {THREADS} threads, median of {REPEATS} | "
          f"binary {b * 1000:.1f} ms | Model.solve {m * 1000:.1f} ms | "
          f"{100 * (m - b) / b:+.1f}% |")

    for B in (64, 1024):
        coords = torch.rand(B, 100, 2, generator=torch.Generator().manual_seed(B))
        tours = torch.stack([torch.randperm(100) for _ in range(B)])
        timings = {"eie": [], "torch": []}
        for _ in range(REPEATS):
            seconds, eie_cost = rollout_seconds(lambda: eie.Env("tsp", {"coords": coords}), tours)
            timings["eie"].append(seconds)
            seconds, torch_cost = rollout_seconds(lambda: TorchTsp(coords), tours)
            timings["torch"].append(seconds)
        assert torch.allclose(eie_cost, torch_cost, rtol=1e-4)
        e, t = statistics.median(timings["eie"]), statistics.median(timings["torch"])
        # The minimum as well: on a loaded machine medians carry other processes' time.
        e_min, t_min = min(timings["eie"]), min(timings["torch"])
        print(f"| TSP rollout, n = 100, batch {B} (mask + step per step), median (min) of "
              f"{REPEATS} | eie.Env {e * 1000:.1f} ({e_min * 1000:.2f}) ms | plain PyTorch "
              f"{t * 1000:.1f} ({t_min * 1000:.2f}) ms | {t / e:.2f}x ({t_min / e_min:.2f}x) |")


if __name__ == "__main__":
    main()
