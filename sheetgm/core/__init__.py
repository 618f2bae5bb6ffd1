"""The rules engine: pure, standard library only, deterministic.

Nothing in this package performs I/O beyond reading its own text templates and
keeping what it derives from its own code in the cache folder (the parsed
templates, the compiled dataclass methods and regular expressions: ``cachedir``,
``codecache``, ``recache``), reads
the clock, or uses global random state.
"""
