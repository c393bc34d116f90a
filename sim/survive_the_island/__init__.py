"""Survive the Island: a competitive island game for 2-5 players (docs/RULES-STI.md)."""
