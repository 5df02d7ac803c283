"""The pages the phones open: the scorecard, a new game, history, calibration, joining.

The pages hold no game logic. Each is an HTML shell; the scripts in ``static/js`` fetch
the state from the JSON API (``/api/...``), render it and send the players' commands.
Beside the shells this blueprint serves two small helpers the API does not cover: the
layout of a rule set's sheet (box names in every language, sections, columns) and the
join link as a QR code.

>>> from flask import Flask
>>> app = Flask(__name__)
>>> app.register_blueprint(pages_blueprint())
>>> client = app.test_client()
>>> client.get("/").status_code, client.get("/sheet/yahtzee.json").json["boxes"][0]["id"]
(200, 'ones')
>>> client.get("/join/qr.svg?code=4711").mimetype
'image/svg+xml'
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from urllib.parse import urlencode

import segno
from flask import Blueprint, Response, abort, jsonify, render_template, request, url_for

from dicetray.rules import RulesError, load_ruleset

__all__ = ["PAGES", "Page", "PagesSettings", "pages_blueprint"]


@dataclass(frozen=True)
class Page:
    """One page of the site: its path, template and the key of its title in the i18n files."""

    endpoint: str
    path: str
    title: str


PAGES: tuple[Page, ...] = (
    Page("scorecard", "/", "nav.scorecard"),
    Page("new_game", "/new", "nav.new"),
    Page("history", "/history", "nav.history"),
    Page("calibrate", "/calibrate", "nav.calibrate"),
    Page("join", "/join", "nav.join"),
)


@dataclass(frozen=True)
class PagesSettings:
    """Limits of the helpers this blueprint serves."""

    # a join code is typed by hand at the table: dozens of characters is already a typo
    max_code_length: int = 64


_CODE = re.compile(r"[A-Za-z0-9-]+")
_BUILTIN = re.compile(r"[a-z0-9-]+(\+[a-z0-9-]+)*")


def pages_blueprint(*, settings: PagesSettings | None = None) -> Blueprint:
    """The ``pages`` blueprint: register it on the app beside the API blueprint."""
    settings = settings or PagesSettings()
    bp = Blueprint(
        "pages",
        __name__,
        template_folder="templates",
        static_folder="static",
        static_url_path="/assets",
    )

    def shell(page: Page):
        def view() -> str:
            return render_template(f"{page.endpoint}.html", page=page, pages=PAGES)

        view.__name__ = page.endpoint
        return view

    for page in PAGES:
        bp.add_url_rule(page.path, page.endpoint, shell(page))

    @bp.get("/sheet/<path:ruleset>.json")
    def sheet(ruleset: str) -> Response:
        """The sheet of a rule set as the page draws it (the rule set's own JSON form)."""
        if not _BUILTIN.fullmatch(ruleset):
            abort(404)  # built-ins and their options only: never a file of the tray's disk
        try:
            found = load_ruleset(ruleset)
        except (RulesError, OSError):
            abort(404)
        return jsonify(found.to_dict())

    @bp.get("/join/qr.svg")
    def join_qr() -> Response:
        """The join link for ``?code=`` as a QR code (the phone that knows the code asks):
        one SVG unit per module, so the page reads the module count (margin included) off
        the image's natural width and draws each module a whole number of the screen's
        pixels; its edges kept crisp (never blended to grey) where that cannot hold."""
        code = request.args.get("code", "")
        if not code or len(code) > settings.max_code_length or not _CODE.fullmatch(code):
            return Response("a join code is letters, digits and hyphens\n", 400,
                            mimetype="text/plain")
        link = url_for("pages.join", _external=True) + "?" + urlencode({"code": code})
        out = io.BytesIO()
        segno.make(link, error="m").save(
            out, kind="svg", scale=1, border=4, xmldecl=False,
            svgclass="qr", lineclass=None, dark="#000", light="#fff",
        )
        svg = out.getvalue().replace(b"<svg ", b'<svg shape-rendering="crispEdges" ', 1)
        response = Response(svg, mimetype="image/svg+xml")
        response.headers["Cache-Control"] = "no-store"
        return response

    @bp.errorhandler(404)
    def not_found(_error: Exception) -> tuple[Response, int]:
        return jsonify(error="no such page"), 404

    return bp
