#!/usr/bin/python3
"""Locks and atomics a request takes in the daemon, counted by callgrind: what would serialise
threads on a machine with many cores (docs/performance.md, "Scaling").

Runs the release layoutd under callgrind (as scripts/daemon-instructions.py does: a hello, then
every caption once in one run and twice in another, the difference one pass) with its shipped
configuration (the shaping cache on), and counts the calls per request into each shared
structure's locked or atomic entry points, and the runtime's reference counting (an atomic
read-modify-write each; on an object every thread touches, the cache line travels between cores).

    scripts/lock-traffic.py [--kind layout|batch] [--captions N] [--binary PATH]
"""
import argparse
import collections
import importlib.util
import os
import re
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("daemon_instructions", os.path.join(HERE, "daemon-instructions.py"))
daemon_instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(daemon_instructions)

# What each shared structure's lock or atomic is reached through, by the callee's mangled name
# (Swift's Mutex.withLock is inlined: the function that calls it is counted).
SHARED = [
    ("shaping cache (16 shards by key), look-ups", r"ShapingCache.*lookup"),
    ("shaping cache (16 shards by key), stores", r"ShapingCache.*store"),
    ("server stats (8 shards by thread)", r"LayoutServer0B5StatsC6record12microseconds6failedySd_SbtF$"),
    ("request metrics: count and latency bucket (8 shards by thread)",
     r"LayoutServer0B7MetricsC6record4type4code12microsecondsys12StaticStringV_SSSgSdtF$"),
    ("requests in flight (one lock)", r"InFlightTracker.*(begin|end)"),
    ("current processor (its lock only after a reload: a connection keeps the one it read)", r"ProcessorSwitchC7current"),
    ("context pool (8 shards by thread), takes and gives", r"ContextPoolC(4take8layouter6budget|4giveyy).*F$"),
    ("pthread mutexes (NIO's task queues, its thread pool, the metrics' histogram)", r"^pthread_mutex_lock"),
    ("futex waits and wakes (threads parked, woken)", r"^(syscall|futex)"),
    ("reference counts: retains (atomic add)", r"^swift_(retain|bridgeObjectRetain|nonatomic_retain)(_n)?$"),
    ("reference counts: releases (atomic subtract)", r"^swift_(release|bridgeObjectRelease)(_n)?$"),
]


def calls(profile):
    """Calls into each function, by name, summed over the whole profile."""
    names, counted = {}, collections.Counter()
    callee = None
    with open(profile, errors="replace") as lines:
        for line in lines:
            if line.startswith(("cfn=", "cfi=", "fn=")) and line.startswith("cfn="):
                match = re.match(r"cfn=\((\d+)\)(?: (.*))?", line.strip())
                if match:
                    if match.group(2):
                        names[match.group(1)] = match.group(2)
                    callee = names.get(match.group(1))
            elif line.startswith("fn="):
                match = re.match(r"fn=\((\d+)\)(?: (.*))?", line.strip())
                if match and match.group(2):
                    names[match.group(1)] = match.group(2)
            elif line.startswith("calls=") and callee:
                counted[callee] += int(line.split()[0][6:])
    return counted


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kind", choices=["layout", "batch"], default="layout")
    parser.add_argument("--captions", type=int, default=400)
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(HERE), ".build", "release", "layoutd"))
    arguments = parser.parse_args()
    stripped = os.path.join(tempfile.mkdtemp(), "layoutd")
    subprocess.run(["objcopy", "--strip-debug", arguments.binary, stripped], check=True)
    envelope_pb2, layout_pb2 = daemon_instructions.layoutd_client.load()
    texts = daemon_instructions.captions(arguments.captions)
    if arguments.kind == "batch":
        frames = [(daemon_instructions.batch_request(envelope_pb2, texts), len(texts))]
    else:
        frames = [(daemon_instructions.request(envelope_pb2, layout_pb2, "layout", text, 2 + k), 1) for k, text in enumerate(texts)]
    work = tempfile.mkdtemp()
    one, two = os.path.join(work, "one"), os.path.join(work, "two")
    daemon_instructions.count(stripped, frames, 1, keep=one)
    daemon_instructions.count(stripped, frames, 2, keep=two)
    before, after = calls(one), calls(two)
    per = {name: (after[name] - before[name]) / len(texts) for name in set(before) | set(after)}
    print(f"{arguments.kind}: {len(texts)} captions, the shipped shaping cache (warm after the first pass); calls a request\n")
    print("| shared structure | reached through | calls a request |")
    print("|---|---|---|")
    for label, pattern in SHARED:
        matched = {name: count for name, count in per.items() if re.search(pattern, name) and count > 0}
        total = sum(matched.values())
        print(f"| {label} | `{pattern}` | {total:.2f} |")


if __name__ == "__main__":
    main()
