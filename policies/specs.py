"""Player specs, the same in every game's registry: a policy's name, or `name@skill` for a policy
that takes a skill (its module has `skill_params(skill)`), e.g. `skilled@0.7`: the name a table,
sweep, record or command line shows for that player."""

from __future__ import annotations

from collections.abc import Callable, Iterable


def with_skill(name: str, skill: float, takes_skill: Callable[[str], bool], names: Iterable[str],
               error: type[ValueError]) -> str:
    """The spec of policy `name` at `skill` (0 to 1); `error` names what is wrong."""
    if not takes_skill(name):
        able = ", ".join(n for n in names if takes_skill(n))
        raise error(f"policy {name!r} takes no skill (only {able} does)")
    if not 0.0 <= skill <= 1.0:
        raise error(f"skill must be from 0 to 1, not {skill:g}")
    return f"{name}@{skill:g}"


def spec_params(spec: str, check: Callable[[str], object], skill_spec: Callable[[str, float], str],
                module_of: Callable[[str], object], error: type[ValueError]):
    """The parameter array of a spec `name@skill` (its module's `skill_params`), or None for a
    plain policy name; `check(name)` raises for an unknown policy."""
    name, _, arg = spec.partition("@")
    check(name)
    if not arg:
        return None
    try:
        skill = float(arg)
    except ValueError:
        raise error(f"bad skill {arg!r} in player {spec!r}: a number from 0 to 1") from None
    skill_spec(name, skill)
    return module_of(name).skill_params(skill)
