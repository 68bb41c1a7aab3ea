"""The offline keypoint judge: labels each keypoint Relevant / Wrong / Irrelevant against an answer.

RAGEval's generation metrics (method.md §3) need a judge. This one is lexical, deterministic and fast.
Its parts are named for what they decide:

- ``values``: the dates, amounts, percentages, durations, counts and numbers a text states, each in a
  canonical form that is the same across English and Chinese conventions, and when two of them agree;
- ``entities``: the people and organisations a text names, with the aliases an answer uses for them;
- ``words``: content tokens and how much of a keypoint's wording an answer states;
- ``analysis``: one pass over a text (values, parties, sentences, clauses, declining clauses);
- ``refusal``: whether an answer declines or says the information is missing;
- ``scene``: one answer against all keypoints of one query, and whom each value in it is said of;
- ``parties``: which party or label a value belongs to, who wins a comparison, the roles people hold
  (``ROLES``) and the event a date is said beside (``DATE_EVENTS``);
- ``substitution``: another value of the same kind in the keypoint's place (a place, person, organisation,
  category, charge, drug, code or finding; members of ``CLOSED_CLASSES``);
- ``polarity``: negation, reversed direction, opposite words;
- ``core``: the order below.

For each keypoint of a query (``core.judge_keypoints``):

1. An unanswerable question (the keypoint says so, or the query is marked): a refusal is Relevant, an answer
   that asserts facts is Wrong (``refusal``). An empty answer is Irrelevant.
2. A keypoint that states values (``core._judge_values``): each value must appear, said of the keypoint's
   party and not under another keypoint's label (``parties``). A different value for the same fact, the
   reversed direction, the keypoint's value said of the other party, or its date given to another step of its
   course that never falls on the same day (an arrest for a detention, ``parties._same_course``) is Wrong; a missing value is
   Irrelevant (partial) unless the answer declines to give it, or says it does not exist ("no training hours",
   未收取任何对价: ``polarity._value_said_none``), which is Wrong. When every value is found, an opposite word,
   a negation or another party in the keypoint's place makes it Wrong (``polarity``, ``substitution``).
3. A keypoint without values (``core._judge_words``): a comparison is judged by who wins it (``parties``),
   a role by who holds it; otherwise the share of its content words the answer states decides Relevant
   against Irrelevant, after the substitution, opposite-member, polarity, direction and filler checks.
4. Whatever steps 2–3 decide short of Wrong, another member of the same class in the keypoint's frame
   (``substitution._frame_substitution``), a denial of the keypoint's topic (``polarity._topic_negated``), a
   person in another role or another person in the keypoint's role, two parties paired otherwise, another drug,
   code or closed-class member, a build fact's lead words filled otherwise, a place said otherwise in its frame,
   the keypoint's role said to be held by no one (``parties._role_denied``), or its own term said to be ruled
   out (``polarity._term_ruled_out``), a prior conviction denied (``polarity._prior_record_denied``), or another
   category after "is a" (``substitution._category_after_is_a``) or under the build fact's own field label
   ("Occupation: …", ``substitution._field_label_swap``), another set of ECG leads, or another kind of
   contract, dispute or industry on a head of its group (``substitution._kind_swap``: 工程施工合同 for 开发建设合同, a patent
   case for a contract dispute), another procedure by its surgical suffix (``substitution._procedure_swap``:
   hysterectomy for myomectomy), another member of a Chinese category after its own label
   (``substitution._zh_member_swap``: 细菌性肺炎 for 肺炎支原体肺炎), or the keypoint's drug said not to be given
   (``substitution._drug_denied``), or its allergy denied (``polarity._allergy_denied``) makes it Wrong.
5. A keypoint whose build facts name a party is Wrong when the answer names that party only to deny its part
   (``core._party_denied``: 并非由X实施, "not with X"), or names another in its place in the keypoint's or the
   question's words (``core._stand_in``); it is not Relevant unless the answer names that party.

"No information" or a refusal is Irrelevant, never Wrong, on an answerable question.
"""

from dragonforge.judge.analysis import extract_values
from dragonforge.judge.core import judge_keypoints
from dragonforge.judge.labels import KeypointLabel, Label
from dragonforge.judge.refusal import _refuses, is_refusal
from dragonforge.judge.values import Value, ValueKind, cn_to_number

__all__ = ["KeypointLabel", "Label", "Value", "ValueKind", "cn_to_number", "extract_values", "is_refusal",
           "judge_keypoints", "_refuses"]
