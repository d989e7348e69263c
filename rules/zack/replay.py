"""Replay a ZACK! record: variant, players, setup, the one deal and its events (spec sections 2 and 8)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import (
    Player,
    check_keys,
    expect_list,
    expect_object,
    expect_seat,
    expect_str,
    malformed,
    parse_players,
    variant_dict,
)
from rules.zack.actions import parse_event
from rules.zack.cards import ALL_TOKENS, STOP_CHOOSE
from rules.zack.game import ZackVariant, parse_variant
from rules.zack.state import BowlCard, ZackState, effect_of


def bad_setup(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_SETUP, path, message)


def read_card(value: Any, path: str, variant: ZackVariant) -> str:
    """A ZACK! card token of this variant (colours not in play, and cards the variant leaves out, are unknown)."""
    token = expect_str(value, path)
    if token not in ALL_TOKENS:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not a ZACK! card.")
    if token not in variant.tokens:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not in this variant's deck.")
    return token


def read_stacks(raw: Any, path: str, variant: ZackVariant) -> list[list[str]]:
    items = expect_list(raw, path)
    if len(items) != variant.seats:
        raise malformed(path, f"Expected {variant.seats} stacks, one per seat, found {len(items)}.")
    stacks: list[list[str]] = []
    for s, stack_raw in enumerate(items):
        s_path = child(path, s)
        cards = expect_list(stack_raw, s_path)
        stacks.append([read_card(card, child(s_path, k), variant) for k, card in enumerate(cards)])
    return stacks


def check_deck(cards: Iterable[str], path: str, variant: ZackVariant) -> None:
    """With a `deck` in the variant, stacks and bowl together hold exactly that deck."""
    if variant.deck is None:
        return
    have = Counter(cards)
    for token in sorted(set(have) | set(variant.deck)):
        want = variant.deck.get(token, 0)
        if have[token] != want:
            raise RecordError(
                ErrorCode.DECK_MISMATCH, path, f"The deck holds {want} x {token}, the record {have[token]}."
            )


def check_player_colours(players: Sequence[Player], variant: ZackVariant) -> None:
    """A player's optional `colors` must be the variant colours of its seats."""
    for i, player in enumerate(players):
        if player.colors is not None:
            want = tuple(variant.colours[s] for s in player.seats)
            if player.colors != want:
                raise malformed(
                    child("/players", i, "colors"), f"The variant gives these seats the colours {list(want)}."
                )


def _read_setup_colours(raw: Mapping[str, Any], variant: ZackVariant) -> list[str]:
    if "colors" not in raw:
        return list(variant.colours)
    items = expect_list(raw["colors"], "/setup/colors")
    colours = [expect_str(c, child("/setup/colors", i)) for i, c in enumerate(items)]
    n = variant.seats
    rotations = [
        list(variant.colours[-k:] + variant.colours[:-k]) if k else list(variant.colours) for k in range(n)
    ]
    allowed = rotations if variant.stop_cards else rotations[:1]
    if colours not in allowed:
        raise bad_setup(
            "/setup/colors",
            "The current colours must be the variant's colours"
            + (", passed to the left by Farben wechseln." if variant.stop_cards else "."),
        )
    return colours


def state_from_setup(raw_setup: Any, variant: ZackVariant) -> tuple[ZackState, int | None]:
    """The position of a `setup` (stacks, current colours, bowl, to_move) and its optional dealer."""
    setup = expect_object(raw_setup, "/setup")
    check_keys(setup, "/setup", required=("stacks",), optional=("colors", "bowl", "to_move", "dealer"))
    n = variant.seats
    dealer = expect_seat(setup["dealer"], "/setup/dealer", n) if "dealer" in setup else None
    stacks = read_stacks(setup["stacks"], "/setup/stacks", variant)
    colours = _read_setup_colours(setup, variant)
    state = ZackState(variant, colours=colours, stacks=stacks, obliged=0)
    bowl_raw = expect_list(setup.get("bowl", []), "/setup/bowl")
    for i, item in enumerate(bowl_raw):
        b_path = child("/setup/bowl", i)
        obj = expect_object(item, b_path)
        check_keys(obj, b_path, required=("seat", "card"), optional=("choose",))
        seat = expect_seat(obj["seat"], child(b_path, "seat"), n)
        card = read_card(obj["card"], child(b_path, "card"), variant)
        effect = effect_of(card, state.bowl)
        choose: str | None = None
        if "choose" in obj:
            choose = expect_str(obj["choose"], child(b_path, "choose"))
            if effect != STOP_CHOOSE:
                raise bad_setup(child(b_path, "choose"), f"A {effect} card chooses no colour.")
            if choose not in colours:
                raise bad_setup(child(b_path, "choose"), f"{choose!r} is not a player colour in play.")
        elif effect == STOP_CHOOSE and i == len(bowl_raw) - 1:
            raise bad_setup(b_path, "The Farbe wählen on top of the bowl needs its `choose`.")
        # A setup states a position, not its history: its bowl cards count as correct throws.
        state.bowl.append(BowlCard(seat=seat, card=card, effect=effect, fault=False, choose=choose))
    if state.bowl:
        if "to_move" in setup:
            raise bad_setup(
                "/setup/to_move", "`to_move` is for an empty bowl; the top card says who is obliged."
            )
        state.obliged = state.obliged_by_top()
    else:
        if "to_move" not in setup:
            raise bad_setup("/setup", "With an empty bowl the setup must name `to_move`.")
        state.obliged = expect_seat(setup["to_move"], "/setup/to_move", n)
    state.total = state.card_count()
    check_deck([*(c for s in stacks for c in s), *(b.card for b in state.bowl)], "/setup", variant)
    return state, dealer


def state_from_deal(deal: Mapping[str, Any], path: str, variant: ZackVariant) -> ZackState:
    """The dealt position: stacks as even as possible, the seat left of the dealer obliged."""
    n = variant.seats
    dealer = expect_seat(deal["dealer"], child(path, "dealer"), n)
    stacks = read_stacks(deal["stacks"], child(path, "stacks"), variant)
    sizes = [len(s) for s in stacks]
    if max(sizes) - min(sizes) > 1:
        raise RecordError(
            ErrorCode.DECK_MISMATCH,
            child(path, "stacks"),
            f"Stacks are dealt evenly; these hold {sizes} cards.",
        )
    check_deck((c for s in stacks for c in s), child(path, "stacks"), variant)
    return ZackState(variant, colours=variant.colours, stacks=stacks, obliged=(dealer + 1) % n)


def replay_events(
    state: ZackState, events: Sequence[Any], path: str, observe: Observer | None = None
) -> None:
    """Apply each event in bowl order; the first error stops the replay."""
    tokens = state.variant.tokens
    for k, raw in enumerate(events):
        e_path = child(path, k)
        if state.winner is not None:
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, e_path, f"Seat {state.winner} has already won.")
        state.apply(parse_event(raw, e_path, state.n, tokens), e_path)
        if observe is not None:
            observe(e_path, "action", state)


def replay_document(
    doc: Mapping[str, Any], observe: Observer | None = None
) -> tuple[ZackState | None, ReplayOutcome]:
    """Replay a whole record whose envelope core has checked; return the final position and outcome.

    ``observe`` sees the start (the setup, or the bare ``ZackVariant`` before the deal), the deal and
    every top-level event."""
    variant = parse_variant(variant_dict(doc))
    players = parse_players(
        doc.get("players"), "/players", n_seats=variant.seats, active_seats=range(variant.seats)
    )
    check_player_colours(players, variant)
    state: ZackState | None = None
    setup_dealer: int | None = None
    if "setup" in doc:
        state, setup_dealer = state_from_setup(doc["setup"], variant)
    deals = expect_list(doc.get("deals"), "/deals")
    if len(deals) > 1:
        raise malformed("/deals/1", "A ZACK! record holds exactly one deal (one Partie).")
    if observe is not None:
        observe("", "start", variant if state is None else state)
    if deals:
        deal = expect_object(deals[0], "/deals/0")
        if state is None:
            check_keys(deal, "/deals/0", required=("dealer", "stacks", "events"))
            state = state_from_deal(deal, "/deals/0", variant)
            if observe is not None:
                observe("/deals/0", "deal", state)
        else:
            check_keys(deal, "/deals/0", required=("events",), optional=("dealer",))
            if "dealer" in deal:
                dealer = expect_seat(deal["dealer"], "/deals/0/dealer", variant.seats)
                if setup_dealer is not None and dealer != setup_dealer:
                    raise RecordError(
                        ErrorCode.DECK_MISMATCH,
                        "/deals/0/dealer",
                        f"The setup names seat {setup_dealer} as dealer.",
                    )
        events = expect_list(deal["events"], "/deals/0/events")
        replay_events(state, events, "/deals/0/events", observe)
    if state is None or state.winner is None:
        return state, ReplayOutcome(finished=False, result=None)
    return state, ReplayOutcome(finished=True, result=state.outcome())
