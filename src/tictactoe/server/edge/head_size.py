"""How long a request's head (its request line and headers) has grown, across the pieces it
arrives in: h11's `max_incomplete_event_size` bounds only a head still incomplete after a read,
so a head sent in one write passed at any size (security review H3). Pure: bytes in, a verdict
out."""

from __future__ import annotations

_END = b"\r\n\r\n"


class HeadSize:
    """Measures the head now arriving, piece by piece, against `most` bytes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._seen = 0  # bytes of the head so far
        self._tail = b""  # its last bytes, to find an end split between two pieces

    def too_big(self, piece: bytes) -> bool:
        """Whether the head is over `most` bytes, with this piece (which may end it). Once a
        head ends, the next piece starts the next one."""
        joined = self._tail + piece
        end = joined.find(_END)
        if end == -1:
            self._seen += len(piece)
            self._tail = joined[-(len(_END) - 1) :]
            return self._seen > self.most
        seen = self._seen + end + len(_END) - len(self._tail)
        self._seen, self._tail = 0, b""
        return seen > self.most

    def reset(self) -> None:
        self._seen, self._tail = 0, b""
