"""What every game's records share: reading a record file's JSON and checking its outer keys."""

from __future__ import annotations

import json
from pathlib import Path


def read_json(source: str | Path | dict, error: type[Exception] = ValueError) -> object:
    """The JSON document of a record file, or an already parsed object as it is; a file that
    cannot be read or is not JSON raises `error` (each game passes its own RecordError) in one line."""
    if isinstance(source, dict):
        return source
    try:
        text = Path(source).read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read the record: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None


def record_object(data: object, keys: set[str], error: type[Exception]) -> dict:
    """A record's JSON object holding none but `keys`; anything else raises `error` (the game's
    RecordError) naming the first unknown key."""
    if not isinstance(data, dict):
        raise error("a record must be a JSON object")
    unknown = sorted(set(data) - keys)
    if unknown:
        raise error(f"unknown key {unknown[0]!r} (a record has {', '.join(sorted(keys))})")
    return data


def rules_object(data: object, keys: set[str], error: type[Exception]) -> dict:
    """A record's rules: an object holding none but the game's rule names `keys`."""
    if not isinstance(data, dict):
        raise error("rules must be an object")
    unknown = sorted(set(data) - keys)
    if unknown:
        raise error(f"unknown rule {unknown[0]!r} (rules are {', '.join(sorted(keys))})")
    return data
