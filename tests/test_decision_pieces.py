"""The fast pieces of the goal-directed policies (policies/island_escape/decision_pieces.py) against plain-Python
references on random boards: each shortcut must give what the slow, obvious computation gives.

The fingerprints (tests/fingerprints.json) pin whole games; these pin the pieces, on boards
that real play reaches rarely (many sea places, swims, far goals, ties between goals).
"""

from __future__ import annotations

import heapq

import numpy as np
import pytest

from policies.island_escape import decision_pieces as X
from sim.island_escape import layout as L

INF = X.INF
MOVES = [(0, -1), (0, 1), (-1, 0), (1, 0)]  # up, down, left, right (R2), as the action ids


def _params(swim: int, actions: int = 4) -> np.ndarray:
    p = np.zeros(L.NPARAMS, dtype=np.int32)
    p[L.P_PAWNS], p[L.P_SWIM], p[L.P_ACTIONS] = 2, swim, actions
    return p


def _neighbours(place: int, tiles: int, swim: int, can_swim: bool):
    """(place, cost) one move (R7) or one swim across exactly one sea place (R8) away."""
    c, r = place % 5, place // 5
    for dc, dr in MOVES:
        c1, r1, c2, r2 = c + dc, r + dr, c + 2 * dc, r + 2 * dr
        if not (0 <= c1 < 5 and 0 <= r1 < 5):
            continue
        one = r1 * 5 + c1
        if tiles >> one & 1:
            yield one, 1
        elif can_swim and 0 <= c2 < 5 and 0 <= r2 < 5 and tiles >> (r2 * 5 + c2) & 1:
            yield r2 * 5 + c2, swim


def _dijkstra(tiles: int, init: list[float], swim: int, can_swim: bool) -> list[float]:
    """min over u of init[u] + path cost from u, by the textbook algorithm."""
    dist = [init[i] if tiles >> i & 1 else INF for i in range(25)]
    heap = [(d, i) for i, d in enumerate(dist) if d < INF]
    heapq.heapify(heap)
    while heap:
        d, u = heapq.heappop(heap)
        if d > dist[u]:
            continue
        for v, cost in _neighbours(u, tiles, swim, can_swim):
            if d + cost < dist[v]:
                dist[v] = d + cost
                heapq.heappush(heap, (d + cost, v))
    return dist


def _board(gen, sea_share: float) -> tuple[int, int]:
    """A random tile mask (the helicopter always a tile) and a place on it."""
    tiles = 1 << L.CENTRE
    for i in range(25):
        if gen.random() > sea_share:
            tiles |= 1 << i
    here = int(gen.choice([i for i in range(25) if tiles >> i & 1]))
    return tiles, here


def _legal(tiles: int, here: int, swim: int, left: int) -> int:
    """Moves to the next-door tiles, swims when `left` actions cover them (R7, R8)."""
    legal = 1 << L.A_END
    c, r = here % 5, here // 5
    for d, (dc, dr) in enumerate(MOVES):
        c1, r1, c2, r2 = c + dc, r + dr, c + 2 * dc, r + 2 * dr
        if not (0 <= c1 < 5 and 0 <= r1 < 5):
            continue
        if tiles >> (r1 * 5 + c1) & 1:
            legal |= 1 << (L.A_MOVE + d)
        elif left >= swim and 0 <= c2 < 5 and 0 <= r2 < 5 and tiles >> (r2 * 5 + c2) & 1:
            legal |= 1 << (L.A_SWIM + d)
    return legal


def _reference_step(tiles, here, init, legal, swim, can_swim) -> int:
    """The rule `step_to_goal` implements, the slow way: the goal costs of every place by
    Dijkstra from the goals; if some goal beats standing here, the first legal move, then swim
    (up, down, left, right) whose cost plus the goal cost where it lands matches mine."""
    dist = _dijkstra(tiles, init, swim, can_swim)
    if not init[here] > dist[here] + 1e-9:
        return L.A_END
    c, r = here % 5, here // 5
    for base, times, cost in ((L.A_MOVE, 1, 1), (L.A_SWIM, 2, swim)):
        for d, (dc, dr) in enumerate(MOVES):
            if legal >> (base + d) & 1:
                t = (r + dr * times) * 5 + c + dc * times
                if cost + dist[t] <= dist[here] + 1e-9 and cost + dist[t] < INF:
                    return base + d
    return L.A_END


@pytest.mark.parametrize("swim", [1, 2, 3, 4])
def test_step_to_goal_follows_a_shortest_path_to_the_best_goal(swim):
    gen = np.random.default_rng(swim)
    p = _params(swim)
    # bonuses alike the expert's, some a whole number of actions apart, so that goals at
    # different distances tie for the best
    worths = [8.38, 6.38, 5.7, 3.7, 17.94, 2.69, 0.0]
    checked = moved = 0
    for _ in range(3000):
        tiles, here = _board(gen, gen.choice([0.1, 0.3, 0.5]))
        init = np.full(X.LANES, INF)  # the places, then INF (`least_goal_worth` reads all the lanes)
        for u in gen.choice(25, size=int(gen.integers(1, 9)), replace=False):
            if tiles >> int(u) & 1:
                init[u] = -float(gen.choice(worths))
        if gen.random() < 0.3:
            init[here] = min(init[here], -float(gen.choice(worths)))
        legal = _legal(tiles, here, swim, int(gen.integers(1, 5)))
        dme = np.empty(X.LANES)
        at_cost = np.empty(X.N_LEVELS, np.int64)
        X.costs_and_nearer(p, np.int64(tiles), np.int64(1) << here, np.int64(0), dme, at_cost)
        got = X.step_to_goal(np.zeros(L.NSTATE, np.int32), p, np.int64(legal), here, np.int64(tiles), init, dme,
                             at_cost)
        assert got == _reference_step(tiles, here, list(init), legal, swim, True), (tiles, here, list(init))
        checked += 1
        moved += got != L.A_END
    assert moved > checked // 3  # most boards have a goal worth walking to


def test_goal_worths_read_in_vector_lanes_equal_a_loop_over_the_places():
    """`least_goal_worth` and `goals_within` (one vector of LANES entries) against the scalar
    `goal_worth` place by place: INF on either side is no goal, ties and bounds are exact."""
    gen = np.random.default_rng(12)
    for _ in range(3000):
        init = np.full(X.LANES, INF)
        dme = np.full(X.LANES, INF)
        for u in gen.choice(25, size=int(gen.integers(0, 12)), replace=False):
            init[u] = -float(gen.choice([8.38, 5.7, 3.7, 0.0, -0.31]))
        for u in range(25):
            if gen.random() < 0.8:
                dme[u] = float(gen.integers(0, 12))
        worths = [X.goal_worth(init, dme, u) for u in range(25)]
        best = X.least_goal_worth(init, dme)
        assert best == min(worths)
        bound = best + 1e-9 if gen.random() < 0.5 else float(gen.choice([-3.0, 0.0, 4.0, INF]))
        assert X.goals_within(init, dme, bound) == sum(1 << u for u in range(25) if worths[u] < INF
                                                         and worths[u] <= bound)


def test_explore_goals_lower_each_place_as_a_loop_would():
    """`explore_goals` (one vector select) against the loop over the places it replaced: each
    place of the mask gets min(its worth, -bonus), `spread` less bonus where another pawn is
    nearer; the other lanes are untouched."""
    gen = np.random.default_rng(16)
    for _ in range(2000):
        init = np.full(X.LANES, INF)
        for u in gen.choice(25, size=int(gen.integers(0, 10)), replace=False):
            init[u] = -float(gen.choice([17.94, 8.38, 5.7, 0.0]))
        places = int(gen.integers(0, 1 << 25))
        nearer = int(gen.integers(0, 1 << 25))
        bonus, spread = float(gen.choice([8.38, 5.0, 2.5])), float(gen.choice([2.68, 1.0, 0.1]))
        want = init.copy()
        for u in range(25):
            if places >> u & 1:
                want[u] = min(want[u], -(bonus - spread if nearer >> u & 1 else bonus))
        X.explore_goals(np.int64(places), init, np.int64(nearer), bonus, spread)
        assert list(init) == list(want)


def test_path_costs_and_the_places_others_reach_first():
    gen = np.random.default_rng(5)
    for _ in range(2000):
        swim = int(gen.integers(1, 5))
        p = _params(swim, actions=int(gen.integers(1, 6)))
        can_swim = swim <= p[L.P_ACTIONS]
        tiles, here = _board(gen, gen.choice([0.1, 0.4]))
        others = 0
        for _ in range(int(gen.integers(1, 4))):
            others |= 1 << int(gen.choice([i for i in range(25) if tiles >> i & 1]))
        mine = np.empty(X.LANES)
        at_cost = np.empty(X.N_LEVELS, np.int64)
        nearer = X.costs_and_nearer(p, np.int64(tiles), np.int64(1) << here, np.int64(others), mine, at_cost)
        want_mine = _dijkstra(tiles, [0.0 if i == here else INF for i in range(25)], swim, can_swim)
        want_other = _dijkstra(tiles, [0.0 if others >> i & 1 else INF for i in range(25)], swim, can_swim)
        assert list(mine[:25]) == want_mine
        assert (mine[25:] == INF).all()  # no place there: never a goal
        assert nearer == sum(1 << i for i in range(25) if want_other[i] < want_mine[i])
        for c in range(int(max(v for v in want_mine if v < INF)) + 1):  # the places at each cost
            assert at_cost[c] == sum(1 << i for i in range(25) if want_mine[i] == c)
        sources = others | 1 << here  # path_costs: from several places
        X.path_costs(p, np.int64(tiles), np.int64(sources), mine)
        from_sources = [0.0 if sources >> i & 1 else INF for i in range(25)]
        assert list(mine[:25]) == _dijkstra(tiles, from_sources, swim, can_swim)


def _fill(tiles: int, start: int, swims: bool) -> int:
    """R16's reach, one place at a time."""
    reach, todo = 0, [i for i in range(25) if start >> i & 1 and tiles >> i & 1]
    while todo:
        u = todo.pop()
        if reach >> u & 1:
            continue
        reach |= 1 << u
        todo.extend(v for v, _ in _neighbours(u, tiles, 2, swims))
    return reach


def test_still_reaches_equals_a_new_fill_without_the_tile():
    gen = np.random.default_rng(6)
    for _ in range(3000):
        tiles, here = _board(gen, gen.choice([0.2, 0.4]))
        swims = bool(gen.random() < 0.5)
        start = (1 << here) | (1 << L.CENTRE if gen.random() < 0.5 else 0)
        t = int(gen.choice([i for i in range(25) if tiles >> i & 1]))
        target = int(gen.integers(0, 1 << 25)) & ~(1 << t)
        before = _fill(tiles, start, swims)
        want = _fill(tiles & ~(1 << t), start, swims) & target == target
        got = X.still_reaches(np.int64(tiles), t, np.int64(start), np.int64(before), np.int64(target), swims)
        assert got == want, (tiles, t, start, target, swims)


def test_a_tile_that_splits_nothing_leaves_every_fill_the_same_but_for_itself():
    """`may_split` False (its tile neighbours joined around it, no swim from it) must mean what
    `still_reaches` relies on: every fill from a place other than `t` reaches the same places
    once `t` is gone, but `t`. And it must say so for many tiles, or it would save no fill."""
    gen = np.random.default_rng(14)
    kept = 0
    for _ in range(1500):
        tiles, _here = _board(gen, gen.choice([0.1, 0.3, 0.5]))
        swims = bool(gen.random() < 0.5)
        t = int(gen.choice([i for i in range(25) if tiles >> i & 1]))
        if X.may_split(np.int64(tiles), t, swims):
            continue
        kept += 1
        for u in range(25):
            if u != t and tiles >> u & 1:
                assert _fill(tiles & ~(1 << t), 1 << u, swims) == _fill(tiles, 1 << u, swims) & ~(1 << t), (tiles, t, u)
    assert kept > 400


def test_the_tiles_whose_loss_cuts_a_target_off_as_a_fill_per_tile_finds_them():
    """`cut_off_without` (a fill per tile, all in one vector) against a plain fill without each
    tile of the candidates: the pawns, the helicopter and targets in any island, split or not."""
    gen = np.random.default_rng(15)
    cuts = 0
    for _ in range(1500):
        tiles, here = _board(gen, gen.choice([0.1, 0.3, 0.5]))
        swims = bool(gen.random() < 0.5)
        on = [i for i in range(25) if tiles >> i & 1]
        start = 0
        for _ in range(int(gen.integers(1, 4))):
            start |= 1 << int(gen.choice(on))
        target = (1 << L.CENTRE) | sum(1 << i for i in on if gen.random() < 0.3)
        cand = sum(1 << i for i in on if gen.random() < 0.5)
        want = sum(1 << t for t in on if cand >> t & 1
                   and _fill(tiles & ~(1 << t), start, swims) & target & ~(1 << t) != target & ~(1 << t))
        got = X.cut_off_without(np.int64(tiles), np.int64(cand), np.int64(start), np.int64(target), swims)
        assert got == want, (tiles, cand, start, target, swims)
        cuts += want != 0
    assert cuts > 300  # boards where a tile does cut a target off are well represented


def test_fills_equal_a_fill_one_place_at_a_time():
    """R16's reach (`reach_mask`) and the fill stopped at a target (`fill_until`), with and without
    swims, against the plain fill: every place reached, and the target held when reachable."""
    gen = np.random.default_rng(9)
    p = _params(2)
    for _ in range(3000):
        tiles, here = _board(gen, gen.choice([0.2, 0.4, 0.6]))
        swims = bool(gen.random() < 0.5)
        start = (1 << here) | (1 << L.CENTRE if gen.random() < 0.3 else 0)
        want = _fill(tiles, start, swims)
        assert X.reach_mask(p, np.int64(tiles), np.int64(start), swims) == want
        target = int(gen.integers(0, 1 << 25)) & int(gen.integers(0, 1 << 25))
        got = X.fill_until(np.int64(tiles), np.int64(start), np.int64(target), swims)
        assert got & ~want == 0  # nothing the fill cannot reach
        assert (got & target == target) == (want & target == target)


def test_board_fills_asked_for_late_equal_the_plain_fills():
    """The board's fills are worked out only when a check first asks (`board_walk`, `board_home`,
    `board_reach`, in any order): each must be R16's plain fill, walking from the helicopter,
    swimming from it, and swimming from the pawns, however the island is split."""
    gen = np.random.default_rng(13)
    s = np.zeros(L.NSTATE, np.int32)
    kpos = np.full(4, -1, np.int64)
    split = 0
    for _ in range(3000):
        p = _params(int(gen.integers(1, 4)), actions=int(gen.integers(1, 5)))
        swims = bool(p[L.P_SWIM] <= p[L.P_ACTIONS])
        tiles, _here = _board(gen, gen.choice([0.2, 0.4, 0.6]))
        on = [i for i in range(25) if tiles >> i & 1]
        p[L.P_PAWNS] = int(gen.integers(1, 5))
        pawns = 0
        for k in range(p[L.P_PAWNS]):
            s[L.PAWN + k] = int(gen.choice(on))
            pawns |= 1 << int(s[L.PAWN + k])
        s[L.TILES] = tiles
        want = {"walk": _fill(tiles, 1 << L.CENTRE, False), "home": _fill(tiles, 1 << L.CENTRE, swims),
                "reach": _fill(tiles, pawns, swims)}
        split += want["home"] != tiles
        ctx = np.empty(X.N_CONTEXT, np.int64)
        X.board_context(s, p, np.int64(tiles), kpos, np.int64(0), ctx)
        assert ctx[X.CX_PAWNS] == pawns
        t = np.int64(tiles)
        for name in gen.permutation(list(want)):
            if name == "walk":
                got = X.board_walk(ctx, t)
            elif name == "home":
                got = X.board_home(ctx, t, swims)
            else:
                got = X.board_reach(ctx, t, swims)
            assert got == want[name], (name, tiles, pawns, swims)
    assert split > 300  # islands in pieces, where the fills differ, are well represented


def test_turns_left_counts_flood_by_flood():
    """R14: the turns whose actions can still be played, counted one flood at a time."""
    gen = np.random.default_rng(7)
    s = np.zeros(L.NSTATE, np.int32)
    p = _params(2)
    for _ in range(3000):
        glen = int(gen.integers(1, L.MAX_GAUGE + 1))
        ranks = gen.integers(1, 6, glen)
        p[L.P_GLEN] = glen
        p[L.P_GRANK:L.P_GRANK + glen] = ranks
        pos, g = int(gen.integers(0, 5)), int(gen.integers(0, glen))
        s[L.PILE_POS], s[L.GAUGE_TOP] = pos, g
        turns, done = 1, False
        while not done:
            for _ in range(ranks[g]):
                pos += 1
                if pos == 5:
                    if g == glen - 1:
                        done = True
                        break
                    g, pos = g + 1, 0
            if not done:
                turns += 1
        assert X.turns_left(s, p) == turns


def test_popcount_and_lowest_bit():
    gen = np.random.default_rng(8)
    for m in [1, 2, 3, 1 << 24, (1 << 25) - 1, *map(int, gen.integers(1, 1 << 31, 200))]:
        assert L.popcount(m) == bin(m).count("1")
        assert L.popcount(np.int32(m & 0x7FFFFFFF)) == bin(m & 0x7FFFFFFF).count("1")
        assert X.lowest_bit(np.int64(m)) == (m & -m).bit_length() - 1


def test_scan_board_reads_the_face_up_places_as_a_loop_over_them_would():
    """The board's masks (`scan_board`, a vector compare of 32 state entries at a time) against
    a plain loop over the 25 places: the entries after the places (tile states after the cards,
    pawns and hands after the states) must not leak in, and a face-down card never shows (R19)."""
    gen = np.random.default_rng(10)
    kpos = np.empty(4, np.int64)
    sc = np.empty(X.N_SCAN, np.int64)
    for _ in range(3000):
        s = gen.integers(0, 31, L.NSTATE).astype(np.int32)  # junk everywhere else
        states = gen.integers(0, 4, 25)
        cards = gen.permutation(25)
        for place in range(25):
            s[L.TSTATE + place] = states[place]
            s[L.CARD + place] = -1 if states[place] == L.SEA else cards[place]
        s[L.TILES] = sum(1 << i for i in range(25) if states[i] != L.SEA)
        X.scan_board(s, kpos, sc)
        face_up = [i for i in range(25) if states[i] in (L.DRY, L.FLOODED)]
        assert sc[X.SC_DOWN] == sum(1 << i for i in range(25) if states[i] == L.DOWN)
        assert sc[X.SC_FLOODED] == sum(1 << i for i in range(25) if states[i] == L.FLOODED)
        for suit in range(4):
            assert kpos[suit] == next((i for i in face_up if cards[i] == suit), -1)
            assert sc[X.SC_LAND + suit] == sum(1 << i for i in face_up if 4 <= cards[i] < 24
                                               and (cards[i] - 4) // 5 == suit)


def test_tile_degree_counts_the_tiles_next_door():
    gen = np.random.default_rng(11)
    for _ in range(2000):
        tiles, place = _board(gen, gen.choice([0.2, 0.5]))
        c, r = place % 5, place // 5
        want = sum(1 for dc, dr in MOVES
                   if 0 <= c + dc < 5 and 0 <= r + dr < 5 and tiles >> ((r + dr) * 5 + c + dc) & 1)
        assert X.tile_degree(np.int64(tiles), place) == want
