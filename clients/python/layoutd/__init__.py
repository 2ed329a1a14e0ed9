"""layoutd's Python client: text layout from a daemon over a Unix socket.

    import layoutd
    with layoutd.Client() as client:
        reply = client.layout("Hello, world", width=300, font="Noto Sans", size=24)

`Client` blocks (and may be shared by threads); `AsyncClient` is for asyncio. Both find the
socket as layoutctl does, greet the daemon, pipeline (`layout_many`), and raise `LayoutdError`
(`code`, an `ErrorCode`; `field`; `message`). After the daemon restarts, the next call
connects again, and requests that change nothing are sent again (`RETRY_SAFE_REQUESTS`).
The protocol's messages are in `layoutd.v1`.
"""
from ._wire import PROTOCOL_VERSION, find_socket
from .aio import AsyncClient
from .client import Client
from .errors import (RETRY_SAFE_REQUESTS, ErrorCode, LayoutdConnectionLost, LayoutdDocumentGone, LayoutdError,
                     LayoutdProtocolError, LayoutdTimeout, LayoutdUnreachable, LayoutdUnsupported)
from .v1 import (batch_pb2, decoration_pb2, documents_pb2, editing_pb2, envelope_pb2, flow_pb2, geometry_pb2, layout_pb2, render_pb2, service_pb2, tags_pb2,
                 typemode_pb2)

__version__ = "0.3.0"
__all__ = [
    "AsyncClient", "Client", "ErrorCode", "LayoutdConnectionLost", "LayoutdDocumentGone", "LayoutdError",
    "LayoutdProtocolError", "LayoutdTimeout", "LayoutdUnreachable", "LayoutdUnsupported", "PROTOCOL_VERSION",
    "RETRY_SAFE_REQUESTS", "find_socket", "batch_pb2", "decoration_pb2", "documents_pb2", "editing_pb2", "envelope_pb2", "flow_pb2",
    "geometry_pb2", "layout_pb2", "render_pb2", "service_pb2", "tags_pb2", "typemode_pb2",
]
