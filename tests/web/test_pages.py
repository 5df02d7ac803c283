"""The page shells, their assets, the sheet layouts and the join QR code, through Flask's client."""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from flask import Flask

from dicetray.web.pages import PAGES, pages_blueprint

WEB = Path(__file__).resolve().parents[2] / "web"
STATIC = WEB / "static"
CYCLES = ("idle", "tumbling", "settling", "reading", "needs-help", "error")


@pytest.fixture
def client():
    app = Flask(__name__, static_folder=None)
    app.register_blueprint(pages_blueprint())
    return app.test_client()


def _assets(html: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/assets/[^"]+)"', html)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.endpoint)
def test_every_page_is_served_with_its_script_and_the_navigation(client, page):
    response = client.get(page.path)
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert f'src="/assets/js/{page.endpoint}.js"' in html
    assert 'type="module"' in html
    for other in PAGES:
        assert f'href="{other.path}"' in html
    assert html.count('aria-current="page"') == 1
    for asset in _assets(html):
        served = client.get(asset)
        assert served.status_code == 200, asset


def test_scripts_are_served_as_javascript_and_every_import_resolves(client):
    for script in sorted((STATIC / "js").glob("*.js")):
        response = client.get(f"/assets/js/{script.name}")
        assert response.status_code == 200
        assert response.mimetype in ("text/javascript", "application/javascript")
        for target in re.findall(r'from "(\./[^"]+)"', script.read_text()):
            assert (script.parent / target).is_file(), f"{script.name} imports missing {target}"


def test_nothing_is_loaded_from_another_host():
    """The tray serves phones on a network that may have no internet: no CDN, no web font."""
    allowed = {"http://www.w3.org/2000/svg"}
    files = [*WEB.joinpath("templates").glob("*.html"), *STATIC.rglob("*.*")]
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        for url in re.findall(r"(?:https?:)?//[\w.-]+\.[a-z]{2,}[^\s\"')]*", text):
            assert url in allowed, f"{path.name} refers to {url}"
        assert "@import" not in text and "url(http" not in text


def _keys_used() -> set[str]:
    used: set[str] = set()
    for template in WEB.joinpath("templates").glob("*.html"):
        text = template.read_text()
        used |= set(re.findall(r'data-i18n="([\w.-]+)"', text))
        for call in re.findall(r"dialogs\.confirm\(([^)]*)\)", text):  # keys passed to a macro
            used |= {k for k in re.findall(r'"([\w-]+\.[\w-]+)"', call)}
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text()
        used |= set(re.findall(r'\bt\("([\w.-]+)"', text))
        used |= set(re.findall(r'"((?:cal|error|history|help|sheet|score)\.[\w_]+)"', text))
    used |= {page.title for page in PAGES}
    used |= {f"cycle.{cycle}" for cycle in CYCLES}
    used |= {f"live.{state}" for state in ("connecting", "live", "offline")}
    return {key for key in used if "." in key and not key.startswith("./")}


@pytest.mark.parametrize("lang", ["en", "de"])
def test_every_word_the_pages_use_is_translated(lang):
    words = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    missing = sorted(key for key in _keys_used() if key not in words)
    assert not missing, f"{lang}.json lacks {missing}"
    assert all(isinstance(text, str) and text.strip() for text in words.values())


def test_both_languages_have_the_same_keys_and_placeholders():
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    de = json.loads((STATIC / "i18n" / "de.json").read_text(encoding="utf-8"))
    # said.*: another language's words for the tray's English error messages (an English
    # page shows the tray's own message, which says more)
    assert en.keys() == {k for k in de if not k.startswith("said.")}
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", de[key])), key


def test_the_sheet_layout_names_every_box_in_order_in_both_languages(client):
    response = client.get("/sheet/kniffel.json")
    assert response.status_code == 200
    layout = response.json
    ids = [box["id"] for box in layout["boxes"]]
    assert ids[:6] == ["ones", "twos", "threes", "fours", "fives", "sixes"]
    assert ids[-2:] == ["kniffel", "chance"]
    assert layout["boxes"][2]["names"]["de"] == "Dreier"
    assert layout["boxes"][5]["params"]["face"] == 6  # par: three sixes
    assert layout["upper_bonus"] == {"threshold": 63, "points": 35, "boxes": ids[:6]}


def test_a_combination_with_house_rules_has_its_columns(client):
    layout = client.get("/sheet/kniffel+columns-3.json").json
    assert [c["id"] for c in layout["columns"]] == ["down", "up", "free"]
    assert layout["options"] == ["columns-3"]


@pytest.mark.parametrize(
    "path", ["/sheet/nonsense.json", "/sheet/kniffel+nonsense.json", "/sheet/..%2F..%2Fetc.json",
             "/sheet/tests/rules/fixtures/user/yatzy-kata.toml.json"]
)
def test_an_unknown_or_outside_rule_set_is_a_404_with_a_json_error(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json == {"error": "no such page"}


def test_the_join_qr_code_is_an_svg_of_the_join_link(client):
    response = client.get("/join/qr.svg?code=AB12-cd", base_url="http://tray.local:8080")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.headers["Cache-Control"] == "no-store"
    svg = ElementTree.fromstring(response.data)
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    # one unit per module, so the page reads the module count off its width: a QR symbol
    # is 17 + 4 x version modules a side, with a 4-module margin round it
    symbol = int(svg.get("width")) - 2 * 4
    assert symbol >= 21 and (symbol - 17) % 4 == 0 and svg.get("height") == svg.get("width")
    assert svg.get("shape-rendering") == "crispEdges"


@pytest.mark.parametrize("code", ["", "a b", "<script>", "x" * 65])
def test_a_join_code_that_cannot_be_one_is_refused(client, code):
    response = client.get("/join/qr.svg", query_string={"code": code})
    assert response.status_code == 400


def test_the_tray_app_serves_the_pages_beside_the_api(sim_tray):
    from dicetray.web.app import create_app

    tray = sim_tray(seed=21, code="PAGES")
    client = create_app(tray.table, secret_key=b"p" * 32).test_client()
    for page in PAGES:
        response = client.get(page.path)
        assert response.status_code == 200 and response.mimetype == "text/html", page.path
        for asset in _assets(response.get_data(as_text=True)):
            assert client.get(asset).status_code == 200, asset
    assert client.get("/api/state").get_json()["cycle"] == "idle"
    missing = client.get("/no-such-page")
    assert missing.status_code == 404 and "error" in missing.get_json()
