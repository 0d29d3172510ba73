"""Fuzz of the framer alone (no process, so thousands of cases are cheap): any bytes, in any
split, never raise; the frames account for every complete message; and a valid message sent
after any junk comes out whole. (The server-level fuzz is in test_transport.py; `make fuzz`
runs this one with `--slow`.)"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from flowdrop_lsp.lsp.transport import Body, Framer
from tests.support.raw_lsp import SEEDS, frame

PING = {"jsonrpc": "2.0", "id": 99, "method": "shutdown"}
PIECES = st.sampled_from(
    [
        *SEEDS,
        b"Content-Length: ",
        b"content-length:",
        b"Content-Length: 99999999999999999999",
        b"Content-Length: -1",
        b"\r\n",
        b"\r\n\r\n",
        b"\n\n",
        b"{",
        b"}",
        b"\x00",
        b"\xff\xfe",
        "数据🤖".encode(),
    ]
)
junk = st.lists(PIECES | st.binary(max_size=12), max_size=8).map(b"".join)


@given(junk, st.lists(st.integers(1, 64), max_size=20))
def test_junk_in_any_split_never_raises_and_a_valid_message_follows(
    data: bytes, splits: list[int]
) -> None:
    framer = Framer(max_body=10_000)
    stream = data + b"\r\n\r\n" + frame(PING)
    out = []
    at = 0
    for size in splits:
        out.extend(framer.feed(stream[at : at + size]))
        at += size
    out.extend(framer.feed(stream[at:]))
    out.extend(framer.feed(frame(PING)))  # after anything, the next message is read whole
    bodies = [f.data for f in out if isinstance(f, Body)]
    assert bodies[-1] == json.dumps(PING).encode()
    assert len(framer.buffer) <= len(stream) + 100


@given(junk, st.integers(0, 40), st.integers(0, 200))
def test_the_next_header_is_found_where_the_regex_finds_it(
    data: bytes, start: int, stop: int
) -> None:
    # The CRLF-guided search (fast on a body of megabytes) answers exactly the regex's search.
    from flowdrop_lsp.lsp.transport import NEXT_HEADER, _next_header

    buffer = bytearray(data)
    found = NEXT_HEADER.search(buffer, start, stop)
    assert _next_header(buffer, start, stop) == (found.start() if found else None)
