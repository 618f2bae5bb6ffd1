"""The rules engine: pure, standard library only, deterministic.

Nothing in this package performs I/O beyond reading its own text templates,
reads the clock, or uses global random state.
"""
