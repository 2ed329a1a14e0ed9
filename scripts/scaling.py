#!/usr/bin/python3
"""Throughput with 1 and 2 daemon threads (event loops and workers, each), with the clients
pinned apart from the daemon where the machine allows (`taskset`), and the daemon's CPU per
caption: what docs/performance.md's scaling model starts from.

Each client connection sends the corpus as batch_layout requests (the client's own work is
reading frames, a small share of the daemon's), as many connections as daemon threads, several
passes; the daemon runs with its shipped configuration (the shaping cache on, cold at the start
of each run, so the figures include the cache's shared locks) and again without a cache.

    scripts/scaling.py [--binary PATH] [--passes N] [--rounds N] [--svg FILE]

Prints a Markdown table; --svg draws captions a second against threads.
"""
import argparse
import importlib.util
import os
import statistics
import subprocess
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_spec = importlib.util.spec_from_file_location("kernel_cost", os.path.join(HERE, "kernel-cost.py"))
kernel_cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_cost)
daemon_instructions = kernel_cost.daemon_instructions


def run(binary, threads, cpus, client_cpus, frame, items, connections, passes, cache):
    """Captions a second and the daemon's CPU a caption for one configuration."""
    options = ["--threads", str(threads)] + ([] if cache else ["--shaping-cache-entries", "0"])
    work = tempfile.mkdtemp()
    daemon = kernel_cost.Daemon(binary, work, tuple(options))
    try:
        subprocess.run(["taskset", "-a", "-p", "-c", cpus, str(daemon.process.pid)], check=True, stdout=subprocess.DEVNULL)
        os.sched_setaffinity(0, {int(c) for c in client_cpus.split(",")})
        kernel_cost.batch(daemon.path, frame, items)  # warm: threads made, pages touched
        before = daemon.stats()
        start = time.perf_counter()
        def client():
            for _ in range(passes):
                kernel_cost.batch(daemon.path, frame, items)
        workers = [threading.Thread(target=client) for _ in range(connections)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()
        elapsed = time.perf_counter() - start
        after = daemon.stats()
        done = items * passes * connections
        return done / elapsed, (after[0] - before[0]) / 1e9 / done
    finally:
        os.sched_setaffinity(0, set(range(os.cpu_count())))
        daemon.stop()


def svg(rows, path):
    width, height, left, bottom = 520, 300, 70, 250
    top = max(rate for _, _, rate, _ in rows) * 1.15
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
             '<text x="10" y="18" font-weight="bold">Captions a second against daemon threads (batch_layout)</text>',
             f'<line x1="{left}" y1="{bottom}" x2="{width - 20}" y2="{bottom}" stroke="#333"/>',
             f'<line x1="{left}" y1="{bottom}" x2="{left}" y2="40" stroke="#333"/>']
    palette = ["#3a6ea5", "#c0504d", "#9bbb59", "#8064a2"]
    colours = {label: palette[k % len(palette)] for k, label in enumerate(dict.fromkeys(name for name, _, _, _ in rows))}
    for label in colours:
        points = [(threads, rate) for name, threads, rate, _ in rows if name == label]
        xy = [(left + (t - 0.5) * 160, bottom - rate / top * (bottom - 40)) for t, rate in points]
        parts.append(f'<polyline fill="none" stroke="{colours[label]}" stroke-width="2" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in xy)}"/>')
        for (x, y), (t, rate) in zip(xy, points):
            parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{colours[label]}"/>')
            parts.append(f'<text x="{x + 8:.1f}" y="{y - 6:.1f}">{rate:,.0f}/s</text>')
    for t in (1, 2):
        parts.append(f'<text x="{left + (t - 0.5) * 160 - 20:.1f}" y="{bottom + 18}">{t} thread{"s" if t > 1 else ""}</text>')
    for k, (label, colour) in enumerate(colours.items()):
        parts.append(f'<rect x="{width - 150}" y="{50 + 18 * k}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{width - 132}" y="{60 + 18 * k}">{os.path.basename(label) if "/" not in label else label.split(",")[0]}</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", help="a layoutd to measure (default the release build); given twice or "
                        "more, each is measured in turn within every round, so the builds meet the same machine")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--svg")
    arguments = parser.parse_args()
    envelope_pb2, _ = daemon_instructions.layoutd_client.load()
    texts = daemon_instructions.captions(0)
    frame = daemon_instructions.batch_request(envelope_pb2, texts)
    cores = os.cpu_count()
    # 1 thread: the daemon on CPU 0, the client apart on CPU 1. 2 threads: the daemon on both, the
    # client on CPU 1 too (a 2-core machine has no third); its share is measured as the gap
    # between the daemon's CPU and the wall time.
    configurations = [(1, "0", "1" if cores > 1 else "0"), (2, "0,1" if cores > 1 else "0", "1" if cores > 1 else "0")]
    binaries = arguments.binary or [os.path.join(ROOT, ".build", "release", "layoutd")]
    results = {}
    for _ in range(arguments.rounds):
        for cache in (True, False):
            for threads, cpus, client_cpus in configurations:
                for binary in binaries:
                    label = ("shipped cache" if cache else "no cache") + ("" if len(binaries) == 1 else f", {binary}")
                    results.setdefault((label, threads), []).append(run(binary, threads, cpus, client_cpus, frame, len(texts), threads,
                                                                        arguments.passes, cache))
    rows = []
    for (label, threads), measured in sorted(results.items(), key=lambda item: (item[0][0], item[0][1])):
        rows.append((label, threads, statistics.median(m[0] for m in measured), statistics.median(m[1] for m in measured)))
    print(f"{len(texts)} captions a batch, {arguments.passes} passes a connection, medians of {arguments.rounds} rounds; "
          f"{cores} CPUs\n")
    print("| daemon | threads (loops and workers, each) | daemon CPUs | client CPU | connections | captions a second | "
          "× 1 thread | daemon CPU a caption |")
    print("|---|---|---|---|---|---|---|---|")
    for label, threads, rate, cpu in rows:
        single = next(r for l, t, r, _ in rows if l == label and t == 1)
        _, cpus, client_cpus = next(c for c in configurations if c[0] == threads)
        print(f"| {label} | {threads} | {cpus} | {client_cpus} | {threads} | {rate:,.0f} | {rate / single:.2f}× | {cpu * 1e6:.1f} µs |")
    if arguments.svg:
        svg(rows, arguments.svg)


if __name__ == "__main__":
    main()
