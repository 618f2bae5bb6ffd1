"""gspread's recorded Google traffic, trimmed by ``vendor.py`` (see the README here)."""
