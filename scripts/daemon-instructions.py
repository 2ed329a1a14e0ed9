#!/usr/bin/python3
"""Instructions the daemon spends per request, counted by callgrind: the server path included
(framing, decoding, the event loop or the pool, accounting, encoding; the kernel's socket work is
not counted), repeatable whatever else the machine is doing.

The release layoutd (scripts/build-release.sh --product layoutd) runs under callgrind answering a
hello and then every caption's request, once in one run and twice in another; the difference is one pass with the daemon's start-up and
its one-time work (the runtime's first lookups, HarfBuzz's first use of each table) left out, as
scripts/count-instructions.sh leaves them out in process. Cold: the daemon runs with
--shaping-cache-entries 0, so every request shapes its text; warm: with its cache, which the
first pass filled. The client is this script, outside valgrind, on one connection, one request
at a time; with --kind batch, every caption in one batch_layout request (the layout request's
options shared), answered item by item; with --pipelined N, N requests sent at once and their N
replies read before the next N are sent, so the daemon reads them together and answers them in
one pass, as it does a client keeping requests in flight (kernel-cost.py's 8 in flight).

    scripts/daemon-instructions.py [--kind layout|justify|batch] [--captions N] [--binary PATH] [--profile FILE] [--runs N] [--pipelined N]
    scripts/daemon-instructions.py --simulate [--bench PATH] [--binary PATH] [--pipelined N]

With --simulate the cold pass runs once under callgrind's cache and branch simulation, and the
script prints the events a request besides its instructions (cache misses, mispredicted
branches), with --bench beside the floor's and in-process layout's in the same run: why a
request's time is further from the floor's than its instructions are (kernel-cost.md).
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "clients", "python"))
import layoutd_client  # noqa: E402  (the protobuf modules of clients/python/layoutd)


DEFAULT_CORPUS = os.path.join(ROOT, "..", "shared", "corpus", "captions.jsonl")


def captions(count, path=DEFAULT_CORPUS):
    with open(path, encoding="utf-8") as lines:
        texts = [json.loads(line)["text"] for line in lines if line.strip()]
    return texts[:count] if count else texts


def request(envelope_pb2, layout_pb2, kind, text, request_id):
    """A caption's request frame. `kind`: layout, justify, or layout-on-the-pool (a layout with a
    per-line background, which makes it the worker pool's work rather than the event loop's)."""
    envelope = envelope_pb2.Envelope()
    envelope.request_id = request_id
    if kind in ("layout", "layout-on-the-pool"):
        envelope.layout.text = text
        envelope.layout.width = 300
        envelope.layout.default_style.family = "Noto Sans"
        envelope.layout.default_style.size = 24
        if kind == "layout-on-the-pool":
            background = envelope.layout.backgrounds.add()
            background.kind = background.PER_LINE
    else:
        envelope.justify.text = text
        envelope.justify.width = 300
        envelope.justify.style.family = "Noto Sans"
    return layoutd_client.frame(envelope)


def hello_request(envelope_pb2, request_id=1):
    """A hello's frame: the daemon's least work."""
    envelope = envelope_pb2.Envelope()
    envelope.request_id = request_id
    envelope.hello.SetInParent()
    return layoutd_client.frame(envelope)


def batch_request(envelope_pb2, texts):
    """Every caption in one batch_layout, with the layout request's options shared."""
    envelope = envelope_pb2.Envelope()
    envelope.request_id = 2
    shared = envelope.batch_layout.layout
    shared.width = 300
    shared.default_style.family = "Noto Sans"
    shared.default_style.size = 24
    envelope.batch_layout.texts.extend(texts)
    return layoutd_client.frame(envelope)


def receive(sock):
    """One reply frame's body; an error, not a wait, if the daemon closes the connection."""
    def read(count):
        data = sock.recv(count)
        if not data:
            raise SystemExit("the daemon closed the connection")
        return data
    header = b""
    while len(header) < 4:
        header += read(4 - len(header))
    (length,) = struct.unpack(">I", header)
    body = b""
    while len(body) < length:
        body += read(min(1 << 20, length - len(body)))
    return body


# Callgrind's cache and branch simulation (a 32 KiB 8-way first-level instruction and data cache,
# as this machine's, and a last level): the events besides instructions that the time a request
# takes depends on, which instruction counts do not show.
SIMULATION = ("--cache-sim=yes", "--branch-sim=yes")


def events_of(err):
    """Every event callgrind collected (Ir, I1mr, D1mr, …) from its closing lines on stderr."""
    names = re.search(r"Events\s*:\s*([\w ]+)", err).group(1).split()
    values = re.search(r"Collected\s*:\s*([\d ]+)", err).group(1).split()
    return dict(zip(names, map(int, values)))


def count(binary, frames, passes, options=(), keep=None, first=(), simulate=False):
    """Instructions callgrind collects in a daemon that answers a hello, then `first` once (an
    opened document), then `frames` `passes` times; with `simulate`, every event of callgrind's
    cache and branch simulation, by name."""
    work = tempfile.mkdtemp()
    try:
        sock_path = os.path.join(work, "d.sock")
        out = os.path.join(work, "callgrind.out")
        valgrind = subprocess.Popen(
            ["valgrind", "--tool=callgrind", *(SIMULATION if simulate else ()), f"--callgrind-out-file={out}",
             *(["--dump-instr=yes"] if keep else []), binary, "--socket", sock_path,
             "--config", "/dev/null", "--threads", "1", "--log-level", "error",
             # A batch's chunks are slices of wall time; callgrind runs the daemon some 50 times
             # slower, so its slice is stretched as much to chunk a batch as it is chunked natively.
             "--batch-slice-us", "100000", *options],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.time() + 300
        client = socket.socket(socket.AF_UNIX)
        while True:  # the file appears at bind, connections are taken from listen on
            try:
                client.connect(sock_path)
                break
            except (FileNotFoundError, ConnectionRefusedError):
                if valgrind.poll() is not None or time.time() > deadline:
                    raise SystemExit("daemon-instructions: layoutd did not start: " + valgrind.stderr.read())
                time.sleep(0.2)
        envelope_pb2, _ = layoutd_client.load()
        client.sendall(hello_request(envelope_pb2))
        receive(client)
        for frame in first:
            client.sendall(frame)
            receive(client)
        for _ in range(passes):
            for frame, replies in frames:  # a frame (or several sent at once) and its replies, then the next
                client.sendall(frame)
                for _ in range(replies):
                    receive(client)
        # Every reply is in: nothing after this is a request's. The shutdown is left out of the
        # count (a daemon that frees its caches and documents as it exits in one run and not in
        # the other moved a keystroke's figure by some 1,900 instructions).
        switched = subprocess.run(["callgrind_control", "--instr=off", str(valgrind.pid)], stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL, timeout=60)
        if switched.returncode != 0:
            print("daemon-instructions: callgrind_control could not switch the count off; the shutdown is counted",
                  file=sys.stderr)
        client.close()
        valgrind.send_signal(signal.SIGTERM)
        _, err = valgrind.communicate(timeout=300)
        found = re.search(r"Collected : (\d+)", err)
        if keep:
            shutil.copy(out, keep)
        if not found:
            raise SystemExit("daemon-instructions: no count from callgrind: " + err[-2000:])
        return events_of(err) if simulate else int(found.group(1))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def in_process_events(bench, kind, captions):
    """Callgrind's simulated events a caption of `layoutd-bench`'s `kind` pass (floor or cold, over
    every caption of the corpus): one repeat subtracted from two, start-up left out."""
    work = tempfile.mkdtemp()
    try:
        stripped = os.path.join(work, "bench")
        subprocess.run(["objcopy", "--strip-debug", bench, stripped], check=True)
        def run(repeats):
            done = subprocess.run(["valgrind", "--tool=callgrind", *SIMULATION, f"--callgrind-out-file={work}/out",
                                   stripped, "--no-daemon", "--repeats", str(repeats)],
                                  env=dict(os.environ, LAYOUTD_BENCH_PROFILE=kind), stdout=subprocess.DEVNULL,
                                  stderr=subprocess.PIPE, text=True, check=True)
            return events_of(done.stderr)
        one, two = run(1), run(2)
        return {name: (two[name] - one[name]) / captions for name in one}
    finally:
        shutil.rmtree(work, ignore_errors=True)


# The rows of the simulation's table: what each is, and how it is made of callgrind's events.
SIMULATED_ROWS = [
    ("instructions", ("Ir",)),
    ("first-level instruction cache misses", ("I1mr",)),
    ("first-level data cache misses (reads and writes)", ("D1mr", "D1mw")),
    ("last-level misses (instructions and data)", ("ILmr", "DLmr", "DLmw")),
    ("conditional branches", ("Bc",)),
    ("mispredicted: conditional and indirect branches", ("Bcm", "Bim")),
]


def simulate(arguments, stripped, frames, captions):
    """The cold pass's simulated events a request through the daemon, beside the floor's and
    in-process layout's a caption (with --bench) measured in the same run."""
    cache_off = ("--shaping-cache-entries", "0")
    two = count(stripped, frames, 2, cache_off, simulate=True)
    one = count(stripped, frames, 1, cache_off, simulate=True)
    daemon = {name: (two[name] - one[name]) / captions for name in two}
    columns = []
    if arguments.bench:
        columns = [("floor (HarfBuzz, in process)", in_process_events(arguments.bench, "floor", captions)),
                   ("layout in process (cold)", in_process_events(arguments.bench, "cold", captions))]
    pipelined = f", {arguments.pipelined} at once" if arguments.pipelined > 1 else ""
    columns.append((f"{arguments.kind} through the daemon (cold{pipelined})", daemon))
    print(f"{captions} captions, callgrind's cache and branch simulation, a request (a caption in process):\n")
    print("| event | " + " | ".join(title for title, _ in columns) + " |")
    print("|---|" + "---|" * len(columns))
    for title, names in SIMULATED_ROWS:
        print(f"| {title} | " + " | ".join(f"{sum(events[n] for n in names):,.0f}" for _, events in columns) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=["layout", "justify", "batch"], default="layout")
    parser.add_argument("--captions", type=int, default=0, help="the first N captions (default: all)")
    parser.add_argument("--corpus", default=DEFAULT_CORPUS,
                        help="JSON lines with a \"text\" each (default: ../shared/corpus/captions.jsonl); the floor to divide by "
                        "is counted over the same file (LAYOUTD_CORPUS=FILE scripts/count-instructions.sh floor cold)")
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "layoutd"))
    parser.add_argument("--profile", help="keep callgrind's output of the cold passes as PROFILE.1 and PROFILE.2 (one pass and two: "
                        "their difference in callgrind_annotate is one pass, start-up left out), with costs per "
                        "instruction (--dump-instr=yes)")
    parser.add_argument("--runs", type=int, default=1,
                        help="count N times and report the medians: a count moved by some hundreds from run to run on "
                        "glibc's allocator (its free lists) and by tens on mimalloc, which the daemon links, so a "
                        "change smaller than that needs several runs to be seen")
    parser.add_argument("--simulate", action="store_true",
                        help="count the cold pass once under callgrind's cache and branch simulation and print its events a "
                        "request (instruction and data cache misses, mispredicted branches): what the time a request takes "
                        "depends on besides its instructions")
    parser.add_argument("--bench", help="with --simulate and every caption: layoutd-bench (a release build) for the floor's "
                        "and in-process layout's events a caption beside the daemon's")
    parser.add_argument("--pipelined", type=int, default=1, metavar="N",
                        help="send N requests at once and read their N replies before the next N (layout and justify; "
                        "default 1, one at a time)")
    arguments = parser.parse_args()
    if arguments.pipelined < 1 or (arguments.pipelined > 1 and arguments.kind == "batch"):
        parser.error("--pipelined takes a number of requests, 1 or more, and goes with --kind layout or justify")
    if arguments.bench and (not arguments.simulate or arguments.captions or arguments.kind != "layout"
                            or arguments.corpus != DEFAULT_CORPUS):
        parser.error("--bench goes with --simulate, --kind layout and every caption of the default corpus")
    # valgrind 3.19 cannot read the DWARF 5 that Swift writes: count a copy without it.
    stripped = os.path.join(tempfile.mkdtemp(), "layoutd")
    subprocess.run(["objcopy", "--strip-debug", arguments.binary, stripped], check=True)
    envelope_pb2, layout_pb2 = layoutd_client.load()
    texts = captions(arguments.captions, arguments.corpus)
    if arguments.kind == "batch":
        frames = [(batch_request(envelope_pb2, texts), len(texts))]
    else:
        single = [request(envelope_pb2, layout_pb2, arguments.kind, text, 2 + k) for k, text in enumerate(texts)]
        groups = (single[k:k + arguments.pipelined] for k in range(0, len(single), arguments.pipelined))
        frames = [(b"".join(group), len(group)) for group in groups]
    if arguments.simulate:
        simulate(arguments, stripped, frames, len(texts))
        return
    cache_off = ("--shaping-cache-entries", "0")
    keep = (arguments.profile + ".2", arguments.profile + ".1") if arguments.profile else (None, None)
    colds, warms = [], []
    for run in range(max(1, arguments.runs)):
        kept = keep if run == 0 else (None, None)
        colds.append((count(stripped, frames, 2, cache_off, keep=kept[0]) - count(stripped, frames, 1, cache_off, keep=kept[1])) / len(texts))
        warms.append((count(stripped, frames, 2) - count(stripped, frames, 1)) / len(texts))
    cold, warm = statistics.median(colds), statistics.median(warms)
    unit = "an item" if arguments.kind == "batch" else "a request"
    if arguments.pipelined > 1:
        unit += f" ({arguments.pipelined} sent at once)"
    runs = (f" (medians of {len(colds)} runs; cold {', '.join(f'{c:,.0f}' for c in colds)}; warm {', '.join(f'{w:,.0f}' for w in warms)})"
            if len(colds) > 1 else "")
    print(f"{arguments.kind}: {len(texts)} captions through the daemon; cold {cold:,.0f} instructions {unit}, warm {warm:,.0f}{runs}")


if __name__ == "__main__":
    main()
