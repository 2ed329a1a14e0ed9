"""Clients survive the daemon: restarted (SIGTERM) or crashed (SIGKILL) between and during calls."""
import threading
import time

import pytest

import layoutd
from layoutd import layout_pb2

CAPTION = "The quick brown fox jumps over the lazy dog, again and again and again."
NIMBUS = "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf"


@pytest.mark.parametrize("crash", [False, True], ids=["restarted", "crashed"])
def test_the_next_call_connects_again(own_daemon, crash):
    with open(NIMBUS, "rb") as handle:
        brand = handle.read()
    with layoutd.Client(reconnect_wait=30) as client:
        before = client.layout(CAPTION, width=200)
        client.register_fonts([("Brand", brand)])
        own_daemon.restart(crash=crash)
        assert client.layout(CAPTION, width=200) == before
        # Fonts registered on the lost connection were registered on the new one.
        assert client.layout("Brand", width=300, font="Brand").runs
        assert client.fonts().faces


def test_calls_in_flight_during_a_restart_are_sent_again(own_daemon):
    """Eight threads lay text out while the daemon crashes and a new one starts; every call
    returns the reply it would have had, none raises."""
    with layoutd.Client(reconnect_wait=30) as client:
        expected = client.layout(CAPTION, width=180)
        results, errors, done = [], [], threading.Event()

        def work():
            while not done.is_set():
                try:
                    results.append(client.layout(CAPTION, width=180))
                except Exception as error:  # reported below
                    errors.append(error)
        threads = [threading.Thread(target=work) for _ in range(8)]
        for thread in threads:
            thread.start()
        while len(results) < 100 and not errors:
            time.sleep(0.01)
        own_daemon.restart(crash=True)
        at_restart = len(results)
        while len(results) < at_restart + 200 and not errors:
            time.sleep(0.01)
        done.set()
        for thread in threads:
            thread.join()
    assert not errors, errors[:3]
    assert all(reply == expected for reply in results)


def test_a_batch_across_a_restart_keeps_every_reply(own_daemon):
    with layoutd.Client(reconnect_wait=30) as client:
        texts = [CAPTION[: 10 + i % 60] for i in range(300)]
        alone = client.layout_many(texts, width=150)
        own_daemon.restart()
        assert client.layout_many(texts, width=150) == alone


def test_a_document_is_gone_with_its_connection(own_daemon):
    with layoutd.Client(reconnect_wait=30) as client:
        opened = client.open_document("First paragraph.\nSecond one.", width=300)
        own_daemon.restart()
        with pytest.raises(layoutd.LayoutdDocumentGone) as caught:
            client.edit_document(opened.document, [{"replace": {"range": {"start": 0, "length": 0}, "text": "x"}}])
        assert caught.value.code is layoutd.ErrorCode.DOCUMENT_GONE and caught.value.document == opened.document
        assert "open it again" in str(caught.value)
        with pytest.raises(layoutd.LayoutdDocumentGone):
            client.close_document(opened.document)
        again = client.open_document("First paragraph.\nSecond one.", width=300)
        edited = client.edit_document(again.document, [{"replace": {"range": {"start": 0, "length": 0}, "text": "x"}}])
        assert edited.changes[0].delta_offset == 1


def test_an_edit_on_a_lost_connection_is_not_sent_again(own_daemon):
    """The daemon crashed before the edit went out: the edit is not sent to the next daemon (where
    the id may name another document); the document is gone."""
    with layoutd.Client(reconnect_wait=30) as client:
        opened = client.open_document("Some text.", width=300)
        own_daemon.process.kill()
        own_daemon.process.wait(30)
        with pytest.raises(layoutd.LayoutdDocumentGone):
            client.edit_document(opened.document, [{"replace": {"range": {"start": 0, "length": 0}, "text": "x"}}])
        own_daemon.start()
        assert client.layout("back", width=100).lines


def test_no_daemon_after_the_wait_is_unreachable(own_daemon):
    with layoutd.Client(reconnect_wait=0.3) as client:
        own_daemon.terminate()
        with pytest.raises(layoutd.LayoutdUnreachable) as caught:
            client.layout(CAPTION, width=200)
        assert caught.value.code is layoutd.ErrorCode.UNREACHABLE
        own_daemon.start()
        assert client.layout(CAPTION, width=200).lines  # and it comes back with the daemon


def test_a_closed_client_does_not_reconnect(own_daemon):
    client = layoutd.Client()
    client.close()
    with pytest.raises(layoutd.LayoutdUnreachable, match="closed"):
        client.layout("x", width=100)


def test_the_async_client_survives_the_daemon(own_daemon):
    """The same rules in AsyncClient: calls in flight through a crash are sent again, the next
    call connects again, fonts come along, documents are gone, batches keep their places."""
    import asyncio

    async def main():
        with open(NIMBUS, "rb") as handle:
            brand = handle.read()
        async with layoutd.AsyncClient(reconnect_wait=30) as client:
            expected = await client.layout(CAPTION, width=180)
            await client.register_fonts([("Brand", brand)])
            opened = await client.open_document("Some text.", width=300)
            calls = [asyncio.ensure_future(client.layout(CAPTION, width=180)) for _ in range(200)]
            await asyncio.sleep(0)
            own_daemon.restart(crash=True)
            assert all(reply == expected for reply in await asyncio.gather(*calls))
            assert (await client.layout("Brand", width=300, font="Brand")).runs
            with pytest.raises(layoutd.LayoutdDocumentGone):
                await client.edit_document(opened.document, [{"replace": {"range": {"start": 0, "length": 0}, "text": "x"}}])
            own_daemon.restart()
            results = await client.layout_many([CAPTION, CAPTION], width=-1, raise_on_error=False)
            assert [r.code for r in results] == ["INVALID_ARGUMENT"] * 2
            with pytest.raises(layoutd.LayoutdError) as caught:
                await client.layout_many([layout_pb2.LayoutRequest(text="a", width=100),
                                          layout_pb2.LayoutRequest(text="b", width=-1)])
            assert caught.value.results[0].lines and caught.value.results[1] is caught.value
    asyncio.run(main())


def test_a_restart_while_idle_costs_no_request(own_daemon):
    """The daemon restarted while the client sat idle: the first write finds the old connection
    closed, sent nothing, so even a request that is never resent (an open) goes on a new one."""
    with layoutd.Client(reconnect_wait=30, retries=0) as client:
        client.layout(CAPTION, width=200)
        own_daemon.restart()
        assert client.open_document("Some text.", width=300).paragraph_count == 1
