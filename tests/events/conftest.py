"""The HTTP fixtures of tests/web (a store with a token per role, the app in-process)."""

from tests.web.conftest import client, store, tokens  # noqa: F401 - fixtures shared
