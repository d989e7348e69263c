"""Decks, hands and dealing shared by the card games."""

from rules.cards.deck import expand_deck, first_excess, parse_cards, remove_card

__all__ = ["expand_deck", "first_excess", "parse_cards", "remove_card"]
