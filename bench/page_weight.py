"""What a page weighs: the bytes of its HTML and of every stylesheet and script it loads, ES module
imports followed (images and the favicon left out): as sent to a browser that accepts gzip (the
budget), and uncompressed.

    uv run python bench/page_weight.py [--lang en]

Prints each file and the totals for the table page (an Ultimate table with a free seat, the
heaviest case) and the analysis board. The table page's budget is 60 KB (61 440 bytes) as sent;
tests/browser/test_tables.py holds the page to it.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urljoin, urlsplit

from starlette.testclient import TestClient

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings

TABLE_PAGE_BUDGET = 60 * 1024

LINKED = re.compile(r"""<(?:script[^>]*\bsrc|link[^>]*\brel="stylesheet"[^>]*\bhref)="([^"]+)\"""")
IMPORTED = re.compile(r"""\bimport\b[^"';]*?["'](\.{1,2}/[^"']+)["']""")


class Weight(NamedTuple):
    sent: int  # bytes on the wire, to a browser that accepts gzip
    raw: int  # uncompressed


def page_weight(client: TestClient, path: str) -> dict[str, Weight]:
    """Bytes per file the page at `path` loads (the page itself first), each file counted once."""
    sizes: dict[str, Weight] = {}
    page = client.get(path, headers={"Accept-Encoding": "gzip"})
    page.raise_for_status()
    sizes[path] = Weight(page.num_bytes_downloaded, len(page.content))
    pending = [urljoin(path, link) for link in LINKED.findall(page.text)]
    while pending:
        url = pending.pop()
        key = urlsplit(url).path
        if key in sizes:
            continue
        response = client.get(url, headers={"Accept-Encoding": "gzip"})
        response.raise_for_status()
        sizes[key] = Weight(response.num_bytes_downloaded, len(response.content))
        if key.endswith(".js"):
            pending.extend(urljoin(url, module) for module in IMPORTED.findall(response.text))
    return sizes


def table_page(client: TestClient) -> str:
    """A fresh Ultimate table's page, as its creator sees it while the friend's seat is free."""
    created = client.post("/api/tables", json={"variant": "ultimate"})
    created.raise_for_status()
    return urlsplit(created.json()["url"]).path


def total(sizes: dict[str, Weight]) -> Weight:
    return Weight(sum(w.sent for w in sizes.values()), sum(w.raw for w in sizes.values()))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lang", default="en")
    lang = parser.parse_args().lang
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(database_url=f"sqlite:///{Path(folder) / 't.db'}")
        with TestClient(create_app(settings)) as client:
            table = table_page(client)
            pages = {"table page": table, "analysis board": "/analysis?variant=ultimate"}
            for name, path in pages.items():
                sizes = page_weight(client, f"{path}{'&' if '?' in path else '?'}lang={lang}")
                print(f"{name} ({path}, {lang}):      sent        raw")
                for file, size in sizes.items():
                    print(f"  {size.sent:>9,} B {size.raw:>9,} B  {file}")
                sent, raw = total(sizes)
                kb = f"{sent / 1024:.1f} KB sent, {raw / 1024:.1f} KB raw"
                print(f"  {sent:>9,} B {raw:>9,} B  total ({kb})")
    print(f"table page budget: {TABLE_PAGE_BUDGET:,} B (60 KB)")


if __name__ == "__main__":
    main()
