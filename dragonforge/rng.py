"""Deterministic seeds derived from the build seed, independent of Python's hash salt."""

from __future__ import annotations

import hashlib
import random


def derive_seed(*parts: object) -> int:
    digest = hashlib.sha256("\x1f".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def rng_for(*parts: object) -> random.Random:
    return random.Random(derive_seed(*parts))
