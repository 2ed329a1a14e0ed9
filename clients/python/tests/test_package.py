"""The package as a user gets it: the committed generated modules current, `pip install`
into a fresh environment, and the README's three lines run as written from outside the tree."""
import os
import re
import shutil
import subprocess
import sys
import venv

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(HERE)
ROOT = os.path.dirname(os.path.dirname(PACKAGE))


def test_generated_modules_are_current():
    done = subprocess.run([os.path.join(PACKAGE, "generate.sh"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_pip_install_and_the_readme_example(tmp_path, socket_path):
    environment = tmp_path / "env"
    # Debian's protobuf and setuptools from the system; nothing fetched.
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(environment)
    python = str(environment / "bin" / "python")
    # A copy: pip builds in the source folder, which is the repository's.
    source = tmp_path / "source"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".pytest_cache"))
    install = subprocess.run([python, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps", str(source)],
                             capture_output=True, text=True, cwd=tmp_path)
    assert install.returncode == 0, install.stdout + install.stderr
    readme = open(os.path.join(ROOT, "README.md")).read()
    example = re.search(r"```python\n(.*?)```", readme, re.S)
    assert example, "README has no ```python example"
    script = tmp_path / "example.py"
    script.write_text(example.group(1))
    env = dict(os.environ, LAYOUTD_SOCKET=socket_path, PYTHONPATH="")
    done = subprocess.run([python, str(script)], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip(), "the example prints nothing"
    where = subprocess.run([python, "-c", "import layoutd, os; print(layoutd.__file__)"], capture_output=True,
                           text=True, cwd=tmp_path, env=env)
    assert str(environment) in where.stdout, "the example imported the source tree, not the installed package"
    typed = subprocess.run([python, "-c", "import layoutd.v1, os; print(os.listdir(os.path.dirname(layoutd.v1.__file__)))"],
                           capture_output=True, text=True, cwd=tmp_path, env=env)
    assert "layout_pb2.pyi" in typed.stdout


def test_a_wheel_installs_without_the_repository(tmp_path, socket_path):
    """`pip wheel` builds one wheel; installed from that file alone, in an environment in another
    folder, it lays text out."""
    source = tmp_path / "source"
    shutil.copytree(PACKAGE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".pytest_cache"))
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-build-isolation", "--no-deps", "-w",
                            str(tmp_path / "dist"), str(source)], capture_output=True, text=True, cwd=tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    wheels = os.listdir(tmp_path / "dist")
    assert len(wheels) == 1 and re.fullmatch(r"layoutd-[\d.]+-py3-none-any\.whl", wheels[0]), wheels
    shutil.rmtree(source)
    environment = tmp_path / "env"
    venv.EnvBuilder(system_site_packages=True, with_pip=True).create(environment)
    python = str(environment / "bin" / "python")
    install = subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", str(tmp_path / "dist" / wheels[0])],
                             capture_output=True, text=True, cwd=tmp_path)
    assert install.returncode == 0, install.stdout + install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = dict(os.environ, LAYOUTD_SOCKET=socket_path, PYTHONPATH="")
    done = subprocess.run([python, "-c", "import layoutd\nwith layoutd.Client() as c: print(len(c.layout('Hello, wheel', width=1000).lines), layoutd.__file__)"],
                          capture_output=True, text=True, cwd=elsewhere, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[0] == "1" and str(environment) in done.stdout
