"""The examples in the package's README: each runs against the real daemon, and all of them pass
`mypy --strict` where mypy is installed (the newest-protobuf test's virtual environment has it)."""
import os
import re
import subprocess
import sys

import pytest

README = os.path.join(os.path.dirname(__file__), "..", "README.md")
PACKAGE = os.path.join(os.path.dirname(__file__), "..")


def examples():
    with open(README) as handle:
        return re.findall(r"```python\n(.*?)```", handle.read(), re.S)


def test_the_readme_has_examples():
    assert len(examples()) >= 5


@pytest.mark.parametrize("index", range(len(examples())))
def test_each_example_runs(socket_path, index):
    ran = subprocess.run([sys.executable, "-c", examples()[index]], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, PYTHONPATH=PACKAGE))
    assert ran.returncode == 0, ran.stderr


def test_the_examples_pass_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    for index, code in enumerate(examples()):
        (tmp_path / f"example_{index}.py").write_text(code)
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                              str(tmp_path)], capture_output=True, text=True, timeout=600, env=dict(os.environ, MYPYPATH=PACKAGE))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_package_passes_mypy_strict(tmp_path):
    pytest.importorskip("mypy")
    checked = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
                              os.path.join(PACKAGE, "layoutd")], capture_output=True, text=True, timeout=600)
    assert checked.returncode == 0, checked.stdout + checked.stderr
