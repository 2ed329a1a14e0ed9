"""The asyncio client against the real daemon."""
import asyncio

import pytest

import layoutd
from layoutd import layout_pb2

CAPTION = "The quick brown fox jumps over the lazy dog, again and again and again."


def run(coroutine):
    return asyncio.run(coroutine)


def test_lays_out_and_pipelines(socket_path):
    async def main():
        async with await layoutd.AsyncClient.connect() as client:
            assert client.daemon.protocol_version == layoutd.PROTOCOL_VERSION
            one = await client.layout("Hello from asyncio, 你好", width=240)
            assert one.lines and one.runs
            widths = [60 + 3 * i for i in range(120)]
            many = await client.layout_many([layout_pb2.LayoutRequest(text=CAPTION, width=w) for w in widths], window=8)
            singles = await asyncio.gather(*(client.layout(CAPTION, width=w) for w in widths))
            assert many == list(singles)
    run(main())


def test_async_with_connects_and_closes(socket_path):
    async def main():
        client = layoutd.AsyncClient(socket_path)
        with pytest.raises(layoutd.LayoutdUnreachable):
            await client.layout("not yet", width=100)
        async with client:
            assert client.daemon.protocol_version == layoutd.PROTOCOL_VERSION
            assert (await client.layout("Hello", width=200)).lines
        with pytest.raises(layoutd.LayoutdUnreachable):
            await client.layout("closed", width=100)
        async with layoutd.AsyncClient(socket_path) as again:
            assert (await again.layout("Again", width=200)).lines
    run(main())


def test_errors_and_every_request(socket_path):
    async def main():
        async with await layoutd.AsyncClient.connect(socket_path) as client:
            with pytest.raises(layoutd.LayoutdError) as caught:
                await client.layout("x", width=-1)
            assert (caught.value.code, caught.value.field) == ("INVALID_ARGUMENT", "layout.width")
            assert (await client.justify("Type\nMode", width=300)).lines
            assert (await client.render(layout={"text": "Hi", "width": 100})).image.startswith(b"\x89PNG")
            assert (await client.fonts()).faces
            assert (await client.stats()).requests_served > 0
            assert await client.tag_style(label_count=2, toggle_from=0)
            opened = await client.open_document("Hello", width=100)
            edited = await client.edit_document(opened.document, [{"replace": {"range": {"start": 5, "length": 0}, "text": "!"}}])
            assert edited.text_length == 6
            await client.close_document(opened.document)
    run(main())


def test_a_daemon_that_never_answers_times_out(tmp_path):
    import socket
    path = str(tmp_path / "silent.sock")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(path)
    listener.listen()

    async def main():
        with pytest.raises(layoutd.LayoutdTimeout):
            await layoutd.AsyncClient.connect(path, timeout=0.3)
    try:
        run(main())
    finally:
        listener.close()


def test_a_frame_past_the_limit_is_answered_by_name(socket_path):
    # The daemon answers a frame past its limit with one error naming it, then closes: the call
    # raises that answer, and the next call goes on a new connection.
    async def main():
        async with layoutd.AsyncClient() as client:
            limit = client.daemon.max_frame_bytes
            with pytest.raises(layoutd.LayoutdError) as caught:
                await client.layout("a" * (limit + 1000), width=100)
            assert caught.value.code == layoutd.ErrorCode.RESOURCE_EXHAUSTED and caught.value.field == "frame"
            assert str(limit) in caught.value.message
            assert len((await client.layout("after", width=100)).lines) == 1
    run(main())
