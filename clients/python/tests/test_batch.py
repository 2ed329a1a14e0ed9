"""batch_layout from Python: one request, every item answered in order, errors in place."""
import asyncio

import pytest

import layoutd
from layoutd import layout_pb2

TEXTS = [f"Caption {i}: many texts in one request" for i in range(50)] + ["مرحبا بالعالم", "日本語", ""]


def test_a_batch_answers_each_text_as_layout_would(socket_path):
    with layoutd.Client() as client:
        replies = client.layout_batch(TEXTS, width=220, font="Noto Sans", size=18)
        assert len(replies) == len(TEXTS)
        for text, reply in zip(TEXTS, replies):
            assert reply == client.layout(text, width=220, font="Noto Sans", size=18)
        # Keywords go to the shared request, as they go to one layout.
        two = client.layout_batch(TEXTS[:3], width=60, size=18, max_lines=2)
        assert all(len(reply.lines) <= 2 for reply in two)


def test_an_item_fails_in_its_place(socket_path):
    with layoutd.Client() as client:
        bad = layout_pb2.LayoutRequest(text="negative", line_height_multiple=-3)
        items = ["fine", bad, "also fine"]
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.layout_batch(items, width=100, size=18)
        assert caught.value.code is layoutd.ErrorCode.INVALID_ARGUMENT
        assert caught.value.field == "batch_layout.requests[1].line_height_multiple"
        results = caught.value.results
        assert isinstance(results[0], layout_pb2.LayoutReply) and isinstance(results[2], layout_pb2.LayoutReply)
        in_place = client.layout_batch(items, width=100, size=18, raise_on_error=False)
        assert in_place[1].field == "batch_layout.requests[1].line_height_multiple"


def test_a_refused_batch_raises_at_once_and_the_connection_goes_on(socket_path):
    with layoutd.Client() as client:
        with pytest.raises(layoutd.LayoutdError) as caught:
            client.layout_batch([], width=100)
        assert caught.value.field == "batch_layout.texts"
        assert client.layout("after", width=100).lines


def test_iterating_streams_and_leaving_early_cancels_the_rest(socket_path):
    with layoutd.Client() as client:
        seen = 0
        for reply in client.iter_batch([f"text {i}" for i in range(5000)], width=200):
            assert isinstance(reply, layout_pb2.LayoutReply)
            seen += 1
            if seen == 10:
                break
        # The rest of that batch is dropped as it comes; the next calls get their own replies.
        assert client.layout("next", width=200) == client.layout_batch(["next"], width=200)[0]


def test_a_batch_and_single_calls_share_a_connection_across_threads(socket_path):
    import threading
    with layoutd.Client() as client:
        singles = []

        def others():
            for i in range(20):
                singles.append(client.layout(f"single {i}", width=150))

        thread = threading.Thread(target=others)
        thread.start()
        replies = client.layout_batch([f"batch {i}" for i in range(2000)], width=150)
        thread.join()
        assert len(replies) == 2000 and len(singles) == 20
        assert replies[1999] == client.layout("batch 1999", width=150)


def test_the_async_client_batches(socket_path):
    async def main():
        async with layoutd.AsyncClient() as client:
            replies = await client.layout_batch(TEXTS, width=220, font="Noto Sans", size=18)
            alone = await client.layout(TEXTS[7], width=220, font="Noto Sans", size=18)
            streamed = [reply async for reply in client.iter_batch(TEXTS[:5], width=220, font="Noto Sans", size=18)]
            return replies, alone, streamed
    replies, alone, streamed = asyncio.run(main())
    assert len(replies) == len(TEXTS) and replies[7] == alone
    assert streamed == replies[:5]
