"""What tests compare of a picture."""

from __future__ import annotations

import io

from PIL import Image


def pixels(picture: bytes) -> tuple[tuple[int, int], bytes]:
    """A PNG's size and colours, decoded: what a viewer sees.

    Tests compare these, not the PNG's bytes: ISA-L, the deflater, now and then encodes the
    same rows to other valid bytes, as its buffers start uninitialised (measured: about one
    strip in 3,000).
    """
    with Image.open(io.BytesIO(picture)) as decoded:
        return decoded.size, decoded.convert("RGB").tobytes()
