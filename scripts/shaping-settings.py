#!/usr/bin/python3
"""What a flood of distinct shaping settings leaves behind in the daemon: its resident memory,
and the time of a plain layout, before and after N layout requests that each give a language or
a feature value never sent before (what a careless or hostile client sends). HarfBuzz keeps a
shape plan on the face for every setting it shapes with and searches them on every call;
layoutd keeps at most 256 (ShapingSettings) and shapes the rest on a face made for the call.

One daemon per binary and kind, run one after the other, without the shaping cache (so every
request shapes); the plain layout is timed as the median of 300 round trips from this script,
and then a Han caption with a setting never seen before, as the median of 100 (each makes a
plan; past the kept settings, on a face made for it).

    scripts/shaping-settings.py [--binary PATH ...] [--count N]
"""
import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
import layoutd_client  # noqa: E402


def resident_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def measure(binary, kind, count):
    envelope_pb2, _ = layoutd_client.load()
    work = tempfile.mkdtemp()
    path = os.path.join(work, "d.sock")
    daemon = subprocess.Popen([binary, "--socket", path, "--config", "/dev/null", "--log-level", "error",
                               "--shaping-cache-entries", "0"], stdout=subprocess.DEVNULL)
    try:
        deadline = time.time() + 30
        while not os.path.exists(path):
            if time.time() > deadline or daemon.poll() is not None:
                raise SystemExit("shaping-settings: the daemon did not start")
            time.sleep(0.05)
        time.sleep(0.3)
        sock = layoutd_client.connect(path)
        reader = layoutd_client.FrameReader(sock)
        next_id = [1]

        def layout(language="", feature=None, text="A caption of a few words, laid out again and again.", family="Noto Sans"):
            envelope = envelope_pb2.Envelope(request_id=next_id[0])
            next_id[0] += 1
            envelope.layout.text = text
            envelope.layout.width = 300
            envelope.layout.default_style.family = family
            envelope.layout.default_style.size = 24
            if language:
                envelope.layout.default_style.language = language
            if feature:
                added = envelope.layout.default_style.features.add()
                added.tag, added.value = feature
            sock.sendall(layoutd_client.frame(envelope))
            reply = envelope_pb2.Envelope()
            reply.ParseFromString(reader.frame())
            if reply.WhichOneof("body") == "error":
                raise SystemExit(f"shaping-settings: {reply.error.field}: {reply.error.message}")

        def plain_microseconds():
            times = []
            for _ in range(300):
                start = time.perf_counter()
                layout()
                times.append((time.perf_counter() - start) * 1e6)
            return statistics.median(times)

        for _ in range(300):
            layout()
        before = (resident_mib(daemon.pid), plain_microseconds())
        for index in range(count):
            if kind == "languages":
                layout(language=f"x-c{index}")
            else:
                layout(feature=("salt", index + 2))
        after = (resident_mib(daemon.pid), plain_microseconds())
        # What a request with a setting never seen before costs now (past the kept settings, a
        # face is made for it): Han text in Noto Sans CJK, the largest face's plan.
        times = []
        for index in range(100):
            start = time.perf_counter()
            layout(feature=("salt", count + 2 + index), text="縦書きの文章と横書きの文章。", family="Noto Sans CJK JP")
            times.append((time.perf_counter() - start) * 1e6)
        sock.close()
        return before, after, statistics.median(times)
    finally:
        daemon.terminate()
        daemon.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", help="a layoutd to measure (repeat to compare; default: the release build)")
    parser.add_argument("--count", type=int, default=10_000, help="distinct settings sent (default 10,000)")
    arguments = parser.parse_args()
    binaries = arguments.binary or [os.path.join(ROOT, ".build", "release", "layoutd")]
    print("| binary | settings | resident MiB before → after | plain layout µs before → after (median of 300) | × "
          "| a new setting's Han layout µs after (median of 100) |")
    print("|---|---|---|---|---|---|")
    for kind in ("languages", "features"):
        for binary in binaries:
            (rss0, t0), (rss1, t1), fresh = measure(binary, kind, arguments.count)
            print(f"| {binary} | {arguments.count:,} distinct {kind} | {rss0:.0f} → {rss1:.0f} | {t0:.0f} → {t1:.0f} | {t1 / t0:.2f}× "
                  f"| {fresh:.0f} |", flush=True)


if __name__ == "__main__":
    main()
