"""Imported by the evaluation's fork server: jieba's dictionary and part-of-speech tags are
loaded there once, and every worker forked from it starts with them (instead of loading them
again, about a second each)."""

from dragonforge.metrics import warm_chinese

warm_chinese()
