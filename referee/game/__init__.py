"""A game's facts and the referee's decisions on it, beside the rules (as a tournament's
are in ``referee.tournament``).

``facts`` are what a game's stream records (a game set up, an action recorded or
rejected, a correction, a result, a dispute, a penalty); ``entry`` an entry, what every
write says and what it comes to; ``commands`` the rest a referee asks;
``write.decision`` is the one door of every write to an existing game (the version the
writer saw checked there), which decides an entry (``entries``) or a command
(``decisions``); ``view`` is the shape of a folded game the decisions read;
``procedure`` the small pieces they share (their refusals are ``referee.errors``'s,
with the rules' own). Pure: nothing here loads, stores, seals, draws a random number
or reads the clock. The event layer (``events``) maps the facts to stored topics,
seals and stores them; the service's write pipeline (``service.pipeline``) is the
shell around the decisions.
"""
