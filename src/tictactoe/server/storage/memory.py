"""Tables kept in a dict: the storage for tests and for trying things out; lost on exit."""

from __future__ import annotations

from tictactoe.server.storage import (
    DuplicateTableError,
    GameRecord,
    MoveRecord,
    StaleVersionError,
    TableRecord,
    TakenBack,
)


class MemoryStorage:
    """`Storage` in process memory. Every method completes without awaiting, hence atomically."""

    def __init__(self) -> None:
        self._tables: dict[str, TableRecord] = {}
        self._moves: dict[str, list[MoveRecord]] = {}
        self._games: dict[tuple[str, int], GameRecord] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    async def create(self, table: TableRecord) -> None:
        if table.id in self._tables or (
            table.code is not None and any(t.code == table.code for t in self._tables.values())
        ):
            raise DuplicateTableError(table.id)
        self._tables[table.id] = table
        self._moves[table.id] = []

    async def load(self, table_id: str) -> TableRecord | None:
        return self._tables.get(table_id)

    async def save(
        self,
        table: TableRecord,
        expected_version: int,
        move: MoveRecord | None = None,
        taken_back: TakenBack | None = None,
        previous: TableRecord | None = None,
    ) -> None:
        stored = self._tables.get(table.id)
        if stored is None or stored.version != expected_version:
            raise StaleVersionError(table.id)
        log = self._moves[table.id]
        if move is not None and any(
            (m.game_number, m.ply) == (move.game_number, move.ply) for m in log
        ):
            raise StaleVersionError(table.id)
        self._tables[table.id] = table
        if taken_back is not None:
            log[:] = [
                m
                for m in log
                if m.game_number != taken_back.game_number or m.ply < taken_back.first_ply
            ]
        if move is not None:
            log.append(move)
        if table.result is not None:
            self._games.setdefault((table.id, table.game_number), GameRecord.ended(table))

    async def find_table_by_token_hash(self, token_hash: str) -> str | None:
        for table in self._tables.values():
            members = (table.x.holder, table.o.holder, *table.x.mates, *table.o.mates)
            if any(member.token_hash == token_hash for member in members):
                return table.id
        return None

    async def find_table_by_code(self, code: str) -> str | None:
        return next((t.id for t in self._tables.values() if t.code == code), None)

    async def open_tables(self, limit: int) -> list[TableRecord]:
        listed = [t for t in self._tables.values() if t.public and t.waiting and not t.result]
        return sorted(listed, key=lambda table: table.created_at, reverse=True)[:limit]

    async def moves(self, table_id: str) -> list[MoveRecord]:
        return list(self._moves.get(table_id, []))

    async def games(self, table_id: str) -> list[GameRecord]:
        return sorted(
            (game for key, game in self._games.items() if key[0] == table_id),
            key=lambda game: game.game_number,
        )

    async def games_of_client(self, client_hash: str, limit: int) -> list[GameRecord]:
        mine = [g for g in self._games.values() if client_hash in (*g.x.clients, *g.o.clients)]
        return sorted(mine, key=lambda game: game.ended_at or 0.0, reverse=True)[:limit]

    async def tables_of_client(self, client_hash: str, limit: int) -> list[TableRecord]:
        mine = [t for t in self._tables.values() if client_hash in (*t.x.clients, *t.o.clients)]
        return sorted(mine, key=lambda table: table.updated_at, reverse=True)[:limit]
