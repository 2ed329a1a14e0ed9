#!/usr/bin/python3
"""A batch's CPU an item in the daemon, for two or more daemons (builds, options) measured in
turn: every daemon alive together, each sent the same batch of every caption in its turn, the
order reversed every other round, the daemon's CPU read from every thread's schedstat. Prints
each round, then each daemon's median and the median of its rounds' ratios to the first daemon.

Side by side in one run, the ratios hold where figures across runs do not (the machine is
shared and noisy). Each daemon runs without a shaping cache, as scripts/kernel-cost.py runs it.

    scripts/batch-cpu-ab.py [--rounds N] [--sends N] NAME=BINARY[,OPTION…] NAME=BINARY[,OPTION…]…

e.g. `before=/tmp/layoutd-main after=.build/release/layoutd` or, one build in three
configurations, `both=B one-lane=B,--batch-workers,1 one-thread=B,--threads,1`.
"""
import argparse
import importlib.util
import os
import statistics
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def load(name):
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


kernel_cost = load("kernel-cost")
batch_threads = load("batch-threads")
daemon_instructions = kernel_cost.daemon_instructions


def run_time(pid):
    """The process's run time so far, every thread's (ns)."""
    return sum(run for _, run in batch_threads.thread_times(pid).values())


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--sends", type=int, default=4, help="batches a daemon is sent in each of its turns")
    parser.add_argument("daemons", nargs="+", metavar="NAME=BINARY[,OPTION…]")
    arguments = parser.parse_args()
    envelope_pb2, _ = kernel_cost.layoutd_client.load()
    texts = daemon_instructions.captions(0)
    frame = daemon_instructions.batch_request(envelope_pb2, texts)
    daemons = {}
    try:
        for spec in arguments.daemons:
            name, _, rest = spec.partition("=")
            binary, *options = rest.split(",")
            daemons[name] = kernel_cost.Daemon(binary, tempfile.mkdtemp(), options=("--shaping-cache-entries", "0", *options))
            kernel_cost.batch(daemons[name].path, frame, len(texts))  # the first batch meets cold caches: not counted
        names = list(daemons)
        cpu = {name: [] for name in names}
        for round_ in range(arguments.rounds):
            for name in names if round_ % 2 == 0 else reversed(names):
                pid = daemons[name].process.pid
                before = run_time(pid)
                for _ in range(arguments.sends):
                    kernel_cost.batch(daemons[name].path, frame, len(texts))
                cpu[name].append((run_time(pid) - before) / 1e3 / (arguments.sends * len(texts)))
            print(f"round {round_ + 1}: " + ", ".join(f"{name} {cpu[name][-1]:.2f} µs" for name in names), flush=True)
        first = names[0]
        for name in names:
            ratio = statistics.median(b / a for a, b in zip(cpu[first], cpu[name]))
            print(f"{name}: median {statistics.median(cpu[name]):.2f} µs CPU an item, {ratio:.3f}× {first}")
    finally:
        for daemon in daemons.values():
            daemon.stop()


if __name__ == "__main__":
    main()
