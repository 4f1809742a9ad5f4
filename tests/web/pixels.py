"""Reading pixels of a PNG screenshot (8-bit RGB or RGBA, not interlaced: what
Chromium writes), with the standard library alone, so tests can look at what a
page shows."""

from __future__ import annotations

import struct
import zlib

__all__ = ["Image"]


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


class Image:
    """A decoded PNG: ``width``, ``height`` and ``pixel(x, y) -> (r, g, b)``."""

    def __init__(self, data: bytes) -> None:
        if data[:8] != b"\x89PNG\r\n\x1a\n":
            raise ValueError("not a PNG")
        pos, chunks = 8, b""
        while pos < len(data):
            (length,) = struct.unpack(">I", data[pos : pos + 4])
            kind = data[pos + 4 : pos + 8]
            body = data[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, colour, _, _, interlace = struct.unpack(
                    ">IIBBBBB", body
                )
                if depth != 8 or colour not in (2, 6) or interlace:
                    raise ValueError("only 8-bit RGB/RGBA, non-interlaced PNGs are read here")
                self.channels = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                chunks += body
            pos += 12 + length
        raw = zlib.decompress(chunks)
        stride = self.width * self.channels
        rows: list[bytearray] = []
        previous = bytearray(stride)
        offset = 0
        bpp = self.channels
        for _ in range(self.height):
            method = raw[offset]
            line = bytearray(raw[offset + 1 : offset + 1 + stride])
            offset += 1 + stride
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                up = previous[i]
                corner = previous[i - bpp] if i >= bpp else 0
                if method == 1:
                    line[i] = (line[i] + left) & 0xFF
                elif method == 2:
                    line[i] = (line[i] + up) & 0xFF
                elif method == 3:
                    line[i] = (line[i] + ((left + up) >> 1)) & 0xFF
                elif method == 4:
                    line[i] = (line[i] + _paeth(left, up, corner)) & 0xFF
            rows.append(line)
            previous = line
        self._rows = rows

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        row = self._rows[int(y)]
        i = int(x) * self.channels
        return row[i], row[i + 1], row[i + 2]
