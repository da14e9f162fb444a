"""The web layer: the JSON API, the WebSocket, pages (tables and looking back), templating, and
who is asking (cookies, seat tokens)."""
