#!/usr/bin/python3
"""Where a batch's time goes, thread by thread: the daemon's CPU an item on each of its threads
(the event loops, the pool's workers) and the wall time an item, for one batch of every caption
sent again and again to one release layoutd (no shaping cache, as scripts/kernel-cost.py runs it).

A worker busy for the whole wall time, and the loop's share small beside it, say that the batch
waits on nothing between its chunks; workers' CPU summing to less than the wall time is time the
batch waited (a hand-over through the loop, a worker waking). Which worker ran which chunks shows
whether a batch's chunks stayed on one thread (docs/design.md, "Batches and sharing the cores").

    scripts/batch-threads.py [--binary PATH] [--batches N] [--placement free|apart] [-- daemon options…]

`--placement apart` keeps this client on processor 0 and the daemon on processor 1. Prints one
line a batch.
"""
import argparse
import importlib.util
import os
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("kernel_cost", os.path.join(HERE, "kernel-cost.py"))
kernel_cost = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernel_cost)
daemon_instructions = kernel_cost.daemon_instructions


def thread_times(pid):
    """Each thread's name and run time (ns, /proc/PID/task/*/schedstat), by thread id."""
    times = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/schedstat") as f:
                run = int(f.read().split()[0])
            with open(f"/proc/{pid}/task/{task}/comm") as f:
                times[task] = (f.read().strip(), run)
        except FileNotFoundError:
            continue  # a thread that ended between the listing and the read
    return times


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(kernel_cost.ROOT, ".build", "release", "layoutd"))
    parser.add_argument("--batches", type=int, default=6)
    parser.add_argument("--placement", choices=["free", "apart"], default="free")
    parser.add_argument("options", nargs="*", help="more options for layoutd (after --)")
    arguments = parser.parse_args()
    envelope_pb2, _ = kernel_cost.layoutd_client.load()
    texts = daemon_instructions.captions(0)
    frame = daemon_instructions.batch_request(envelope_pb2, texts)
    apart = arguments.placement == "apart"
    daemon = kernel_cost.Daemon(arguments.binary, tempfile.mkdtemp(),
                                options=("--shaping-cache-entries", "0", *arguments.options), cpus={1} if apart else None)
    try:
        if apart:
            os.sched_setaffinity(0, {0})
        kernel_cost.batch(daemon.path, frame, len(texts))  # the first batch meets cold caches: not shown
        for _ in range(arguments.batches):
            before = thread_times(daemon.process.pid)
            start = time.perf_counter()
            kernel_cost.batch(daemon.path, frame, len(texts))
            wall = time.perf_counter() - start
            after = thread_times(daemon.process.pid)
            busy = sorted(((run - before.get(task, (name, 0))[1]) / 1e3 / len(texts), name)
                          for task, (name, run) in after.items())
            shown = ", ".join(f"{name} {us:.2f}" for us, name in reversed(busy) if us >= 0.05)
            print(f"wall {wall * 1e6 / len(texts):.2f} µs an item; CPU an item by thread (µs): {shown}", flush=True)
    finally:
        daemon.stop()


if __name__ == "__main__":
    main()
