"""The benchmark (docs/benchmarks.md): `uv run python -m bench.run`; it measures, never judges."""
