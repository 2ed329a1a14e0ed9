"""What goes wrong, as one exception type with the daemon's code, field and message."""
from __future__ import annotations

import enum
from typing import Any, List, Optional


class ErrorCode(str, enum.Enum):
    """Why a request failed. The protocol's codes (`layoutd.v1.Error.Code`), then the failures
    this side names. A `str` enum: `error.code == "NOT_FOUND"` holds as well."""

    INVALID_ARGUMENT = "INVALID_ARGUMENT"
    NOT_FOUND = "NOT_FOUND"
    RESOURCE_EXHAUSTED = "RESOURCE_EXHAUSTED"
    UNIMPLEMENTED = "UNIMPLEMENTED"
    DEADLINE_EXCEEDED = "DEADLINE_EXCEEDED"
    CANCELLED = "CANCELLED"
    MALFORMED = "MALFORMED"
    INTERNAL = "INTERNAL"
    UNAVAILABLE = "UNAVAILABLE"
    PERMISSION_DENIED = "PERMISSION_DENIED"
    FAILED_PRECONDITION = "FAILED_PRECONDITION"
    #: A code a newer daemon sent that this client does not know (`LayoutdError.number` has it).
    UNKNOWN = "UNKNOWN"
    #: No daemon to talk to, or the connection was lost before the reply came.
    UNREACHABLE = "UNREACHABLE"
    #: No reply within the client's timeout.
    TIMEOUT = "TIMEOUT"
    #: The daemon answered something that is not the protocol.
    PROTOCOL = "PROTOCOL"
    #: The daemon speaks another protocol version, or does not serve the request.
    UNSUPPORTED = "UNSUPPORTED"
    #: The document lived on a connection that was lost: the daemon closed it.
    DOCUMENT_GONE = "DOCUMENT_GONE"

    def __str__(self) -> str:
        return self.value

    @property
    def retry_safe(self) -> bool:
        """Whether the same request may be sent again as it is, on a new connection where the
        old one is gone (docs/protocol.md, "Retrying"): the daemon did none of it, or what it
        did changes nothing. UNREACHABLE is safe only for requests that change nothing
        (`RETRY_SAFE_REQUESTS`): an edit may have been applied before the connection went."""
        return self in (ErrorCode.UNAVAILABLE, ErrorCode.UNREACHABLE, ErrorCode.TIMEOUT)


#: The requests that change nothing in the daemon, so that sending one twice is as sending it
#: once: the client resends these by itself when the connection is lost before their reply.
RETRY_SAFE_REQUESTS = frozenset({
    "hello", "layout", "justify", "render", "tags", "tag_hit", "tag_style", "hit_test", "fonts", "stats",
    "register_fonts",
})


class LayoutdError(Exception):
    """A request that failed. For a refusal by the daemon, `code` is the protocol's name for it
    (`ErrorCode.INVALID_ARGUMENT`, ...; equal to its string), `number` its number on the wire,
    `field` the request field at fault ("layout.width") and `message` the daemon's explanation.
    Failures on this side use the codes layoutctl prints: UNREACHABLE, TIMEOUT, PROTOCOL,
    UNSUPPORTED, and DOCUMENT_GONE. A batch (`layout_many`) that raises attaches `results`:
    every reply or error, in the texts' order."""

    def __init__(self, code: "ErrorCode | str", message: str, field: str = "", number: int = 0) -> None:
        self.code = code if isinstance(code, ErrorCode) else _code(code)
        self.number = number
        self.field = field
        self.message = message
        self.results: Optional[List[Any]] = None
        super().__init__(f"{self.code} {field}: {message}" if field else f"{self.code}: {message}")


def _code(name: str) -> ErrorCode:
    try:
        return ErrorCode(name)
    except ValueError:
        return ErrorCode.UNKNOWN


class LayoutdUnreachable(LayoutdError, ConnectionError):
    """No daemon to talk to: no socket, refused, closed, or one this user does not trust. Raised
    after a request was sent, it means the connection was lost before its reply: the client
    connects again on its next call."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.UNREACHABLE, message)


class LayoutdConnectionLost(LayoutdUnreachable):
    """The connection was lost after the request was sent and before its reply came: the daemon
    may or may not have done it. Raised once the client's retries (of requests safe to send
    again) are spent, or at once for the rest."""


class LayoutdTimeout(LayoutdError, TimeoutError):
    """The daemon did not answer within the client's timeout."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.TIMEOUT, message)


class LayoutdProtocolError(LayoutdError):
    """The daemon answered something that is not the protocol."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.PROTOCOL, message)


class LayoutdUnsupported(LayoutdError):
    """The daemon speaks another protocol version, or is too old to serve the request."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.UNSUPPORTED, message)


class LayoutdDocumentGone(LayoutdError):
    """A document (an editing session) lives on the connection that opened it; that connection
    was lost, so the daemon closed it. Open it again (`open_document`) and edit the new one."""

    def __init__(self, document: int) -> None:
        super().__init__(ErrorCode.DOCUMENT_GONE,
                         f"document {document} was open on a connection to layoutd that was lost, so the daemon "
                         "closed it; open it again with open_document", "document")
        self.document = document
