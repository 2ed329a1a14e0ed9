"""What both clients share: framing, where the socket is, who serves it, and the hello checks."""
from __future__ import annotations

import errno
import os
import socket
import stat
import struct
from typing import Any, Container, Dict, List, Optional

from google.protobuf.message import Message

from .errors import (RETRY_SAFE_REQUESTS, ErrorCode, LayoutdConnectionLost, LayoutdError, LayoutdProtocolError,
                     LayoutdUnreachable, LayoutdUnsupported)
from .v1 import envelope_pb2, service_pb2

#: The protocol version this client speaks; a daemon reporting another is refused on connect.
PROTOCOL_VERSION = 1
#: The service unit's socket.
SERVICE_SOCKET = "/run/layoutd/layoutd.sock"
#: Replies can be much larger than requests (a glyph per character); this bounds them.
MAX_REPLY_BYTES = 256 << 20
HEADER = struct.Struct(">I")

#: The request bodies of an Envelope, by field name, each with the body of its reply.
REPLIES = {
    "hello": "hello_reply", "layout": "layout_reply", "fonts": "fonts_reply", "stats": "stats_reply",
    "justify": "justify_reply", "render": "render_reply", "tags": "tags_reply", "tag_hit": "tag_hit_reply",
    "tag_style": "tag_style_reply", "reload": "reload_reply", "hit_test": "hit_test_reply",
    "open_document": "document_reply", "edit_document": "document_reply", "close_document": "document_reply",
    "register_fonts": "register_fonts_reply", "batch_layout": "batch_item",
}


def find_socket(explicit: Optional[str] = None) -> str:
    """The daemon's socket as layoutctl finds it: `explicit`, else $LAYOUTD_SOCKET, else the
    service's socket when there is one, else $XDG_RUNTIME_DIR/layoutd.sock, else
    /tmp/layoutd-<uid>/layoutd.sock."""
    if explicit:
        return explicit
    if os.environ.get("LAYOUTD_SOCKET"):
        return os.environ["LAYOUTD_SOCKET"]
    try:
        if stat.S_ISSOCK(os.stat(SERVICE_SOCKET).st_mode):
            return SERVICE_SOCKET
    except OSError:
        pass
    if os.environ.get("XDG_RUNTIME_DIR"):
        return os.environ["XDG_RUNTIME_DIR"] + "/layoutd.sock"
    return f"/tmp/layoutd-{os.getuid()}/layoutd.sock"


def check_peer(sock: socket.socket, path: str) -> None:
    """Refuses a daemon not run by this user, root or the service's `layoutd` user (SO_PEERCRED):
    a socket in a shared place can be another user's daemon, which would read the text sent."""
    pid, uid, _ = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    try:
        import pwd
        service: Optional[int] = pwd.getpwnam("layoutd").pw_uid
    except KeyError:
        service = None
    if uid not in (os.getuid(), 0, service):
        raise LayoutdUnreachable(f"refusing the daemon at {path}: it is served by uid {uid} (pid {pid}), "
                                 "not by you, root or the layoutd service; your text is not sent to it")


#: The Envelope field number of each body.
BODY_NUMBERS = {field.name: field.number for field in envelope_pb2.Envelope.DESCRIPTOR.oneofs_by_name["body"].fields}


def _varint(value: int) -> bytes:
    if value < 0x80:
        return bytes((value,))
    if value < 0x4000:
        return bytes((value & 0x7F | 0x80, value >> 7))
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def request_frame(request_id: int, body: str, message: Any, deadline_ms: int = 0) -> bytes:
    """The frame of an Envelope holding `request_id` and `message` (or its bytes) as its `body`, written
    directly: the bytes protobuf writes for it (request_id, then the body, in field order),
    without copying the message into an Envelope first, a third of a request's cost here."""
    payload = message if type(message) is bytes else message.SerializeToString()
    envelope = ((b"\x08" + _varint(request_id)) if request_id else b"") \
        + ((b"\x10" + _varint(deadline_ms)) if deadline_ms else b"") \
        + _varint(BODY_NUMBERS[body] << 3 | 2) + _varint(len(payload)) + payload
    return HEADER.pack(len(envelope)) + envelope


def parse(body: bytes) -> envelope_pb2.Envelope:
    reply = envelope_pb2.Envelope()
    try:
        reply.ParseFromString(body)
    except Exception as error:  # the runtime's DecodeError, whichever implementation
        raise LayoutdProtocolError(f"reply is not an Envelope: {error}") from error
    return reply


def answer(reply: envelope_pb2.Envelope, request: str) -> Any:
    """The reply's body for a `request`, or its error raised."""
    kind = reply.WhichOneof("body")
    if kind == "error":
        raise error_of(reply.error)
    if kind is None or kind != REPLIES.get(request):
        raise LayoutdProtocolError(f"the daemon answered a {request} request with {kind or 'nothing'}")
    return getattr(reply, kind)


def error_of(error: service_pb2.Error) -> LayoutdError:
    """The daemon's Error as the exception this client raises."""
    name = service_pb2.Error.Code.Name(error.code) if error.code in service_pb2.Error.Code.values() else "UNKNOWN"
    return LayoutdError(name, error.message, error.field, number=error.code)


def raise_first_error(results: List[Any]) -> None:
    """Raises the first LayoutdError among `results`, carrying all of them as its `results`
    (how `layout_many` and `layout_batch` report a failed place with the others kept)."""
    first = next((result for result in results if isinstance(result, LayoutdError)), None)
    if first is not None:
        first.results = results
        raise first


class BatchItems:
    """Checks a batch's replies as they come: every item once, in order (docs/protocol.md,
    "Batches"). `take` gives each item's LayoutReply, or its LayoutdError (not raised)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.answered = 0

    @property
    def done(self) -> bool:
        # An empty batch is still answered: with its refusal.
        return self.answered >= max(self.count, 1)

    def take(self, reply: envelope_pb2.Envelope) -> Any:
        kind = reply.WhichOneof("body")
        if kind == "error" and self.answered == 0:
            raise error_of(reply.error)  # the batch refused as a whole
        if kind != "batch_item":
            raise LayoutdProtocolError(f"the daemon answered a batch with {kind or 'nothing'}")
        item = reply.batch_item
        if item.index != self.answered:
            raise LayoutdProtocolError(f"batch item {item.index} came where item {self.answered} was due")
        self.answered += 1
        return item.layout if item.WhichOneof("result") == "layout" else error_of(item.error)


def check_version(hello: service_pb2.HelloReply) -> None:
    if hello.protocol_version != PROTOCOL_VERSION:
        raise LayoutdUnsupported(f"layoutd {hello.server_version} speaks protocol {hello.protocol_version}; "
                                 f"this client speaks {PROTOCOL_VERSION}")


def check_feature(hello: Optional[service_pb2.HelloReply], request: str) -> None:
    """A request the daemon does not list is refused before it is sent. A daemon that lists
    nothing predates the list (before 0.3.0): it answers what it lacks with UNIMPLEMENTED."""
    if hello is not None and hello.features and request not in hello.features:
        raise LayoutdUnsupported(f"layoutd {hello.server_version} does not serve {request} requests "
                                 f"(it serves {', '.join(hello.features)}); upgrade the daemon")


def served_requests(hello: Optional[service_pb2.HelloReply]) -> Container[str]:
    """The requests `check_feature` lets through, as a set a client keeps (every call asks)."""
    if hello is not None and hello.features:
        return frozenset(hello.features)
    return _Everything()


class _Everything:
    def __contains__(self, _: object) -> bool:
        return True


def body_length(data: Any, start: int = 0) -> int:
    """The body length in the frame header at `start` in `data` (bytes or a bytearray)."""
    length: int = HEADER.unpack_from(data, start)[0]
    if length > MAX_REPLY_BYTES:
        raise LayoutdProtocolError(f"reply of {length} bytes is over the client's limit")
    return length


def document_of(request: str, message: Any) -> Optional[int]:
    """The document a request works on, where it names one."""
    if request in ("edit_document", "close_document") and isinstance(message, Message):
        return int(getattr(message, "document"))
    return None


def may_send_again(request: str, error: LayoutdError) -> bool:
    """Whether a failed request may go out again as it is (docs/protocol.md, "Retrying"): the
    connection was lost before a reply to a request that changes nothing, or the daemon said it
    is stopping (it did none of the work; a document's edit then meets LayoutdDocumentGone)."""
    if isinstance(error, LayoutdConnectionLost):
        return request in RETRY_SAFE_REQUESTS
    return error.code is ErrorCode.UNAVAILABLE


class ConnectionMemory:
    """What lives on a connection, kept by a client across them: the documents opened, each under
    the generation of the connection it lives on (they die with it), and the fonts registered
    (registered again on each new connection)."""

    #: The requests `keep` looks at: the others, nearly every call, need not take a lock for it.
    REQUESTS = frozenset({"open_document", "close_document", "register_fonts"})

    def __init__(self) -> None:
        self.documents: Dict[int, int] = {}
        self.fonts: List[service_pb2.RegisterFontsRequest] = []

    def keep(self, request: str, message: Any, reply: Any, generation: int, current: int) -> None:
        """After `request` (sent on connection `generation`; `current` is the live one) succeeded."""
        if request == "open_document":
            self.documents[reply.document] = generation
        elif request == "close_document":
            self.documents.pop(message.document, None)
        elif request == "register_fonts" and generation == current:
            self.fonts.append(message)

    def is_gone(self, document: int, current: int, failed: bool) -> bool:
        """Whether `document` lived on a connection that is lost: replaced, or `failed`."""
        opened = self.documents.get(document)
        return opened is not None and (opened != current or failed)


def not_there_yet(error: OSError) -> bool:
    """Whether a connect failed because the daemon is restarting: its socket is missing or refuses."""
    return error.errno in (errno.ENOENT, errno.ECONNREFUSED, errno.EAGAIN)


def unreachable(path: str, error: Any) -> LayoutdUnreachable:
    return LayoutdUnreachable(f"cannot connect to layoutd at {path}: {error} "
                              "(is the daemon running? pass socket_path or set LAYOUTD_SOCKET)")
