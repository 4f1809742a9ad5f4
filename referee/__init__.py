"""Referee: the pure rules core. No I/O here; see ``events``, ``service``, ``projections``
and the faces (``cli``).

``contract`` is what every game implements; ``verdicts`` and ``outcomes`` are its
answers; ``procedure`` is the check every game shares; ``kit`` holds the pieces
of hidden information (zones, decks, bags, catalogs, adjustments); ``games`` is
the registry of the games themselves.

The package itself re-exports nothing: a name is imported from the module that defines
it (the contract's vocabulary from ``referee.contract``), so importing one part of the
core (the tournament's, say) does not load the game contract with it.
"""
