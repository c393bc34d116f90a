"""From a game id and a policy id to that game's kernel and that policy's numba functions: the
static dispatch of the one play loop (policies/play.py), for every game.

Only the game and the policy in use are compiled. numba compiles every function a loop may call,
and a chain of `if pid == k:` is not pruned before typing even when `pid` is a constant, so such
a chain would compile every policy of every game into each loop. Instead the game id `gid` and the
policy id `pid` are numba literals (Literal[int]): the generated entries (policies/entries.py)
pass constants and the play loop hands them on, and each intrinsic below reads them while typing
and emits a direct call to the one kernel function or the one policy's `choose`. A game's modules
are imported only then, so this module imports no game: search policies can import the play loop
without a circle.

Game ids are the positions of the games in `policies.game.GAMES`; policy ids are those of the
game's registry (`policies/<game>/registry.py`, REGISTRY). A game's kernel is `sim/<game>/kernel.py`
with the entry points of sim/kernel_api.py, its layout `sim/<game>/layout.py` (NSTATE, NPARAMS,
MAX_LEGAL, LOG_SHAPE).

Intrinsics rather than `@overload`s: numba compiles an overload's implementation as a function
of its own before inlining it, and that function, linking the whole policy, was optimised and
turned into machine code once more for nothing (seconds of every cold compile).
"""

from __future__ import annotations

import importlib
from functools import cache

from numba import types
from numba.core.errors import TypingError
from numba.extending import intrinsic

from sim.intrinsics import on_stack


@cache
def game_folders() -> tuple[str, ...]:
    """The folder of each game (sim/<folder>/, policies/<folder>/), by game id."""
    from policies.game import GAMES

    return tuple(package.rpartition(".")[2] for package in GAMES.values())


def game_id(folder: str) -> int:
    return game_folders().index(folder)


def _constant(value, what: str) -> int:
    if not isinstance(value, types.IntegerLiteral):
        raise TypingError(f"the {what} must be a compile-time constant: enter through policies/entries.py")
    return value.literal_value


def _game_module(gid, part: str):
    return importlib.import_module(f"sim.{game_folders()[_constant(gid, 'game id')]}.{part}")


def policy_module(gid, pid):
    """The module of literal policy `pid` of literal game `gid` (imported now, while numba types
    the loop)."""
    folder = game_folders()[_constant(gid, "game id")]
    registry = importlib.import_module(f"policies.{folder}.registry").REGISTRY
    return importlib.import_module(f"policies.{folder}.{registry.module_name(_constant(pid, 'policy id'))}")


def _direct_call(typingctx, function, constants: tuple, args: tuple):
    """The signature and code of an intrinsic whose leading arguments are the `constants` (the
    ids) and whose others are `args`, calling numba function `function` with `args` (typing
    compiles `function`)."""
    fnty = typingctx.resolve_value_type(function)
    sig = typingctx.resolve_function_type(fnty, args, {})
    skip = len(constants)

    def codegen(context, builder, signature, values):
        # convert each argument to the type the callee was compiled for, as numba does at any call
        own = [context.cast(builder, v, have, want)
               for v, have, want in zip(values[skip:], args, sig.args, strict=True)]
        return context.get_function(fnty, sig)(builder, own)

    return sig.return_type(*constants, *args), codegen


def _constant_flag(ids: tuple, value: bool):
    def codegen(context, builder, signature, values):
        return context.get_constant(types.boolean, value)

    return types.boolean(*ids), codegen


def _scratch(gid, dtype, shape: tuple[int, ...]):
    arrty, codegen = on_stack(types.NumberClass(dtype), shape)
    return arrty(gid), codegen


# --- the policy ------------------------------------------------------------------------------------


@intrinsic(prefer_literal=True)
def choose(typingctx, gid, pid, s, p, pp, acts, n, rng):
    """The index into acts[:n] policy `pid` chooses (numba code only): its module's
    `choose(s, p, pp, acts, n, rng)`; called blind (n = 0) it writes its code into acts[0]."""
    return _direct_call(typingctx, policy_module(gid, pid).choose, (gid, pid), (s, p, pp, acts, n, rng))


@intrinsic(prefer_literal=True)
def rollout_value(typingctx, gid, sid, u, p, seat, still, leaf):
    """What searching policy `sid` makes of a rollout's state `u` for `seat` (numba code only):
    its module's `rollout_value(u, p, seat, still, leaf)` (policies/search.py)."""
    return _direct_call(typingctx, policy_module(gid, sid).rollout_value, (gid, sid), (u, p, seat, still, leaf))


@intrinsic(prefer_literal=True)
def uses_legal(typingctx, gid, pid):
    """Whether policy `pid` reads the legal list (its module's USES_LEGAL, default True): a
    constant, so that the loop builds no list for a policy that lists its own candidates."""
    return _constant_flag((gid, pid), bool(getattr(policy_module(gid, pid), "USES_LEGAL", True)))


# --- the game's kernel (sim/kernel_api.py) ----------------------------------------------------------


@intrinsic(prefer_literal=True)
def init_game(typingctx, gid, s, p, rng, seed, game):
    return _direct_call(typingctx, _game_module(gid, "kernel").init_game, (gid,), (s, p, rng, seed, game))


@intrinsic(prefer_literal=True)
def legal_actions(typingctx, gid, s, p, out):
    return _direct_call(typingctx, _game_module(gid, "kernel").legal_actions, (gid,), (s, p, out))


@intrinsic(prefer_literal=True)
def apply_action(typingctx, gid, s, p, a, rng, log, nlog):
    return _direct_call(typingctx, _game_module(gid, "kernel").apply_action, (gid,), (s, p, a, rng, log, nlog))


@intrinsic(prefer_literal=True)
def sample_world(typingctx, gid, s, p, rng, out):
    return _direct_call(typingctx, _game_module(gid, "kernel").sample_world, (gid,), (s, p, rng, out))


@intrinsic(prefer_literal=True)
def is_over(typingctx, gid, s, p):
    return _direct_call(typingctx, _game_module(gid, "kernel").is_over, (gid,), (s, p))


@intrinsic(prefer_literal=True)
def turn_number(typingctx, gid, s, p):
    return _direct_call(typingctx, _game_module(gid, "kernel").turn_number, (gid,), (s, p))


@intrinsic(prefer_literal=True)
def write_result(typingctx, gid, s, p, out, row):
    return _direct_call(typingctx, _game_module(gid, "kernel").write_result, (gid,), (s, p, out, row))


# --- scratch arrays of the game's sizes, on the calling function's stack --------------------------------


@intrinsic(prefer_literal=True)
def state_scratch(typingctx, gid):
    """An empty state (int32, the layout's NSTATE)."""
    return _scratch(gid, types.int32, (_game_module(gid, "layout").NSTATE,))


@intrinsic(prefer_literal=True)
def params_scratch(typingctx, gid):
    """Room for the rule parameters (int32, NPARAMS)."""
    return _scratch(gid, types.int32, (_game_module(gid, "layout").NPARAMS,))


@intrinsic(prefer_literal=True)
def decisions_scratch(typingctx, gid):
    """Room for the longest list of legal decisions (int64, MAX_LEGAL)."""
    return _scratch(gid, types.int64, (_game_module(gid, "layout").MAX_LEGAL,))


@intrinsic(prefer_literal=True)
def no_log(typingctx, gid):
    """A log of the game's shape with room for nothing (games played without a log)."""
    shape = _game_module(gid, "layout").LOG_SHAPE
    return _scratch(gid, types.int32, (1, *shape[1:]))
