"""The blocking client against the real daemon."""
import threading

import pytest

import layoutd
from layoutd import layout_pb2, render_pb2, service_pb2, tags_pb2, typemode_pb2

CAPTION = "The quick brown fox jumps over the lazy dog, again and again and again."


def test_three_lines_from_the_readme(socket_path):
    import layoutd
    with layoutd.Client() as client:
        reply = client.layout("Hello, world", width=300, font="Noto Sans", size=24)
    assert len(reply.lines) == 1
    assert reply.runs and reply.runs[0].glyph_ids


def test_greets_the_daemon(socket_path):
    with layoutd.Client(socket_path) as client:
        assert client.daemon.protocol_version == layoutd.PROTOCOL_VERSION
        assert {"layout", "justify", "render", "tags", "tag_hit", "tag_style", "fonts", "stats", "reload"} <= set(client.daemon.features)
        assert client.daemon.max_text_utf16 > 0


def test_keywords_build_the_request_as_a_message_would(socket_path):
    with layoutd.Client() as client:
        by_keywords = client.layout(CAPTION, width=180, size=18, alignment="ALIGNMENT_CENTER", max_lines=2,
                                    default_style={"weight": 700}, truncation={"token": "…"})
        request = layout_pb2.LayoutRequest(text=CAPTION, width=180, alignment=layout_pb2.ALIGNMENT_CENTER, max_lines=2)
        request.default_style.size = 18
        request.default_style.weight = 700
        request.truncation.token = "…"
        assert by_keywords == client.layout(request=request)
        assert len(by_keywords.lines) == 2
    with pytest.raises(TypeError, match="no field 'colour'; its fields: alignment, "):
        layoutd.Client().layout("x", width=10, colour=3)


def test_a_styles_fallback_families_and_script(socket_path):
    with layoutd.Client() as client:
        families = {face.font_id: face.family for face in client.fonts().faces}
        listed = client.layout("Tea \u2615 now", width=300, font="Noto Sans", default_style={"fallback_families": ["DejaVu Sans"]})
        assert [families[run.font_id] for run in listed.runs] == ["Noto Sans", "DejaVu Sans", "Noto Sans"]
        plain = client.layout("Tea \u2615 now", width=300, font="Noto Sans")
        assert [families[run.font_id] for run in plain.runs] == ["Noto Sans", "Noto Color Emoji", "Noto Sans"]
        # Devanagari shaped as Latin keeps the i-matra after its consonant.
        own = client.layout("\u0915\u093f", width=300, font="Noto Sans Devanagari")
        latin = client.layout("\u0915\u093f", width=300, font="Noto Sans Devanagari", default_style={"script": "Latn"})
        assert list(latin.runs[0].glyph_ids)[0] == list(own.runs[0].glyph_ids)[1]
        with pytest.raises(layoutd.LayoutdError) as refused:
            client.layout("x", width=100, default_style={"fallback_families": ["No Such Family"]})
        assert refused.value.field == "layout.default_style.fallback_families[0]"


def test_synthesised_bold_and_oblique(socket_path):
    with layoutd.Client() as client:
        # Z003 is one Medium Italic face: asked for 700 it is made bold, its advances an em / 24 wider.
        medium = client.layout("Hello", width=300, font="Z003", size=24)
        bold = client.layout("Hello", width=300, font="Z003", size=24, default_style={"weight": 700})
        assert bold.runs[0].synthetic_bold == pytest.approx(1.0)
        assert all(b > m for b, m in zip(bold.runs[0].advances, medium.runs[0].advances))
        kept = client.layout("Hello", width=300, font="Z003", size=24,
                             default_style={"weight": 700, "font_synthesis": layout_pb2.FONT_SYNTHESIS_NONE})
        assert kept.runs[0].synthetic_bold == 0 and list(kept.runs[0].advances) == list(medium.runs[0].advances)
        # Noto Sans CJK has no italic: italic Han is slanted by FreeType's shear.
        slanted = client.layout("\u6c49\u5b57", width=300, font="Noto Sans CJK SC", default_style={"slant": layout_pb2.SLANT_ITALIC})
        assert slanted.runs[0].synthetic_slant == pytest.approx(0.2126, abs=1e-3)


def test_a_backgrounds_border_and_shadow(socket_path):
    with layoutd.Client() as client:
        spec = {"kind": "PER_LINE", "border": {"width": 2, "dashes": [6, 3]}, "shadow": {"offset_y": 3, "blur_radius": 4}}
        reply = client.layout("Borders behind each line", width=120, backgrounds=[spec])
        shape = reply.backgrounds[0]
        assert shape.border.width == 2 and list(shape.border.dashes) == [6, 3]
        assert shape.shadow.offset_y == 3 and shape.shadow.blur_radius == 4
        with pytest.raises(layoutd.LayoutdError) as refused:
            client.layout("x", width=100, backgrounds=[{"kind": "PER_LINE", "border": {"width": 500}}])
        assert refused.value.field == "layout.backgrounds[0].border.width"


def test_paint_layers_a_gradient_fill_shadows_and_a_glow(socket_path):
    with layoutd.Client() as client:
        gradient = {"start": {"y": 0.5}, "end": {"x": 1, "y": 0.5},
                    "stops": [{"color": {"red": 1}}, {"offset": 1, "color": {"blue": 1}}]}
        style = {"fill": {"linear_gradient": gradient, "box": "BOX_LINE"}, "glow": {"radius": 6, "strength": 2},
                 "shadow": {"offset_x": 1}, "shadows": [{"offset_y": 4, "blur_radius": 2}]}
        reply = client.layout("A gradient on every line of it", width=120, size=20, default_style=style)
        assert len(reply.fill_regions) == len(reply.lines) > 1
        assert all(region.per_line for region in reply.fill_regions)
        assert reply.fill_regions[0].end.x > reply.fill_regions[0].start.x
        paint = reply.paints[0]
        assert [shadow.offset_y for shadow in paint.shadows] == [0, 4] and paint.glow.strength == 2
        assert paint.fill.WhichOneof("kind") == "linear_gradient"
        with pytest.raises(layoutd.LayoutdError) as refused:
            client.layout("x", width=100, default_style={"glow": {"radius": 6, "strength": 9}})
        assert refused.value.field == "layout.default_style.glow.strength"


def test_line_and_word_break_styles(socket_path):
    korean = "오늘은 친구들과 한강에서 자전거를 탔어요. 날씨가 정말 좋았어요!"
    units = korean.encode("utf-16-le")

    def line_texts(reply):
        return [units[2 * line.range.start:2 * (line.range.start + line.range.length)].decode("utf-16-le") for line in reply.lines]

    with layoutd.Client() as client:
        normal = line_texts(client.layout(korean, width=130, size=16))
        kept = line_texts(client.layout(korean, width=130, size=16, default_style={"word_break": "WORD_BREAK_KEEP_ALL"}))
        assert any(not line.endswith(" ") for line in normal[:-1])
        assert len(kept) > 2 and all(line.endswith(" ") for line in kept[:-1])
        phrases = client.layout("今日は自由が丘で焼き鳥を食べます。", width=110, size=20,
                                default_style={"language": "ja", "word_break": "WORD_BREAK_AUTO_PHRASE",
                                               "line_break": "LINE_BREAK_LOOSE"})
        assert len(phrases.lines) == 4


def test_emphasis_marks(socket_path):
    """Sesame marks over each character but the comma, beside the runs; the line grows to hold them."""
    with layoutd.Client() as client:
        style = {"family": "Noto Sans CJK JP", "size": 24}
        plain = client.layout("強調、文章", width=300, default_style=style)
        marked = client.layout("強調、文章", width=300, default_style=dict(style, emphasis={"shape": "EMPHASIS_SHAPE_SESAME"}))
        assert not plain.emphasis_marks
        assert [list(run.clusters) for run in marked.emphasis_marks] == [[0, 1, 3, 4]]
        assert marked.emphasis_marks[0].size == 12 and marked.lines[0].ascent > plain.lines[0].ascent



def test_ruby(socket_path):
    """Ruby given as dicts: group ruby over 漢字, jukugo over 東京; each reading's run beside the text's."""
    with layoutd.Client() as client:
        style = {"family": "Noto Sans CJK JP", "size": 24}
        ruby = [{"range": {"start": 0, "length": 2}, "text": "かんじ"},
                {"range": {"start": 3, "length": 2}, "readings": ["とう", "きょう"]}]
        reply = client.layout("漢字の東京", width=300, default_style=style, ruby_annotations=ruby)
        assert [run.range.start for run in reply.ruby_runs] == [0, 3, 4]
        assert [list(run.clusters) for run in reply.ruby_runs] == [[0, 1, 2], [0, 1], [2, 3, 4]]
        assert all(run.size == 12 for run in reply.ruby_runs)
        try:
            client.layout("漢字", width=300, ruby_annotations=[{"range": {"start": 0, "length": 9}, "text": "x"}])
        except layoutd.LayoutdError as error:
            assert error.code == layoutd.ErrorCode.INVALID_ARGUMENT and error.field == "layout.ruby_annotations[0].range"
        else:
            raise AssertionError("a base past the text was accepted")


def test_glyph_flags(socket_path):
    """HarfBuzz's flags per glyph when asked for: the ffi ligature is unsafe to concatenate; none unless asked."""
    with layoutd.Client() as client:
        plain = client.layout("office", width=300, font="Noto Sans")
        flagged = client.layout("office", width=300, font="Noto Sans", glyph_flags=True)
        assert all(not run.glyph_flags for run in plain.runs)
        run = flagged.runs[0]
        assert len(run.glyph_flags) == len(run.glyph_ids)
        assert any(flag & 2 for flag in run.glyph_flags)

def test_optical_size_sets_aat_tracking(socket_path):
    """An AAT font's trak tracks at optical_size (HarfBuzz's ptem): 986 units a glyph at 24 points, 1,000 untracked."""
    import pathlib
    trak = (pathlib.Path(__file__).resolve().parents[3] / "Tests/LayoutEngineTests/HarfBuzzInHouse/fonts/TRAK.ttf").read_bytes()
    with layoutd.Client() as client:
        def advances(**style):
            reply = client.layout("ABC", width=1000, fonts=[{"family": "Trak", "data": trak}],
                                  default_style=dict(family="Trak", size=48, **style))
            return [round(advance * 1000 / 48) for run in reply.runs for advance in run.advances]
        assert advances(optical_size=24) == [986, 986, 986]
        assert advances(fixed_optical_size=True) == [1000, 1000, 1000]
        try:
            advances(optical_size=-1)
        except layoutd.LayoutdError as error:
            assert error.code == layoutd.ErrorCode.INVALID_ARGUMENT and error.field == "layout.default_style.optical_size"
        else:
            raise AssertionError("a negative optical size was accepted")


def test_text_orientation_in_vertical_text(socket_path):
    """CSS text-orientation: upright sets Latin upright in a vertical column, sideways lays ideographs down."""
    from layoutd.v1 import layout_pb2
    with layoutd.Client() as client:
        def orientations(value):
            reply = client.layout("縦ABC書", width=300, height=1000, font="Noto Sans CJK JP",
                                  writing_mode=layout_pb2.WRITING_MODE_VERTICAL_RL, text_orientation=value)
            return [run.orientation for run in reply.runs]
        upright, sideways = layout_pb2.GLYPH_ORIENTATION_UPRIGHT, layout_pb2.GLYPH_ORIENTATION_SIDEWAYS
        assert orientations(layout_pb2.TEXT_ORIENTATION_MIXED) == [upright, sideways, upright]
        assert orientations(layout_pb2.TEXT_ORIENTATION_UPRIGHT) == [upright]
        assert orientations(layout_pb2.TEXT_ORIENTATION_SIDEWAYS) == [sideways]


def test_vertical_type_mode(socket_path):
    """Type Mode in columns: each fills the width down the page at its own size, right to left."""
    from layoutd.v1 import layout_pb2
    with layoutd.Client() as client:
        reply = client.justify("今日は\n最高の一日\nありがとう、また会いましょう", 300, style={"family": "Noto Sans CJK JP"},
                               writing_mode=layout_pb2.WRITING_MODE_VERTICAL_RL)
        assert reply.writing_mode == layout_pb2.WRITING_MODE_VERTICAL_RL
        assert len(reply.lines) == len(reply.line_sizes) == 3
        assert reply.line_sizes[1] > reply.line_sizes[2]
        for line, clamped in zip(reply.lines, reply.clamped):
            assert line.used_rect.height > line.used_rect.width
            if not clamped:
                assert abs(line.width - 300) < 0.01
        xs = [line.used_rect.x for line in reply.lines]
        assert xs == sorted(xs, reverse=True)
        with pytest.raises(layoutd.LayoutdError) as refused:
            client.justify("縦", 300, writing_mode=layout_pb2.WRITING_MODE_VERTICAL_RL, text_combine_upright=9)
        assert refused.value.field == "justify.text_combine_upright"


def _disc_png(size):
    """A PNG of an opaque disc on clear pixels, size x size."""
    import struct
    import zlib
    rows = b"".join(b"\0" + bytes(v for x in range(size) for v in (
        (0, 0, 0, 255) if (x + 0.5 - size / 2) ** 2 + (y + 0.5 - size / 2) ** 2 < (size / 2) ** 2 else (0, 0, 0, 0)))
        for y in range(size))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_text_flows_around_a_pictures_silhouette(socket_path):
    words = "Text runs beside the round picture and hugs its edge " * 6
    rect = {"width": 150, "height": 150}
    with layoutd.Client() as client:
        round_ = client.layout(words, width=300, size=12,
                               exclusions=[{"shape": {"image": {"png": _disc_png(100), "rect": rect}}}])
        box = client.layout(words, width=300, size=12, exclusions=[{"shape": {"rect": rect}}])
        beside_box = [line.baseline_origin.x for line in box.lines if line.baseline_origin.y < 150]
        beside_disc = [line.baseline_origin.x for line in round_.lines if line.baseline_origin.y < 150]
        assert beside_box and all(x >= 150 for x in beside_box)
        assert any(x < 140 for x in beside_disc)
        with pytest.raises(layoutd.LayoutdError) as refused:
            client.layout(words, width=300, exclusions=[{"shape": {"image": {"png": b"no png", "rect": rect}}}])
        assert refused.value.field == "layout.exclusions[0].shape.image.png"


def test_intrinsic_metrics_and_face_metrics(socket_path):
    with layoutd.Client() as client:
        measured = client.layout("Widths before a box", width=60, size=20, intrinsic_metrics=True)
        plain = client.layout("Widths before a box", width=60, size=20)
        faces = {face.font_id: face for face in client.fonts().faces}
    assert plain.min_content_width == 0 and plain.max_content_width == 0
    assert 40 < measured.min_content_width < measured.max_content_width
    for run in measured.runs:
        face = faces[run.font_id]
        assert run.ascent == pytest.approx(face.ascender * run.size / face.units_per_em, rel=1e-5)
        assert run.descent == pytest.approx(face.descender * run.size / face.units_per_em, rel=1e-5)
    assert all(face.cap_height > 0 and face.x_height > 0 for face in faces.values() if face.family == "Noto Sans")


def test_a_frame_past_the_limit_is_answered_by_name(socket_path):
    # Past the daemon's 4 MiB frame limit: it answers with one error naming the limit and closes;
    # the client raises that answer, not the broken pipe its write met.
    with layoutd.Client() as client:
        limit = client.daemon.max_frame_bytes
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.layout("a" * (limit + 1000), width=100)
        assert caught.value.code == layoutd.ErrorCode.RESOURCE_EXHAUSTED and caught.value.field == "frame"
        assert str(limit) in caught.value.message
        # The next call goes on a new connection.
        assert len(client.layout("after", width=100).lines) == 1


def test_a_misspelt_keyword_names_the_field_and_the_valid_ones(socket_path):
    with layoutd.Client() as client:
        with pytest.raises(TypeError) as caught:
            client.layout("x", width=10, max_line=2)
        assert "LayoutRequest has no field 'max_line' (did you mean 'max_lines'?)" in str(caught.value)
        assert "truncation, vertical_alignment, width" in str(caught.value)
        with pytest.raises(TypeError, match=r"Style has no field 'wieght' \(did you mean 'weight'\?\); its fields: "):
            client.layout("x", width=10, default_style={"wieght": 700})
        with pytest.raises(TypeError, match="JustifyRequest has no field 'min_sise' .*'min_size'"):
            client.justify("x", width=10, min_sise=10)


def test_error_codes_are_an_enum(socket_path):
    with layoutd.Client() as client:
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.layout("x", width=-1)
    code = caught.value.code
    assert code is layoutd.ErrorCode.INVALID_ARGUMENT and code == "INVALID_ARGUMENT" and str(code) == "INVALID_ARGUMENT"
    assert caught.value.number == layoutd.service_pb2.Error.INVALID_ARGUMENT
    assert str(caught.value).startswith("INVALID_ARGUMENT layout.width: ")
    # Every code of the protocol has a member; one a newer daemon adds is UNKNOWN, with its number.
    for name in layoutd.service_pb2.Error.Code.keys():
        if name != "CODE_UNSPECIFIED":
            assert layoutd.ErrorCode(name).name == name
    newer = layoutd.envelope_pb2.Envelope(request_id=1)
    newer.error.code = 99
    with pytest.raises(layoutd.LayoutdError) as caught:
        layoutd._wire.answer(newer, "layout")
    assert caught.value.code is layoutd.ErrorCode.UNKNOWN and caught.value.number == 99
    assert layoutd.ErrorCode.UNAVAILABLE.retry_safe and not layoutd.ErrorCode.INVALID_ARGUMENT.retry_safe


def test_every_request_of_the_protocol(socket_path):
    with layoutd.Client() as client:
        justified = client.justify("Type\nMode", width=300)
        assert isinstance(justified, typemode_pb2.JustifyReply) and justified.lines
        picture = client.render(layout={"text": "Hi", "width": 100}, format="PNG")
        assert isinstance(picture, render_pb2.RenderReply) and picture.image.startswith(b"\x89PNG")
        tags = tags_pb2.TagsRequest(photo_width=300, photo_height=300)
        tag = tags.tags.add()
        tag.at.x, tag.at.y = 0.5, 0.5
        tag.labels.add().name = "Tag"
        assert client.tags(tags).tags
        assert isinstance(client.tag_hit(tags=tags, point={"x": 150, "y": 150}), tags_pb2.TagHitReply)
        assert client.tag_style(label_count=2, toggle_from=0).ByteSize() > 0
        assert client.fonts().faces
        assert client.stats(prometheus=True).prometheus_text
        assert isinstance(client.reload(), service_pb2.ReloadReply)
        hit = client.hit_test(layout={"text": "Hello", "width": 100}, points=[{"x": 1000, "y": 5}], carets=[{"offset": 2}],
                              selections=[{"start": 0, "length": 5}])
        assert hit.hits[0].position.offset == 5 and hit.carets[0].primary.height > 0 and hit.selections[0].rects


def test_an_editing_session(socket_path):
    with layoutd.Client() as client:
        opened = client.open_document("First paragraph.\nSecond one.", width=300)
        assert opened.paragraph_count == 2 and len(opened.changes[0].paragraphs) == 2
        edited = client.edit_document(opened.document, [{"replace": {"range": {"start": 5, "length": 0}, "text": " new"}}],
                                      carets=[{"offset": 0}])
        change = edited.changes[0]
        assert (change.first, change.removed, len(change.paragraphs)) == (0, 1, 1)
        assert change.delta_offset == 4 and edited.caret_position.offset == 9 and edited.carets[0].primary.height > 0
        fresh = client.layout("First new paragraph.\nSecond one.", width=300)
        assert [line.range.length for line in change.paragraphs[0].lines] == [fresh.lines[0].range.length]
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.edit_document(opened.document, [{"replace": {"range": {"start": 99, "length": 0}, "text": "x"}}])
        assert (caught.value.code, caught.value.field) == ("INVALID_ARGUMENT", "edit_document.edits[0].replace.range")
        client.close_document(opened.document)
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.edit_document(opened.document)
        assert caught.value.code == "NOT_FOUND"


def test_one_text_several_layouts(socket_path):
    with layoutd.Client() as client:
        opened = client.open_document("First paragraph.\nSecond one.", width=300, views=[{"width": 80}, {"width": 200, "default_style": {"size": 30}}])
        assert len(opened.views) == 2 and opened.views[0].line_count > opened.line_count
        edited = client.edit_document(opened.document, [{"replace": {"range": {"start": 5, "length": 0}, "text": " new"}}])
        fresh = client.layout("First new paragraph.\nSecond one.", width=80)
        change = edited.views[0].changes[0]
        assert (change.first, change.removed) == (0, 1)
        assert [line.range.length for line in change.paragraphs[0].lines] == [line.range.length for line in fresh.lines[:len(change.paragraphs[0].lines)]]
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.open_document("x", width=100, views=[{"text": "y", "width": 50}])
        assert caught.value.field == "open_document.views[0].text"
        client.close_document(opened.document)


def test_a_type_mode_story_in_an_editing_session(socket_path):
    with layoutd.Client() as client:
        opened = client.open_story("so\nHAPPY\nto see you", 300, preset="strong")
        assert opened.story.preset == "strong" and len(opened.story.backgrounds) == 1
        assert [list(f.line_sizes) for f in opened.changes[0].fitted_lines][0] == [96.0]
        edited = client.edit_document(opened.document, [{"replace": {"range": {"start": 8, "length": 0}, "text": "!!"}}])
        change = edited.changes[0]
        assert (change.first, change.removed, len(change.fitted_lines)) == (1, 1, 1) and change.delta_y < 0
        fresh = client.justify("so\nHAPPY!!\nto see you", 300, preset="strong")
        assert list(change.fitted_lines[0].line_sizes) == [fresh.line_sizes[1]]
        assert abs(edited.height - fresh.height) < 1e-3 and len(edited.story.backgrounds) == len(fresh.backgrounds)
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.open_story("a", 300, preset="strong", max_height=100)
        assert (caught.value.code, caught.value.field) == ("INVALID_ARGUMENT", "open_document.type_mode.max_height")
        client.close_document(opened.document)


def test_errors_carry_code_field_and_message(socket_path):
    with layoutd.Client() as client:
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.layout("x", width=-1)
        assert caught.value.code == "INVALID_ARGUMENT"
        assert caught.value.field == "layout.width"
        assert "width" in caught.value.message
        assert client.layout("still connected", width=100).lines  # the connection survives


def test_layout_many_keeps_order_and_matches_single_calls(socket_path):
    widths = [60 + 3 * i for i in range(150)]
    with layoutd.Client() as client:
        requests = [layout_pb2.LayoutRequest(text=CAPTION, width=w) for w in widths]
        replies = client.layout_many(requests, window=16)
        assert [r.width for r in replies] == [client.layout(request=q).width for q in requests]
        # Frames go out a quarter window at a time; windows that do not divide the list end right.
        for window in (1, 3, 5, 64):
            assert [r.width for r in client.layout_many(requests[:37], window=window)] == [r.width for r in replies[:37]]
        # An error in the middle is raised after every reply is in, with every result in its
        # place; the connection stays usable.
        requests[70].width = -1
        requests[120].default_style.family = "No Such Family"
        with pytest.raises(layoutd.LayoutdError, match="layout.width") as caught:
            client.layout_many(requests)
        results = caught.value.results
        assert len(results) == 150 and results[70] is caught.value
        assert results[120].code is layoutd.ErrorCode.NOT_FOUND
        assert [r.width for i, r in enumerate(results) if i not in (70, 120)] == \
            [r.width for i, r in enumerate(replies) if i not in (70, 120)]
        # Or returned in place, without raising.
        kept = client.layout_many(requests, raise_on_error=False)
        assert [type(r).__name__ for r in kept] == [type(r).__name__ for r in results]
        assert kept[70].field == "layout.width" and kept[0].width == replies[0].width
        assert len(client.layout_many([CAPTION] * 10, width=200)) == 10


def test_threads_share_one_client(socket_path):
    results, errors = {}, []
    with layoutd.Client() as client:
        def work(index):
            try:
                for round in range(20):
                    width = 80 + index * 10 + round
                    results[(index, round)] = (width, client.layout(CAPTION, width=width).width)
            except Exception as error:  # pragma: no cover - reported below
                errors.append(error)
        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    assert len(results) == 160
    assert all(width >= laid for width, laid in results.values())


def test_no_daemon_is_unreachable(tmp_path):
    with pytest.raises(layoutd.LayoutdUnreachable) as caught:
        layoutd.Client(str(tmp_path / "none.sock"))
    assert isinstance(caught.value, ConnectionError) and caught.value.code == "UNREACHABLE"


NIMBUS = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"


def test_registered_fonts_serve_the_connection(socket_path):
    with open(NIMBUS, "rb") as handle:
        data = handle.read()
    with layoutd.Client() as client:
        added = client.register_fonts([("Brand", data)])
        assert [face.family for face in added.faces] == ["Brand"] and added.faces[0].units_per_em == 1000
        reply = client.layout("Brand", width=300, font="Brand", size=20)
        assert {run.font_id for run in reply.runs} == {added.faces[0].font_id}
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.register_fonts([b"not a font"])
        assert (caught.value.code, caught.value.field) == ("INVALID_ARGUMENT", "register_fonts.fonts[0].data")
    with layoutd.Client() as other:
        with pytest.raises(layoutd.LayoutdError) as caught:
            other.layout("Brand", width=300, font="Brand")
        assert caught.value.code == "NOT_FOUND"
