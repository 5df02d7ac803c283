"""The OpenAPI document matches the routes, and the API fuzzed from it never fails (5xx)."""

from __future__ import annotations

import re

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from dicetray.web.app import create_app
from dicetray.web.openapi import document


@pytest.fixture
def app(sim_tray):
    return create_app(sim_tray(seed=5, code="FUZZ").table, secret_key=b"f" * 32)


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


@pytest.fixture
def joined_app(sim_tray):
    """A tray's app and the cookie of a joined phone, with a game under way."""
    tray = sim_tray(seed=5, code="FUZZ")
    app = create_app(tray.table, secret_key=b"f" * 32)
    client = app.test_client()
    client.post("/api/join", json={"code": "FUZZ", "name": "Fuzz"})
    version = client.get("/api/state").get_json()["version"]
    client.post("/api/games", json={"version": version, "ruleset": "yahtzee",
                                    "players": ["Fuzz", "Buzz"]})
    cookie = client.get_cookie("dicetray")
    return app, f"dicetray={cookie.value}"


@pytest.fixture
def api_schema():
    return schemathesis.openapi.from_dict(document())


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
def test_the_api_fuzzed_from_its_own_document_never_fails(case, joined_app):
    app, cookie = joined_app
    if case.path in ("/api/events", "/api/camera.mjpg"):
        return  # endless streams: their shapes are tested in test_api
    for headers in ({"Cookie": cookie}, {}):
        response = case.call(app=app, headers=headers)
        assert response.status_code < 500, (case.method, case.path, response.text[:200])
        if response.status_code >= 400:
            error = response.json()["error"]
            assert error and "\n" not in error
        else:
            case.validate_response(response)
