"""The blocking client: one connection, shared safely by any number of threads."""
from __future__ import annotations

import socket
import threading
import time
from collections import deque
from itertools import islice
from typing import Any, Deque, Dict, Iterable, List, Optional, Sequence, Union

from . import _requests, _wire
from .errors import LayoutdError, LayoutdProtocolError, LayoutdTimeout, LayoutdUnreachable
from .v1 import documents_pb2, editing_pb2, envelope_pb2, layout_pb2, render_pb2, service_pb2, tags_pb2, typemode_pb2


class Client:
    """A connection to layoutd.

        with layoutd.Client() as client:
            reply = client.layout("Hello, world", width=300, font="Noto Sans", size=24)

    On connect the client greets the daemon (`daemon` keeps its hello reply: version, limits,
    features) and refuses one of another protocol version. Every call sends one request and
    returns its reply message, matched by request id; an error reply is raised as
    `LayoutdError`. A request the daemon does not serve is refused before it is sent.

    Thread safety: a Client may be shared by threads. Each call's frame is written whole under
    a lock, and whichever waiting thread reads the socket hands the other threads' replies to
    them, so calls from several threads are in flight together. `layout_many` pipelines a
    list from one thread.
    """

    def __init__(self, socket_path: Optional[str] = None, timeout: Optional[float] = 60.0,
                 client_name: str = "layoutd-python", trust_any_peer: bool = False) -> None:
        self.socket_path = _wire.find_socket(socket_path)
        self.timeout = timeout
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._send_lock = threading.Lock()
        self._state = threading.Condition()
        self._replies: Dict[int, envelope_pb2.Envelope] = {}
        self._waiting: set = set()
        self._reading = False
        self._failure: Optional[Exception] = None
        self._buffer = bytearray()
        self._next_id = 1
        self.daemon: Optional[service_pb2.HelloReply] = None
        self._served = _wire.served_requests(None)
        try:
            self._sock.settimeout(timeout)
            self._sock.connect(self.socket_path)
            if not trust_any_peer:
                _wire.check_peer(self._sock, self.socket_path)
            hello = self.call("hello", service_pb2.HelloRequest(client_name=client_name))
            _wire.check_version(hello)
            self.daemon = hello
            self._served = _wire.served_requests(hello)
        except OSError as error:
            self._sock.close()
            raise LayoutdUnreachable(f"cannot connect to layoutd at {self.socket_path}: {error.strerror or error} "
                                     "(is the daemon running? pass socket_path or set LAYOUTD_SOCKET)") from error
        except BaseException:
            self._sock.close()
            raise

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *_: Any) -> None:
        self.close()

    def close(self) -> None:
        """Ends the connection; calls still waiting in other threads fail."""
        try:
            self._sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self._sock.close()

    # Requests, one method each. Keywords are the request's fields (see _requests.py).

    def layout(self, text: Optional[str] = None, width: Optional[float] = None, *, font: Optional[str] = None,
               size: Optional[float] = None, request: Optional[layout_pb2.LayoutRequest] = None,
               **fields: Any) -> layout_pb2.LayoutReply:
        """Lays `text` out `width` points wide (font and size set the default style)."""
        return self.call("layout", _requests.layout(text, width, font, size, request, fields))

    def layout_many(self, texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float] = None, *,
                    font: Optional[str] = None, size: Optional[float] = None, window: int = 64,
                    **fields: Any) -> List[layout_pb2.LayoutReply]:
        """Lays every text (or request) out with up to `window` requests in flight at once, on
        this connection; the replies come back in the texts' order. The first error is raised
        once every reply has come."""
        requests = _requests.layouts(texts, width, font, size, fields)
        return self.call_many("layout", requests, window)

    def justify(self, text: Optional[str] = None, width: Optional[float] = None, *, preset: Optional[str] = None,
                request: Optional[typemode_pb2.JustifyRequest] = None, **fields: Any) -> typemode_pb2.JustifyReply:
        """Type Mode: every line justified at its own size."""
        return self.call("justify", _requests.justify(text, width, preset, request, fields))

    def render(self, request: Optional[render_pb2.RenderRequest] = None, **fields: Any) -> render_pb2.RenderReply:
        """A picture (PNG, SVG or PDF) of a layout, a Type Mode text or image tags."""
        return self.call("render", _requests.render(request, fields))

    def tags(self, request: Optional[tags_pb2.TagsRequest] = None, **fields: Any) -> tags_pb2.TagsReply:
        return self.call("tags", _requests.tags(request, fields))

    def tag_hit(self, request: Optional[tags_pb2.TagHitRequest] = None, **fields: Any) -> tags_pb2.TagHitReply:
        return self.call("tag_hit", _requests.tag_hit(request, fields))

    def tag_style(self, request: Optional[tags_pb2.TagStyleRequest] = None, **fields: Any) -> tags_pb2.TagStyleReply:
        return self.call("tag_style", _requests.tag_style(request, fields))

    def hit_test(self, request: Optional[editing_pb2.HitTestRequest] = None,
                 **fields: Any) -> editing_pb2.HitTestReply:
        """Where points land in a layout (its source: layout= or justify=), where carets stand,
        what selections cover: points=[{"x": 10, "y": 12}], carets=[{"offset": 3}], selections=[...]."""
        return self.call("hit_test", _requests.hit_test(request, fields))

    def open_document(self, text: Optional[str] = None, *, layout: Optional[layout_pb2.LayoutRequest] = None,
                      **fields: Any) -> documents_pb2.DocumentReply:
        """Opens an editing session on this connection: the reply's `document` is its id, and its one
        change holds every paragraph. Takes what layout() takes (text=, width=, ...)."""
        if text is not None:
            fields["text"] = text
        return self.call("open_document", _requests.open_document(layout, fields))

    def edit_document(self, document: int, edits: Optional[Sequence[Any]] = None, **fields: Any) -> documents_pb2.DocumentReply:
        """Edits an open document, in order, all or none: edits=[{"replace": {"range": {"start": 3, "length": 0},
        "text": "x"}}, {"style": {...}}]; points= and carets= ask about the document after them. The reply
        gives each edit's paragraphs laid out again and how far the rest moved."""
        return self.call("edit_document", _requests.edit_document(document, edits, fields))

    def close_document(self, document: int) -> documents_pb2.DocumentReply:
        return self.call("close_document", documents_pb2.CloseDocumentRequest(document=document))

    def register_fonts(self, fonts: Sequence[Union[bytes, "tuple[str, bytes]"]]) -> service_pb2.RegisterFontsReply:
        """Registers fonts on this connection: each a font file's bytes, or (family, bytes) to name
        it; later requests on this client may name their families. Returns the faces added."""
        request = service_pb2.RegisterFontsRequest()
        for font in fonts:
            family, data = ("", font) if isinstance(font, (bytes, bytearray)) else font
            request.fonts.add(family=family, data=bytes(data))
        return self.call("register_fonts", request)

    def fonts(self) -> service_pb2.FontsReply:
        return self.call("fonts", service_pb2.FontsRequest())

    def stats(self, prometheus: bool = False) -> service_pb2.StatsReply:
        return self.call("stats", _requests.stats(prometheus))

    def reload(self) -> service_pb2.ReloadReply:
        """Asks the daemon to re-read its fonts and configuration (its own user and root only)."""
        return self.call("reload", service_pb2.ReloadRequest())

    # The machinery.

    def call(self, request: str, message: Any) -> Any:
        """Sends `message` as the Envelope body `request` ("layout", "tag_hit", ...) and returns
        the reply's body."""
        if request not in self._served:
            _wire.check_feature(self.daemon, request)
        request_id = self._send(request, message)
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        try:
            return _wire.answer(self._wait(request_id, deadline), request)
        except LayoutdTimeout:
            self._cancel(request_id)
            raise

    def call_many(self, request: str, messages: Sequence[Any], window: int = 64) -> List[Any]:
        _wire.check_feature(self.daemon, request)
        if self.daemon is not None and self.daemon.max_in_flight:
            window = min(window, self.daemon.max_in_flight)  # the daemon stops reading past it
        window = max(1, window)
        pending: Deque[int] = deque()
        replies: List[Any] = []
        failure: Optional[Exception] = None

        def collect() -> None:
            nonlocal failure
            request_id = pending.popleft()
            deadline = None if self.timeout is None else time.monotonic() + self.timeout
            try:
                replies.append(_wire.answer(self._wait(request_id, deadline), request))
            except LayoutdTimeout:
                self._cancel(request_id)
                raise
            except (LayoutdError, ValueError) as error:
                # Kept until every reply is in, so none is left behind on the connection.
                failure = failure or error
                replies.append(None)

        # Frames go out a quarter window at a time, in one write: a write per frame wakes the
        # daemon's reader per frame, and costs this side a system call per caption.
        batch = max(1, window // 4)
        queued = iter(messages)
        left = len(messages)
        while left or pending:
            room = window - len(pending)
            if left and room >= min(batch, left):
                taken = min(room, left)
                pending.extend(self._send_many(request, list(islice(queued, taken))))
                left -= taken
            else:
                collect()
        if failure is not None:
            raise failure
        return replies

    def _cancel(self, request_id: int) -> None:
        """Asks the daemon to drop a request nobody waits for any more (best effort)."""
        try:
            self._send("cancel", service_pb2.Cancel(request_id=request_id), expect_reply=False)
        except Exception:
            pass

    def _send(self, request: str, message: Any, expect_reply: bool = True) -> int:
        return self._send_many(request, [message], expect_reply)[0]

    def _send_many(self, request: str, messages: List[Any], expect_reply: bool = True) -> List[int]:
        """Sends the messages in one write, under their new request ids (returned)."""
        with self._send_lock:
            first = self._next_id
            self._next_id += len(messages)
            ids = list(range(first, self._next_id))
            with self._state:
                if self._failure is not None:
                    raise self._failure
                if expect_reply:
                    self._waiting.update(ids)
            try:
                if len(messages) == 1:
                    self._sock.sendall(_wire.request_frame(first, request, messages[0]))
                else:
                    self._sock.sendall(b"".join(_wire.request_frame(request_id, request, message)
                                                for request_id, message in zip(ids, messages)))
            except socket.timeout as error:
                raise LayoutdTimeout("timed out sending to the daemon") from error
            except OSError as error:
                raise LayoutdUnreachable(f"the connection to layoutd failed: {error}") from error
        return ids

    def _wait(self, request_id: int, deadline: Optional[float]) -> envelope_pb2.Envelope:
        """The reply with `request_id`. One waiting thread reads at a time and files every reply
        it reads under its id; the others sleep until theirs is filed."""
        with self._state:
            while True:
                if request_id in self._replies:
                    self._waiting.discard(request_id)
                    return self._replies.pop(request_id)
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
                self._state.release()
                try:
                    reply: Optional[envelope_pb2.Envelope] = self._read(remaining)
                    error: Optional[Exception] = None
                except Exception as failure:
                    reply, error = None, failure
                finally:
                    self._state.acquire()
                    self._reading = False
                    self._state.notify_all()
                if error is not None:
                    if not isinstance(error, LayoutdTimeout):
                        self._failure = error  # the connection is unusable for everyone
                    raise error
                if reply is None:
                    continue
                # Frames already received are filed now (no thread is reading: the lock is
                # held): pipelined replies come in bursts, and each would cost a round of this loop.
                for other in self._buffered():
                    if other.request_id in self._waiting:
                        self._replies[other.request_id] = other
                if reply.request_id == request_id:
                    self._waiting.discard(request_id)
                    return reply
                if reply.request_id in self._waiting:
                    self._replies[reply.request_id] = reply  # others' replies wait for them

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

    def _read(self, timeout: Optional[float]) -> Optional[envelope_pb2.Envelope]:
        """The next frame, or None when `timeout` passes first (what arrived stays buffered)."""
        self._sock.settimeout(timeout)
        try:
            while True:
                if len(self._buffer) >= 4:
                    length = _wire.body_length(self._buffer)
                    if len(self._buffer) >= 4 + length:
                        body = bytes(memoryview(self._buffer)[4:4 + length])
                        del self._buffer[:4 + length]
                        return _wire.parse(body)
                # 64 KiB at a time: a larger buffer is mapped and unmapped on every call.
                chunk = self._sock.recv(65536)
                if not chunk:
                    raise LayoutdUnreachable("the daemon closed the connection")
                if not self._buffer and len(chunk) >= 4 and len(chunk) == 4 + _wire.body_length(chunk):
                    return _wire.parse(chunk[4:])  # one whole frame, the usual case: no buffer copies
                self._buffer += chunk
        except socket.timeout:
            return None
        except OSError as error:
            raise LayoutdUnreachable(f"the connection to layoutd failed: {error}") from error
        except LayoutdProtocolError:
            raise
