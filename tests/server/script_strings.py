"""The strings a page hands its scripts: the inline `#strings` JSON blob, or, on the table page, the
`/strings/{lang}/table.js` script that sets `self.pageStrings`."""

from __future__ import annotations

import json
import re

from starlette.testclient import TestClient

BLOB = re.compile(r'<script type="application/json" id="strings">(.*?)</script>', re.S)
SCRIPT = re.compile(r'<script src="(/strings/[\w-]+/table\.js\?v=[^"]*)"></script>')
ASSIGNMENT = re.compile(r"self\.pageStrings = (\{.*\});\s*\Z", re.S)


def page_strings(client: TestClient, html: str) -> dict[str, str]:
    """The strings of the page `html`, fetched from its strings script when it has one."""
    blob = BLOB.search(html)
    if blob:
        return dict(json.loads(blob.group(1)))
    script = SCRIPT.search(html)
    assert script, "the page has neither a strings blob nor a strings script"
    response = client.get(script.group(1).replace("&amp;", "&"))
    assert response.status_code == 200
    assignment = ASSIGNMENT.search(response.text)
    assert assignment, response.text[:200]
    return dict(json.loads(assignment.group(1)))
