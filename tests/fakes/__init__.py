"""Test doubles: a stateful fake of Google's Sheets and Drive APIs on ``responses``."""
