"""The asyncio client: one connection, any number of concurrent calls on it."""
from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast

from . import _requests, _wire
from .errors import LayoutdConnectionLost, LayoutdDocumentGone, LayoutdError, LayoutdTimeout, LayoutdUnreachable
from .v1 import documents_pb2, editing_pb2, envelope_pb2, layout_pb2, render_pb2, service_pb2, tags_pb2, typemode_pb2


class AsyncClient:
    """A connection to layoutd for asyncio.

        async with layoutd.AsyncClient() as client:
            reply = await client.layout("Hello, world", width=300)

    `async with` connects (as `await AsyncClient.connect(...)` does, for a client kept without
    a block) and closes at the block's end. Calls from several tasks are in flight together on
    the connection; a reader task hands each reply to the call with its id. Otherwise as
    `Client`: greeting and version check on connect, errors raised as `LayoutdError`, requests
    the daemon does not serve refused by name, and a lost connection made again on the next
    call (requests that change nothing sent again, documents gone). An AsyncClient belongs to
    the event loop it was connected on.
    """

    def __init__(self, socket_path: Optional[str] = None, timeout: Optional[float] = 60.0,
                 client_name: str = "layoutd-python", trust_any_peer: bool = False, *,
                 retries: int = 1, reconnect_wait: float = 5.0) -> None:
        """Not connected yet: `async with` or `await client.open()` connects."""
        self.socket_path = _wire.find_socket(socket_path)
        self.timeout = timeout
        self.retries = max(0, retries)
        self.reconnect_wait = reconnect_wait
        self.daemon: Optional[service_pb2.HelloReply] = None
        self._client_name = client_name
        self._trust_any_peer = trust_any_peer
        self._next_id = 1
        self._waiting: Dict[int, "asyncio.Future[envelope_pb2.Envelope]"] = {}
        # Batches in flight: each reply (or the connection's failure) queued for its reader.
        self._streams: Dict[int, "asyncio.Queue[Union[envelope_pb2.Envelope, LayoutdError]]"] = {}
        self._failure: Optional[LayoutdError] = None
        self._connected = False
        self._generation = 0
        self._memory = _wire.ConnectionMemory()
        self._replacing: Optional[asyncio.Lock] = None  # made on the client's loop

    @classmethod
    async def connect(cls, socket_path: Optional[str] = None, timeout: Optional[float] = 60.0,
                      client_name: str = "layoutd-python", trust_any_peer: bool = False) -> "AsyncClient":
        """A client connected to the daemon, greeted and version-checked."""
        client = cls(socket_path, timeout, client_name, trust_any_peer)
        await client.open()
        return client

    async def open(self) -> None:
        """Connects, greets the daemon and checks its version; nothing when already connected."""
        if self._connected:
            return
        self._replacing = asyncio.Lock()
        self._connected = True
        try:
            await self._open_connection(patient=False)
        except BaseException:
            await self.close()
            raise

    async def __aenter__(self) -> "AsyncClient":
        await self.open()
        return self

    async def __aexit__(self, *_: Any) -> None:
        await self.close()

    async def close(self) -> None:
        """Ends the connection; calls still waiting fail with LayoutdUnreachable."""
        if not self._connected:
            return
        self._connected = False
        await self._drop()
        self._fail_all(LayoutdUnreachable("the connection was closed"))

    async def _drop(self) -> None:
        if self._generation == 0 or not hasattr(self, "_writer"):
            return
        self._writer.close()
        self._reading.cancel()
        try:
            await self._reading
        except (asyncio.CancelledError, Exception):
            pass

    async def _open_connection(self, patient: bool) -> None:
        """A new connection, greeted and version-checked, with this client's fonts registered on
        it; `patient` waits up to `reconnect_wait` seconds for a restarting daemon's socket."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + (self.reconnect_wait if patient else 0)
        while True:
            try:
                return await self._open_connection_once(give_up)
            except LayoutdConnectionLost:
                # A daemon being killed can still take a connection into its backlog, then drop
                # it unanswered: that is the daemon not being there yet.
                if loop.time() >= give_up:
                    raise
                await asyncio.sleep(0.02)

    async def _open_connection_once(self, give_up: float) -> None:
        loop = asyncio.get_running_loop()
        pause = 0.02
        while True:
            try:
                reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(self.socket_path), self.timeout)
                break
            except (OSError, asyncio.TimeoutError) as error:
                if isinstance(error, OSError) and _wire.not_there_yet(error) and loop.time() + pause < give_up:
                    await asyncio.sleep(pause)
                    pause = min(pause * 2, 0.5)
                    continue
                raise _wire.unreachable(self.socket_path, error) from error
        if not self._trust_any_peer:
            try:
                _wire.check_peer(writer.get_extra_info("socket"), self.socket_path)
            except LayoutdError:
                writer.close()
                raise
        self._reader, self._writer = reader, writer
        self._generation += 1
        self._waiting = {}
        self._streams = {}
        self._failure = None
        self._reading = loop.create_task(self._read(reader, self._generation))
        try:
            hello = (await self._call_once("hello", service_pb2.HelloRequest(client_name=self._client_name)))[0]
            _wire.check_version(hello)
            self.daemon = hello
            for fonts in self._memory.fonts:
                await self._call_once("register_fonts", fonts)
        except LayoutdError as error:
            self._failure = self._failure or error
            writer.close()
            raise

    async def _live(self) -> int:
        """The live connection's generation: connects again when the last one failed."""
        if not self._connected:
            raise LayoutdUnreachable("the client is not connected: use `async with AsyncClient(...)` or `await client.open()`")
        if self._failure is not None:
            assert self._replacing is not None
            async with self._replacing:
                if self._failure is not None:  # not replaced by another task meanwhile
                    await self._drop()
                    await self._open_connection(patient=True)
        return self._generation

    async def layout(self, text: Optional[str] = None, width: Optional[float] = None, *, font: Optional[str] = None,
                     size: Optional[float] = None, request: Optional[layout_pb2.LayoutRequest] = None,
                     **fields: Any) -> layout_pb2.LayoutReply:
        return cast(layout_pb2.LayoutReply, await self.call("layout", _requests.layout(text, width, font, size, request, fields)))

    async def layout_many(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                          font: Optional[str] = None, size: Optional[float] = None, window: int = 64,
                          raise_on_error: bool = True, **fields: Any) -> List[Any]:
        """Every text laid out with up to `window` requests in flight; results in the texts' order,
        errors as `Client.layout_many` gives them (raised with `results`, or in place)."""
        requests = _requests.layouts(texts, width, font, size, fields)
        if self.daemon is not None and self.daemon.max_in_flight:
            window = min(window, self.daemon.max_in_flight)
        slots = asyncio.Semaphore(max(1, window))

        async def one(request: Any) -> Any:
            async with slots:
                try:
                    return await self.call("layout", request)
                except (LayoutdUnreachable, LayoutdTimeout):
                    raise
                except LayoutdError as error:
                    return error

        results: List[Any] = list(await asyncio.gather(*(one(r) for r in requests)))
        if raise_on_error:
            _wire.raise_first_error(results)
        return results

    async def layout_batch(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                           font: Optional[str] = None, size: Optional[float] = None, deadline_ms: int = 0,
                           raise_on_error: bool = True, **fields: Any) -> List[Any]:
        """Every text laid out in one batch_layout request, as `Client.layout_batch`."""
        results = [result async for result in self.iter_batch(texts, width, font=font, size=size,
                                                              deadline_ms=deadline_ms, **fields)]
        if raise_on_error:
            _wire.raise_first_error(results)
        return results

    async def iter_batch(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                         font: Optional[str] = None, size: Optional[float] = None, deadline_ms: int = 0,
                         **fields: Any) -> AsyncIterator[Any]:
        """`layout_batch`, each item's reply (or its LayoutdError) yielded as it arrives, as
        `Client.iter_batch`."""
        message = _requests.batch(texts, width, font, size, fields)
        await self._live()
        _wire.check_feature(self.daemon, "batch_layout")
        if self._failure is not None:
            raise self._failure
        items = _wire.BatchItems(max(len(message.texts), len(message.requests)))
        request_id = self._next_id
        self._next_id += 1
        stream: "asyncio.Queue[Union[envelope_pb2.Envelope, LayoutdError]]" = asyncio.Queue()
        self._streams[request_id] = stream
        try:
            try:
                self._writer.write(_wire.request_frame(request_id, "batch_layout", message, deadline_ms))
                await self._writer.drain()
            except OSError as error:
                lost = LayoutdConnectionLost(f"the connection to layoutd failed: {error}")
                self._fail_all(lost)
                raise lost from None
            while not items.done:
                try:
                    reply = await asyncio.wait_for(stream.get(), self.timeout)
                except asyncio.TimeoutError:
                    raise LayoutdTimeout(f"no answer from layoutd within {self.timeout} s") from None
                if isinstance(reply, LayoutdError):
                    raise reply
                yield items.take(reply)
        finally:
            self._streams.pop(request_id, None)
            if not items.done:
                self._cancel(request_id)

    async def justify(self, text: Optional[str] = None, width: Optional[float] = None, *, preset: Optional[str] = None,
                      request: Optional[typemode_pb2.JustifyRequest] = None, **fields: Any) -> typemode_pb2.JustifyReply:
        return cast(typemode_pb2.JustifyReply, await self.call("justify", _requests.justify(text, width, preset, request, fields)))

    async def render(self, request: Optional[render_pb2.RenderRequest] = None, **fields: Any) -> render_pb2.RenderReply:
        return cast(render_pb2.RenderReply, await self.call("render", _requests.render(request, fields)))

    async def tags(self, request: Optional[tags_pb2.TagsRequest] = None, **fields: Any) -> tags_pb2.TagsReply:
        return cast(tags_pb2.TagsReply, await self.call("tags", _requests.tags(request, fields)))

    async def tag_hit(self, request: Optional[tags_pb2.TagHitRequest] = None, **fields: Any) -> tags_pb2.TagHitReply:
        return cast(tags_pb2.TagHitReply, await self.call("tag_hit", _requests.tag_hit(request, fields)))

    async def tag_style(self, request: Optional[tags_pb2.TagStyleRequest] = None,
                        **fields: Any) -> tags_pb2.TagStyleReply:
        return cast(tags_pb2.TagStyleReply, await self.call("tag_style", _requests.tag_style(request, fields)))

    async def hit_test(self, request: Optional[editing_pb2.HitTestRequest] = None,
                 **fields: Any) -> editing_pb2.HitTestReply:
        """Where points land in a layout (its source: layout= or justify=), where carets stand,
        what selections cover: points=[{"x": 10, "y": 12}], carets=[{"offset": 3}], selections=[...]."""
        return cast(editing_pb2.HitTestReply, await self.call("hit_test", _requests.hit_test(request, fields)))

    async def open_document(self, text: Optional[str] = None, *, layout: Optional[layout_pb2.LayoutRequest] = None,
                      views: Optional[Sequence[Any]] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Opens an editing session on this connection: the reply's `document` is its id, and its one
        change holds every paragraph. Takes what layout() takes (text=, width=, ...); views=[{"width": 120}, ...]
        keeps more layouts of the same text, each edit answered in each (the reply's `views`)."""
        if text is not None:
            fields["text"] = text
        return cast(documents_pb2.DocumentReply, await self.call("open_document", _requests.open_document(layout, fields, views)))

    async def open_story(self, text: Optional[str] = None, width: Optional[float] = None, *, preset: Optional[str] = None,
                   request: Optional[typemode_pb2.JustifyRequest] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Type Mode in an editing session: takes what justify() takes. Each change gives its
        paragraphs' lines and, in fitted_lines, their sizes; the reply the whole story's backgrounds."""
        return cast(documents_pb2.DocumentReply, await self.call("open_document", _requests.open_story(text, width, preset, request, fields)))

    async def edit_document(self, document: int, edits: Optional[Sequence[Any]] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Edits an open document, in order, all or none: edits=[{"replace": {"range": {"start": 3, "length": 0},
        "text": "x"}}, {"style": {...}}]; points= and carets= ask about the document after them. The reply
        gives each edit's paragraphs laid out again and how far the rest moved."""
        return cast(documents_pb2.DocumentReply, await self.call("edit_document", _requests.edit_document(document, edits, fields)))

    async def close_document(self, document: int) -> documents_pb2.DocumentReply:
        return cast(documents_pb2.DocumentReply, await self.call("close_document", documents_pb2.CloseDocumentRequest(document=document)))

    async def register_fonts(self, fonts: Sequence[Union[bytes, "tuple[str, bytes]"]]) -> service_pb2.RegisterFontsReply:
        """Registers fonts on this connection: each a font file's bytes, or (family, bytes) to name
        it; later requests on this client may name their families. Returns the faces added."""
        request = service_pb2.RegisterFontsRequest()
        for font in fonts:
            family, data = ("", font) if isinstance(font, (bytes, bytearray)) else font
            request.fonts.add(family=family, data=bytes(data))
        return cast(service_pb2.RegisterFontsReply, await self.call("register_fonts", request))

    async def fonts(self) -> service_pb2.FontsReply:
        return cast(service_pb2.FontsReply, await self.call("fonts", service_pb2.FontsRequest()))

    async def stats(self, prometheus: bool = False) -> service_pb2.StatsReply:
        return cast(service_pb2.StatsReply, await self.call("stats", _requests.stats(prometheus)))

    async def reload(self) -> service_pb2.ReloadReply:
        return cast(service_pb2.ReloadReply, await self.call("reload", service_pb2.ReloadRequest()))

    async def call(self, request: str, message: Any) -> Any:
        """Sends `message` as the Envelope body `request` and returns the reply's body; sends it
        again after a lost connection when that is safe."""
        for attempt in range(self.retries + 1):
            try:
                reply, generation = await self._call_once(request, message)
            except LayoutdError as error:
                if attempt < self.retries and _wire.may_send_again(request, error):
                    continue
                raise
            self._memory.keep(request, message, reply, generation, self._generation)
            return reply
        raise AssertionError("unreachable")  # the last attempt returns or raises

    async def _call_once(self, request: str, message: Any) -> Tuple[Any, int]:
        document = _wire.document_of(request, message)
        if document is not None and self._memory.is_gone(document, self._generation, self._failure is not None):
            raise LayoutdDocumentGone(document)
        generation = await self._live()
        _wire.check_feature(self.daemon, request)
        if self._failure is not None:
            raise self._failure
        request_id = self._next_id
        self._next_id += 1
        future: "asyncio.Future[envelope_pb2.Envelope]" = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        try:
            self._writer.write(_wire.request_frame(request_id, request, message))
            await self._writer.drain()
            reply = await asyncio.wait_for(asyncio.shield(future), self.timeout)
        except asyncio.TimeoutError:
            self._cancel(request_id)
            raise LayoutdTimeout(f"no answer from layoutd within {self.timeout} s") from None
        except asyncio.CancelledError:
            self._cancel(request_id)
            raise
        except (OSError, LayoutdConnectionLost) as error:
            if isinstance(error, OSError) and not future.done():
                await asyncio.wait({self._reading}, timeout=0.5)  # the daemon's answer may be on its way
            answered = future.exception() if future.done() and not future.cancelled() else None
            if isinstance(answered, LayoutdError) and not isinstance(answered, LayoutdConnectionLost):
                raise answered from None
            lost = error if isinstance(error, LayoutdConnectionLost) else \
                LayoutdConnectionLost(f"the connection to layoutd failed: {error}")
            if generation == self._generation:
                self._fail_all(lost)
            if document is not None:
                raise LayoutdDocumentGone(document) from lost
            raise lost from None
        finally:
            self._waiting.pop(request_id, None)
            if not future.done():
                future.cancel()
            elif not future.cancelled():
                future.exception()  # looked at: a failure nobody awaits is not reported as lost
        try:
            return _wire.answer(reply, request), generation
        except LayoutdError as error:
            if error.code == "UNAVAILABLE" and generation == self._generation:
                self._failure = LayoutdConnectionLost("the daemon is shutting down")  # the next call connects again
            raise

    def _cancel(self, request_id: int) -> None:
        """Asks the daemon to drop a request nobody waits for any more (best effort)."""
        cancel_id = self._next_id
        self._next_id += 1
        try:
            self._writer.write(_wire.request_frame(cancel_id, "cancel", service_pb2.Cancel(request_id=request_id)))
        except Exception:
            pass

    async def _read(self, reader: asyncio.StreamReader, generation: int) -> None:
        try:
            while True:
                header = await reader.readexactly(4)
                body = await reader.readexactly(_wire.body_length(header))
                reply = _wire.parse(body)
                if reply.request_id == 0 and reply.WhichOneof("body") == "error":
                    # The daemon's last word before it closes (a frame past max_frame_bytes): the
                    # calls waiting on this connection learn why it ends.
                    self._lost(generation, _wire.error_of(reply.error))
                    continue
                future = self._waiting.get(reply.request_id)
                if future is not None and not future.done():
                    future.set_result(reply)
                elif reply.request_id in self._streams:
                    self._streams[reply.request_id].put_nowait(reply)
        except asyncio.IncompleteReadError:
            self._lost(generation, LayoutdConnectionLost("the daemon closed the connection"))
        except OSError as error:
            self._lost(generation, LayoutdConnectionLost(f"the connection to layoutd failed: {error}"))
        except LayoutdError as error:
            self._lost(generation, error)

    def _lost(self, generation: int, error: LayoutdError) -> None:
        if generation == self._generation:
            self._fail_all(error)

    def _fail_all(self, error: LayoutdError) -> None:
        self._failure = self._failure or error
        for future in self._waiting.values():
            if not future.done():
                future.set_exception(self._failure)
        for stream in self._streams.values():
            stream.put_nowait(self._failure)
