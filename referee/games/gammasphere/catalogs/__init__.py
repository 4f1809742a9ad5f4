"""Shipped catalogs (TOML package data): ``example.toml`` holds invented example cards."""
