"""Request messages built from keyword arguments, shared by the blocking and the async client.

Every builder takes a finished message as `request=` or fields as keywords: the protocol's own
field names, with messages given as messages or dicts (`default_style={"weight": 700}`) and
enums by value or name (`alignment="ALIGNMENT_CENTER"`). The common fields have short names.
"""
from __future__ import annotations

import difflib
import struct
from typing import Any, Dict, Iterable, List, Optional, Sequence, Type, TypeVar, Union, cast

from google.protobuf.message import Message

from ._wire import _varint
from .v1 import batch_pb2, documents_pb2, editing_pb2, layout_pb2, render_pb2, service_pb2, tags_pb2, typemode_pb2

M = TypeVar("M", bound=Message)


def build(kind: Type[M], request: Optional[M], fields: Dict[str, Any]) -> M:
    message = kind()
    if request is not None:
        message.CopyFrom(request)
    for name, value in fields.items():
        if value is None:
            continue
        descriptor = kind.DESCRIPTOR.fields_by_name.get(name)
        if descriptor is None:
            raise TypeError(unknown_field(kind.DESCRIPTOR, name))
        _assign(message, descriptor, name, value)
    return message


def unknown_field(descriptor: Any, name: str) -> str:
    """The message for a keyword that names no field: the nearest names, then every valid one."""
    names = [field.name for field in descriptor.fields]
    near = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(repr(n) for n in near)}?)" if near else ""
    return f"{descriptor.name} has no field {name!r}{hint}; its fields: {', '.join(sorted(names))}"


def _is_repeated(descriptor: Any) -> bool:
    """Whether a field is repeated: protobuf 5.28 and later say `is_repeated`, and 7 no longer
    has `label`; 3.20 to 5.27 have only `label`."""
    repeated = getattr(descriptor, "is_repeated", None)
    if repeated is not None:
        return bool(repeated)
    return bool(descriptor.label == descriptor.LABEL_REPEATED)


def _assign(message: Message, descriptor: Any, name: str, value: Any) -> None:
    if _is_repeated(descriptor):
        target = getattr(message, name)
        del target[:]
        for item in value:
            if descriptor.message_type is not None:
                target.add().CopyFrom(_message(descriptor.message_type._concrete_class, item))
            else:
                target.append(item)
    elif descriptor.message_type is not None:
        getattr(message, name).CopyFrom(_message(descriptor.message_type._concrete_class, value))
    elif descriptor.enum_type is not None and isinstance(value, str):
        number = descriptor.enum_type.values_by_name.get(value)
        if number is None:
            raise ValueError(f"{descriptor.enum_type.name} has no value {value!r}")
        setattr(message, name, number.number)
    else:
        setattr(message, name, value)


def _message(kind: Type[M], value: Any) -> M:
    if isinstance(value, Message):
        return value  # type: ignore[return-value]
    if isinstance(value, dict):
        return build(kind, None, value)
    raise TypeError(f"{kind.DESCRIPTOR.name} is given as a message or a dict, not {type(value).__name__}")


def layout(text: Optional[str], width: Optional[float], font: Optional[str], size: Optional[float],
           request: Optional[layout_pb2.LayoutRequest], fields: Dict[str, Any]) -> Union[layout_pb2.LayoutRequest, bytes]:
    """The request, or for the common call (text, width, font, size, nothing else) its bytes."""
    if request is None and not fields:
        encoded = plain_layout_bytes(text, width, font, size)
        if encoded is not None:
            return encoded
    return layout_message(text, width, font, size, request, fields)


def layout_message(text: Optional[str], width: Optional[float], font: Optional[str], size: Optional[float],
                   request: Optional[layout_pb2.LayoutRequest], fields: Dict[str, Any]) -> layout_pb2.LayoutRequest:
    """The layout request as a message: `request` (or a new one) with the keywords set on it."""
    message = build(layout_pb2.LayoutRequest, request, dict(fields, text=text, width=width))
    if font is not None:
        message.default_style.family = font
    if size is not None:
        message.default_style.size = size
    return message


_FLOAT = struct.Struct("<f")


def _length_delimited(key: int, data: bytes) -> bytes:
    return bytes((key,)) + _varint(len(data)) + data


def _with_text(text: Optional[str], tail: bytes) -> bytes:
    """A plain request's bytes: the text's field (left out when empty), then the `tail`."""
    return _length_delimited(0x0A, text.encode()) + tail if text else tail


def _float_field(key: int, value: Union[int, float, None]) -> bytes:
    # proto3 writes a float unless its bits are all zero (so -0.0 is written, 0.0 is not)
    packed = _FLOAT.pack(value) if value is not None else b"\0\0\0\0"
    return b"" if packed == b"\0\0\0\0" else bytes((key,)) + packed


def plain_layout_bytes(text: Optional[str], width: Optional[float], font: Optional[str],
                       size: Optional[float]) -> Optional[bytes]:
    """A LayoutRequest of text, width and a default style's family and size, written as
    protobuf writes it (fields in number order: text 1, default_style 2 {family 1, size 4},
    width 4): the C++ runtime's reflection spends 2 µs on these few bytes, most of a Python
    round trip's own work. None when a value is not the plain kind (the runtime then builds
    the message, and raises what it raises)."""
    tail = plain_layout_tail(width, font, size)
    if tail is None or not (text is None or type(text) is str):
        return None
    try:
        return _with_text(text, tail)
    except UnicodeEncodeError:
        return None


def plain_layout_tail(width: Optional[float], font: Optional[str], size: Optional[float]) -> Optional[bytes]:
    """What follows the text in `plain_layout_bytes`: the same for every text of a batch."""
    if not ((font is None or type(font) is str) and type(width) in _NUMBERS and type(size) in _NUMBERS):
        return None
    try:
        style = (_length_delimited(0x0A, font.encode()) if font else b"") + _float_field(0x25, size)
        return (_length_delimited(0x12, style) if font is not None or size is not None else b"") + _float_field(0x25, width)
    except (UnicodeEncodeError, OverflowError, struct.error):
        return None


def layouts(texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float], font: Optional[str],
            size: Optional[float], fields: Dict[str, Any]) -> List[Union[layout_pb2.LayoutRequest, bytes]]:
    """`layout` for each text (or request) of a batch, the shared part of plain ones written once."""
    tail = plain_layout_tail(width, font, size) if not fields else None
    built: List[Union[layout_pb2.LayoutRequest, bytes]] = []
    for text in texts:
        if tail is not None and type(text) is str:
            try:
                built.append(_with_text(text, tail))
                continue
            except UnicodeEncodeError:
                pass
        if isinstance(text, layout_pb2.LayoutRequest):
            built.append(layout(None, width, font, size, text, fields))
        else:
            built.append(layout(text, width, font, size, None, fields))
    return built


def batch(texts: Iterable[Union[str, layout_pb2.LayoutRequest]], width: Optional[float], font: Optional[str],
          size: Optional[float], fields: Dict[str, Any]) -> "batch_pb2.BatchLayoutRequest":
    """A batch_layout request: plain texts share one layout request's options (`texts`); where
    any item is a whole LayoutRequest, every item is one (`requests`), with the options given."""
    items = list(texts)
    message = batch_pb2.BatchLayoutRequest()
    if all(type(item) is str for item in items):
        message.layout.CopyFrom(layout_message(None, width, font, size, None, fields))
        message.texts.extend(cast(List[str], items))
        return message
    for item in items:
        if isinstance(item, layout_pb2.LayoutRequest):
            message.requests.add().CopyFrom(layout_message(None, width, font, size, item, fields))
        else:
            message.requests.add().CopyFrom(layout_message(item, width, font, size, None, fields))
    return message


_NUMBERS = (int, float, type(None))


def justify(text: Optional[str], width: Optional[float], preset: Optional[str],
            request: Optional[typemode_pb2.JustifyRequest], fields: Dict[str, Any]) -> typemode_pb2.JustifyRequest:
    return build(typemode_pb2.JustifyRequest, request, dict(fields, text=text, width=width, preset=preset))


def render(request: Optional[render_pb2.RenderRequest], fields: Dict[str, Any]) -> render_pb2.RenderRequest:
    return build(render_pb2.RenderRequest, request, fields)


def tags(request: Optional[tags_pb2.TagsRequest], fields: Dict[str, Any]) -> tags_pb2.TagsRequest:
    return build(tags_pb2.TagsRequest, request, fields)


def tag_hit(request: Optional[tags_pb2.TagHitRequest], fields: Dict[str, Any]) -> tags_pb2.TagHitRequest:
    return build(tags_pb2.TagHitRequest, request, fields)


def tag_style(request: Optional[tags_pb2.TagStyleRequest], fields: Dict[str, Any]) -> tags_pb2.TagStyleRequest:
    return build(tags_pb2.TagStyleRequest, request, fields)


def stats(prometheus: bool) -> service_pb2.StatsRequest:
    return service_pb2.StatsRequest(prometheus=prometheus)


def hit_test(request: Optional[editing_pb2.HitTestRequest], fields: Dict[str, Any]) -> editing_pb2.HitTestRequest:
    return build(editing_pb2.HitTestRequest, request, fields)


def open_document(layout: Optional[layout_pb2.LayoutRequest], fields: Dict[str, Any],
                  views: Optional[Sequence[Any]] = None) -> documents_pb2.OpenDocumentRequest:
    return documents_pb2.OpenDocumentRequest(
        layout=build(layout_pb2.LayoutRequest, layout, fields),
        views=[view if isinstance(view, layout_pb2.LayoutRequest) else build(layout_pb2.LayoutRequest, None, dict(view))
               for view in views or []])


def open_story(text: Optional[str], width: Optional[float], preset: Optional[str],
               request: Optional[typemode_pb2.JustifyRequest], fields: Dict[str, Any]) -> documents_pb2.OpenDocumentRequest:
    return documents_pb2.OpenDocumentRequest(type_mode=justify(text, width, preset, request, fields))


def edit_document(document: int, edits: Any, fields: Dict[str, Any]) -> documents_pb2.EditDocumentRequest:
    return build(documents_pb2.EditDocumentRequest, None, {"document": document, "edits": edits or [], **fields})
