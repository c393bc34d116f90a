"""What every game's records share: reading a record file's JSON."""

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
