"""The benchmark: figures about the site, printed as tables and written as JSON.

Run from the repository root: `uv run python -m bench.run [--quick] [--only SECTION...]`.
It measures and reports; it never passes or fails on a figure.
"""
