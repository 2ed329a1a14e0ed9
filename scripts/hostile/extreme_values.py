#!/usr/bin/python3
"""Every number of every request, at its extremes, through a running daemon.

    extreme_values.py SOCKET [--combinations N] [--seed S]

The numeric fields are found by walking the request messages' protobuf descriptors (generated
from proto/ by the Python client), so a field added to the contract later is covered without
editing this script. Each field is sent at NaN, ±inf, ±3e38, 1e30, 2e19, 1e19, 1e9, 10,000, -1,
-0, 0 and 1e-38 (integers and enums at their own extremes), one at a time under each alignment,
then N seeded random combinations. Every request must get a reply with its id: its own reply
type or a structured error that is not INTERNAL and names a field. Exits 1 on the first broken
promise, 0 when all held; prints one summary line.
"""
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
import layoutd_client  # noqa: E402

from google.protobuf.descriptor import FieldDescriptor as FD  # noqa: E402

FLOATS = [math.nan, math.inf, -math.inf, 3e38, -3e38, 1e30, 2e19, 1e19, 1e9, 10_000.0, -1.0, -0.0, 0.0, 1e-38]
UNSIGNED32 = [0, 1, 10_000, 1_000_000_000, 2**31 - 1, 2**31, 2**32 - 1]
UNSIGNED64 = UNSIGNED32 + [2**63, 2**64 - 1]
SIGNED32 = [0, 1, -1, 10_000, -(2**31), 2**31 - 1]
FLOAT_TYPES = (FD.TYPE_FLOAT, FD.TYPE_DOUBLE)
REQUEST_BODIES = ("hello", "layout", "fonts", "stats", "justify", "render", "tags", "tag_hit", "tag_style")
TEXT = "WW Hello, world — مرحبا بالعالم 你好 👋🏽 नमस्ते"


def values_for(field):
    if field.type in FLOAT_TYPES:
        return FLOATS
    if field.type == FD.TYPE_ENUM:
        return sorted({v.number for v in field.enum_type.values} | {-1, 99, 2**31 - 1, -(2**31)})
    if field.type in (FD.TYPE_UINT64, FD.TYPE_FIXED64):
        return UNSIGNED64
    if field.type in (FD.TYPE_UINT32, FD.TYPE_FIXED32):
        return UNSIGNED32
    if field.type in (FD.TYPE_INT32, FD.TYPE_SINT32, FD.TYPE_SFIXED32, FD.TYPE_INT64, FD.TYPE_SINT64, FD.TYPE_SFIXED64):
        return SIGNED32
    return None  # strings, bytes, bools: not numbers


def numeric_paths(descriptor, prefix=(), depth=0):
    """Paths (tuples of field names; '[0]' for a repeated message's first element) to every
    numeric field reachable from `descriptor`."""
    if depth > 6:
        return
    for field in descriptor.fields:
        path = prefix + (field.name,)
        if field.type == FD.TYPE_MESSAGE:
            if field.label == FD.LABEL_REPEATED:
                path = path + ("[0]",)
            yield from numeric_paths(field.message_type, path, depth + 1)
        elif values_for(field) is not None:
            yield path, field


def base_requests(pb):
    """One valid request of each type, with every repeated message present once so the walk
    reaches the fields inside it."""
    D = pb["decoration"]

    def style(message):
        message.family = "Noto Sans"
        message.size = 24
        message.weight = 400
        message.letter_spacing.points = 0.5
        feature = message.features.add()
        feature.tag = "liga"
        feature.value = 1

    def backgrounds(container):
        for kind in (D.BackgroundSpec.PER_LINE, D.BackgroundSpec.CONNECTED, D.BackgroundSpec.BLOCK, D.BackgroundSpec.HIGHLIGHT):
            spec = container.add()
            spec.kind = kind
            spec.geometry.horizontal_padding = 8
            spec.geometry.vertical_padding = 4
            spec.geometry.corner_radius = 6
            spec.fill.red = 0.5
            spec.range.start = 0
            spec.range.length = 2

    def layout(request):
        request.text = TEXT
        request.width = 300
        style(request.default_style)
        span = request.spans.add()
        span.range.start = 3
        span.range.length = 5
        style(span.style)
        request.max_lines = 3
        request.truncation.token = "…"
        backgrounds(request.backgrounds)

    def justify(request):
        request.text = "so\nHAPPY\nto see you"
        request.width = 300
        request.preset = "strong"
        style(request.style)
        request.style.size = 0
        request.color.green = 0.5
        backgrounds(request.backgrounds)

    def tags(request):
        request.photo_width = 1080
        request.photo_height = 1350
        request.keep_inside = True
        for x, style in ((0.42, 3), (0.98, 0)):
            tag = request.tags.add()
            tag.at.x = x
            tag.at.y = 0.61
            tag.style = style
            for name in ("Nike", "مقهى", "上海"):
                label = tag.labels.add()
                label.name = name
                label.value = "Air Max 90"
                style_of(label.style)
                style_of(label.value_style)
        style_of(request.text_style)
        style_of(request.value_style)
        for field in request.metrics.DESCRIPTOR.fields:
            getattr(request.metrics, field.name).value = 3
        request.moment.events.add(kind=1, at_seconds=0.1)
        request.moment.events.add(kind=2, at_seconds=1)
        request.moment.at_seconds = 0.3
        request.moment.phase_seconds = 0.25

    def style_of(message):
        message.size = 13
        message.weight = 600

    E = pb["envelope"]
    requests = {}
    for body in REQUEST_BODIES:
        envelope = E.Envelope(request_id=1, deadline_ms=10_000)
        getattr(envelope, body).SetInParent()
        if body == "layout":
            layout(envelope.layout)
        elif body == "justify":
            justify(envelope.justify)
        elif body == "tags":
            tags(envelope.tags)
        elif body == "tag_hit":
            tags(envelope.tag_hit.tags)
            envelope.tag_hit.point.x = 455
            envelope.tag_hit.point.y = 820
        elif body == "tag_style":
            envelope.tag_style.label_count = 2
            envelope.tag_style.reset.degrees.extend([45, 315])
            envelope.tag_style.tolerance_degrees = 1
        requests[body] = envelope
    for source in ("layout", "justify"):
        envelope = E.Envelope(request_id=1, deadline_ms=10_000)
        render = envelope.render
        render.format = pb["render"].RenderRequest.SVG
        render.canvas.blue = 0.2
        render.text_color.red = 0.1
        layout(render.layout) if source == "layout" else justify(render.justify)
        requests["render/" + source] = envelope
    envelope = E.Envelope(request_id=1, deadline_ms=10_000)
    envelope.render.format = pb["render"].RenderRequest.PNG
    envelope.render.scale = 0.5
    tags(envelope.render.tags)
    requests["render/tags"] = envelope
    return requests


def set_path(message, path, value):
    for name in path[:-1]:
        if name == "[0]":
            continue
        field = message.DESCRIPTOR.fields_by_name[name]
        if field.label == FD.LABEL_REPEATED:
            container = getattr(message, name)
            message = container[0] if len(container) else container.add()
        else:
            message = getattr(message, name)
    field = message.DESCRIPTOR.fields_by_name[path[-1]]
    if field.type == FD.TYPE_FLOAT and math.isfinite(value) and abs(value) > 3.4028234663852886e38:
        value = math.copysign(math.inf, value)
    if field.label == FD.LABEL_REPEATED:  # a repeated number: its first element
        container = getattr(message, path[-1])
        if len(container):
            container[0] = value
        else:
            container.append(value)
        return
    setattr(message, path[-1], value)


class Connection:
    """Envelopes in, envelopes out, errors included (the client's `call` raises on those)."""

    def __init__(self, path):
        self.sock = layoutd_client.connect(path, timeout=60)
        self.reader = layoutd_client.FrameReader(self.sock)

    def call(self, envelope_type, envelope):
        self.sock.sendall(layoutd_client.frame(envelope))
        reply = envelope_type()
        reply.ParseFromString(self.reader.frame())
        return reply


def check(reply, request, body, what):
    """The broken promise, or None."""
    if reply.request_id != request.request_id:
        return f"{what}: reply id {reply.request_id} for request {request.request_id}"
    kind = reply.WhichOneof("body")
    if kind == "error":
        if reply.error.code == reply.error.INTERNAL or reply.error.code == reply.error.CODE_UNSPECIFIED:
            return f"{what}: unstructured error {reply.error.code}: {reply.error.field}: {reply.error.message}"
        if reply.error.code == reply.error.INVALID_ARGUMENT and not reply.error.field:
            return f"{what}: INVALID_ARGUMENT without a field: {reply.error.message}"
        return None
    expected = body.split("/")[0] + "_reply"
    if kind != expected:
        return f"{what}: reply body {kind}, expected {expected} or an error"
    return None


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    socket_path = args[0]
    combinations = int(args[args.index("--combinations") + 1]) if "--combinations" in args else 400
    seed = int(args[args.index("--seed") + 1]) if "--seed" in args else 1
    layoutd_client.load()
    from layoutd.v1 import decoration_pb2, envelope_pb2, layout_pb2, render_pb2  # generated by load()
    pb = {"envelope": envelope_pb2, "layout": layout_pb2, "decoration": decoration_pb2, "render": render_pb2}
    bases = base_requests(pb)
    connection = Connection(socket_path)
    sent = errors = 0
    next_id = 1
    cases = []  # (body, [(path, value)], what)
    alignment_values = [v.number for v in layout_pb2.Alignment.DESCRIPTOR.values]
    envelope_paths = list(numeric_paths(envelope_pb2.Envelope.DESCRIPTOR))
    for body, base in bases.items():
        top = body.split("/")[0]
        paths = [(p, f) for p, f in envelope_paths if p[0] == top or p[0] in ("request_id", "deadline_ms")]
        for path, field in paths:
            for value in values_for(field):
                if top == "layout":
                    for alignment in alignment_values:
                        cases.append((body, [(("layout", "alignment"), alignment), (path, value)], f"{body} {'.'.join(path)}={value} alignment={alignment}"))
                else:
                    cases.append((body, [(path, value)], f"{body} {'.'.join(path)}={value}"))
    rng = random.Random(seed)
    every = [(body, path, field) for body in bases for path, field in envelope_paths if path[0] == body.split("/")[0]]
    for _ in range(combinations):
        body = rng.choice(list(bases))
        own = [(p, f) for b, p, f in every if b == body]
        picked = [(p, rng.choice(values_for(f))) for p, f in rng.sample(own, min(len(own), rng.randint(2, 6)))]
        cases.append((body, picked, f"{body} " + " ".join(f"{'.'.join(p)}={v}" for p, v in picked)))
    for body, settings, what in cases:
        request = envelope_pb2.Envelope()
        request.CopyFrom(bases[body])
        for path, value in settings:
            set_path(request, path, value)
        if all(p not in (("request_id",),) for p, _ in settings):
            request.request_id = next_id
        next_id += 1
        reply = connection.call(envelope_pb2.Envelope, request)
        sent += 1
        problem = check(reply, request, body, what)
        if problem:
            print(f"FAIL after {sent} requests: {problem}")
            return 1
        if reply.WhichOneof("body") == "error":
            errors += 1
    fields = len({p for _, p, _ in every} | {p for p, _ in envelope_paths if len(p) == 1})
    print(f"ok: {sent} requests over {fields} numeric fields, each answered ({errors} structured errors)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
