"""Reading the text files players write (a ``review`` record, an ``expose --hands-file``, a
``--deals-file``) in the encodings their editors save: UTF-8 with or without a byte-order
mark, UTF-16 or UTF-32 with one (Windows Notepad's "Unicode"), and GB18030 (which reads
GBK and GB2312, the Chinese Windows default) when the bytes are not UTF-8 (docs/cards.md).
"""

from __future__ import annotations

import codecs

from sim.errors import InputError

#: Byte-order marks and their codecs, longest first (UTF-32-LE's begins like UTF-16-LE's).
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"))

#: The encodings named when a file is none of them.
ENCODINGS = "UTF-8, UTF-16 with a byte-order mark, or GB18030/GBK"


def decode_text(data: bytes, what: str) -> str:
    """The text of the bytes ``data``: by its byte-order mark (UTF-8, UTF-16, UTF-32), else
    UTF-8, else GB18030.  Raises InputError naming ``what`` (e.g. ``--hands-file h.txt``)
    when it is none of them, or holds a NUL character (a binary file, or UTF-16 without a
    byte-order mark)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(codec)
            except UnicodeDecodeError:
                break
            return _checked(text.lstrip("\ufeff"), what)
    else:
        for codec in ("utf-8", "gb18030"):
            try:
                return _checked(data.decode(codec), what)
            except UnicodeDecodeError:
                continue
    raise InputError(f"{what}: cannot read it as text (write it as {ENCODINGS})")


def _checked(text: str, what: str) -> str:
    if "\x00" in text:
        raise InputError(f"{what}: cannot read it as text: it holds NUL bytes (a binary file, "
                         f"or UTF-16 without a byte-order mark; write it as {ENCODINGS})")
    return text


def read_text(path: str, what: str) -> str:
    """The text of the file ``path`` as :func:`decode_text` reads it; ``what`` names it in
    the errors (``--hands-file h.txt``, ``the record deal.txt``).  Raises InputError for a
    file that cannot be opened or read as text."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        raise InputError(f"{what}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{what} is a folder") from None
    except OSError as exc:
        raise InputError(f"{what}: cannot read it ({exc.strerror or exc})") from None
    return decode_text(data, what)


__all__ = ["ENCODINGS", "decode_text", "read_text"]
