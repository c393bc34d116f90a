"""The expert's table of moves between places (policies/forbidden_island/paths.py) against a
plain breadth-first search over the kernel's own moves (F10: side steps, the Explorer's corners,
the Diver's chains through flooded or sunk places), on islands with tiles flooded and sunk."""

from __future__ import annotations

import numpy as np

from policies.forbidden_island import paths as P
from policies.forbidden_island.expert_reference import FAR
from sim.forbidden_island import kernel as K
from sim.forbidden_island import layout as L


def _searched(s: np.ndarray, graph: int, src: int) -> list[int]:
    """Distances from `src` by a search over the kernel's one-move targets."""
    stand = int(K.standing(s))
    out = [FAR] * L.NPLACES
    if not (stand >> src) & 1:
        return out
    out[src] = 0
    frontier = [src]
    while frontier:
        nxt = []
        for q in frontier:
            steps = int((L.NEIGH8 if graph == P.WALK_CORNERS else L.NEIGH)[q]) & stand
            if graph == P.DIVE:
                steps |= int(K.diver_chain_ends(s, q))
            for r in range(L.NPLACES):
                if (steps >> r) & 1 and out[r] == FAR:
                    out[r] = out[q] + 1
                    nxt.append(r)
        frontier = nxt
    return out


def test_every_row_is_the_search_over_the_kernels_moves_and_follows_the_island():
    rng = np.random.default_rng(14)
    arr = np.zeros(P.PATH_SLOTS, dtype=np.int64)
    s = np.zeros(L.NSTATE, dtype=np.int32)
    cut_off = 0
    for _ in range(60):
        places = rng.permutation(L.NPLACES)
        n_sunk, n_flooded = rng.integers(0, 10), rng.integers(0, 10)
        sunk = sum(1 << int(q) for q in places[:n_sunk])
        flooded = sum(1 << int(q) for q in places[n_sunk:n_sunk + n_flooded])
        s[L.SUNK], s[L.FLOODED] = sunk, flooded
        for graph in (P.WALK, P.WALK_CORNERS, P.DIVE):
            for src in range(L.NPLACES):
                row = P.distance_row(s, arr, 0, graph, src)
                got = [int(arr[row + q]) for q in range(L.NPLACES)]
                assert got == _searched(s, graph, src), (graph, src, sunk, flooded)
                cut_off += got.count(FAR)
    assert cut_off > 1000  # islands where some places cannot be reached were among them


def test_distance_to_a_mask_and_to_a_tile_to_shore_up():
    s = np.zeros(L.NSTATE, dtype=np.int32)
    arr = np.zeros(P.PATH_SLOTS, dtype=np.int64)
    row = P.distance_row(s, arr, 0, P.WALK, 0)
    # the whole island stands: side steps are the grid distance (layout.DIST)
    assert [int(arr[row + q]) for q in range(L.NPLACES)] == [int(d) for d in L.DIST[0]]
    far = int(np.argmax(L.DIST[0]))
    assert P.distance_to(arr, row, (1 << far) | (1 << 1)) == min(L.DIST[0][far], L.DIST[0][1])
    assert P.distance_to(arr, row, 0) == FAR
    # shoring up a tile: from the tile itself or a standing side neighbour
    for at in range(L.NPLACES):
        reach = (1 << at) | int(L.NEIGH[at])
        assert P.shore_distance(arr, row, at) == P.distance_to(arr, row, reach)
