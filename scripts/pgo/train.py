#!/usr/bin/env python3
"""The training run of a profile-guided release build (scripts/pgo/profile.sh): an instrumented
layoutd answers the kinds of request a deployment sends, over the texts in texts.txt beside this
file (captions written for this, in the corpus's scripts but none of its texts, so the corpus the
benchmarks measure is never what the build was trained on), and writes its counts when it stops.

    scripts/pgo/train.py --daemon INSTRUMENTED_LAYOUTD --profiles DIR [--layoutctl LAYOUTCTL]

Plain layouts and justify requests, one at a time and 8 in flight, lead the mix, as they lead
the daemon's traffic; a batch, pool-bound layouts and hellos follow, and with --layoutctl the
CLI's other requests (pictures, Type Mode, tags, hit-testing, rich text) once each, so no path a
user meets is left out of the profile and laid out as cold code.
"""
import argparse
import importlib.util
import os
import signal
import socket
import subprocess
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.dirname(HERE)
# The frames and the reply reader of the instruction counts, so the training sends what they measure.
_spec = importlib.util.spec_from_file_location("daemon_instructions", os.path.join(SCRIPTS, "daemon-instructions.py"))
daemon_instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(daemon_instructions)

ROUNDS = 20


def send(envelope_pb2, path, frames, replies_each, depth):
    """`frames` sent `depth` at a time on one connection, each answered by `replies_each` replies;
    an error reply stops the training, which would otherwise teach the build the error paths."""
    with socket.socket(socket.AF_UNIX) as sock:
        sock.connect(path)
        for start in range(0, len(frames), depth):
            chunk = frames[start:start + depth]
            sock.sendall(b"".join(chunk))
            for _ in range(len(chunk) * replies_each):
                reply = envelope_pb2.Envelope.FromString(daemon_instructions.receive(sock))
                failed = reply.error if reply.HasField("error") else (
                    reply.batch_item.error if reply.batch_item.HasField("error") else None)
                if failed is not None:
                    raise SystemExit(f"pgo-train: the daemon answered an error: {failed}")


def cli_requests(texts, out):
    """The CLI's other requests, once each (the demo's, on the training texts)."""
    latin, arabic, han = texts[0], texts[19], texts[14]
    return [
        ["layout", "--width", "300", "--size", "22", "--attachment", "40x40:center", "--attachment", "1x1em:bottom",
         "Meet me in \ufffc New York \ufffc tonight"],
        ["layout", "--width", "320", "--size", "22", "--rules", "builtin", "--hide-markers", "--underline", "single,skip-ink",
         "--span", "0:2:color=#d01010,background=#ffe066", "1. Buy *milk* and _eggs_ -now- ~please~"],
        ["layout", "--width", "200", "--size", "18", "--max-lines", "2", han],
        ["layout", "--width", "260", "--size", "20", "--align", "justified", texts[30]],
        ["layout", "--width", "320", "--size", "26", "--shadow", "2,3,4,#00000066", "-o", os.path.join(out, "a.png"), latin],
        ["hit", "--width", "260", "--size", "20", "--at-point", "120,12", "--caret", "4", "--range", "0,9", "--word", "6",
         "--move", "4:up:right", texts[29]],
        ["typemode", "--style", "strong", "--width", "300", "so\\nHAPPY\\nto see you all here tonight"],
        ["typemode", "--style", "neon", "--width", "300", "-o", os.path.join(out, "b.png"), arabic],
        ["tags", "--photo", "360x450", "--at", "0.42,0.61", "--label", "Nike|Air Max 90", "--label", "¥899", "--style", "3",
         "--tag", "0.7,0.25@2:上海|外滩"],
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--daemon", required=True, help="a layoutd built with -ir-profile-generate")
    parser.add_argument("--profiles", required=True, help="where the daemon writes its .profraw")
    parser.add_argument("--layoutctl", help="a layoutctl, to send the CLI's other requests too")
    arguments = parser.parse_args()
    with open(os.path.join(HERE, "texts.txt"), encoding="utf-8") as lines:
        texts = [line.rstrip("\n") for line in lines if line.strip()]
    envelope_pb2, layout_pb2 = daemon_instructions.layoutd_client.load()
    work = tempfile.mkdtemp(prefix="layoutd-pgo-")
    path = os.path.join(work, "d.sock")
    env = dict(os.environ, LLVM_PROFILE_FILE=os.path.join(os.path.abspath(arguments.profiles), "layoutd-%p.profraw"))
    daemon = subprocess.Popen([arguments.daemon, "--socket", path, "--config", "/dev/null", "--log-level", "error"],
                              env=env, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while not os.path.exists(path):
        if daemon.poll() is not None or time.time() > deadline:
            raise SystemExit("pgo-train: layoutd did not start: " + daemon.stderr.read())
        time.sleep(0.05)
    try:
        def frames(kind):
            return [daemon_instructions.request(envelope_pb2, layout_pb2, kind, text, 1 + k) for k, text in enumerate(texts)]
        for _ in range(ROUNDS):
            for kind in ("layout", "justify"):
                each = frames(kind)
                send(envelope_pb2, path, each, 1, 1)
                send(envelope_pb2, path, each, 1, 8)
        send(envelope_pb2, path, frames("layout-on-the-pool"), 1, 8)
        send(envelope_pb2, path, [daemon_instructions.batch_request(envelope_pb2, texts * 5)], len(texts) * 5, 1)
        send(envelope_pb2, path, [daemon_instructions.hello_request(envelope_pb2, 1 + k) for k in range(20)], 1, 1)
        if arguments.layoutctl:
            cli_env = dict(os.environ, LAYOUTD_SOCKET=path, LLVM_PROFILE_FILE=os.path.join(work, "cli-%p.profraw"))
            for command in cli_requests(texts, work):
                subprocess.run([arguments.layoutctl, *command], env=cli_env, check=True, stdout=subprocess.DEVNULL)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
    if daemon.returncode != 0:
        raise SystemExit(f"pgo-train: layoutd exited with {daemon.returncode}: {daemon.stderr.read()}")


if __name__ == "__main__":
    main()
