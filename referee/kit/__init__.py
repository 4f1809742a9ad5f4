"""A kit for games with hidden information, one small module each (import the module you
need; this package imports none of them, to keep start-up quick):

- ``multiset``: ``Multiset``, an immutable count of named things (a bag, a list);
- ``zones``: ``HiddenZone``, a pile known only as a count plus the cards seen going in;
- ``decks``: decklists, sealed commitments, and ``DeckKnowledge`` (a list minus what was seen);
- ``catalogs``: catalog files read and validated against a game's schema;
- ``adjustments``: the referee's primitive changes and their notation.

Every piece is a pure value; games build their states from them so that the
referee's knowledge is kept the same way in every game.
"""
