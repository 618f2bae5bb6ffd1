"""The rules engine: pure, standard library only, deterministic.

Nothing in this package performs I/O beyond reading its own text templates and
keeping the parsed templates in the cache folder (``cachedir``, ``texts``), reads
the clock, or uses global random state.
"""
