"""The README's "From Python" example runs as written, from the repository root."""
import os
import re
import subprocess
import sys

from conftest import ROOT


def test_readme_example_runs():
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## From Python", 1)[1]
    example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    done = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True,
                          text=True, env=os.environ)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split("\n")
    assert "torch.Size([64, 100])" in lines[0]
