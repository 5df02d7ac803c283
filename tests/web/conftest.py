"""Fixtures for the page tests: the API stand-in (tests/web/table_double.py) served over HTTP."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from table_double import TableDouble, create_double_app
from werkzeug.serving import make_server


@dataclass(frozen=True)
class Served:
    url: str
    table: TableDouble


@pytest.fixture
def table() -> TableDouble:
    return TableDouble()


@pytest.fixture
def app(table: TableDouble):
    return create_double_app(table)


@pytest.fixture
def served(app, table: TableDouble) -> Iterator[Served]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_port}", table)
    finally:
        server.shutdown()
        thread.join()
