#!/usr/bin/python3
"""Instructions the daemon spends on a keystroke in an editing session against laying its
paragraph out alone, counted by callgrind (repeatable whatever the machine is doing; the
kernel's socket work is not counted).

A document of 200 corpus captions, one a paragraph, is opened; in its 64 middle paragraphs one
character is typed at the grapheme boundary nearest the middle and deleted again (two
edit_document requests, each answered with the paragraph laid out again and the caret). 'Alone'
is a layout request of that paragraph with the character typed. Each is sent in one run and
twice in another on one connection, one request at a time; the difference is one pass, the
daemon's start-up and the opening left out. The shaping cache is on (warm for both, as
layoutd-bench --edit-only has it).

    scripts/keystroke-instructions.py [--binary PATH] [--runs N] [--profile PREFIX]
"""
import argparse
import importlib.util
import os
import statistics
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
spec = importlib.util.spec_from_file_location("daemon_instructions", os.path.join(HERE, "daemon-instructions.py"))
daemon_instructions = importlib.util.module_from_spec(spec)
spec.loader.exec_module(daemon_instructions)
layoutd_client = daemon_instructions.layoutd_client


def middle_boundary(text):
    """The UTF-16 offset of the grapheme boundary (here: code point boundary) nearest the middle."""
    half = len(text.encode("utf-16-le")) // 4
    offset = 0
    for character in text:
        if offset >= half:
            return offset
        offset += len(character.encode("utf-16-le")) // 2
    return offset


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "layoutd"))
    parser.add_argument("--runs", type=int, default=3, help="runs of each count; the median is printed (default 3)")
    parser.add_argument("--profile", help="keep callgrind's output of the edits as PROFILE.edit.1 and .2 and of the layouts "
                        "as PROFILE.alone.1 and .2 (one pass and two: their difference is one pass)")
    arguments = parser.parse_args()
    stripped = os.path.join(tempfile.mkdtemp(), "layoutd")
    subprocess.run(["objcopy", "--strip-debug", arguments.binary, stripped], check=True)
    envelope_pb2, layout_pb2 = layoutd_client.load()
    texts = [text.replace("\n", " ") for text in daemon_instructions.captions(0)]
    texts = [texts[(index * 7) % len(texts)] for index in range(200)]

    def envelope(request_id):
        made = envelope_pb2.Envelope()
        made.request_id = request_id
        return made

    def styled(layout):
        layout.width = 300
        layout.default_style.family = "Noto Sans"
        layout.default_style.size = 16

    opening = envelope(2)
    styled(opening.open_document.layout)
    opening.open_document.layout.text = "\n".join(texts)
    starts = [0]
    for text in texts:
        starts.append(starts[-1] + len(text.encode("utf-16-le")) // 2 + 1)
    edits, alone = [], []
    for index in range(68, 132):
        middle = middle_boundary(texts[index])
        for length, typed in ((0, "x"), (1, "")):
            edit = envelope(3 + len(edits))
            edit.edit_document.document = 1
            change = edit.edit_document.edits.add()
            change.replace.range.start = starts[index] + middle
            change.replace.range.length = length
            change.replace.text = typed
            edits.append((layoutd_client.frame(edit), 1))
        units = texts[index].encode("utf-16-le")
        layout = envelope(1000 + index)
        styled(layout.layout)
        layout.layout.text = (units[:2 * middle] + "x".encode("utf-16-le") + units[2 * middle:]).decode("utf-16-le", "surrogatepass")
        alone.append((layoutd_client.frame(layout), 1))
    count = daemon_instructions.count
    first = [layoutd_client.frame(opening)]
    # The shaping cache on (no options), as the editing benchmark has it.
    def kept(kind, passes):
        return f"{arguments.profile}.{kind}.{passes}" if arguments.profile else None

    # A run's count moves by a few percent with the daemon's timers, which fire by wall time
    # (valgrind runs it some fifty times slower): the median of a few runs is recorded.
    per_edit = statistics.median((count(stripped, edits, 2, first=first, keep=kept("edit", 2))
                                  - count(stripped, edits, 1, first=first, keep=kept("edit", 1))) / len(edits)
                                 for _ in range(arguments.runs))
    per_layout = statistics.median((count(stripped, alone, 2, first=first, keep=kept("alone", 2))
                                    - count(stripped, alone, 1, first=first, keep=kept("alone", 1))) / len(alone)
                                   for _ in range(arguments.runs))
    print(f"keystroke: {per_edit:,.0f} instructions an edit (type or delete, with its caret), {per_layout:,.0f} its paragraph "
          f"laid out alone: {per_edit / per_layout:.2f}×")


if __name__ == "__main__":
    main()
