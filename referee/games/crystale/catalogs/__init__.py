"""Example crystal catalogs shipped as package data (invented crystals, not the real ones)."""
