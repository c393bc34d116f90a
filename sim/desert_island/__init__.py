"""Desert Island: castaways of unequal strength with secret friends and enemies, 4-6 players (docs/RULES-DI.md)."""
