"""The judge's labels, its result record and the thresholds its decisions share."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Label = Literal["Relevant", "Irrelevant", "Wrong"]


class KeypointLabel(BaseModel):
    keypoint: str
    label: Label
    reason: str


# --- thresholds ----------------------------------------------------------------------------------

COVERAGE_RELEVANT = 0.6  # share (by length) of a value-free keypoint's content the answer must state
RESIDUAL_RELEVANT = 0.3  # share of a valued keypoint's non-value words near its values
CONTEXT_SAME_FACT = 0.66  # share (two in three) of a value's context words that make another value "the same fact"
CONTEXT_SOLE_FACT = 0.33  # one in three: the same, when that value is the only one of its kind in the answer
