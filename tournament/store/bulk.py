"""Inserting many rows given as plain tuples, and reading plain rows back: the one place a batch meets the driver.

On SQLite, SQLAlchemy's executemany builds a parameter dict for each row through the compiled
statement (~3 us a row, five rows a short match: a third of writing it, issue 32), where sqlite3's
own executemany of tuples is one C loop. So on SQLite the rows go to the driver as tuples, after
the same per-column conversions SQLAlchemy would apply (its bind processors: a float column gets
a float, a datetime its SQLite text), so the stored values are the same. PostgreSQL keeps
SQLAlchemy's path: it folds the rows into multi-row VALUES statements (insertmanyvalues), where
psycopg2's own executemany would make one round trip per row.

A float column's conversion (float(value)) changes nothing for a value that is a float already,
which every result's times and points are: a batch whose values in such a column are all floats
skips it, so a batch of seat rows goes to the driver as it is (issue 32: rebuilding each row for
three no-op calls cost ~2 us a match).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import Float, Select, Table, insert
from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.sql.compiler import SQLCompiler

# (column position, its conversion, whether the column is a float: a float value needs none)
Processors = tuple[tuple[int, Callable[[Any], Any], bool], ...]

# (dialect name, table, columns) -> (the INSERT's SQL, the conversions each row needs)
_PREPARED: dict[tuple[str, str, tuple[str, ...]], tuple[str, Processors]] = {}


def insert_many(conn: Connection, table: Table, columns: tuple[str, ...], rows: Sequence[tuple[Any, ...]]) -> None:
    """Insert `rows`, each a tuple of `columns`' values in that order, with one executemany."""
    if not rows:
        return
    if conn.dialect.name != "sqlite":
        conn.execute(insert(table), [dict(zip(columns, row, strict=True)) for row in rows])
        return
    sql, processors = _prepared(conn.dialect, table, columns)
    needed = tuple((i, process) for i, process, floats in processors
                   if not (floats and all(type(row[i]) is float for row in rows)))
    conn.exec_driver_sql(sql, _converted(rows, needed) if needed else list(rows))


def plain_rows(conn: Connection, query: Select[Any], params: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The rows of `query` (bound with `params`) as plain tuples. For columns the driver returns as they are
    stored (integers, text): on SQLite the query runs on the driver's own cursor, without SQLAlchemy's Row objects
    and result processing (a batch's match ids: ~0.5 us a match of ~0.9, issue 32)."""
    if conn.dialect.name != "sqlite":
        return [tuple(row) for row in conn.execute(query, params)]
    compiled = _COMPILED.get(id(query))
    if compiled is None or compiled[0] is not query:
        compiled = _COMPILED[id(query)] = (query, query.compile(dialect=conn.dialect))
    sql = compiled[1]
    cursor = conn.connection.driver_connection.cursor()  # type: ignore[union-attr]
    try:
        rows: list[tuple[Any, ...]] = cursor.execute(sql.string, [params[name] for name in sql.positiontup or ()]
                                                     ).fetchall()
    finally:
        cursor.close()
    return rows


# id(query) -> (the query, compiled for SQLite): the query is kept so that its id is never reused.
_COMPILED: dict[int, tuple[Select[Any], SQLCompiler]] = {}


def _prepared(dialect: Dialect, table: Table, columns: tuple[str, ...]) -> tuple[str, Processors]:
    key = (dialect.name, table.name, columns)
    found = _PREPARED.get(key)
    if found is None:
        quote = dialect.identifier_preparer
        sql = (f"INSERT INTO {quote.format_table(table)} ({', '.join(quote.quote(c) for c in columns)}) "
               f"VALUES ({', '.join('?' for _ in columns)})")
        processors = tuple((i, p, isinstance(table.c[c].type, Float)) for i, c in enumerate(columns)
                           if (p := table.c[c].type._cached_bind_processor(dialect)) is not None)
        found = _PREPARED[key] = (sql, processors)
    return found


def _converted(rows: Sequence[tuple[Any, ...]], processors: tuple[tuple[int, Callable[[Any], Any]], ...]
               ) -> list[tuple[Any, ...]]:
    """`rows` with each value of a column that has a conversion converted. A value the row before held too
    (the same object: a batch's finish time is in every match row) is converted once."""
    last: dict[int, tuple[Any, Any]] = {i: (_UNSEEN, None) for i, _ in processors}
    out = []
    for row in rows:
        values = list(row)
        for i, process in processors:
            value = values[i]
            seen, converted = last[i]
            if value is not seen:
                converted = process(value)
                last[i] = (value, converted)
            values[i] = converted
        out.append(tuple(values))
    return out


_UNSEEN = object()
