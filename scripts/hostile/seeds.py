#!/usr/bin/python3
"""Writes one valid frame of each request type, and the shared golden vector, as seed files.

    seeds.py DIR

The fuzzers start from these: scripts/fuzz.sh (libFuzzer, in process) and
scripts/hostile/mutate_daemon.py (mutations against a running daemon).
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "clients", "python"))
import layoutd_client  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def envelopes():
    layoutd_client.load()
    from layoutd.v1 import decoration_pb2 as D, envelope_pb2 as E, layout_pb2 as L, render_pb2 as R  # noqa: N811
    yield "hello", E.Envelope(request_id=1, hello={"client_name": "seed"})
    yield "fonts", E.Envelope(request_id=2, fonts={})
    yield "stats", E.Envelope(request_id=3, stats={})
    yield "cancel", E.Envelope(request_id=4, cancel={"request_id": 9})
    layout = E.Envelope(request_id=5, deadline_ms=500)
    req = layout.layout
    req.text = "Hello, world — مرحبا 你好 👋🏽 नमस्ते\nsecond line"
    req.width = 240
    req.default_style.family = "Noto Sans"
    req.default_style.size = 20
    req.default_style.features.add(tag="liga", value=0)
    span = req.spans.add()
    span.range.start = 0
    span.range.length = 5
    span.style.weight = 700
    span.style.letter_spacing.points = 1.5
    req.alignment = L.ALIGNMENT_JUSTIFIED
    req.max_lines = 3
    req.truncation.token = "…"
    bg = req.backgrounds.add(kind=D.BackgroundSpec.HIGHLIGHT)
    bg.range.start = 2
    bg.range.length = 6
    req.backgrounds.add(kind=D.BackgroundSpec.CONNECTED)
    yield "layout", layout
    justify = E.Envelope(request_id=6)
    justify.justify.text = "so\nHAPPY\nto see you"
    justify.justify.width = 300
    justify.justify.preset = "neon"
    yield "justify", justify
    render = E.Envelope(request_id=7)
    render.render.layout.CopyFrom(req)
    render.render.format = R.RenderRequest.SVG
    render.render.scale = 1
    yield "render", render
    tags = E.Envelope(request_id=8)
    tags.tags.photo_width = 1080
    tags.tags.photo_height = 1350
    tag = tags.tags.tags.add()
    tag.at.x = 0.42
    tag.at.y = 0.61
    tag.style = 3
    tag.labels.add(name="Nike", value="Air Max 90")
    tag.labels.add(name="¥899")
    tags.tags.moment.events.add(kind=1, at_seconds=0)
    tags.tags.moment.at_seconds = 0.3
    yield "tags", tags
    hit = E.Envelope(request_id=9)
    hit.tag_hit.tags.CopyFrom(tags.tags)
    hit.tag_hit.point.x = 455
    hit.tag_hit.point.y = 820
    yield "tag_hit", hit
    yield "tag_style", E.Envelope(request_id=10, tag_style={"label_count": 2, "toggle_from": 3})
    tag_render = E.Envelope(request_id=11)
    tag_render.render.tags.CopyFrom(tags.tags)
    tag_render.render.format = R.RenderRequest.SVG
    tag_render.render.animate = 1
    yield "render_tags", tag_render
    # Issue 22's fields: ink, breaking strategies, auto-size and paragraph styles together.
    typography = E.Envelope(request_id=12)
    typo = typography.layout
    typo.text = "A title that balances, shrinks and indents.\nSecond paragraph, مرحبا, here."
    typo.width = 200
    typo.max_lines = 4
    typo.ink_bounds = True
    typo.break_strategy = L.BREAK_STRATEGY_OPTIMAL
    typo.auto_size.min_scale = 0.4
    typo.auto_size.step = 1
    typo.paragraph_style.first_line_head_indent = 12
    typo.paragraph_style.head_indent = 4
    typo.paragraph_style.tail_indent = 6
    typo.paragraph_style.spacing_after = 8
    typo.paragraph_style.min_line_height = 20
    yield "typography", typography
    balanced = E.Envelope(request_id=13)
    balanced.layout.CopyFrom(typo)
    balanced.layout.break_strategy = L.BREAK_STRATEGY_BALANCED
    balanced.layout.ClearField("auto_size")
    yield "balanced", balanced
    # Hit-testing, with every kind of question (documents need a connection: the fuzzer's
    # processor answers them with an error, which is fuzzed too).
    hit_test = E.Envelope(request_id=14)
    hit_test.hit_test.layout.CopyFrom(typo)
    hit_test.hit_test.points.add(x=10, y=10)
    hit_test.hit_test.carets.add(offset=3)
    hit_test.hit_test.selections.add(start=0, length=8)
    hit_test.hit_test.around.append(5)
    yield "hit_test", hit_test
    edit = E.Envelope(request_id=15)
    change = edit.edit_document.edits.add()
    change.replace.range.start = 1
    change.replace.text = "x"
    edit.edit_document.document = 1
    yield "edit_document", edit
    plain_batch = E.Envelope(request_id=16, deadline_ms=800)
    plain_batch.batch_layout.layout.width = 200
    plain_batch.batch_layout.layout.default_style.family = "Noto Sans"
    plain_batch.batch_layout.texts.extend(["first", "مرحبا", "", "三"])
    yield "batch_layout", plain_batch
    whole_batch = E.Envelope(request_id=17)
    whole_batch.batch_layout.requests.add().CopyFrom(req)
    whole_batch.batch_layout.requests.add().CopyFrom(typo)
    yield "batch_layout_requests", whole_batch


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    for name, envelope in envelopes():
        with open(os.path.join(directory, name + ".frame"), "wb") as out:
            out.write(layoutd_client.frame(envelope))
        with open(os.path.join(directory, name + ".body"), "wb") as out:
            out.write(envelope.SerializeToString(deterministic=True))
    vector = open(os.path.join(ROOT, "Tests", "LayoutWireTests", "Vectors", "layout-request.hex")).read().strip()
    with open(os.path.join(directory, "golden.frame"), "wb") as out:
        out.write(bytes.fromhex(vector))
    return 0


if __name__ == "__main__":
    sys.exit(main())
