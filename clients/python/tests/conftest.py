"""The real daemon for the tests: `layoutd` from $LAYOUTD_BINARY, else the Swift build's
debug binary, on a socket of its own, with no configuration file."""
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
# The package in this tree (test_package.py tests the one pip installs).
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))


def daemon_binary():
    binary = os.environ.get("LAYOUTD_BINARY") or os.path.join(ROOT, ".build", "debug", "layoutd")
    if not os.access(binary, os.X_OK):
        pytest.fail(f"no layoutd binary at {binary}: run `swift build` or set LAYOUTD_BINARY")
    return binary


class Daemon:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="layoutd-py-")
        self.socket_path = os.path.join(self.dir, "layoutd.sock")
        self.log = open(os.path.join(self.dir, "stderr"), "w+")
        self.start()

    def restart(self, crash=False):
        """A new daemon on the same socket, after the old one stopped (SIGTERM) or crashed (SIGKILL)."""
        if crash:
            self.process.kill()
            self.process.wait(30)
        else:
            self.terminate()
        self.start()

    def start(self):
        self.process = subprocess.Popen([daemon_binary(), "--socket", self.socket_path, "--config", "/dev/null",
                                         "--log-level", "warning"], stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                self.log.seek(0)
                raise RuntimeError(f"layoutd exited with {self.process.returncode}: {self.log.read()}")
            try:
                with socket.socket(socket.AF_UNIX) as probe:
                    probe.connect(self.socket_path)
                return
            except OSError:
                time.sleep(0.02)
        raise RuntimeError("layoutd did not start serving")

    def terminate(self):
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()

    def stop(self):
        """Stops the daemon and removes its directory (socket and log): a run leaves nothing in /tmp."""
        self.terminate()
        self.log.close()
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def daemon():
    running = Daemon()
    yield running
    running.stop()


@pytest.fixture
def socket_path(daemon, monkeypatch):
    """The daemon's socket, also as $LAYOUTD_SOCKET (where a client without a path looks)."""
    monkeypatch.setenv("LAYOUTD_SOCKET", daemon.socket_path)
    return daemon.socket_path


@pytest.fixture
def own_daemon(monkeypatch):
    """A daemon of the test's own, to restart or crash."""
    running = Daemon()
    monkeypatch.setenv("LAYOUTD_SOCKET", running.socket_path)
    yield running
    running.stop()
