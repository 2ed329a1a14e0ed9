#!/usr/bin/python3
"""A structure-aware mutation fuzzer against a running daemon.

    mutate_daemon.py SOCKET PID [--batches N] [--per-batch M] [--seed S]

Starts from one valid request of each type (seeds.py). Half the mutations work on the message:
a field, found from the protobuf descriptors, set to an extreme or hostile value (NaN, huge and
negative numbers, unknown enum values, long or broken strings, many repeated entries, marks on
one letter); the other half on the bytes: flips, inserts, deletions, splices of two requests,
a varint replaced. Each batch is one connection with M frames pipelined (a few with a header
that lies about the length, sent last). After every batch the daemon must have answered each
well-framed request (a reply or a structured error), be alive (PID) and answer a Hello on a
fresh connection. Exits 1 on the first failure, saving the batch to mutate-failure-*.bin.
"""
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import arguments  # noqa: E402
import layoutd_client  # noqa: E402
import seeds  # noqa: E402
from google.protobuf.descriptor import FieldDescriptor as FD  # noqa: E402

FLOATS = [math.nan, math.inf, -math.inf, 3e38, -3e38, 1e30, 2e19, -1.0, -0.0, 0.0, 1e-38, 10_000.0, 1e6, 1e6 + 1]
INTS = [0, 1, 2**31 - 1, 2**32 - 1, 65_535, 1_000_000]
STRINGS = ["", "a" * 10_000, "a" + "\u0301" * 40, "\u202e" * 500 + "abc", "\n" * 5_000, "🏴󠁧󠁢󠁳󠁣󠁴󠁿" * 300,
           "ﷺ" * 2_000, "\u200d" * 100, "x\x00y", "Zapfino", "liga", "zh-Hans", "\ufeff", "\udfff".encode("utf-16", "surrogatepass").decode("utf-16", "replace")]


def walk(message, rng, depth=0):
    """A random (message, field) inside `message`, creating submessages on the way."""
    fields = list(message.DESCRIPTOR.fields)
    if not fields:
        return message, None
    field = rng.choice(fields)
    if field.type == FD.TYPE_MESSAGE and depth < 5:
        if field.label == FD.LABEL_REPEATED:
            container = getattr(message, field.name)
            inner = container.add() if not len(container) or rng.random() < 0.3 else rng.choice(container)
        else:
            inner = getattr(message, field.name)
        return walk(inner, rng, depth + 1)
    return message, field


def mutate_message(envelope, rng):
    body = envelope.WhichOneof("body")
    target = getattr(envelope, body) if body and rng.random() < 0.9 else envelope
    for _ in range(rng.randint(1, 4)):
        message, field = walk(target, rng)
        if field is None:
            continue
        try:
            if field.label == FD.LABEL_REPEATED and field.type != FD.TYPE_MESSAGE:
                values = getattr(message, field.name)
                values.extend([rng.choice(FLOATS if field.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE) else INTS)
                               for _ in range(rng.choice([1, 100, 5_000]))])
            elif field.label == FD.LABEL_REPEATED:
                container = getattr(message, field.name)
                for _ in range(rng.choice([10, 1_000, 20_000])):
                    container.add()
            elif field.type in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
                value = rng.choice(FLOATS)
                if field.type == FD.TYPE_FLOAT and math.isfinite(value) and abs(value) > 3.4e38:
                    value = math.copysign(math.inf, value)
                setattr(message, field.name, value)
            elif field.type == FD.TYPE_ENUM:
                setattr(message, field.name, rng.choice([v.number for v in field.enum_type.values] + [-1, 77, 2**31 - 1]))
            elif field.type in (FD.TYPE_UINT32, FD.TYPE_UINT64):
                setattr(message, field.name, rng.choice(INTS))
            elif field.type in (FD.TYPE_INT32, FD.TYPE_INT64, FD.TYPE_SINT32, FD.TYPE_SINT64):
                setattr(message, field.name, rng.choice([0, -1, 2**31 - 1, -(2**31)]))
            elif field.type == FD.TYPE_STRING:
                setattr(message, field.name, rng.choice(STRINGS))
            elif field.type == FD.TYPE_BOOL:
                setattr(message, field.name, rng.random() < 0.5)
            elif field.type == FD.TYPE_BYTES:
                setattr(message, field.name, os.urandom(rng.randrange(64)))
        except (ValueError, TypeError):
            pass
    return envelope.SerializeToString()


def mutate_bytes(body, others, rng):
    data = bytearray(body)
    for _ in range(rng.randint(1, 8)):
        roll = rng.random()
        if roll < 0.3 and data:
            data[rng.randrange(len(data))] ^= 1 << rng.randrange(8)
        elif roll < 0.5:
            data[rng.randrange(len(data) + 1):rng.randrange(len(data) + 1)] = os.urandom(rng.randrange(1, 16))
        elif roll < 0.65 and data:
            start = rng.randrange(len(data))
            del data[start:start + rng.randrange(1, 16)]
        elif roll < 0.8:
            other = rng.choice(others)
            cut = rng.randrange(len(data) + 1)
            data = data[:cut] + other[rng.randrange(len(other) + 1):]
        elif data:
            # A varint-looking byte run replaced by an extreme varint.
            at = rng.randrange(len(data))
            data[at:at + 1] = rng.choice([b"\xff\xff\xff\xff\x0f", b"\xff" * 9 + b"\x01", b"\x80" * 10, b"\x00"])
    return bytes(data)


def frame(body):
    return struct.pack(">I", len(body)) + body


def alive(socket_path, pid, envelope_pb2):
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:
        sock = layoutd_client.connect(socket_path, timeout=30)
    except OSError:
        return False
    try:
        hello = envelope_pb2.Envelope(request_id=424242, hello={})
        sock.sendall(frame(hello.SerializeToString()))
        reply = envelope_pb2.Envelope()
        reply.ParseFromString(layoutd_client.FrameReader(sock).frame())
        return reply.request_id == 424242 and reply.WhichOneof("body") == "hello_reply"
    except OSError:
        return False
    finally:
        sock.close()


def main():
    socket_path, pid, options = arguments.parse(__doc__, {"batches": 200, "per-batch": 50, "seed": 1})
    batches, per_batch, seed = options["batches"], options["per-batch"], options["seed"]
    rng = random.Random(seed)
    named = list(seeds.envelopes())
    from layoutd.v1 import envelope_pb2
    bodies = [envelope.SerializeToString() for _, envelope in named]
    sent = answered = errors = liars = 0
    for batch in range(batches):
        # A batch whose replies may number more than its sure ones waits a second for the rest:
        # a long run takes about a second a batch, so it says how far it has gone.
        if batch and batch % 100 == 0:
            print(f"mutate_daemon: {batch} of {batches} batches, {answered} answered", file=sys.stderr, flush=True)
        frames = []
        for _ in range(per_batch):
            name, original = rng.choice(named)
            if rng.random() < 0.5:
                envelope = envelope_pb2.Envelope()
                envelope.CopyFrom(original)
                body = mutate_message(envelope, rng)
            else:
                body = mutate_bytes(rng.choice(bodies), bodies, rng)
            frames.append(frame(body))
        lie = rng.random() < 0.1
        sock = layoutd_client.connect(socket_path, timeout=120)
        reader = layoutd_client.FrameReader(sock)
        try:
            sock.sendall(b"".join(frames))
            if lie:
                # A header that promises more than follows, sent last: the daemon waits for the
                # rest (or refuses an oversize one) and this client leaves.
                sock.sendall(struct.pack(">I", rng.choice([100, 1 << 22, 1 << 31])) + os.urandom(8))
                liars += 1
            # Cancels get no reply; every other well-framed body gets exactly one. A body that only
            # Python takes for a cancel (say, with bad UTF-8 elsewhere) may get a MALFORMED reply.
            kinds = [cancel_kind(f[4:], envelope_pb2) for f in frames]
            least = per_batch - kinds.count("cancel") - kinds.count("maybe")
            # A lying header past the frame limit is refused with one more (framing) reply.
            most = per_batch - kinds.count("cancel") + (1 if lie else 0)
            # A batch is answered with one reply per item, or one error when refused whole: up
            # to its items' count (the daemon may read items Python's decoder refuses, or not).
            most += sum(batch_items(f[4:], envelope_pb2) for f in frames)
            replies = reader.frames(least)
            if most > least:
                sock.settimeout(1)
                replies += reader.frames(most - least)
        except OSError as error:
            replies = []
            print(f"batch {batch}: {error}", file=sys.stderr)
        finally:
            sock.close()
        sent += len(frames)
        for reply in replies:
            envelope = envelope_pb2.Envelope()
            envelope.ParseFromString(reply)
            answered += 1
            if envelope.WhichOneof("body") == "error":
                errors += 1
                if envelope.error.code == envelope.error.INTERNAL:
                    print(f"FAIL batch {batch}: INTERNAL error: {envelope.error.field}: {envelope.error.message}")
                    save(batch, frames)
                    return 1
        if not least <= len(replies) <= most or not alive(socket_path, pid, envelope_pb2):
            print(f"FAIL batch {batch}: {len(replies)} replies, expected {least}...{most}, "
                  f"daemon alive: {alive(socket_path, pid, envelope_pb2)}")
            save(batch, frames)
            return 1
    print(f"ok: {sent} mutated frames in {batches} batches, {answered} answered ({errors} errors), "
          f"{liars} lying headers; the daemon answered a Hello after every batch")
    return 0


def batch_items(body, envelope_pb2):
    """Replies past the first that a batch_layout body may get: its items less one (0 for a body
    Python does not read as a batch; a lenient decoder's reading of one is bounded by its bytes)."""
    envelope = envelope_pb2.Envelope()
    try:
        envelope.ParseFromString(body)
    except Exception:  # noqa: BLE001 - the daemon's readers may still take it: bound it by its size
        return len(body) if last_body_field(body) == 40 else 0
    if envelope.WhichOneof("body") != "batch_layout":
        return 0
    return max(len(envelope.batch_layout.texts), len(envelope.batch_layout.requests)) - 1 if (
        envelope.batch_layout.texts or envelope.batch_layout.requests) else 0


def cancel_kind(body, envelope_pb2):
    """'cancel' for a body every decoder reads as a Cancel (it is canonical), 'maybe' for one
    only a lenient decoder might, 'other' for the rest."""
    envelope = envelope_pb2.Envelope()
    try:
        envelope.ParseFromString(body)
    except Exception:  # noqa: BLE001 - a body that does not parse is answered MALFORMED...
        # ...unless its last body field is a Cancel that a more lenient decoder reads (the
        # daemon's takes what Python's refuses, as an over-long varint or a stray end-group).
        return "maybe" if last_body_field(body) == 18 else "other"
    if envelope.WhichOneof("body") != "cancel":
        return "other"
    return "cancel" if envelope.SerializeToString(deterministic=True) == body else "maybe"


def last_body_field(body):
    """The number of the last field of the Envelope's body oneof (10-41) in `body`, read
    leniently at the top level only, as far as the bytes allow; None when there is none."""
    def varint(i):
        value, shift = 0, 0
        while i < len(body) and shift < 70:
            byte = body[i]
            value |= (byte & 0x7F) << shift
            i += 1
            if byte < 0x80:
                return value, i
            shift += 7
        return None, i
    last, i = None, 0
    while i < len(body):
        key, i = varint(i)
        if key is None:
            break
        field, wire = key >> 3, key & 7
        if wire == 0:
            _, i = varint(i)
        elif wire == 1:
            i += 8
        elif wire == 5:
            i += 4
        elif wire == 2:
            length, i = varint(i)
            if length is None or i + length > len(body):
                break
            i += length
            if 10 <= field <= 41:
                last = field
        else:
            break
    return last


def save(batch, frames):
    path = f"mutate-failure-{batch}.bin"
    with open(path, "wb") as out:
        out.write(b"".join(frames))
    print(f"saved the batch to {path}")


if __name__ == "__main__":
    sys.exit(main())
