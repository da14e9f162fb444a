"""Operations' leaf: metrics, JSON in and out, token buckets, the ASGI scope's keys, the garbage
collector. Imports nothing of the site: the table, the web layer and the edge all use it."""
