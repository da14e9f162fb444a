"""The site's edge, between the network and the web layer: the ASGI middlewares (browser
protections, rate limits, JSON bodies), the one way into the table's WebSocket, the HTTP and
WebSocket protocols `tictactoe serve` runs, health and readiness, logs."""
