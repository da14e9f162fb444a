"""The web site: the JSON/WebSocket API and tables (backend), pages and static files (frontend).

browser ⇄ WebSocket ⇄ `Table` (one serial owner per table) ⇄ rules; each change is committed to
`storage` before it is fanned out through `pubsub`. `create_app` in `tictactoe.server.app` wires it.
"""
