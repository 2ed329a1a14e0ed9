"""What goes wrong, as one exception type with the daemon's code, field and message."""
from __future__ import annotations


class LayoutdError(Exception):
    """A request that failed. For a refusal by the daemon, `code` is the protocol's name for it
    ("INVALID_ARGUMENT", "NOT_FOUND", "RESOURCE_EXHAUSTED", ...), `field` the request field at
    fault ("layout.width") and `message` the daemon's explanation. Failures on this side use
    the codes layoutctl prints: "UNREACHABLE", "TIMEOUT", "PROTOCOL", "UNSUPPORTED"."""

    def __init__(self, code: str, message: str, field: str = "") -> None:
        self.code = code
        self.field = field
        self.message = message
        super().__init__(f"{code} {field}: {message}" if field else f"{code}: {message}")


class LayoutdUnreachable(LayoutdError, ConnectionError):
    """No daemon to talk to: no socket, refused, closed, or one this user does not trust."""

    def __init__(self, message: str) -> None:
        super().__init__("UNREACHABLE", message)


class LayoutdTimeout(LayoutdError, TimeoutError):
    """The daemon did not answer within the client's timeout."""

    def __init__(self, message: str) -> None:
        super().__init__("TIMEOUT", message)


class LayoutdProtocolError(LayoutdError):
    """The daemon answered something that is not the protocol."""

    def __init__(self, message: str) -> None:
        super().__init__("PROTOCOL", message)


class LayoutdUnsupported(LayoutdError):
    """The daemon speaks another protocol version, or is too old to serve the request."""

    def __init__(self, message: str) -> None:
        super().__init__("UNSUPPORTED", message)
