#!/usr/bin/python3
"""A soak of a running daemon: many requests from several clients, some misbehaving.

    soak.py SOCKET PID [--requests N] [--clients C] [--seed S] [--corpus FILE]
                       [--batch-share F] [--batch-items M]

C client processes send N layout requests in all (corpus captions, pipelined 32 at a time).
About 2% of connections leave mid-request (half a frame sent, or requests sent and the
connection closed before the replies), and about 1% of windows carry a garbage frame. With
--batch-share, that share of windows is a batch_layout of 1 to M captions instead (M 600 by
default), which the daemon lays out on every worker; one batch in ten is left after a random
number of its items. On every connection that stays, each request must be answered exactly
once, with its own id, and each batch item once, in order. The daemon's
resident memory and open descriptors are read at the start (after a warm-up), during, and after
every client has gone; both must come back to the baseline (memory within 64 MiB; descriptors
exactly). Prints one summary line and exits 1 when any promise broke.
"""
import json
import multiprocessing
import os
import random
import struct
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arguments  # noqa: E402
import layoutd_client  # noqa: E402

WINDOW = 32


def rss(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def descriptors(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def request_id(body):
    """The envelope's request_id (field 1, a varint), read without parsing the rest."""
    if not body or body[0] != 0x08:
        return 0
    value, shift, i = 0, 0, 1
    while i < len(body):
        byte = body[i]
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value
        shift += 7
        i += 1
    return 0


def body_kind(body):
    """'error' when the envelope's body is field 19 (Error), else 'reply'."""
    i = 0
    while i < len(body):
        key = body[i]
        field, wire = key >> 3, key & 7
        if key >= 0x80:  # two-byte key
            field = ((body[i + 1] << 4) | (key & 0x7F) >> 3)
            wire = key & 7
            i += 1
        i += 1
        if wire == 0:
            while body[i] >= 0x80:
                i += 1
            i += 1
        elif wire == 2:
            return "error" if field == 19 else "reply"
        else:
            return "reply"
    return "reply"


class Connection:
    def __init__(self, path):
        self.sock = layoutd_client.connect(path, timeout=120)
        self.reader = layoutd_client.FrameReader(self.sock)


def worker(args):
    socket_path, index, count, seed, texts, batch_share, batch_items = args
    layoutd_client.load()
    from layoutd.v1 import envelope_pb2
    rng = random.Random(seed * 1000 + index)
    stats = {"answered": 0, "errors": 0, "lost": 0, "doubled": 0, "wrong": 0, "left": 0, "garbage": 0, "connections": 0,
             "batches": 0, "items": 0, "misplaced": 0, "batches left": 0}
    next_id = 1
    sent = 0
    connection = None
    while sent < count:
        if connection is None or rng.random() < 0.01:
            connection = Connection(socket_path)
            stats["connections"] += 1
        if batch_share and rng.random() < batch_share:
            if soak_batch(connection, envelope_pb2, next_id, rng, texts, batch_items, stats):
                connection = None  # left mid-batch
            next_id += 1
            continue
        batch = min(WINDOW, count - sent)
        frames, ids = [], []
        for _ in range(batch):
            envelope = envelope_pb2.Envelope(request_id=next_id)
            envelope.layout.text = rng.choice(texts)
            envelope.layout.width = rng.choice([120, 240, 320])
            envelope.layout.default_style.size = rng.choice([14, 17, 24])
            frames.append(layoutd_client.frame(envelope))
            ids.append(next_id)
            next_id += 1
        roll = rng.random()
        if roll < 0.01:
            # Leave mid-request: half a frame, then gone.
            connection.sock.sendall(frames[0][: len(frames[0]) // 2])
            connection.sock.close()
            connection = None
            stats["left"] += 1
            sent += 1
            continue
        if roll < 0.02:
            # Send a window and leave before the replies.
            connection.sock.sendall(b"".join(frames))
            connection.sock.close()
            connection = None
            stats["left"] += 1
            sent += batch
            continue
        garbage = roll < 0.03
        payload = b"".join(frames)
        if garbage:
            junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
            payload += struct.pack(">I", len(junk)) + junk
            stats["garbage"] += 1
        connection.sock.sendall(payload)
        outstanding = set(ids)
        expected = batch + (1 if garbage else 0)
        for _ in range(expected):
            body = connection.reader.frame()
            rid = request_id(body)
            kind = body_kind(body)
            if rid == 0 and garbage and kind == "error":
                garbage = False  # the garbage frame's MALFORMED reply
                continue
            if rid in outstanding:
                outstanding.remove(rid)
                stats["answered"] += 1
                if kind == "error":
                    stats["errors"] += 1
            elif rid in ids:
                stats["doubled"] += 1
            else:
                stats["wrong"] += 1
        stats["lost"] += len(outstanding)
        sent += batch
    return stats


def soak_batch(connection, envelope_pb2, request_id, rng, texts, most, stats):
    """One batch_layout of 1 to `most` captions: every item read back once and in order, unless
    this is one of the one in ten left after a random number of items (then True)."""
    envelope = envelope_pb2.Envelope(request_id=request_id)
    envelope.batch_layout.layout.width = rng.choice([120, 240, 320])
    envelope.batch_layout.layout.default_style.size = rng.choice([14, 17, 24])
    count = rng.randrange(1, most + 1)
    envelope.batch_layout.texts.extend(rng.choice(texts) for _ in range(count))
    connection.sock.sendall(layoutd_client.frame(envelope))
    stats["batches"] += 1
    leave_after = rng.randrange(count) if rng.random() < 0.1 else None
    for index in range(count):
        if index == leave_after:
            connection.sock.close()
            stats["batches left"] += 1
            return True
        reply = envelope_pb2.Envelope()
        reply.ParseFromString(connection.reader.frame())
        if reply.request_id != request_id:
            stats["wrong"] += 1
        elif reply.WhichOneof("body") != "batch_item" or reply.batch_item.index != index:
            stats["misplaced"] += 1
        else:
            stats["items"] += 1
            if reply.batch_item.WhichOneof("result") == "error":
                stats["errors"] += 1
    return False


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    socket_path, pid, options = arguments.parse(__doc__, {
        "requests": 1_000_000, "clients": 4, "seed": 1, "batch-share": 0.0, "batch-items": 600,
        "corpus": os.path.join(here, "..", "..", "..", "shared", "corpus", "captions.jsonl")})
    total, clients, seed, corpus = options["requests"], options["clients"], options["seed"], options["corpus"]
    batch_share, batch_items = options["batch-share"], options["batch-items"]
    if os.path.exists(corpus):
        texts = [json.loads(line)["text"] for line in open(corpus, encoding="utf-8") if line.strip()]
    else:
        texts = ["Hello, world", "مرحبا بالعالم", "你好，世界", "नमस्ते दुनिया", "Привет, мир 👋🏽"]
    # Warm-up: every caption once, so fonts, caches and pools reach their working size.
    warm_stats = worker((socket_path, 99, len(texts), seed, texts, 0.0, 0))
    assert warm_stats["lost"] == 0, warm_stats
    time.sleep(1)
    base_rss, base_fds = rss(pid), descriptors(pid)
    start = time.time()
    share = total // clients
    with multiprocessing.Pool(clients) as pool:
        pending = pool.map_async(worker, [(socket_path, i, share, seed, texts, batch_share, batch_items)
                                           for i in range(clients)])
        peak_rss = base_rss
        while not pending.ready():
            peak_rss = max(peak_rss, rss(pid))
            pending.wait(0.5)
        results = pending.get()
    seconds = time.time() - start
    time.sleep(2)  # let the daemon see every close
    end_rss, end_fds = rss(pid), descriptors(pid)
    totals = {key: sum(result[key] for result in results) for key in results[0]}
    broken = totals["lost"] + totals["doubled"] + totals["wrong"] + totals["misplaced"]
    memory_back = end_rss - base_rss < 64 << 20
    fds_back = end_fds == base_fds
    print(f"soak: {share * clients} requests from {clients} clients in {seconds:.1f} s ({share * clients / seconds:.0f}/s) over "
          f"{totals['connections']} connections; answered {totals['answered']} ({totals['errors']} errors), lost {totals['lost']}, "
          f"doubled {totals['doubled']}, wrong id {totals['wrong']}; {totals['left']} connections left mid-request, "
          f"{totals['garbage']} garbage frames; {totals['batches']} batches ({totals['items']} items in place, "
          f"{totals['misplaced']} misplaced, {totals['batches left']} left mid-batch); RSS {base_rss >> 20} -> peak {peak_rss >> 20} -> {end_rss >> 20} MiB; "
          f"descriptors {base_fds} -> {end_fds}")
    return 0 if broken == 0 and memory_back and fds_back else 1


if __name__ == "__main__":
    sys.exit(main())
