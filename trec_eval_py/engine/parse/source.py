"""Turn what the user names (a path, ``-``, a file object, bytes) into bytes.

Compressed files (``.gz``, ``.bz2``, ``.xz``) are recognised by their magic
bytes, not their names, so a renamed file still reads.
"""
from __future__ import annotations

import os
import sys
from typing import BinaryIO, TextIO, Union

from ...errors import InputError, InputTypeError

Source = Union[str, os.PathLike, bytes, BinaryIO, TextIO]

# magic bytes -> module whose decompress() reads the format (imported only when met)
_MAGIC = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "lzma"),
)


def source_name(source: Source) -> str:
    """A name for ``source`` fit for error messages."""
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return "<bytes>"
    return getattr(source, "name", None) or "<stream>"


def read_source(source: Source, *, allow_stdin: bool = True) -> bytes:
    """Read ``source`` whole and decompress it if needed.

    ``-`` means standard input when ``allow_stdin`` is true.
    """
    name = source_name(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        data = bytes(source)
    elif isinstance(source, (str, os.PathLike)):
        if os.fspath(source) == "-" and allow_stdin:
            data = sys.stdin.buffer.read()
        else:
            try:
                with open(source, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                raise InputError(name, "no such file") from None
            except IsADirectoryError:
                raise InputError(name, "is a directory, not a file") from None
            except OSError as e:
                raise InputError(name, f"cannot read: {e.strerror or e}") from None
    elif not callable(getattr(source, "read", None)):
        raise InputTypeError(
            name if name != "<stream>" else repr(source),
            f"expected a file name, '-', bytes, a file object or a dict, not {type(source).__name__}")
    else:
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
    for magic, module in _MAGIC:
        if data.startswith(magic):
            import importlib
            import lzma
            import zlib

            try:
                data = importlib.import_module(module).decompress(data)
            except (OSError, EOFError, lzma.LZMAError, zlib.error, ValueError, MemoryError) as e:
                raise InputError(name, f"cannot decompress: {e}") from None
            break
    return data


