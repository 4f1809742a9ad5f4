"""Generated unit catalogs (JSON package data); see ``tools/prismata/make_catalogs.py``."""
