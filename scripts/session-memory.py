#!/usr/bin/python3
"""What editing sessions leave in the daemon's memory after they close.

The release layoutd starts with its defaults; its resident memory (VmRSS, and its anonymous and
file-backed parts) is read after a hello,
after SESSIONS connections have each opened a document of 200 corpus captions, typed and deleted
a character in 20 of its paragraphs, and closed, and again after a second round of as many
sessions (memory a first round leaves and a second reuses is not a leak). Run with
--shaping-cache-entries 0 too, to tell the cache's bounded share from the rest.

    scripts/session-memory.py [--binary PATH] [--sessions N] [--daemon-options "…"]
"""
import argparse
import importlib.util
import os
import socket
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("kernel_cost", os.path.join(HERE, "kernel-cost.py"))
kernel_cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_cost)
daemon_instructions = kernel_cost.daemon_instructions
layoutd_client = daemon_instructions.layoutd_client


def rss_kib(pid):
    """(resident, anonymous, file-backed) KiB: the binary's code pages that new paths fault in
    are file-backed, and the kernel drops them under pressure; anonymous memory is the heap."""
    found = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            name = line.split(":")[0]
            if name in ("VmRSS", "RssAnon", "RssFile"):
                found[name] = int(line.split()[1])
    return found["VmRSS"], found["RssAnon"], found["RssFile"]


def session_frames(envelope_pb2, texts, first):
    """Open a document of `texts`, then type and delete a character in 20 of its paragraphs."""
    def envelope(request_id):
        made = envelope_pb2.Envelope()
        made.request_id = request_id
        return made
    opening = envelope(1)
    opening.open_document.layout.width = 300
    opening.open_document.layout.default_style.family = "Noto Sans"
    opening.open_document.layout.default_style.size = 16
    chosen = [texts[(first + k * 7) % len(texts)].replace("\n", " ") for k in range(200)]
    opening.open_document.layout.text = "\n".join(chosen)
    frames = [layoutd_client.frame(opening)]
    start = 0
    for index, text in enumerate(chosen):
        if index % 10 == 0:
            for length, typed in ((0, "x"), (1, "")):
                edit = envelope(2 + len(frames))
                edit.edit_document.document = 1
                change = edit.edit_document.edits.add()
                change.replace.range.start = start
                change.replace.range.length = length
                change.replace.text = typed
                frames.append(layoutd_client.frame(edit))
        start += len(text.encode("utf-16-le")) // 2 + 1
    return frames


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "layoutd"))
    parser.add_argument("--sessions", type=int, default=100)
    parser.add_argument("--daemon-options", default="", help='options for layoutd, e.g. "--shaping-cache-entries 0"')
    arguments = parser.parse_args()
    envelope_pb2, _ = layoutd_client.load()
    texts = daemon_instructions.captions(0)
    options = arguments.daemon_options.split()
    daemon = kernel_cost.Daemon(arguments.binary, tempfile.mkdtemp(), options)
    path = daemon.path
    try:
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(path)
        probe.sendall(daemon_instructions.hello_request(envelope_pb2))
        daemon_instructions.receive(probe)
        time.sleep(0.5)
        readings = [("after a hello", rss_kib(daemon.process.pid))]
        for round_ in (1, 2):
            for session in range(arguments.sessions):
                sock = socket.socket(socket.AF_UNIX)
                sock.connect(path)
                for frame in session_frames(envelope_pb2, texts, session * 13 + round_):
                    sock.sendall(frame)
                    daemon_instructions.receive(sock)
                sock.close()
            time.sleep(1.5)  # closed connections' documents are dropped on their event loop
            readings.append((f"after {arguments.sessions} sessions closed (round {round_})", rss_kib(daemon.process.pid)))
        probe.close()
    finally:
        daemon.stop()
    base = readings[0][1]
    print(f"options: {' '.join(options) or '(defaults)'}")
    for name, kib in readings:
        print(f"{name}: resident {kib[0] / 1024:.1f} MiB ({(kib[0] - base[0]) / 1024:+.1f}), "
              f"anonymous {kib[1] / 1024:.1f} ({(kib[1] - base[1]) / 1024:+.1f}), file {kib[2] / 1024:.1f} ({(kib[2] - base[2]) / 1024:+.1f})")


if __name__ == "__main__":
    main()
