"""The blocking client: one connection, shared safely by any number of threads."""
from __future__ import annotations

import socket
import threading
import time
from collections import deque
from itertools import islice
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union, cast

from . import _requests, _wire
from .errors import (ErrorCode, LayoutdConnectionLost, LayoutdDocumentGone, LayoutdError, LayoutdTimeout,
                     LayoutdUnreachable)
from .v1 import documents_pb2, editing_pb2, envelope_pb2, layout_pb2, render_pb2, service_pb2, tags_pb2, typemode_pb2

#: What a batch holds in each place: the reply, or (with raise_on_error=False) the error.
Result = Union[Any, LayoutdError]


class Client:
    """A connection to layoutd.

        with layoutd.Client() as client:
            reply = client.layout("Hello, world", width=300, font="Noto Sans", size=24)

    On connect the client greets the daemon (`daemon` keeps its hello reply: version, limits,
    features) and refuses one of another protocol version. Every call sends one request and
    returns its reply message, matched by request id; an error reply is raised as
    `LayoutdError`. A request the daemon does not serve is refused before it is sent.

    The daemon may restart (an upgrade, `systemctl restart`, a crash): a call after the
    connection is lost connects again, waiting up to `reconnect_wait` seconds for the socket to
    come back, greets the new daemon and registers this client's fonts on it again. A request
    whose reply never came is sent again (`retries` times) when that is safe: when it changes
    nothing in the daemon (`layoutd.RETRY_SAFE_REQUESTS`), or the daemon answered UNAVAILABLE
    because it is stopping. Documents die with their connection: a call on one opened before
    the loss raises `LayoutdDocumentGone`.

    Thread safety: a Client may be shared by threads. Each call's frame is written whole under
    a lock, and whichever waiting thread reads the socket hands the other threads' replies to
    them, so calls from several threads are in flight together. `layout_many` pipelines a
    list from one thread.
    """

    def __init__(self, socket_path: Optional[str] = None, timeout: Optional[float] = 60.0,
                 client_name: str = "layoutd-python", trust_any_peer: bool = False, *,
                 retries: int = 1, reconnect_wait: float = 5.0) -> None:
        self.socket_path = _wire.find_socket(socket_path)
        self.timeout = timeout
        self.retries = max(0, retries)
        self.reconnect_wait = reconnect_wait
        self._client_name = client_name
        self._trust_any_peer = trust_any_peer
        # Held while a frame is written, and while the connection is replaced (re-entrant: the
        # new connection's hello and fonts go through the ordinary calls).
        self._send_lock = threading.RLock()
        self._state = threading.Condition()
        self._closed = False
        self._generation = 0  # which connection this is: replies and documents belong to one
        self._memory = _wire.ConnectionMemory()
        self._next_id = 1
        self.daemon: Optional[service_pb2.HelloReply] = None
        self._served = _wire.served_requests(None)
        with self._send_lock:
            self._connect(patient=False)

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def close(self) -> None:
        """Ends the connection; calls still waiting in other threads fail, later calls raise."""
        self._closed = True
        self._drop()

    def _drop(self) -> None:
        """Closes the socket; a thread blocked reading it wakes (shutdown does that, close not)."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    def _connect(self, patient: bool) -> None:
        """A new connection, greeted and version-checked, with this client's fonts registered
        on it. `patient`: a daemon restarting has no socket, or refuses, for a moment: keep
        trying for `reconnect_wait` seconds."""
        give_up = time.monotonic() + (self.reconnect_wait if patient else 0)
        while True:
            try:
                return self._connect_once(give_up)
            except LayoutdConnectionLost:
                # A daemon being killed can still take a connection into its backlog, then drop
                # it unanswered: that is the daemon not being there yet.
                if time.monotonic() >= give_up:
                    raise
                time.sleep(0.02)

    def _connect_once(self, give_up: float) -> None:
        sock = self._open_socket(give_up)
        with self._state:
            self._sock = sock
            self._buffer = bytearray()
            # Replies read for another waiting call, by id, in order (a batch has many).
            self._replies: Dict[int, Deque[envelope_pb2.Envelope]] = {}
            self._waiting: Set[int] = set()
            self._reading = False
            self._failure: Optional[Exception] = None
            self._generation += 1
        try:
            hello = self._call_once("hello", service_pb2.HelloRequest(client_name=self._client_name))[0]
            _wire.check_version(hello)
            self.daemon = hello
            self._served = _wire.served_requests(hello)
            for fonts in self._memory.fonts:
                self._call_once("register_fonts", fonts)
        except BaseException as error:
            with self._state:
                self._failure = self._failure or (error if isinstance(error, Exception) else LayoutdUnreachable("interrupted"))
            sock.close()
            raise

    def _open_socket(self, give_up: float) -> socket.socket:
        pause = 0.02
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.settimeout(self.timeout)
                sock.connect(self.socket_path)
                if not self._trust_any_peer:
                    _wire.check_peer(sock, self.socket_path)
                return sock
            except OSError as error:
                sock.close()
                if _wire.not_there_yet(error) and time.monotonic() + pause < give_up:
                    time.sleep(pause)
                    pause = min(pause * 2, 0.5)
                    continue
                raise _wire.unreachable(self.socket_path, error.strerror or error) from error
            except BaseException:
                sock.close()
                raise

    def _connected(self) -> int:
        """The live connection's generation: connects again when the last one failed. Called
        with the send lock held."""
        if self._closed:
            raise LayoutdUnreachable("the client is closed")
        if self._failure is not None:
            self._drop()
            self._connect(patient=True)
        return self._generation

    # Requests, one method each. Keywords are the request's fields (see _requests.py).

    def layout(self, text: Optional[str] = None, width: Optional[float] = None, *, font: Optional[str] = None,
               size: Optional[float] = None, request: Optional[layout_pb2.LayoutRequest] = None,
               **fields: Any) -> layout_pb2.LayoutReply:
        """Lays `text` out `width` points wide (font and size set the default style)."""
        return cast(layout_pb2.LayoutReply, self.call("layout", _requests.layout(text, width, font, size, request, fields)))

    def layout_many(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                    font: Optional[str] = None, size: Optional[float] = None, window: int = 64,
                    raise_on_error: bool = True, **fields: Any) -> List[Any]:
        """Lays every text (or request) out with up to `window` requests in flight at once, on
        this connection; the replies come back in the texts' order. The first error is raised
        once every reply has come, with every reply and error in its place as its `results`;
        with `raise_on_error=False` those are returned instead (a `LayoutdError` where a text
        failed, a `LayoutReply` elsewhere)."""
        requests = _requests.layouts(texts, width, font, size, fields)
        return self.call_many("layout", requests, window, raise_on_error)

    def layout_batch(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                     font: Optional[str] = None, size: Optional[float] = None, deadline_ms: int = 0,
                     raise_on_error: bool = True, **fields: Any) -> List[Result]:
        """Lays every text (or request) out in one batch_layout request: one round trip, the
        daemon answering item by item. Plain texts share the options given; where any item is a
        LayoutRequest each is sent whole, the options set on it. `deadline_ms` covers the whole
        batch. Returns the replies in the texts' order; an item's error is raised as
        `layout_many` raises it (once every item is in, all of them as its `results`), or with
        `raise_on_error=False` left in its place. A batch the daemon refuses as a whole (too
        many items, say) raises at once."""
        results = list(self.iter_batch(texts, width, font=font, size=size, deadline_ms=deadline_ms, **fields))
        if raise_on_error:
            _wire.raise_first_error(results)
        return results

    def iter_batch(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                   font: Optional[str] = None, size: Optional[float] = None, deadline_ms: int = 0,
                   **fields: Any) -> Iterator[Result]:
        """`layout_batch`, yielding each item's LayoutReply (or its LayoutdError, not raised) as
        it arrives: for batches too large to hold every reply at once. Leaving the loop early
        cancels the rest of the batch. A lost connection raises after the items that came (a
        batch is not sent again by itself)."""
        message = _requests.batch(texts, width, font, size, fields)
        _wire.check_feature(self.daemon, "batch_layout")
        items = _wire.BatchItems(max(len(message.texts), len(message.requests)))
        ids, generation = self._send_many("batch_layout", [message], deadline_ms=deadline_ms)
        try:
            while not items.done:
                deadline = None if self.timeout is None else time.monotonic() + self.timeout
                try:
                    reply = self._wait(ids[0], generation, deadline, more=True)
                except LayoutdTimeout:
                    self._cancel(ids[0], generation)
                    raise
                yield items.take(reply)
        finally:
            if not items.done:
                self._cancel(ids[0], generation)
            with self._state:
                # What is still coming for the batch is dropped as it arrives.
                self._waiting.discard(ids[0])
                self._replies.pop(ids[0], None)

    def justify(self, text: Optional[str] = None, width: Optional[float] = None, *, preset: Optional[str] = None,
                request: Optional[typemode_pb2.JustifyRequest] = None, **fields: Any) -> typemode_pb2.JustifyReply:
        """Type Mode: every line justified at its own size."""
        return cast(typemode_pb2.JustifyReply, self.call("justify", _requests.justify(text, width, preset, request, fields)))

    def render(self, request: Optional[render_pb2.RenderRequest] = None, **fields: Any) -> render_pb2.RenderReply:
        """A picture (PNG, SVG or PDF) of a layout, a Type Mode text or image tags."""
        return cast(render_pb2.RenderReply, self.call("render", _requests.render(request, fields)))

    def tags(self, request: Optional[tags_pb2.TagsRequest] = None, **fields: Any) -> tags_pb2.TagsReply:
        return cast(tags_pb2.TagsReply, self.call("tags", _requests.tags(request, fields)))

    def tag_hit(self, request: Optional[tags_pb2.TagHitRequest] = None, **fields: Any) -> tags_pb2.TagHitReply:
        return cast(tags_pb2.TagHitReply, self.call("tag_hit", _requests.tag_hit(request, fields)))

    def tag_style(self, request: Optional[tags_pb2.TagStyleRequest] = None, **fields: Any) -> tags_pb2.TagStyleReply:
        return cast(tags_pb2.TagStyleReply, self.call("tag_style", _requests.tag_style(request, fields)))

    def hit_test(self, request: Optional[editing_pb2.HitTestRequest] = None,
                 **fields: Any) -> editing_pb2.HitTestReply:
        """Where points land in a layout (its source: layout= or justify=), where carets stand,
        what selections cover: points=[{"x": 10, "y": 12}], carets=[{"offset": 3}], selections=[...]."""
        return cast(editing_pb2.HitTestReply, self.call("hit_test", _requests.hit_test(request, fields)))

    def open_document(self, text: Optional[str] = None, *, layout: Optional[layout_pb2.LayoutRequest] = None,
                      views: Optional[Sequence[Any]] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Opens an editing session on this connection: the reply's `document` is its id, and its one
        change holds every paragraph. Takes what layout() takes (text=, width=, ...); views=[{"width": 120}, ...]
        keeps more layouts of the same text, each edit answered in each (the reply's `views`)."""
        if text is not None:
            fields["text"] = text
        return cast(documents_pb2.DocumentReply, self.call("open_document", _requests.open_document(layout, fields, views)))

    def open_story(self, text: Optional[str] = None, width: Optional[float] = None, *, preset: Optional[str] = None,
                   request: Optional[typemode_pb2.JustifyRequest] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Type Mode in an editing session: takes what justify() takes. Each change gives its
        paragraphs' lines and, in fitted_lines, their sizes; the reply the whole story's backgrounds."""
        return cast(documents_pb2.DocumentReply, self.call("open_document", _requests.open_story(text, width, preset, request, fields)))

    def edit_document(self, document: int, edits: Optional[Sequence[Any]] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Edits an open document, in order, all or none: edits=[{"replace": {"range": {"start": 3, "length": 0},
        "text": "x"}}, {"style": {...}}]; points= and carets= ask about the document after them. The reply
        gives each edit's paragraphs laid out again and how far the rest moved."""
        return cast(documents_pb2.DocumentReply, self.call("edit_document", _requests.edit_document(document, edits, fields)))

    def close_document(self, document: int) -> documents_pb2.DocumentReply:
        return cast(documents_pb2.DocumentReply, self.call("close_document", documents_pb2.CloseDocumentRequest(document=document)))

    def register_fonts(self, fonts: Sequence[Union[bytes, "tuple[str, bytes]"]]) -> service_pb2.RegisterFontsReply:
        """Registers fonts on this connection: each a font file's bytes, or (family, bytes) to name
        it; later requests on this client may name their families. Returns the faces added."""
        request = service_pb2.RegisterFontsRequest()
        for font in fonts:
            family, data = ("", font) if isinstance(font, (bytes, bytearray)) else font
            request.fonts.add(family=family, data=bytes(data))
        return cast(service_pb2.RegisterFontsReply, self.call("register_fonts", request))

    def fonts(self) -> service_pb2.FontsReply:
        return cast(service_pb2.FontsReply, self.call("fonts", service_pb2.FontsRequest()))

    def stats(self, prometheus: bool = False) -> service_pb2.StatsReply:
        return cast(service_pb2.StatsReply, self.call("stats", _requests.stats(prometheus)))

    def reload(self) -> service_pb2.ReloadReply:
        """Asks the daemon to re-read its fonts and configuration (its own user and root only)."""
        return cast(service_pb2.ReloadReply, self.call("reload", service_pb2.ReloadRequest()))

    # The machinery.

    def call(self, request: str, message: Any) -> Any:
        """Sends `message` as the Envelope body `request` ("layout", "tag_hit", ...) and returns
        the reply's body; sends it again after a lost connection when that is safe."""
        for attempt in range(self.retries + 1):
            try:
                reply, generation = self._call_once(request, message)
            except LayoutdError as error:
                if attempt < self.retries and _wire.may_send_again(request, error):
                    continue
                raise
            if request in _wire.ConnectionMemory.REQUESTS:
                with self._send_lock:
                    self._memory.keep(request, message, reply, generation, self._generation)
            return reply
        raise AssertionError("unreachable")  # the last attempt returns or raises

    def call_many(self, request: str, messages: Sequence[Any], window: int = 64,
                  raise_on_error: bool = True) -> List[Result]:
        """Every message sent with up to `window` in flight; the results in the messages' order.
        With `raise_on_error` the first error is raised once every reply is in, carrying them all
        as `results`; without it each failed place holds its `LayoutdError`. Places lost with
        the connection are sent again when that is safe, as `call` does."""
        _wire.check_feature(self.daemon, request)
        results = self._call_many_once(request, messages, window)
        for _ in range(self.retries):
            again = [i for i, result in enumerate(results)
                     if isinstance(result, LayoutdError) and _wire.may_send_again(request, result)]
            if not again:
                break
            for index, result in zip(again, self._call_many_once(request, [messages[i] for i in again], window)):
                results[index] = result
        if raise_on_error:
            _wire.raise_first_error(results)
        return results

    def _call_once(self, request: str, message: Any) -> Tuple[Any, int]:
        """One request on the live connection (made when there is none): its reply's body and
        the connection's generation."""
        if request not in self._served:
            _wire.check_feature(self.daemon, request)
        document = _wire.document_of(request, message)
        try:
            ids, generation = self._send_many(request, [message], document=document)
            deadline = None if self.timeout is None else time.monotonic() + self.timeout
            try:
                envelope = self._wait(ids[0], generation, deadline)
            except LayoutdTimeout:
                self._cancel(ids[0], generation)
                raise
        except LayoutdConnectionLost as lost:
            if document is not None:
                raise LayoutdDocumentGone(document) from lost
            raise
        return self._answer(envelope, request, generation), generation

    def _call_many_once(self, request: str, messages: Sequence[Any], window: int) -> List[Result]:
        if self.daemon is not None and self.daemon.max_in_flight:
            window = min(window, self.daemon.max_in_flight)  # the daemon stops reading past it
        window = max(1, window)
        pending: Deque[Tuple[int, int, int]] = deque()  # (place, request id, generation)
        results: List[Result] = [None] * len(messages)
        broken: Optional[LayoutdError] = None  # the connection went: the rest are not sent

        def collect() -> None:
            nonlocal broken
            place, request_id, generation = pending.popleft()
            deadline = None if self.timeout is None else time.monotonic() + self.timeout
            try:
                results[place] = self._answer(self._wait(request_id, generation, deadline), request, generation)
            except LayoutdTimeout:
                self._cancel(request_id, generation)
                raise
            except LayoutdUnreachable as error:
                broken = broken or error
                results[place] = error
            except LayoutdError as error:
                results[place] = error  # kept until every reply is in, so none is left on the connection

        # Frames go out a quarter window at a time, in one write: a write per frame wakes the
        # daemon's reader per frame, and costs this side a system call per caption.
        batch = max(1, window // 4)
        queued = iter(enumerate(messages))
        left = len(messages)
        while left or pending:
            room = window - len(pending)
            if left and room >= min(batch, left) and broken is None:
                taken = list(islice(queued, min(room, left)))
                left -= len(taken)
                try:
                    ids, generation = self._send_many(request, [message for _, message in taken])
                    pending.extend((place, request_id, generation) for (place, _), request_id in zip(taken, ids))
                except LayoutdUnreachable as error:
                    broken = error
                    for place, _ in taken:
                        results[place] = error
            elif pending:
                collect()
            else:
                for place, _ in queued:
                    results[place] = broken
                left = 0
        return results

    def _answer(self, envelope: envelope_pb2.Envelope, request: str, generation: int) -> Any:
        try:
            return _wire.answer(envelope, request)
        except LayoutdError as error:
            if error.code is ErrorCode.UNAVAILABLE:
                # The daemon is stopping and takes no new work here: the next call connects again.
                self._fail(generation, LayoutdConnectionLost("the daemon is shutting down"))
            raise

    def _fail(self, generation: int, error: Exception) -> None:
        """Marks connection `generation` unusable (the next call connects again)."""
        with self._state:
            if self._generation == generation and self._failure is None:
                self._failure = error
                self._state.notify_all()

    def _cancel(self, request_id: int, generation: int) -> None:
        """Asks the daemon to drop a request nobody waits for any more (best effort; never on
        another connection than the request's)."""
        with self._send_lock:
            if self._generation != generation or self._failure is not None:
                return
            cancel_id = self._next_id
            self._next_id += 1
            try:
                self._sock.sendall(_wire.request_frame(cancel_id, "cancel", service_pb2.Cancel(request_id=request_id)))
            except OSError:
                pass

    def _send_many(self, request: str, messages: List[Any], document: Optional[int] = None,
                   deadline_ms: int = 0) -> Tuple[List[int], int]:
        """Sends the messages in one write on the live connection, under new request ids; returns
        the ids and the connection's generation."""
        with self._send_lock:
            for attempt in range(2):
                if document is not None and self._memory.is_gone(document, self._generation, self._failure is not None):
                    raise LayoutdDocumentGone(document)
                generation = self._connected()
                first = self._next_id
                self._next_id += len(messages)
                ids = list(range(first, self._next_id))
                with self._state:
                    if self._failure is not None:
                        raise self._failure
                    self._waiting.update(ids)
                if len(messages) == 1:
                    data = _wire.request_frame(first, request, messages[0], deadline_ms)
                else:
                    data = b"".join(_wire.request_frame(request_id, request, message)
                                    for request_id, message in zip(ids, messages))
                sent = 0
                try:
                    sent = self._sock.send(data)
                    if sent < len(data):
                        self._sock.sendall(memoryview(data)[sent:])
                    return ids, generation
                except socket.timeout as error:
                    raise LayoutdTimeout("timed out sending to the daemon") from error
                except OSError as error:
                    lost = LayoutdConnectionLost(f"the connection to layoutd failed: {error}")
                    # The daemon may have answered before it closed (a frame past its
                    # max_frame_bytes gets one error saying so): that answer, not the broken pipe.
                    farewell = self._farewell() if sent > 0 or isinstance(error, BrokenPipeError) else None
                    self._fail(generation, lost)
                    if farewell is not None:
                        raise farewell from error
                    # A first write that failed sent nothing: the daemon (gone while this client
                    # was idle) never saw it, so any request may go on a new connection.
                    if attempt == 0 and sent == 0 and isinstance(error, (BrokenPipeError, ConnectionResetError)):
                        continue
                    raise lost from error
        raise AssertionError("unreachable")

    def _farewell(self) -> Optional[LayoutdError]:
        """The error the daemon sent before closing this connection, if one is waiting to be read."""
        try:
            self._sock.settimeout(0.5)
            data = b""
            while len(data) < 4 or len(data) < 4 + _wire.body_length(data[:4]):
                chunk = self._sock.recv(65536)
                if not chunk:
                    return None
                data += chunk
            reply = _wire.parse(data[4:4 + _wire.body_length(data[:4])])
        except (OSError, LayoutdError):
            return None
        return _wire.error_of(reply.error) if reply.WhichOneof("body") == "error" else None

    def _wait(self, request_id: int, generation: int, deadline: Optional[float],
              more: bool = False) -> envelope_pb2.Envelope:
        """The reply with `request_id`. One waiting thread reads at a time and files every reply
        it reads under its id; the others sleep until theirs is filed. With `more` (a batch)
        the id goes on waiting for the replies after this one."""
        with self._state:
            while True:
                if self._generation != generation:
                    raise LayoutdConnectionLost("the connection to layoutd was lost before the reply came")
                queued = self._replies.get(request_id)
                if queued:
                    first = queued.popleft()
                    if not queued:
                        del self._replies[request_id]
                    if not more:
                        self._waiting.discard(request_id)
                    return first
                if self._failure is not None:
                    raise self._failure
                remaining = None if deadline is None else deadline - time.monotonic()
                if remaining is not None and remaining <= 0:
                    self._waiting.discard(request_id)
                    raise LayoutdTimeout(f"no answer from layoutd within {self.timeout} s")
                if self._reading:
                    self._state.wait(remaining)
                    continue
                self._reading = True
                sock, buffer = self._sock, self._buffer  # this connection's, whatever replaces it
                self._state.release()
                try:
                    reply: Optional[envelope_pb2.Envelope] = self._read(sock, buffer, remaining)
                    error: Optional[Exception] = None
                except Exception as failure:
                    reply, error = None, failure
                finally:
                    self._state.acquire()
                    if self._generation == generation:
                        self._reading = False
                    self._state.notify_all()
                if self._generation != generation:
                    raise LayoutdConnectionLost("the connection to layoutd was lost before the reply came")
                if error is not None:
                    if not isinstance(error, LayoutdTimeout):
                        self._failure = error  # the connection is unusable for everyone
                    raise error
                if reply is None:
                    continue
                # Frames already received are filed now (no thread is reading: the lock is
                # held): pipelined replies come in bursts, and each would cost a round of this loop.
                others = self._buffered()
                if reply.request_id == request_id and not others:
                    if not more:
                        self._waiting.discard(request_id)
                    return reply
                for other in [reply] + others:
                    if other.request_id in self._waiting:
                        # In order, for their caller (this one's is taken at the top of the loop).
                        self._replies.setdefault(other.request_id, deque()).append(other)

    def _buffered(self) -> List[envelope_pb2.Envelope]:
        """The whole frames in the buffer, taken out of it."""
        frames = []
        buffer, start = self._buffer, 0
        while len(buffer) - start >= 4:
            end = start + 4 + _wire.body_length(buffer, start)
            if len(buffer) < end:
                break
            frames.append(_wire.parse(bytes(memoryview(buffer)[start + 4:end])))
            start = end
        if start:
            del buffer[:start]
        return frames

    def _read(self, sock: socket.socket, buffer: bytearray, timeout: Optional[float]) -> Optional[envelope_pb2.Envelope]:
        """The next frame from `sock`, or None when `timeout` passes first (what arrived stays
        in `buffer`)."""
        sock.settimeout(timeout)
        try:
            while True:
                if len(buffer) >= 4:
                    length = _wire.body_length(buffer)
                    if len(buffer) >= 4 + length:
                        body = bytes(memoryview(buffer)[4:4 + length])
                        del buffer[:4 + length]
                        return _wire.parse(body)
                # 64 KiB at a time: a larger buffer is mapped and unmapped on every call.
                chunk = sock.recv(65536)
                if not chunk:
                    raise LayoutdConnectionLost("the daemon closed the connection")
                if not buffer and len(chunk) >= 4 and len(chunk) == 4 + _wire.body_length(chunk):
                    return _wire.parse(chunk[4:])  # one whole frame, the usual case: no buffer copies
                buffer += chunk
        except socket.timeout:
            return None
        except OSError as error:
            raise LayoutdConnectionLost(f"the connection to layoutd failed: {error}") from error

