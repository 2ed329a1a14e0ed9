#!/usr/bin/python3
"""What a request costs the daemon in CPU time, syscalls and context switches, beside the
HarfBuzz floor's CPU per caption measured in the same run (the kernel's share of a round trip,
which instruction counts do not see).

The release layoutd runs with its defaults (event loops, worker threads) but no shaping cache,
so every request shapes its caption as the floor does. Three ways of sending the corpus's
captions as layout requests: one at a time on one connection; one connection with 8 in flight;
8 connections with 8 in flight each. For each, over the same passes:

- the daemon's CPU per request: every thread's run time from /proc/PID/task/*/schedstat
  (nanoseconds), split into user and system by /proc/PID/stat's clock ticks;
- its context switches per request (voluntary and not, every thread, /proc/PID/task/*/status);
- its syscalls per request, counted in a separate pass by `strace -c -f -p PID` (strace slows
  the daemon, so its pass is timed apart), with the commonest calls named;
- for one at a time, the round trip's median wall time seen by the client.

A fourth way sends the captions as one batch_layout request (their layout options shared) and
reads its items: the daemon's CPU and the wall time per item, beside in-process layout's CPU per
caption (`layoutd-bench`'s cold pass, no shaping cache, as the daemon runs here) and beside the
same batch answered in process (its `batch` pass: the daemon's own chunks, without the
connection, the worker hand-overs and the writes).

Two round trips with no layout in them are timed beside, one at a time from the same client:
a hello through the daemon, and a frame echoed by a Python peer with no daemon at all, which is
what any blocking round trip between two processes costs on this machine (on a virtual machine
that halts an idle processor, mostly the wake-ups: docs/performance.md).

`--placement` says where the client and the daemon (or the echo peer) run: `free` (the
scheduler's choice), `together` (both on processor 0) or `apart` (the client on 0, the daemon
on 1); given more than once, each is measured in turn.

`--client` says who sends: `python` (this script, the default) or `c` (scripts/frame-pump.c,
compiled with `cc -O2` at the start: the same frames sent the same ways by a client that parses
nothing but the replies' lengths). The Python client's interpreter shares the machine's caches
with the daemon and turns each pass around slower, which the daemon's figures could be paying
for; the C client shows what is left when the client costs next to nothing. Given both, each in
turn.

The floor is `layoutd-bench`'s floor pass (HarfBuzz shaping each caption with the same font and
size, `LAYOUTD_BENCH_PROFILE=floor`), its CPU time per caption from the process's rusage, one
repeat subtracted from several so start-up is left out. The floor and in-process layout are
measured again just before each figure, and each ratio is the median of a figure's ratios to
the references taken beside it: this machine's speed moves from minute to minute, and a ratio
of two figures measured a minute apart moved with it.

    scripts/kernel-cost.py [--binary PATH [--binary PATH]] [--bench PATH] [--passes N] [--captions N] [--svg FILE] [--on-the-pool]
                           [--placement free|together|apart ...] [--client python|c ...] [--way one|1x8|8x8|batch|hello ...]
                           [--daemon-option=--batch-workers=1 ...]

Needs release builds (scripts/build-release.sh --product layoutd, --product layoutd-bench),
strace, ../shared/corpus, and with `--client c` a C compiler. Prints a Markdown table; --svg draws it too.
"""
import argparse
import collections
import contextlib
import os
import re
import resource
import selectors
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
sys.path.insert(0, HERE)
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location("daemon_instructions", os.path.join(HERE, "daemon-instructions.py"))
daemon_instructions = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(daemon_instructions)
layoutd_client = daemon_instructions.layoutd_client
TICK = os.sysconf("SC_CLK_TCK")


# Repeats of the corpus in a reference's measurement: enough that the bench's start-up, which is
# subtracted but moves by tens of milliseconds, is a few percent of what is measured.
REFERENCE_REPEATS = 15


def floor_cpu_per_caption(bench, captions, repeats, profile="floor"):
    """CPU seconds a caption of the HarfBuzz floor pass (or another `profile`) takes: (r+1 repeats − 1 repeat) / r."""
    def run(count):
        env = dict(os.environ, LAYOUTD_BENCH_PROFILE=profile)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([bench, "--no-daemon", "--repeats", str(count)], env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    one = min(run(1) for _ in range(2))
    many = min(run(1 + repeats) for _ in range(2))
    return (many - one) / (repeats * captions)


# Where the client and the daemon run: the client's processors and the daemon's (None: anywhere).
PLACEMENTS = {"free": (None, None), "together": ({0}, {0}), "apart": ({0}, {1})}


@contextlib.contextmanager
def client_on(cpus):
    """This process, the client, kept on `cpus` for the block (None: left where it may run)."""
    everywhere = os.sched_getaffinity(0)
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, everywhere)


def pinned_to(cpus):
    """A `preexec_fn` that keeps a child on `cpus` (None: no pinning)."""
    return None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))


# The daemon as this script measures it: no shaping cache, so every request shapes its caption as the floor does.
NO_SHAPING_CACHE = ("--shaping-cache-entries", "0")


class Daemon:
    """A release layoutd on a socket in `work`, started and waited for (session-memory.py uses it too)."""
    def __init__(self, binary, work, options=NO_SHAPING_CACHE, cpus=None):
        self.path = os.path.join(work, "d.sock")
        self.process = subprocess.Popen([binary, "--socket", self.path, "--config", "/dev/null", "--log-level", "error", *options],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                        preexec_fn=pinned_to(cpus))
        deadline = time.time() + 60
        while True:
            try:
                probe = socket.socket(socket.AF_UNIX)
                probe.connect(self.path)
                probe.close()
                return
            except (FileNotFoundError, ConnectionRefusedError):
                if self.process.poll() is not None or time.time() > deadline:
                    raise SystemExit("kernel-cost: layoutd did not start: " + self.process.stderr.read())
                time.sleep(0.1)

    def stats(self):
        """(run ns, user ticks, system ticks, context switches) over every thread."""
        run = switches = 0
        task_dir = f"/proc/{self.process.pid}/task"
        for task in os.listdir(task_dir):
            try:
                with open(f"{task_dir}/{task}/schedstat") as f:
                    run += int(f.read().split()[0])
                with open(f"{task_dir}/{task}/status") as f:
                    for line in f:
                        if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                            switches += int(line.split()[1])
            except FileNotFoundError:
                continue  # a thread that ended between the listing and the read
        with open(f"/proc/{self.process.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return run, int(fields[11]), int(fields[12]), switches

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        self.process.communicate(timeout=60)


def one_at_a_time(path, frames):
    """Sends each frame and waits for its reply; the round trips' wall times."""
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    times = []
    for frame in frames:
        start = time.perf_counter()
        sock.sendall(frame)
        daemon_instructions.receive(sock)
        times.append(time.perf_counter() - start)
    sock.close()
    return times


class EchoPeer:
    """The transport alone: a Python process on a socket in `work` that answers each frame with an
    eight-byte frame, as the daemon answers each request, and does nothing else."""
    def __init__(self, work, cpus=None):
        self.path = os.path.join(work, "echo.sock")
        listener = socket.socket(socket.AF_UNIX)
        listener.bind(self.path)
        listener.listen(1)
        self.pid = os.fork()
        if self.pid == 0:
            try:
                if cpus is not None:
                    os.sched_setaffinity(0, cpus)
                answer = struct.pack(">I", 8) + bytes(8)
                while True:  # a connection a pass, until stopped
                    connection, _ = listener.accept()
                    while True:
                        header = connection.recv(4, socket.MSG_WAITALL)
                        if len(header) < 4:
                            break
                        (length,) = struct.unpack(">I", header)
                        if length and len(connection.recv(length, socket.MSG_WAITALL)) < length:
                            break
                        connection.sendall(answer)
                    connection.close()
            finally:
                os._exit(0)
        listener.close()

    def stop(self):
        os.kill(self.pid, signal.SIGKILL)
        os.waitpid(self.pid, 0)


def take_frames(buffer):
    """How many whole frames `buffer` starts with; they are removed from it."""
    frames = offset = 0
    while len(buffer) - offset >= 4:
        (length,) = struct.unpack_from(">I", buffer, offset)
        if len(buffer) - offset - 4 < length:
            break
        offset += 4 + length
        frames += 1
    del buffer[:offset]
    return frames


def batch(path, frame, items):
    """Sends one batch frame and reads its `items` replies; the wall time per item."""
    sock = socket.socket(socket.AF_UNIX)
    sock.connect(path)
    start = time.perf_counter()
    sock.sendall(frame)
    buffer = bytearray()
    left = items
    while left:
        data = sock.recv(1 << 20)
        if not data:
            raise SystemExit("kernel-cost: the daemon closed the batch's connection")
        buffer += data
        left -= take_frames(buffer)
    elapsed = time.perf_counter() - start
    sock.close()
    return [elapsed / items]


def in_flight(path, frames, connections, depth):
    """`connections` connections, each keeping `depth` requests in flight, sharing `frames`."""
    selector = selectors.DefaultSelector()
    shares = [frames[k::connections] for k in range(connections)]
    state = {}
    for k in range(connections):
        sock = socket.socket(socket.AF_UNIX)
        sock.connect(path)
        share = shares[k]
        first = b"".join(share[:depth])
        sock.sendall(first)
        state[sock] = {"next": min(depth, len(share)), "left": len(share), "share": share, "buffer": bytearray()}
        selector.register(sock, selectors.EVENT_READ)
    while state:
        for key, _ in selector.select():
            sock = key.fileobj
            s = state[sock]
            data = sock.recv(1 << 20)
            if not data:
                raise SystemExit("kernel-cost: the daemon closed a connection")
            s["buffer"] += data
            replies = take_frames(s["buffer"])
            s["left"] -= replies
            more = s["share"][s["next"]:s["next"] + replies]
            s["next"] += len(more)
            if more:
                sock.sendall(b"".join(more))
            if s["left"] == 0:
                selector.unregister(sock)
                sock.close()
                del state[sock]


class PythonClient:
    """The ways of sending, from this script."""
    one_at_a_time = staticmethod(one_at_a_time)
    in_flight = staticmethod(in_flight)
    batch = staticmethod(batch)


class FramePump:
    """The same ways of sending from scripts/frame-pump.c, compiled once into `work`; each list of
    frames is written to a file once, and the pump (a child, so on the client's processors) sends
    it and counts the replies."""
    def __init__(self, work):
        self.work = work
        self.binary = os.path.join(work, "frame-pump")
        subprocess.run(["cc", "-O2", "-o", self.binary, os.path.join(HERE, "frame-pump.c")], check=True)
        self.files = {}

    def _file(self, frames):
        joined = b"".join(frames)
        if joined not in self.files:
            self.files[joined] = os.path.join(self.work, f"frames-{len(self.files)}")
            with open(self.files[joined], "wb") as f:
                f.write(joined)
        return self.files[joined]

    def _run(self, path, frames, *mode):
        done = subprocess.run([self.binary, path, self._file(frames), *mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
        if done.returncode != 0:
            raise SystemExit("kernel-cost: frame-pump: " + done.stderr.strip())
        return [float(value) / 1e6 for value in done.stdout.split()]

    def one_at_a_time(self, path, frames):
        return self._run(path, frames, "one")

    def in_flight(self, path, frames, connections, depth):
        self._run(path, frames, "flight", str(connections), str(depth))

    def batch(self, path, frame, items):
        return [self._run(path, [frame], "batch", str(items))[0] / items]


def strace_counts(daemon, send, requests):
    """Syscalls per request while `send` runs, by `strace -c -f` attached to the daemon."""
    out = tempfile.mktemp()
    tracer = subprocess.Popen(["strace", "-c", "-f", "-p", str(daemon.process.pid), "-o", out],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1.0)  # attached to every thread
    send()
    time.sleep(0.2)
    tracer.send_signal(signal.SIGINT)
    tracer.wait(timeout=60)
    calls = collections.Counter()
    with open(out) as f:
        for line in f:
            fields = line.split()
            # "% time seconds usecs/call calls [errors] syscall"
            if len(fields) >= 5 and fields[-1] != "total" and re.fullmatch(r"\d+", fields[3]):
                calls[fields[-1]] += int(fields[3])
    os.unlink(out)
    total = sum(calls.values())
    return total / requests, {name: n / requests for name, n in calls.most_common(4)}


def echo_round_trip(frames, passes, placement, client=PythonClient):
    """The median round trip of `frames` sent one at a time by `client` to an `EchoPeer`."""
    client_cpus, peer_cpus = PLACEMENTS[placement]
    peer = EchoPeer(tempfile.mkdtemp(), peer_cpus)
    try:
        with client_on(client_cpus):
            client.one_at_a_time(peer.path, frames)  # warm, as measure's first pass
            return statistics.median(t for _ in range(passes) for t in client.one_at_a_time(peer.path, frames))
    finally:
        peer.stop()


def measure(binary, frames, passes, mode, trace=True, items=0, placement="free", client=PythonClient, options=()):
    """The daemon's cost per request (per item of a batch) for one way of sending, by `client`;
    the daemon started with `options` besides the script's own."""
    work = tempfile.mkdtemp()
    client_cpus, daemon_cpus = PLACEMENTS[placement]
    daemon = Daemon(binary, work, options=(*NO_SHAPING_CACHE, *options), cpus=daemon_cpus)
    try:
        with client_on(client_cpus):
            if mode in ("one", "hello"):
                send = lambda: client.one_at_a_time(daemon.path, frames)  # noqa: E731
            elif mode == "batch":
                send = lambda: client.batch(daemon.path, frames[0], items)  # noqa: E731
            elif mode == "1x8":
                send = lambda: client.in_flight(daemon.path, frames, 1, 8)  # noqa: E731
            else:
                send = lambda: client.in_flight(daemon.path, frames, 8, 8)  # noqa: E731
            send()  # warm: threads made, allocators grown, pages touched
            before = daemon.stats()
            round_trips = []
            for _ in range(passes):
                result = send()
                if mode in ("one", "hello", "batch"):
                    round_trips += result
            after = daemon.stats()
            per_pass = items if mode == "batch" else len(frames)
            requests = passes * per_pass
            syscalls, commonest = strace_counts(daemon, send, per_pass) if trace else (None, None)
            run_ns, user, system, switches = (a - b for a, b in zip(after, before))
            return {
                "cpu": run_ns / 1e9 / requests,
                "user_share": user / max(1, user + system),
                "switches": switches / requests,
                "syscalls": syscalls,
                "commonest": commonest,
                "round_trip": statistics.median(round_trips) if round_trips else None,
            }
    finally:
        daemon.stop()


def svg(rows, floor, path, layout=None, trips=()):
    """A bar per way of sending: the daemon's CPU per request against the floor's (and in-process
    layout's), and its syscalls; below, with `trips` ((placement, echo, hello, layout), each a
    round trip one at a time and its ratio to the floor), each placement's round trips against
    the issue's 3× the floor (the median floor's: the line is one for every bar)."""
    longest = max([len(label) for label, _ in rows] + [len(f"layout, {placement}") for placement, *_ in trips])
    bar_height, gap, left = 26, 14, 20 + 7 * max(longest, 26)
    width = left + 460
    scale = (width - left - 200) / max(max(r["cpu"] for _, r in rows), floor)
    references = [("HarfBuzz floor, a caption", floor, 1.0, "")] + (
        [("layout in process, a caption", layout, layout / floor, "")] if layout else [])
    trip_height = (60 + 3 * len(trips) * (bar_height + gap)) if trips else 0
    height = 60 + (len(rows) + len(references)) * (bar_height + gap) + trip_height
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="13">',
             '<text x="10" y="22" font-weight="bold">CPU per request (µs); syscalls and context switches per request</text>']
    y = 40
    for label, value, times, note in references + [
            (name, r["cpu"], r["cpu_floor"], f'{r["syscalls"]:.2f} syscalls, {r["switches"]:.2f} switches') for name, r in rows]:
        length = value * scale
        colour = "#999" if note == "" else "#3a6ea5"
        parts.append(f'<text x="10" y="{y + 18}">{label}</text>')
        parts.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar_height}" fill="{colour}"/>')
        parts.append(f'<text x="{left + length + 6:.1f}" y="{y + 12}">{value * 1e6:.1f} µs ({times:.2f}×)</text>')
        if note:
            parts.append(f'<text x="{left + length + 6:.1f}" y="{y + 25}" font-size="11" fill="#555">{note}</text>')
        y += bar_height + gap
    if trips:
        y += 20
        parts.append(f'<text x="10" y="{y}" font-weight="bold">Round trips one at a time (µs, median): an echo with no daemon, '
                     'a hello, a layout</text>')
        y += 18
        target = 3 * floor
        trip_scale = (width - left - 200) / max(max(value for _, *kinds in trips for value, _ in kinds), target)
        top = y
        for placement, *kinds in trips:
            for what, (value, times), colour in zip(("echo", "hello", "layout"), kinds, ("#999", "#9bb8d8", "#3a6ea5")):
                length = value * trip_scale
                parts.append(f'<text x="10" y="{y + 18}">{what}, {placement}</text>')
                parts.append(f'<rect x="{left}" y="{y}" width="{length:.1f}" height="{bar_height}" fill="{colour}"/>')
                parts.append(f'<text x="{left + length + 6:.1f}" y="{y + 18}">{value * 1e6:.1f} µs ({times:.2f}× floor)</text>')
                y += bar_height + gap
        x = left + target * trip_scale
        parts.append(f'<line x1="{x:.1f}" y1="{top - 4}" x2="{x:.1f}" y2="{y - gap + 4}" stroke="#c0392b" stroke-dasharray="5,4"/>')
        parts.append(f'<text x="{x + 4:.1f}" y="{y + 6}" font-size="11" fill="#c0392b">3× the floor (issue 41)</text>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(parts) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", action="append", help="a layoutd to measure (default the release build); given twice or "
                        "more, each is measured in turn, way by way, so the builds meet the same machine")
    parser.add_argument("--bench", default=os.path.join(ROOT, ".build", "release", "layoutd-bench"))
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--captions", type=int, default=0, help="the first N captions (default: all)")
    parser.add_argument("--rounds", type=int, default=3, help="measure every way and build this many times, in turn; "
                        "times are the rounds' medians, syscalls come from the first round (default 3)")
    parser.add_argument("--svg", help="also draw the table as an SVG bar chart")
    parser.add_argument("--on-the-pool", action="store_true", help="every caption with a per-line background, which makes it "
                        "the worker pool's work (the replies come back to the loop from other threads); no batch")
    parser.add_argument("--placement", action="append", choices=sorted(PLACEMENTS),
                        help="where the client and the daemon run (default free); given more than once, each in turn")
    parser.add_argument("--client", action="append", choices=["python", "c"],
                        help="who sends: this script (python, the default) or scripts/frame-pump.c (c); given both, each in turn")
    parser.add_argument("--daemon-option", action="append", default=[], metavar="WORD",
                        help="a word added to the daemon's command line, e.g. --daemon-option=--batch-workers=1; repeatable")
    parser.add_argument("--way", action="append", choices=["one", "1x8", "8x8", "batch", "hello"],
                        help="measure only this way of sending (default every way); given more than once, each")
    arguments = parser.parse_args()
    if arguments.svg and arguments.way:
        parser.error("--svg draws every way of sending: leave --way out")
    envelope_pb2, layout_pb2 = layoutd_client.load()
    texts = daemon_instructions.captions(arguments.captions)
    kind = "layout-on-the-pool" if arguments.on_the_pool else "layout"
    frames = [daemon_instructions.request(envelope_pb2, layout_pb2, kind, text, 2 + k) for k, text in enumerate(texts)]
    batch_frame = [daemon_instructions.batch_request(envelope_pb2, texts)]
    hellos = [daemon_instructions.hello_request(envelope_pb2, 2 + k) for k in range(len(frames))]
    binaries = arguments.binary or [os.path.join(ROOT, ".build", "release", "layoutd")]
    placements = arguments.placement or ["free"]
    client_names = arguments.client or ["python"]
    clients = {name: FramePump(tempfile.mkdtemp()) if name == "c" else PythonClient for name in client_names}
    # Each figure's setting: where the two sides run and who sends, named in its row when more than one is measured.
    settings = [(placement, name) for placement in placements for name in client_names]

    def setting_label(placement, name):
        """A table row's setting: only what varies between the rows."""
        parts = ([placement] if len(placements) > 1 else []) + ([f"{name} client"] if len(client_names) > 1 else [])
        return ", ".join(parts)

    def trip_label(setting, binary):
        """A round trip's setting, beside the echo's: where and who always, the build where there are several."""
        return ", ".join([setting[0], f"{setting[1]} client"] + ([binary] if len(binaries) > 1 else []))

    for placement in placements:
        missing = set().union(*(cpus or set() for cpus in PLACEMENTS[placement])) - os.sched_getaffinity(0)
        if missing:
            raise SystemExit(f"kernel-cost: --placement {placement} needs processors {sorted(missing)}, which this process may not use")
    ways = [("one", "one at a time"), ("1x8", "1 connection × 8 in flight"), ("8x8", "8 connections × 8 in flight"),
            ("batch", f"one batch of {len(texts)}, a request an item"), ("hello", "a hello, one at a time")]
    if arguments.on_the_pool:
        ways = [way for way in ways if way[0] != "batch"]
    if arguments.way:
        ways = [way for way in ways if way[0] in arguments.way]
    # The echo is set beside the round trip one at a time: measured and shown only with it.
    measures_one = any(mode == "one" for mode, _ in ways)
    sent = {"batch": batch_frame, "hello": hellos}
    rounds = collections.defaultdict(list)
    echoes = collections.defaultdict(list)
    corpus = len(daemon_instructions.captions(0))

    def references():
        """The floor's and in-process layout's CPU a caption, measured now: each figure below is
        taken beside its own, so the machine's load, which moves from minute to minute, moves both."""
        return {"floor": floor_cpu_per_caption(arguments.bench, corpus, REFERENCE_REPEATS),
                "layout": floor_cpu_per_caption(arguments.bench, corpus, REFERENCE_REPEATS, profile="cold")}

    for round_ in range(arguments.rounds):
        for setting in settings:
            placement, client = setting[0], clients[setting[1]]
            if measures_one:
                echoes[setting].append({**references(), "echo": echo_round_trip(frames, arguments.passes, placement, client)})
            for mode, _ in ways:
                for binary in binaries:
                    beside = references()
                    if mode == "batch":
                        beside["batch"] = floor_cpu_per_caption(arguments.bench, corpus, REFERENCE_REPEATS, profile="batch")
                    rounds[(setting, mode, binary)].append(
                        {**measure(binary, sent.get(mode, frames), arguments.passes, mode, trace=round_ == 0, items=len(texts),
                                   placement=placement, client=client, options=arguments.daemon_option), **beside})
    every = [m for measured in list(rounds.values()) + list(echoes.values()) for m in measured]
    floor = statistics.median(m["floor"] for m in every)
    layout = statistics.median(m["layout"] for m in every)

    def ratio(measured, key, reference):
        """The median of each measurement's `key` over the reference taken beside it."""
        return statistics.median(m[key] / m[reference] for m in measured)

    rows = []
    for setting in settings:
        for mode, name in ways:
            for binary in binaries:
                measured = rounds[(setting, mode, binary)]
                row = dict(measured[0])
                for key in ("cpu", "user_share", "switches", "round_trip"):
                    if row[key] is not None:
                        row[key] = statistics.median(m[key] for m in measured)
                row["cpu_floor"], row["cpu_layout"] = ratio(measured, "cpu", "floor"), ratio(measured, "cpu", "layout")
                if row["round_trip"] is not None:
                    row["trip_floor"], row["trip_layout"] = ratio(measured, "round_trip", "floor"), ratio(measured, "round_trip", "layout")
                setting_words = setting_label(*setting)
                rows.append((name + (f", {binary}" if len(binaries) > 1 else "") + (f" ({setting_words})" if setting_words else ""), row))
    print(f"{len(frames)} captions, {arguments.passes} passes, medians of {arguments.rounds} rounds; floor (HarfBuzz, in process): "
          f"{floor * 1e6:.2f} µs CPU a caption; layout in process (no shaping cache): {layout * 1e6:.2f} µs CPU a caption "
          f"(medians of every measurement; each ratio below is the median of its rounds' ratios to the floor and layout "
          f"measured just before it)\n")
    print("| sending | daemon CPU a request | × floor | × layout in process | user share | syscalls a request | commonest | "
          "context switches a request | round trip (median; a batch: wall time an item) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, r in rows:
        commonest = ", ".join(f"{call} {n:.2f}" for call, n in r["commonest"].items())
        trip = f'{r["round_trip"] * 1e6:.1f} µs ({r["trip_floor"]:.2f}× floor, {r["trip_layout"]:.2f}× layout)' \
            if r["round_trip"] else ""
        print(f'| {name} | {r["cpu"] * 1e6:.2f} µs | {r["cpu_floor"]:.2f}× | {r["cpu_layout"]:.2f}× | {r["user_share"]:.0%} | '
              f'{r["syscalls"]:.2f} | {commonest} | {r["switches"]:.2f} | {trip} |')
    batches = [(setting, binary) for setting in settings for binary in binaries if rounds[(setting, "batch", binary)]]
    if batches:
        print("\nA batch's wall time an item, beside in-process layout and the same batch answered in process "
              "(`layoutd-bench`'s batch pass), each measured just before it:\n")
        print("| setting | wall time an item | × layout in process | × the batch in process |")
        print("|---|---|---|---|")
        for setting, binary in batches:
            measured = rounds[(setting, "batch", binary)]
            print(f"| {trip_label(setting, binary)} | {statistics.median(m['round_trip'] for m in measured) * 1e6:.2f} µs | "
                  f"{ratio(measured, 'round_trip', 'layout'):.2f}× | {ratio(measured, 'round_trip', 'batch'):.2f}× |")
    if not measures_one:
        return
    print("\nA round trip with no daemon (each caption's request frame to a Python peer that answers eight bytes), "
          "beside the layout's one at a time:\n")
    print("| placement and client | echo round trip (median) | × floor | layout round trip | × floor | layout − echo |")
    print("|---|---|---|---|---|---|")
    for setting in settings:
        echo = statistics.median(m["echo"] for m in echoes[setting])
        for binary in binaries:
            measured = rounds[(setting, "one", binary)]
            trip = statistics.median(m["round_trip"] for m in measured)
            print(f"| {trip_label(setting, binary)} | {echo * 1e6:.1f} µs | {ratio(echoes[setting], 'echo', 'floor'):.2f}× | {trip * 1e6:.1f} µs | "
                  f"{ratio(measured, 'round_trip', 'floor'):.2f}× | {(trip - echo) * 1e6:.1f} µs |")
    if arguments.svg:
        def median_and_ratio(measured, key):
            return statistics.median(m[key] for m in measured), ratio(measured, key, "floor")
        trips = [(trip_label(setting, binary), median_and_ratio(echoes[setting], "echo"),
                  median_and_ratio(rounds[(setting, "hello", binary)], "round_trip"),
                  median_and_ratio(rounds[(setting, "one", binary)], "round_trip"))
                 for setting in settings for binary in binaries]
        svg(rows, floor, arguments.svg, layout, trips)


if __name__ == "__main__":
    main()
