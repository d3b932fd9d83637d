"""eie from Python: load a model and solve batches of instances given as torch tensors,
step a problem's environment with your own policy, read and write eie's files.
Reference: docs/python.md."""
import torch  # noqa: F401  (PyTorch's tensor type must exist before tensors cross)

from ._eie import Env, Model, TrainSettings, bench, check, load, read, solve_file, train, write

__all__ = [
    "Env", "Model", "TrainSettings", "bench", "check", "load", "read", "solve_file", "train",
    "write"
]
