"""`expert` for Forbidden Island, written as readable Python over the reference engine.

A fair player: `choose(view, legal)` sees only `ForbiddenIslandEngine.public_view()` (all but the order of the
two draw piles) and the legal actions, and returns one of them. One chooser plays for the whole
table, in and out of turn. It is deterministic, so it can serve as the pattern for a numba port.

How it plays (rulings cited as F1-F14, ../shared/rules/FI-RULINGS.md):

- Odds of the next floods. The flood pile is public as layers of unknown order (F6: after
  Waters Rise! the old discard lies on top), so the chance that a tile's card comes up within
  the next n flood cards is exact; a flooded tile whose card is in the discard is at risk only
  if a Waters Rise! comes first, whose chance follows from the cards left in the treasure pile.
- What a tile is worth: Fools' Landing and the last standing pickup tile of an uncaptured
  treasure lose the game when they sink (F14), as does the tile of a pawn with nowhere to swim
  (F11); a pickup tile whose twin still stands comes next; any other tile a little.
- Special cards just in time (F9): before each flood card, a Sandbags (or a Helicopter Lift for
  a stranded pawn) saves a tile whose loss would end the game if its card may still come up in
  this flood phase. And not hoarded: every card in a hand is one fewer in the treasure deck's
  cycle, so the Waters Rise! cards come round sooner (F6, F7); a Sandbags goes on a badly
  threatened tile on the next turn, and a spare Lift flies the current player where it gains
  most. Helicopter Lift: the lift-off at once (F13); everyone to Fools' Landing at
  the end while another Lift is kept for the lift-off; on its own turn, a pawn holding four cards
  of a treasure to its pickup tile, or one whose cards complete a collector's four to that
  collector, when walking cannot do it this turn, even with the table's only Lift (LIFTS_CAPTURE,
  LIFTS_TRADE: a turn saved outweighs the lift-off's card, and more Lifts come round); a Lift
  that would be discarded at the hand limit flies the pawn that gains most instead. A player
  is flown onto a losing tile it cannot walk to only when no Sandbags in hand can save it.
- The lift-off (F13): once three treasures are held, each pawn is drawn towards Fools' Landing
  (NEAR_LANDING), so that none is cut off from it when the last one is captured.
- Cards (F8, F12): each uncaptured treasure has a collector, the player holding most of it;
  others give it their cards (the Messenger from anywhere) and walk or are pushed (Navigator)
  to meet them. A discard drops a card of a captured treasure first, then the spare or least
  hopeful treasure card; a Sandbags is played instead of throwing away a useful card.
- Actions (F5, F10): each action is scored: capture first; then gives, shore-ups (the
  Engineer's double counts both tiles) weighted by worth times the chance of sinking soon, and
  moves, flights and pushes scored by how many actions they save towards the pawn's goals
  (Fools' Landing once all four treasures are held; the pickup tile when holding four cards; a
  trade partner; a threatened tile out of reach). Nothing worth doing ends the actions early.
- Swims (F11): to the standing tile that is dry, least likely to sink next and nearest the
  swimmer's goals.
"""

from __future__ import annotations

from collections import Counter

from sim.forbidden_island.convert import encode
from sim.forbidden_island.engine import DRY, FLOODED, SUNK, Action, PublicView
from sim.forbidden_island.rules import (
    FLOOD_DRAWS,
    FOOLS_LANDING,
    LIFT,
    PICKUP_TILES,
    PLACES,
    SANDBAGS,
    TILE_CODES,
    TREASURES,
    WATERS_RISE,
    neighbours,
    pickup_treasure,
)

Place = tuple[int, int]
FAR = 99  # an action distance that stands for "cut off"

# Worth, in points of a thousandth of a game: a tile whose sinking loses the game is worth the
# game; the scores of all actions share this scale. The values were set by a coordinate search
# over the port's weights (2,000 kernel games at each of 2, 3 and 4 players, Novice, seed 99,
# common to every trial): five-card hands are the scarce resource, so a Lift or a Sandbags in
# hand is worth little beside a card of the treasure its collector gathers. A second search at
# 3 and 4 players (3,000 games a cell, seed 99), once special cards were spent freely, doubled
# GIVE and halved SOON_WEIGHT: with more hands, a give outranks a shore-up the next player could
# still make. A third (3,000 games at 2p, 3p, 4p Novice and 4p Normal, seed 99) doubled GIVE again,
# OPEN_SIDE and LIFT_SPARE; kept once Lifts were spent for captures, trades and at the hand limit
# (5,000 paired games a cell, seed 1: 3p Novice +0.8, the others within noise). Then CONNECTED
# 15 (new) and FUTURE_RISK doubled: 20,000 paired games a cell, seed 7, 2p Novice 46.2 -> 47.7%,
# 3p Novice 37.7 -> 38.9%, 4p Novice 18.6 -> 18.5%.
LOSING_TILE = 1000.0  # its sinking ends the game (F14)
PICKUP_WITH_TWIN = 150.0  # a pickup tile of an uncaptured treasure whose twin still stands
PLAIN_TILE = 30.0
# Weights of one action saved on the way to a goal.
TO_LANDING = 200.0  # all four treasures held: everyone to Fools' Landing
TO_CAPTURE = 100.0  # four cards in hand: to a pickup tile
TO_COMPLETING_TRADE = 80.0  # a meeting after which someone holds four cards of a treasure
TO_TRADE = 5.0  # per card to hand over
TO_DEFAULT = 2.0  # idle: towards the pickup tile of the treasure the pawn collects
CAPTURE = 5000.0
GIVE = 400.0  # a card handed to its collector, plus GIVE_PER_CARD for each it already holds
GIVE_PER_CARD = 15.0
FUTURE_RISK = 0.3  # chance-like weight of a flooded tile's later danger (a rise, then its card on top)
SOON_WEIGHT = 0.2  # weight of sinking in the next player's flood phase (they may still shore it)
PULL = 0.05  # weak pull, per action of distance, towards threatened tiles out of reach this turn
LIFT_LAST = 15.0  # a Helicopter Lift's worth when it is the table's only one (the lift-off needs it)
LIFT_SPARE = 20.0  # ... when the table holds two
LIFT_MORE = 10.0  # ... when it holds three or more
CARD_BASE = 10.0  # a treasure card's worth: this, plus CARD_PER_HELD per card its collector holds,
CARD_PER_HELD = 10.0
CARD_COLLECTOR = 1.5  # ... plus this in the collector's own hand,
CARD_GONE = 3.0  # ... minus this per card of it already in the treasure discard
SANDBAGS_KEEP = 3.125  # a Sandbags kept in hand (it is played rather than discarded)
DRY_BONUS = 20.0  # swims and lifts: a dry tile,
RISKY_PENALTY = 200.0  # ... minus this times its chance of sinking soon,
OPEN_SIDE = 10.0  # ... plus this per standing side neighbour
BAG_INSTEAD = 8.0  # a discard this useful or more: play a Sandbags instead
# Cards held are cards the treasure deck cycles without: with fewer cards in its pile each pass
# brings the three Waters Rise! sooner (F6, F7), which is how four full hands drown the island.
# So special cards are spent, not hoarded (set on 5,000 paired games a cell at 3 and 4 players):
BAGS_FREELY = 100.0  # on its own turn, Sandbags the most threatened tile once its worth reaches this
LIFT_FREELY = 150.0  # with a Lift to spare, fly the player where its place score gains this much
LIFTS_CAPTURE = 1  # Lifts the table must hold to fly a player holding four cards to a pickup tile
LIFTS_TRADE = 1  # ... to fly a player to the collector of a treasure it holds cards of,
TRADE_SHORT = 0  # ... when the give leaves the collector this many cards short of four at most
CAPTURE_SLACK = 0  # fly to capture when walking would leave fewer than this many actions besides
LIFTS_FREELY = 2  # Lifts the table must hold to fly the player for LIFT_FREELY
CONNECTED = 15.0  # a place's worth per way off it (side neighbours standing), counting two at most
# (Measured and left as they are, 5,000 paired games a cell: TRADE_SHORT 1 wins more at 4 players
# but fewer at 2 and 3; CAPTURE_SLACK 1 or 2 and LIFTS_FREELY 1 lose games.)
LIFT_INSTEAD = 1.0  # a Lift about to be discarded flies a pawn first if its place score gains this
# Of the Novice games lost after the fourth capture, most were lost waiting for a Lift (at 2
# players five in six had none in hand then; at 3 some had just flown a player onto Fools'
# Landing to shore it while a Sandbags in hand would have done) or with a pawn cut off from the
# landing. Hence
# NEAR_LANDING (5 beat 10, 15 and 25; 5,000 paired games a cell, seeds 1 and 7) and the Sandbags
# first in _lift_to_save. Keeping the last Lift back from the last treasure's capture or trade
# lost games, as keeping Lifts did before.
NEAR_LANDING = 5.0  # three treasures held: per action from Fools' Landing (the walk to the lift-off)


class Board:
    """The public view, rearranged for planning: places, tile states, hands and flood odds."""

    def __init__(self, view: PublicView):
        self.view = view
        self.rules = view.rules
        self.players = len(view.roles)
        self.roles = view.roles
        self.tile_at: dict[Place, str] = dict(zip(PLACES, view.layout, strict=True))
        self.place_of: dict[str, Place] = {t: p for p, t in self.tile_at.items()}
        self.state: dict[str, str] = dict(zip(TILE_CODES, view.state, strict=True))
        self.landing = self.place_of[FOOLS_LANDING]
        self.uncaptured = [t for t in TREASURES if t not in view.captured]
        self.all_captured = not self.uncaptured
        self.counts = [Counter(h) for h in view.hands]
        self.team = Counter(c for h in view.hands for c in h)
        self.lifts = self.team[LIFT]
        self._dist_cache: dict[tuple, dict[Place, int]] = {}
        self._flood_odds()
        self.collector = {t: self._collector(t) for t in self.uncaptured}
        self.value = {t: self._tile_value(t) for t in TILE_CODES if self.state[t] != SUNK}

    # -- places --

    def standing(self, place: Place) -> bool:
        return place in self.tile_at and self.state[self.tile_at[place]] != SUNK

    def open_sides(self, place: Place) -> int:
        """Standing side neighbours: more means more ways to walk or swim on later."""
        return sum(self.standing(p) for p in neighbours(place))

    def state_at(self, place: Place) -> str:
        return self.state[self.tile_at[place]]

    def steps(self, role: str, place: Place) -> list[Place]:
        """Where one ordinary move takes a pawn of `role` (F10; no flight): side neighbours
        (corners too for the Explorer), and for the Diver any standing tile at the end of a
        chain of flooded or sunk places."""
        out = [p for p in neighbours(place, diagonal=role == "explorer") if self.standing(p)]
        if role == "diver":
            seen, frontier = {place}, [place]
            while frontier:
                nxt = []
                for here in frontier:
                    for p in neighbours(here):
                        if p in seen:
                            continue
                        seen.add(p)
                        if self.standing(p) and p not in out:
                            out.append(p)
                        if self.state_at(p) != DRY:
                            nxt.append(p)
                frontier = nxt
            out = [p for p in out if p != place]
        return out

    def distances(self, role: str, goals: tuple[Place, ...]) -> dict[Place, int]:
        """Actions a pawn of `role` needs from each standing place to reach any of `goals`.
        Moves are symmetric (a Diver's chain runs both ways), so one search from the goals
        serves every start. The Pilot flies to anything in one action (once a turn)."""
        key = (role, goals)
        if key not in self._dist_cache:
            dist = {g: 0 for g in goals if self.standing(g)}
            frontier = list(dist)
            while frontier:
                nxt = []
                for here in frontier:
                    for p in self.steps(role, here):
                        if p not in dist:
                            dist[p] = dist[here] + 1
                            nxt.append(p)
                frontier = nxt
            if role == "pilot" and dist:
                dist = {p: min(dist.get(p, FAR), 1) if p not in goals else 0
                        for p in PLACES if self.standing(p)}
            self._dist_cache[key] = dist
        return self._dist_cache[key]

    def distance(self, role: str, start: Place, goals: tuple[Place, ...]) -> int:
        return self.distances(role, goals).get(start, FAR)

    def escapes(self, seat: int, place: Place) -> list[Place]:
        """Where `seat` could swim if the tile at `place` sank now (F11)."""
        role = self.roles[seat]
        if role in ("pilot", "diver"):
            return [p for p in PLACES if p != place and self.standing(p)]
        return [p for p in neighbours(place, diagonal=role == "explorer") if self.standing(p)]

    def shore_reach(self, role: str, tile: str) -> tuple[Place, ...]:
        """The places from which a pawn of `role` can shore up `tile` (F5, F10 Explorer)."""
        at = self.place_of[tile]
        return tuple(p for p in [at] + neighbours(at, diagonal=role == "explorer") if self.standing(p))

    # -- flood odds (F4, F6) --

    def _flood_odds(self) -> None:
        v = self.view
        self.layer_of: dict[str, tuple[int, int]] = {}  # tile -> (cards above its layer, layer size)
        above = 0
        for layer in v.flood_layers:
            for tile in layer:
                self.layer_of[tile] = (above, len(layer))
            above += len(layer)
        self.pile_size = above
        self.discard = set(v.flood_discard)
        # Treasure draws still to come this turn, and the chance one of them is a Waters Rise!
        if v.phase == "actions":
            draws = self.rules.treasure_draws
        elif v.phase == "treasure_draw":
            draws = v.draws_left
        else:
            draws = 0
        pile = v.treasure_pile_cards()
        rises, n = pile.count(WATERS_RISE), len(pile)
        miss = 1.0
        for k in range(min(draws, n)):
            miss *= max(n - k - rises, 0) / (n - k)
        self.rise_chance = 1.0 - miss
        if v.phase == "flood_draw":
            self.floods_now = v.floods_left
            self.rise_chance = 0.0
        else:
            self.floods_now = FLOOD_DRAWS.get(v.mark, 0)
        self.floods_after_rise = FLOOD_DRAWS.get(v.mark + 1, 0)
        self.floods_next = FLOOD_DRAWS.get(v.mark, 0)  # the next player's flood phase

    def drawn_within(self, tile: str, n: int, extra_above: int = 0) -> float:
        """Chance that `tile`'s card is among the next `n` flood cards (its layer's order is
        unknown, so every position in the layer is equally likely)."""
        if n <= 0:
            return 0.0
        if tile not in self.layer_of:
            # F7: once the pile runs out, the discard is shuffled into a new pile at once
            if tile in self.discard and n > self.pile_size:
                return min((n - self.pile_size) / len(self.discard), 1.0)
            return 0.0
        above, size = self.layer_of[tile]
        above += extra_above
        return min(max((n - above) / size, 0.0), 1.0)

    def risk_now(self, tile: str) -> float:
        """Chance `tile`'s card comes up in the flood phase of this turn."""
        if self.state.get(tile) == SUNK:
            return 0.0
        stay = self.drawn_within(tile, self.floods_now)
        if self.rise_chance == 0.0:
            return stay
        n_discard = len(self.discard)
        if tile in self.discard:
            after = min(self.floods_after_rise / n_discard, 1.0)
        else:
            after = self.drawn_within(tile, self.floods_after_rise, extra_above=n_discard)
        return (1 - self.rise_chance) * stay + self.rise_chance * after

    def risk_soon(self, tile: str) -> float:
        """Chance it comes up in this flood phase or the next player's (no rise counted there)."""
        now = self.risk_now(tile)
        later = self.drawn_within(tile, self.floods_now + self.floods_next)
        return max(now, later)

    def urgency(self, tile: str) -> float:
        """How pressing it is to shore `tile` now: sinking this turn counts fully, the next
        player's flood phase counts less (they may still shore it), a later rise a little."""
        now = self.risk_now(tile)
        return now + SOON_WEIGHT * max(self.risk_soon(tile) - now, 0.0) + FUTURE_RISK * (tile in self.discard)

    # -- worth --

    def _tile_value(self, tile: str) -> float:
        if tile == FOOLS_LANDING:
            return LOSING_TILE
        value = PLAIN_TILE
        treasure = pickup_treasure(tile)
        if treasure in self.uncaptured:
            twins = [t for t in PICKUP_TILES[treasure] if t != tile]
            value = LOSING_TILE if all(self.state[t] == SUNK for t in twins) else PICKUP_WITH_TWIN
        place = self.place_of[tile]
        for seat, at in enumerate(self.view.pawns):
            if at == place and not self.escapes(seat, place):
                value = max(value, LOSING_TILE)  # F11: the pawn would drown
        return value

    def _collector(self, treasure: str) -> int:
        """The player who gathers `treasure`: most cards of it, then the Messenger last (it
        gives best from anywhere), then seat order (stable while cards move)."""
        return min(range(self.players),
                   key=lambda s: (-self.counts[s][treasure], self.roles[s] == "messenger", s))

    def card_value(self, seat: int, card: str) -> float:
        """What keeping `card` in `seat`'s hand is worth to the table, for discards (F8): a
        treasure card is worth more the closer its collector is to four, more in the
        collector's own hand, little beyond the four needed, nothing once captured."""
        if card == LIFT:  # one is needed for the lift-off (F13); more are for emergencies
            return LIFT_LAST if self.lifts <= 1 else LIFT_SPARE if self.lifts == 2 else LIFT_MORE
        if card == SANDBAGS:
            return SANDBAGS_KEEP
        if card not in self.uncaptured:
            return 0.0
        collector = self.collector[card]
        best = self.counts[collector][card]
        if self.team[card] > self.rules.capture_cards and seat != collector:
            return 2.0 + self.counts[seat][card]  # a spare beyond the four needed
        value = CARD_BASE + CARD_PER_HELD * best + (CARD_COLLECTOR if seat == collector else 0.0)
        value -= CARD_GONE * self.view.treasure_discard.count(card)  # fewer left to come this pass
        return value

    # -- goals of a pawn --

    def goals(self, seat: int) -> list[tuple[float, tuple[Place, ...]]]:
        """(weight per action saved, places) the pawn of `seat` wants to reach."""
        v = self.view
        out: list[tuple[float, tuple[Place, ...]]] = []
        if self.all_captured:
            return [(TO_LANDING, (self.landing,))]
        hand = self.counts[seat]
        for t in self.uncaptured:
            pickups = tuple(self.place_of[x] for x in PICKUP_TILES[t] if self.state[x] != SUNK)
            if not pickups:
                continue
            if hand[t] >= self.rules.capture_cards:
                out.append((TO_CAPTURE, pickups))
                continue
            collector = self.collector[t]
            if collector == seat:
                givers = [s for s in range(self.players) if s != seat and self.counts[s][t]
                          and self.roles[s] != "messenger"]
                for s in givers:
                    done = hand[t] + self.counts[s][t] >= self.rules.capture_cards
                    weight = TO_COMPLETING_TRADE if done else TO_TRADE * self.counts[s][t]
                    out.append((weight, (v.pawns[s],)))
                if hand[t] >= 2:
                    out.append((TO_DEFAULT, pickups))
            elif hand[t] and self.roles[seat] != "messenger":
                done = hand[t] + self.counts[collector][t] >= self.rules.capture_cards
                weight = TO_COMPLETING_TRADE if done else TO_TRADE * hand[t]
                out.append((weight, (v.pawns[collector],)))
        if len(self.uncaptured) == 1:
            # the lift-off comes next: stay within a walk of Fools' Landing (F13)
            out.append((NEAR_LANDING, (self.landing,)))
        return out

    def threatened(self) -> list[tuple[float, str]]:
        """Flooded tiles with their worth times urgency, most pressing first."""
        out = [(self.value[t] * self.urgency(t), t) for t in TILE_CODES if self.state[t] == FLOODED]
        return sorted(out, key=lambda wt: (-wt[0], TILE_CODES.index(wt[1])))

    def place_score(self, seat: int, place: Place, actions: int = 0, shored: tuple[str, ...] = ()) -> float:
        """How good it is for `seat` to stand on `place` with `actions` of its own still to
        spend this turn: minus the weighted actions to its goals, plus the worth of the best
        threatened tile it could still shore up this turn (and a weak pull towards the rest)."""
        role = self.roles[seat]
        score = 0.0
        for weight, goal in self.goals(seat):
            score -= weight * min(self.distance(role, place, goal), 6)
        best_now = 0.0
        for worth, tile in self.threatened()[:5]:
            if tile in shored:
                continue
            reach = self.shore_reach(role, tile)
            if not reach:
                continue
            d = self.distance(role, place, reach)
            if d <= actions - 1:
                best_now = max(best_now, worth)
            score -= PULL * worth * min(d, 4)
        score += best_now
        if role not in ("pilot", "diver"):
            # a pawn with one way off, or none, is stuck once its neighbours sink
            score += CONNECTED * min(len(self.escapes(seat, place)), 2)
        tile = self.tile_at[place]
        if role not in ("pilot", "diver") and not self.escapes(seat, place) and self.state[tile] == FLOODED \
                and not (self.all_captured and tile == FOOLS_LANDING):
            # standing on a tile about to sink with nowhere to swim would drown (F11), also on
            # the way to the lift-off (Fools' Landing itself sinking loses anyway)
            score -= LOSING_TILE * self.risk_soon(tile)
        return score


# --- the choice -----------------------------------------------------------------------------------


def choose(view: PublicView, legal: list[Action]) -> Action:
    """The expert's action at this decision point: one of `legal`."""
    if len(legal) == 1:
        return legal[0]
    board = Board(view)
    legal_set = set(legal)
    special = _special_card(board, legal, legal_set)
    if special is not None:
        return special
    phase = view.phase
    if phase == "swim":
        return _swim(board, legal)
    if phase == "discard":
        return _discard(board, legal)
    if phase == "actions":
        return _turn_action(board, legal)
    return next(a for a in legal if a.kind in ("draw", "flood"))


def _special_card(board: Board, legal: list[Action], legal_set: set[Action]) -> Action | None:
    """F9, F13: a Helicopter Lift or Sandbags to play now, by anyone, or None."""
    v = board.view
    for a in legal:
        if a.kind == "liftoff":
            return a  # F13: the win
    if v.phase == "flood_draw":
        rescue = _rescue(board, legal_set)
        if rescue is not None:
            return rescue
    if v.phase in ("actions", "treasure_draw", "flood_draw") and board.lifts:
        gather = _lift_to_landing(board, legal_set)
        if gather is not None:
            return gather
        if v.phase == "actions":
            lift = (_lift_to_save(board, legal_set) or _lift_to_capture(board, legal_set)
                    or _lift_to_trade(board, legal_set) or _lift_freely(board, legal_set))
            if lift is not None:
                return lift
    if v.phase == "actions" and board.team[SANDBAGS]:
        return _bags_freely(board, legal_set)
    return None


def _bags_freely(board: Board, legal_set: set[Action]) -> Action | None:
    """On the actions of a turn, the most threatened flooded tile, once its worth times urgency
    reaches BAGS_FREELY, gets a Sandbags at once (an action saved, a card back into the deck),
    from the fullest hand holding one (it is the likeliest to discard)."""
    threats = board.threatened()
    if not threats or threats[0][0] < BAGS_FREELY:
        return None
    place = board.place_of[threats[0][1]]
    holders = _holders(board, SANDBAGS)
    seat = max(holders, key=lambda s: (len(board.view.hands[s]), -s))
    a = Action("sandbags", by=seat, place=place)
    return a if a in legal_set else None


def _lift_freely(board: Board, legal_set: set[Action]) -> Action | None:
    """On its own turn, with a Lift to spare (one stays for the lift-off), a player other than
    the Pilot is flown to the place that raises its place score most, if by LIFT_FREELY or more."""
    v = board.view
    me = v.current
    if board.lifts < LIFTS_FREELY or v.actions_left < 1 or board.roles[me] == "pilot":
        return None
    here, k = v.pawns[me], v.actions_left
    before = board.place_score(me, here, k)
    best, best_gain = None, 0.0
    for p in PLACES:
        if not board.standing(p) or p == here:
            continue
        gain = board.place_score(me, p, k) - before
        if gain > best_gain:
            best, best_gain = p, gain
    if best is None or best_gain < LIFT_FREELY:
        return None
    for seat in _holders(board, LIFT):
        a = Action("lift", by=seat, pawns=(me,), place=best)
        if a in legal_set:
            return a
    return None


def _lift_to_save(board: Board, legal_set: set[Action]) -> Action | None:
    """On the actions of a turn, a tile whose sinking loses the game may sink this turn and
    the player whose turn it is cannot walk within reach of it in time: lift that player onto
    it (the shore-up follows as an action). Not for a tile a Sandbags in hand can save (one
    Sandbags a tile, most pressing first): a Lift is the scarcer card (three in the deck, and
    the lift-off needs one, F13)."""
    v = board.view
    me = v.current
    if v.actions_left < 1 or board.roles[me] == "pilot" and not v.flew:
        return None
    bags = board.team[SANDBAGS]
    for _, tile in board.threatened():
        if board.value[tile] < LOSING_TILE or board.risk_soon(tile) <= 0.0:
            continue
        if bags:
            bags -= 1  # a Sandbags in hand saves this one just in time, out of turn (_rescue)
            continue
        reach = board.shore_reach(board.roles[me], tile)
        if board.distance(board.roles[me], v.pawns[me], reach) <= v.actions_left - 1:
            return None  # it can be shored by walking; the action scores see to it
        for seat in _holders(board, LIFT):
            a = Action("lift", by=seat, pawns=(me,), place=board.place_of[tile])
            if a in legal_set:
                return a
    return None


def _holders(board: Board, card: str) -> list[int]:
    return [s for s in range(board.players) if board.counts[s][card]]


def _rescue(board: Board, legal_set: set[Action]) -> Action | None:
    """Just before a flood card: save a tile whose sinking now would lose the game."""
    for worth, tile in board.threatened():
        if worth <= 0 or board.value[tile] < LOSING_TILE or board.risk_now(tile) <= 0:
            continue
        place = board.place_of[tile]
        for seat in _holders(board, SANDBAGS):
            a = Action("sandbags", by=seat, place=place)
            if a in legal_set:
                return a
        # a stranded pawn (its tile is the only loss) is flown off by a Helicopter Lift
        stranded = tuple(s for s, at in enumerate(board.view.pawns) if at == place and not board.escapes(s, place))
        if stranded and tile != FOOLS_LANDING and pickup_treasure(tile) not in board.uncaptured:
            to = _safe_spot(board, stranded[0])
            for seat in _holders(board, LIFT):
                a = Action("lift", by=seat, pawns=stranded, place=to)
                if a in legal_set:
                    return a
    return None


def _safe_spot(board: Board, seat: int) -> Place:
    """A standing tile good to be put on: close to the pawn's goals, dry, unlikely to sink."""
    best, best_score = board.landing, None
    for p in PLACES:
        if not board.standing(p) or p == board.view.pawns[seat]:
            continue
        tile = board.tile_at[p]
        score = board.place_score(seat, p) + DRY_BONUS * (board.state[tile] == DRY) \
            - RISKY_PENALTY * board.risk_soon(tile) + OPEN_SIDE * board.open_sides(p)
        if best_score is None or score > best_score:
            best, best_score = p, score
    return best


def _lift_to_landing(board: Board, legal_set: set[Action]) -> Action | None:
    """All four treasures held: fly everyone standing together (not yet there) to Fools'
    Landing, as long as another Lift stays in hand for the lift-off (F13)."""
    if not board.all_captured or board.lifts < 2:
        return None
    v = board.view
    groups: dict[Place, list[int]] = {}
    for seat, at in enumerate(v.pawns):
        if at != board.landing:
            groups.setdefault(at, []).append(seat)
    if not groups:
        return None
    group = max(groups.values(), key=len)
    for seat in _holders(board, LIFT):
        a = Action("lift", by=seat, pawns=tuple(group), place=board.landing)
        if a in legal_set:
            return a
    return None


def _lift_to_capture(board: Board, legal_set: set[Action]) -> Action | None:
    """On its own turn, a pawn holding four cards of a treasure that cannot walk to a pickup
    tile and capture this turn is flown there while the table holds LIFTS_CAPTURE Lifts."""
    v = board.view
    me = v.current
    if board.lifts < LIFTS_CAPTURE or board.roles[me] == "pilot":
        return None
    for t in board.uncaptured:
        if board.counts[me][t] < board.rules.capture_cards:
            continue
        pickups = tuple(board.place_of[x] for x in PICKUP_TILES[t] if board.state[x] != SUNK)
        if not pickups:
            continue
        d = board.distance(board.roles[me], v.pawns[me], pickups)
        if d == 0 or d < v.actions_left - CAPTURE_SLACK:
            continue
        for seat in _holders(board, LIFT):
            for to in pickups:
                a = Action("lift", by=seat, pawns=(me,), place=to)
                if a in legal_set:
                    return a
    return None


def _lift_to_trade(board: Board, legal_set: set[Action]) -> Action | None:
    """On its own turn, a player holding the cards that complete a collector's four (or leave
    it TRADE_SHORT short), too far to walk there and give this turn, is flown to the collector
    while the table holds LIFTS_TRADE Lifts."""
    v = board.view
    me = v.current
    role = board.roles[me]
    if board.lifts < LIFTS_TRADE or role in ("messenger", "pilot") or v.actions_left < 2:
        return None
    for t in board.uncaptured:
        to = board.collector[t]
        held = board.counts[me][t]
        if to == me or not held or held + board.counts[to][t] < board.rules.capture_cards - TRADE_SHORT:
            continue
        there = v.pawns[to]
        if there == v.pawns[me] or board.distance(role, v.pawns[me], (there,)) <= v.actions_left - 1:
            continue
        for seat in _holders(board, LIFT):
            a = Action("lift", by=seat, pawns=(me,), place=there)
            if a in legal_set:
                return a
    return None


def _swim(board: Board, legal: list[Action]) -> Action:
    """F11: the escape with the best place score, dry and unlikely to sink first. When several
    pawns must swim, any may go first; the lowest seat does."""
    seat = board.view.swimmers[0]

    def score(a: Action) -> float:
        tile = board.tile_at[a.place]
        return (board.place_score(a.by, a.place) + DRY_BONUS * (board.state[tile] == DRY)
                - RISKY_PENALTY * board.risk_soon(tile) + OPEN_SIDE * board.open_sides(a.place))
    return _best([(score(a), a) for a in legal if a.by == seat])


def _discard(board: Board, legal: list[Action]) -> Action:
    """F8: drop the least useful card, or play a Sandbags instead of losing a useful one."""
    discards = [a for a in legal if a.kind == "discard"]
    seat = discards[0].by
    worst = min(discards, key=lambda a: (board.card_value(seat, a.card), encode(a)))
    if board.card_value(seat, worst.card) >= BAG_INSTEAD or worst.card == SANDBAGS:
        bags = [a for a in legal if a.kind == "sandbags"]
        if bags:
            return _best([(board.value[board.tile_at[a.place]] * (board.urgency(board.tile_at[a.place]) + 0.01), a)
                          for a in bags])
    if worst.card == LIFT:
        lift = _lift_instead(board, legal, seat)
        if lift is not None:
            return lift
    return worst


def _lift_instead(board: Board, legal: list[Action], seat: int) -> Action | None:
    """A Lift about to be discarded is played first (F8, F9): it flies the one pawn whose place
    score gains most, if by LIFT_INSTEAD or more."""
    v = board.view
    best, best_gain = None, 0.0
    for o, at in enumerate(v.pawns):
        stays = board.place_score(o, at)
        for q in PLACES:
            if not board.standing(q) or q == at:
                continue
            gain = board.place_score(o, q) - stays
            if gain > best_gain:
                best, best_gain = (o, q), gain
    if best is None or best_gain < LIFT_INSTEAD:
        return None
    a = Action("lift", by=seat, pawns=(best[0],), place=best[1])
    return a if a in legal else None


def _turn_action(board: Board, legal: list[Action]) -> Action:
    """F5, F10, F12: the best-scored action of the player whose turn it is; `draw` ends the
    actions early and scores what the unspent actions could still have done."""
    scored = [(_score(board, a), a) for a in legal
              if a.kind in ("move", "fly", "navigate", "shore", "give", "capture", "draw")]
    return _best(scored)


def _best(scored: list[tuple[float, Action]]) -> Action:
    """The highest score; among equal scores the lowest kernel action code, so that the choice
    never depends on the order in which the legal actions are listed."""
    return min(scored, key=lambda sa: (-sa[0], encode(sa[1])))[1]


def _score(board: Board, a: Action) -> float:
    """What action `a` gains: its own worth plus the change in the player's place score (a
    potential over its goals and the tiles it can still shore up with the actions left)."""
    v = board.view
    me = v.current
    here = v.pawns[me]
    k = v.actions_left
    before = board.place_score(me, here, k)
    kind = a.kind
    if kind == "capture":
        return CAPTURE
    if kind == "draw":
        return board.place_score(me, here, 0) - before
    if kind in ("move", "fly"):
        return board.place_score(me, a.place, k - 1) - before - (0.01 if kind == "fly" else 0.0)
    if kind == "shore":
        tiles = tuple(board.tile_at[p] for p in (a.place, a.place2) if p is not None)
        worth = sum(board.value[t] * board.urgency(t) + 0.5 for t in tiles)
        return worth + board.place_score(me, here, k - 1, shored=tiles) - before
    spent = board.place_score(me, here, k - 1) - before
    if kind == "give":
        return _give_score(board, me, a.pawn, a.card) + spent
    if kind == "navigate":
        gain = board.place_score(a.pawn, a.place) - board.place_score(a.pawn, v.pawns[a.pawn])
        return 0.9 * gain + spent
    return -1.0


def _give_score(board: Board, giver: int, to: int, card: str) -> float:
    """A treasure card to its collector; none to a full hand that would lose a useful card."""
    if card not in board.uncaptured or board.collector[card] != to:
        return -1.0
    receiver = board.view.hands[to]
    if len(receiver) >= board.rules.hand_limit:
        spare = min(board.card_value(to, c) for c in receiver)
        if spare >= board.card_value(giver, card):
            return -1.0
    return GIVE + GIVE_PER_CARD * board.counts[to][card]


__all__ = ["Board", "choose"]
