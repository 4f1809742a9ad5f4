"""The HTTP face of the referee service: the API, the pages and live streams
(``referee serve``). See ``web.app``."""
