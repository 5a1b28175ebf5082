"""The CPU one saved action costs the store: :meth:`SqlTables.save_many` in batches.

200 four-seat tables under way; each round saves every table's next action (a table
update and an action row, the seats unchanged, as play does), ``--batch`` changes per
call, as the group commit hands them over. Prints the process's CPU time per change
(the database server's own is not counted), and the CPU of creating each table.
``--seats-every N`` makes every Nth change carry its seats too (a join or a seat away,
about one change in forty under the load test, in a quarter of its batches). Runs on whichever tree is on
``PYTHONPATH``, so two checkouts can be compared in turn (docs/performance.md)::

    PYTHONPATH=src python scripts/bench_save.py sqlite --batch 8
    PYTHONPATH=src python scripts/bench_save.py postgresql://postgres@127.0.0.1/test --batch 8
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from ghostparty.server.common.model import PLAYING, ActionRow, Change, Seat, Table
from ghostparty.server.tables.store import SqlTables

T0 = datetime(2026, 11, 27, tzinfo=UTC)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("database", help="'sqlite' (a new file) or a database URL")
    parser.add_argument("--batch", type=int, default=8, help="changes per save_many call")
    parser.add_argument("--rounds", type=int, default=40, help="actions saved per table")
    parser.add_argument("--seats-every", type=int, default=0, help="every Nth change carries its seats (0: none)")
    args = parser.parse_args()
    url = f"sqlite:///{tempfile.mkdtemp()}/bench.db" if args.database == "sqlite" else args.database
    store = SqlTables(url)
    tag = f"{time.time_ns() % 10**7}"
    seats = tuple(Seat(s, "human", name=f"P{s}", token_hash="a" * 64) for s in range(4))
    tables = [
        Table(
            id=f"b{tag}{i}",
            rules="hugo",
            players=4,
            seats=seats,
            seed=i,
            status=PLAYING,
            first_player=0,
            to_move=0,
            created=T0,
            updated=T0,
        )
        for i in range(200)
    ]
    began = time.process_time()
    for table in tables:
        store.create(table)
    created = (time.process_time() - began) / len(tables)
    saved, cpu = 0, 0.0
    for _ in range(args.rounds):
        for start in range(0, len(tables), args.batch):
            changes = []
            for i in range(start, min(len(tables), start + args.batch)):
                table = tables[i]
                moved = replace(
                    table,
                    version=table.version + 1,
                    to_move=((table.to_move or 0) + 1) % 4,
                    updated=T0 + timedelta(seconds=table.version + 1),
                )
                action = ActionRow(table.version, table.to_move or 0, {"move": "G3", "to": 7})
                with_seats = args.seats_every > 0 and (saved + len(changes)) % args.seats_every == 0
                if with_seats:
                    seat = moved.seats[moved.version % 4]
                    moved = moved.with_seat(replace(seat, away=not seat.away))
                changes.append(Change(moved, table.version, (action,), with_seats=with_seats))
                tables[i] = moved
            began = time.process_time()
            outcome = store.save_many(changes)
            cpu += time.process_time() - began
            if not all(outcome):
                raise SystemExit(f"a save was refused: {outcome}")
            saved += len(changes)
    store.close()
    what = f"{args.database.split('://')[0]}, batches of {args.batch}"
    if args.seats_every:
        what += f", every {args.seats_every}th with seats"
    print(f"{what}: {cpu / saved * 1e6:.1f} µs of CPU per change, {created * 1e6:.0f} µs per new table")


if __name__ == "__main__":
    main()
