"""Renders the site's pages: Jinja2 with gettext (Babel catalogs), the page language and the footer.

One Jinja environment per language, each with its catalog installed, so a request never swaps
translations under another request's feet. The language comes from `?lang=xx`, then the `lang`
cookie, then `Accept-Language`, among `LANGUAGES`; anything else falls back to English.
"""

from __future__ import annotations

import functools
import os
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import jinja2
from babel import negotiate_locale
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

from tictactoe.engine import levels
from tictactoe.server.web.page_constants import page_constants

HERE = Path(__file__).resolve().parent.parent  # the server folder: templates, static, locales
TEMPLATES_DIR = HERE / "templates"
STATIC_DIR = HERE / "static"
LOCALES_DIR = HERE / "locales"

DEFAULT_LANGUAGE = "en"
# Each language named in itself: that is the name a reader looks for in a language menu. The menu
# shows them in this order: alphabetical by that name within each script, Latin first, then Greek,
# Cyrillic, Hebrew, Arabic, and the East Asian ones.
LANGUAGE_NAMES: dict[str, str] = {
    "cs": "Čeština",
    "de": "Deutsch",
    "en": "English",
    "es": "Español",
    "fr": "Français",
    "it": "Italiano",
    "nl": "Nederlands",
    "pl": "Polski",
    "pt": "Português",
    "fi": "Suomi",
    "sv": "Svenska",
    "tr": "Türkçe",
    "el": "Ελληνικά",
    "ru": "Русский",
    "uk": "Українська",
    "he": "עברית",
    "ar": "العربية",
    "ja": "日本語",
    "zh": "简体中文",
    "ko": "한국어",
}
# Languages written right to left: their pages are `dir="rtl"` (the board itself stays as it is).
RIGHT_TO_LEFT = frozenset({"ar", "he"})
# The tag a page declares where the site's code for a language says too little: the site's Chinese
# is Simplified, and `zh-Hans` makes browsers pick Simplified glyphs and `Intl` its conventions.
LANGUAGE_TAGS: dict[str, str] = {"zh": "zh-Hans"}
# Chinese written in Traditional characters (Taiwan, Hong Kong, Macau) is another language here: a
# reader asking for it is not sent the Simplified pages.
TRADITIONAL_CHINESE = frozenset({"zh-tw", "zh-hk", "zh-mo", "zh-hant"})


def language_tag(code: str) -> str:
    """The BCP 47 tag for `<html lang>`, `hreflang` and `Content-Language`.

    >>> language_tag("zh"), language_tag("ar")
    ('zh-Hans', 'ar')
    """
    return LANGUAGE_TAGS.get(code, code)


def text_direction(code: str) -> str:
    """`rtl` for a language written right to left, else `ltr`.

    >>> text_direction("he"), text_direction("ja")
    ('rtl', 'ltr')
    """
    return "rtl" if code in RIGHT_TO_LEFT else "ltr"


def available_languages(locales: Path) -> dict[str, str]:
    """English and every named language with a catalog under `locales`, in menu order: a
    language is offered as soon as its catalog is there, never before.

    >>> list(available_languages(Path("/nonexistent")))
    ['en']
    """
    return {
        code: name
        for code, name in LANGUAGE_NAMES.items()
        if code == DEFAULT_LANGUAGE or (locales / code / "LC_MESSAGES" / "messages.po").is_file()
    }


LANGUAGES: dict[str, str] = available_languages(LOCALES_DIR)
LANGUAGE_COOKIE = "lang"
LANGUAGE_COOKIE_MAX_AGE = 365 * 24 * 3600


def parse_accept_language(header: str) -> list[str]:
    """The language tags of an `Accept-Language` header, lower-case, most wanted first (Babel
    matches tags but does not read the header's weights). Traditional Chinese is written
    `zh-hant`, however it was asked for, so that it stays apart from the site's Simplified.

    >>> parse_accept_language("fi-FI,fi;q=0.9,en-US;q=0.8,en;q=0.7")
    ['fi-fi', 'fi', 'en-us', 'en']
    >>> parse_accept_language("sv;q=0.5, cs")
    ['cs', 'sv']
    >>> parse_accept_language("el;q=0, *")
    []
    >>> parse_accept_language("zh-TW,zh-Hant-HK;q=0.9,zh;q=0.8")
    ['zh-hant', 'zh']
    """
    weighted: list[tuple[float, int, str]] = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip().lower()
        if not tag or tag == "*":
            continue
        quality = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                quality = float(params[2:])
            except ValueError:
                quality = 0.0
        if quality > 0:
            weighted.append((-quality, position, _traditional_apart(tag)))
    return list(dict.fromkeys(tag for _, _, tag in sorted(weighted)))


def _traditional_apart(tag: str) -> str:
    """
    >>> _traditional_apart("zh-cn"), _traditional_apart("zh-hans-sg"), _traditional_apart("zh-mo")
    ('zh-cn', 'zh-hans-sg', 'zh-hant')
    """
    if tag.startswith("zh-") and any(tag.startswith(t) for t in TRADITIONAL_CHINESE):
        return "zh-hant"
    return tag


def negotiated_language(header: str) -> str | None:
    """The site's language closest to what `Accept-Language` asks for (Babel's
    `negotiate_locale`: the tag itself, else its primary language), or None.

    >>> negotiated_language("de-AT,de;q=0.9,en;q=0.5"), negotiated_language("zh-Hans-SG")
    ('de', 'zh')
    >>> negotiated_language("zh-TW") is None  # not the site's Simplified Chinese
    True
    """
    # A language the site lacks must not fall back to another it has under the same primary
    # subtag: Babel would answer `zh` for `zh-hant`.
    preferred = [
        tag for tag in parse_accept_language(header) if tag != "zh-hant" or tag in LANGUAGES
    ]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-", aliases={})
    return found.lower() if found is not None else None


def choose_language(query: str | None, cookie: str | None, accept_language: str | None) -> str:
    """The page language: `?lang=`, then the cookie, then `Accept-Language`, else English.

    >>> choose_language("sv", "fi", "cs")
    'sv'
    >>> choose_language("xx", "fi", "cs")
    'fi'
    >>> choose_language(None, None, "ko-KR,cs;q=0.8")
    'ko'
    >>> choose_language(None, None, "zh-TW,cs;q=0.8")
    'cs'
    >>> choose_language(None, None, "de-AT,de;q=0.9,en;q=0.5")
    'de'
    >>> choose_language(None, None, None)
    'en'
    """
    for candidate in (query, cookie):
        if candidate and candidate.lower() in LANGUAGES:
            return candidate.lower()
    return negotiated_language(accept_language or "") or DEFAULT_LANGUAGE


def request_language(request: Request) -> str:
    """The language to render `request` in."""
    return choose_language(
        request.query_params.get("lang"),
        request.cookies.get(LANGUAGE_COOKIE),
        request.headers.get("accept-language"),
    )


@functools.cache
def translations(language: str) -> NullTranslations:
    """The compiled catalog of `language`; English (the source text) when there is none."""
    if language == DEFAULT_LANGUAGE:
        return NullTranslations()
    return Translations.load(str(LOCALES_DIR), [language], domain="messages")


@dataclass(frozen=True)
class BuildInfo:
    """What the footer says about the running code."""

    version: str
    commit: str


@functools.cache
def build_info() -> BuildInfo:
    """The package version, and the commit from `TICTACTOE_COMMIT` or else git."""
    try:
        version = metadata.version("tictactoe")
    except metadata.PackageNotFoundError:
        version = "0.0.0"
    commit = os.environ.get("TICTACTOE_COMMIT", "").strip()
    if not commit:
        try:
            commit = subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=HERE,
                capture_output=True,
                text=True,
                timeout=5,
                check=True,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            commit = ""
    return BuildInfo(version=version, commit=commit or "unknown")


def static_version() -> str:
    """A cache-busting suffix for static URLs: changes with every deployed commit."""
    info = build_info()
    return f"{info.version}-{info.commit}"


def number_in(language: str, value: float, decimals: int = 1) -> str:
    """`value` as `language` writes it (CLDR's decimal sign and grouping), with at most
    `decimals` digits after the sign: the `number` filter of the templates.

    >>> number_in("fi", 0.5), number_in("fr", 1.25, 2), number_in("en", 2.0), number_in("de", 1500)
    ('0,5', '1,25', '2', '1.500')
    """
    pattern = "#,##0." + "#" * decimals if decimals else "#,##0"
    return format_decimal(round(value, decimals), format=pattern, locale=language)


@functools.cache
def templates_for(language: str) -> Jinja2Templates:
    """The template renderer with `language`'s catalog installed (built once per language)."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # The pages' JSON (strings, the table) carries letters as they are, not as \u escapes: Greek or
    # Japanese weighs half as much. Jinja's tojson still escapes < > & ' so nothing in it can close
    # the <script> it sits in.
    env.policies["json.dumps_kwargs"] = {"sort_keys": True, "ensure_ascii": False}
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.globals.update(language_tag=language_tag, text_direction=text_direction)
    env.filters["number"] = functools.partial(number_in, language)
    env.globals["computer_levels"] = levels()  # the level pickers' choices, weakest first
    env.globals["page_constants"] = page_constants()  # for the scripts: static/constants.js
    return Jinja2Templates(env=env)


def language_links(request: Request) -> dict[str, str]:
    """For the language menu: this page's address in each language, other query fields kept."""
    kept = [(key, value) for key, value in request.query_params.multi_items() if key != "lang"]
    return {code: "?" + urlencode([*kept, ("lang", code)]) for code in LANGUAGES}


def render(
    request: Request,
    name: str,
    context: Mapping[str, Any] | None = None,
    *,
    status_code: int = 200,
) -> Response:
    """Render template `name` in the request's language; remember an explicit `?lang=` choice."""
    language = request_language(request)
    page_context: dict[str, Any] = {
        "lang": language,
        "languages": LANGUAGES,
        "language_links": language_links(request),
        "build": build_info(),
        "static_version": static_version(),
        **(context or {}),
    }
    response = templates_for(language).TemplateResponse(
        request, name, page_context, status_code=status_code
    )
    chosen = request.query_params.get("lang", "").lower()
    if chosen in LANGUAGES and request.cookies.get(LANGUAGE_COOKIE) != chosen:
        response.set_cookie(
            LANGUAGE_COOKIE, chosen, max_age=LANGUAGE_COOKIE_MAX_AGE, samesite="lax"
        )
    response.headers["Content-Language"] = language_tag(language)
    response.headers.setdefault("Vary", "Accept-Language, Cookie")
    return response
