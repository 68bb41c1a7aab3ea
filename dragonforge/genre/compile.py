"""From a genre pack to what the pipeline runs on: a ``DocumentTemplate`` (every unit carries
the facts it states, so references stay verbatim by construction) and one generic
``QRATemplateSet`` per language that yields the seven question types from slot kinds.

Strings from the pack (labels, titles, record lines) are inserted as Jinja2 string literals
or, where the pack writes Jinja2 itself (titles, anchors, lines), kept as written; every
compiled template is marked ``sandboxed`` and renders in Jinja's sandbox.
"""

from __future__ import annotations

import json
import re
from functools import cache

from dragonforge.documents import DocumentTemplate, ParagraphTemplate, SectionTemplate, SentenceTemplate
from dragonforge.errors import TemplateError
from dragonforge.genre.interpret import Genre, names_in, template_names
from dragonforge.genre.model import DATE_KINDS, ITEM_FIELD, NUMERIC_KINDS, SlotSpec
from dragonforge.qra import KeypointTemplate, QRATemplate, QRATemplateSet
from dragonforge.resources import resource_dir
from dragonforge.templating import load_yaml

_NAMING_KINDS = {"category", "text", "person", "organisation", "party", "place", "code"}


def capitalised(text: str, zh: bool) -> str:
    """A sentence with its first letter upper-cased, also where it starts with an anchor
    (``{{ a.anchor }}`` → ``{{ a.Anchor }}``, the anchor capitalised at config time)."""
    if zh:
        return text
    m = re.match(r"\{\{ ((?:[a-z]+\.)?)anchor \}\}", text)
    if m:
        return "{{ " + m.group(1) + "Anchor }}" + text[m.end():]
    return text[:1].upper() + text[1:]


def lit(text: str) -> str:
    """``text`` as literal template text: unchanged unless it holds Jinja2 syntax characters."""
    if not re.search(r"[{}%#]", text):
        return text
    return "{{ " + json.dumps(text, ensure_ascii=False) + " }}"


@cache
def shipped_frames(language: str) -> dict[str, list[str]]:
    return load_yaml(resource_dir("templates") / "frames" / f"{language}.yaml")


class Units:
    """What the compiled templates need of one pack in one language."""

    def __init__(self, genre: Genre, language: str, guard_all: bool = False):
        self.genre = genre
        self.spec = genre.spec
        self.language = language
        self.text = genre.languages[language]
        self.zh = language == "zh"
        self.guard_all = guard_all  # every slot may be absent (a corpus document states what it states)

    def slot(self, key: str) -> SlotSpec:
        """A slot, or a group's field as ``group.field``."""
        if "." in key:
            group, field = key.split(".", 1)
            return self.spec.slots[group].fields[field]  # type: ignore[index]
        return self.spec.slots[key]

    def labels(self, key: str) -> list[str]:
        entry = self.text.slots.get(key)
        if entry and entry.labels:
            return entry.labels
        return [key.split(".")[-1].replace("_", " ").capitalize()]

    def label(self, key: str) -> str:
        """The canonical label as it reads inside a sentence."""
        label = self.labels(key)[0]
        if self.zh or len(label) < 2 or label[1].isupper():
            return label  # Chinese, or an acronym (VIN, ICD code)
        return label[0].lower() + label[1:]

    def value(self, key: str, prefix: str = "") -> tuple[str, list[str]]:
        """The template text writing a slot's value and the fact keys it states."""
        if self.slot(key).kind == "date_range":
            joiner = "至" if self.zh else " to "
            return (f"{{{{ {prefix}{key}.start }}}}{joiner}{{{{ {prefix}{key}.end }}}}",
                    [f"{key}.start", f"{key}.end"])
        return f"{{{{ {prefix}{key} }}}}", [key]

    def present(self, key: str, prefix: str = "") -> str | None:
        return f"{prefix}val.{key} is defined" if (self.slot(key).presence < 1 or self.guard_all) else None

    def frames(self, kind: str) -> list[str]:
        own = self.text.frames.get(kind) or self.text.frames.get("default")
        shipped = shipped_frames(self.language)
        return own or shipped.get(kind) or shipped["default"]

    def line(self, group: str) -> tuple[str, list[str]]:
        """A record's line and the fields it states."""
        entry = self.text.slots.get(group)
        fields = list(self.spec.slots[group].fields or {})
        if entry and entry.line:
            stated = list(dict.fromkeys(ITEM_FIELD.findall(entry.line)))
            unknown = [f for f in stated if f not in fields]
            if unknown:
                raise TemplateError(f"{self.language}.yaml slots.{group}.line names item.{unknown[0]}, "
                                    f"which is no field of {group} (fields: {', '.join(fields)})")
            return entry.line, stated
        head, rest = fields[0], fields[1:]
        sep = "：" if self.zh else ": "
        comma = "，" if self.zh else ", "
        return (f"{{{{ item.{head} }}}}" + (sep + comma.join(f"{{{{ item.{f} }}}}" for f in rest) if rest else ""),
                fields)


def document_template(genre: Genre, language: str) -> DocumentTemplate:
    u = Units(genre, language)
    sections: list[SectionTemplate] = []
    colon = "：" if u.zh else ": "
    for section in genre.spec.sections:
        # the document's numbering (none, 1., I. / 一、) before the title drawn for it at config
        # time (so that a summary question names the section as its document does)
        titles = [f"{{{{ heading.{section.id} }}}}{{{{ section_title.{section.id} }}}}"]
        paragraphs: list[ParagraphTemplate] = []
        if section.layout in ("fields", "items", "timeline", "list"):
            if section.layout != "fields":
                line, fields = u.line(section.group)  # type: ignore[arg-type]
                if section.layout == "list":
                    line = "{{ i + 1 }}. " + line
                keys = [f"{section.group}.{{i}}.{f}" for f in fields]
                paragraphs.append(ParagraphTemplate(foreach=section.group, sentences=[
                    SentenceTemplate(variants=[line], facts=keys)]))
            for key in (section.slots if section.layout == "fields" else section.after):
                value, keys = u.value(key)
                variants = [lit(label) + colon + value for label in u.labels(key)]
                paragraphs.append(ParagraphTemplate(sentences=[
                    SentenceTemplate(variants=variants, facts=keys, when=u.present(key))]))
        else:  # prose
            sentences = []
            for key in section.slots:
                slot = u.slot(key)
                value, keys = u.value(key)
                label = u.label(key)
                variants = [_frame(frame, label, value) for frame in u.frames(slot.kind)]
                sentences.append(SentenceTemplate(variants=variants, facts=keys, when=u.present(key)))
            paragraphs.append(ParagraphTemplate(sentences=sentences))
        when = f"show_{section.id}" if section.presence < 1 else None
        sections.append(SectionTemplate(id=section.id, titles=titles, paragraphs=paragraphs, when=when,
                                        layout="prose" if section.layout == "prose" else "lines"))
    return DocumentTemplate(domain=genre.spec.name, language=language, titles=u.text.titles, sections=sections,
                            sandboxed=True, rng_by="config")


def _frame(frame: str, label: str, value: str) -> str:
    parts = re.split(r"(\{label\}|\{Label\}|\{value\})", frame)
    out = []
    for part in parts:
        if part == "{value}":
            out.append(value)
        elif part in ("{label}", "{Label}"):
            out.append(lit(label[:1].upper() + label[1:] if part == "{Label}" else label))
        elif part:
            out.append(lit(part))
    text = "".join(out)
    # a frame that starts with the label: capitalise its first letter
    return text[:1].upper() + text[1:] if text[:1].isalpha() and text[:1].islower() else text


# --- questions ------------------------------------------------------------------------------------


def stated_slots(genre: Genre) -> list[str]:
    """Every slot (and group field, as ``group.field``) some unit of the document states."""
    out: list[str] = []
    for section in genre.spec.sections:
        out += section.slots + section.after
        if section.group:
            out += [f"{section.group}.{f}" for f in genre.spec.slots[section.group].fields or {}]
    return list(dict.fromkeys(out))


def qra_templates(genre: Genre, language: str, guard_all: bool = False) -> QRATemplateSet:
    """The pack's QRA set; ``guard_all``: every template applies only where its facts are
    stated (a corpus build, where any slot may be absent from a document)."""
    u = Units(genre, language, guard_all)
    spec = genre.spec
    q = spec.questions
    # the entity and the slots the anchor names already (asking for them would give the answer away)
    named = template_names(u.text.anchor)
    exclude = set(q.exclude) | {spec.entity.slot} | (named & set(spec.slots))
    top_level = [k for k in stated_slots(genre) if "." not in k and k not in exclude]
    templates: list[QRATemplate] = []
    zh = u.zh
    anchor = "{{ anchor }}"

    def add(**kw) -> None:
        templates.append(QRATemplate(sandboxed=True, **kw))

    def sentence(text: str) -> str:
        return capitalised(text, zh)

    # factual: one slot of one document
    for key in top_level:
        slot, label = u.slot(key), u.label(key)
        if slot.kind == "narrative":
            continue
        value, keys = u.value(key)
        L = lit(label)
        if zh:
            wh = ("是谁" if slot.kind in ("person", "party") else "是多少" if slot.kind in NUMERIC_KINDS
                  else "是哪一天" if slot.kind == "date" else "是什么")
            questions = [f"{anchor}的{L}{wh}？", f"{anchor}中记载的{L}{wh}？"]
            answer = f"{anchor}的{L}为{value}。"
        else:
            wh = "Who" if slot.kind in ("person", "party") else "What"
            questions = [f"{wh} was the {L} of {anchor}?", f"According to the record, what was the {L} of {anchor}?"]
            answer = sentence(f"the {L} of {anchor} was {value}.")
        add(id=f"{spec.name}.factual.{key}", type="factual", questions=questions, answer=answer, facts=keys,
            keypoints=[KeypointTemplate(text=answer, facts=keys)], when=u.present(key))

    # factual on a group's records: a numeric field of the record a naming field identifies
    for group, gslot in spec.slots.items():
        if gslot.kind != "group" or group in exclude:
            continue
        _, fields = u.line(group)
        names = [f for f in fields if (gslot.fields or {})[f].kind in _NAMING_KINDS]
        if not names:
            continue
        name = names[0]
        for field in fields:
            if field == name:
                continue
            label, L_item = lit(u.label(f"{group}.{field}")), lit(u.label(f"{group}.{name}"))
            keys = [f"{group}.{{i}}.{name}", f"{group}.{{i}}.{field}"]
            value = f"{{{{ item.{field} }}}}"
            if zh:
                questions = [f"{anchor}中{L_item}为“{{{{ item.{name} }}}}”的一项，{label}是什么？"]
                answer = f"{anchor}中{L_item}为{{{{ item.{name} }}}}的一项，{label}为{value}。"
            else:
                questions = [f"In {anchor}, what was the {label} of the {L_item} {{{{ item.{name} }}}}?"]
                answer = sentence(f"in {anchor}, the {label} of the {L_item} {{{{ item.{name} }}}} was {value}.")
            add(id=f"{spec.name}.factual.{group}.{field}", type="factual", foreach=group, questions=questions,
                answer=answer, facts=keys, keypoints=[KeypointTemplate(text=answer, facts=keys)])

    _multi_hop(u, add, top_level, sentence)
    _summary(u, add, exclude, sentence)
    _multi_document(u, add, top_level, sentence)

    for i, withheld in enumerate(u.text.withheld):
        L = lit(withheld.label)
        questions = ([f"{anchor}的{L}是什么？"] if zh else [f"What was the {L} of {anchor}?"])
        add(id=f"{spec.name}.unanswerable.{i}", type="unanswerable", questions=questions,
            absent=withheld.terms or [withheld.label])
    return QRATemplateSet(domain=spec.name, language=language, templates=templates)


def _multi_hop(u: Units, add, top_level: list[str], sentence) -> None:
    spec, zh, anchor = u.spec, u.zh, "{{ anchor }}"
    # a value that names one document (a code) leads to another of its facts
    bridges = spec.questions.bridges if spec.questions.bridges is not None else \
        [k for k in top_level if u.slot(k).kind in ("code", "person")]
    genre = lit(u.text.genre)
    targets = [k for k in top_level if u.slot(k).kind not in ("narrative", "code", "date_range")]
    for bridge in bridges:
        if bridge not in spec.slots or u.slot(bridge).kind == "date_range":
            continue
        B = lit(u.label(bridge))
        for target in targets:
            if target == bridge:
                continue
            T = lit(u.label(target))
            value, keys = u.value(target)
            both = [bridge] + keys
            if zh:
                questions = [f"{B}为{{{{ {bridge} }}}}的那份{genre}中，{T}是什么？"]
                first = f"{B}为{{{{ {bridge} }}}}的是{anchor}。"
                second = f"其{T}为{value}。"
            elif u.slot(bridge).kind == "person":
                questions = [f"In the {genre} whose {B} is {{{{ {bridge} }}}}, what was the {T}?"]
                first = f"{{{{ {bridge} }}}} was the {B} of {anchor}."
                second = f"Its {T} was {value}."
            else:
                questions = [f"In the {genre} whose {B} is {{{{ {bridge} }}}}, what was the {T}?"]
                first = sentence(f"the {B} {{{{ {bridge} }}}} belongs to {anchor}.")
                second = f"Its {T} was {value}."
            when = " and ".join(w for w in (u.present(bridge), u.present(target)) if w) or None
            add(id=f"{spec.name}.multi_hop.{bridge}.{target}", type="multi_hop", questions=questions, unique=bridge,
                answer=first + ("" if zh else " ") + second, facts=both, when=when,
                keypoints=[KeypointTemplate(text=first, facts=[bridge]), KeypointTemplate(text=second, facts=keys)])
    # a derived amount from the amounts it is computed from
    for key in top_level:
        slot = u.slot(key)
        if not slot.derived or slot.kind not in NUMERIC_KINDS:
            continue
        operands = [n for n in sorted(names_in(slot.derived)) if n in top_level and u.slot(n).kind in NUMERIC_KINDS]
        if len(operands) < 2:
            continue
        D = lit(u.label(key))
        parts = [(lit(u.label(n)), f"{{{{ {n} }}}}", n) for n in operands]
        if zh:
            questions = [f"{anchor}的{D}是多少？它由哪些数额得出？"]
            kps = [(f"{anchor}的{label}为{value}。", [n]) for label, value, n in parts]
            kps.append((f"{D}为{{{{ {key} }}}}。", [key]))
            answer = "".join(t for t, _ in kps)
        else:
            questions = [f"What was the {D} of {anchor}, and which amounts is it computed from?"]
            kps = [(sentence(f"the {label} of {anchor} was {value}."), [n]) for label, value, n in parts]
            kps.append((f"The resulting {D} was {{{{ {key} }}}}.", [key]))
            answer = " ".join(t for t, _ in kps)
        when = " and ".join(w for w in [u.present(key)] + [u.present(n) for n in operands] if w) or None
        add(id=f"{spec.name}.multi_hop.derived.{key}", type="multi_hop", questions=questions, answer=answer,
            facts=[n for _, _, n in parts] + [key], when=when,
            keypoints=[KeypointTemplate(text=t, facts=f) for t, f in kps])
    # the record of a group with the largest value of a field
    for group, gslot in spec.slots.items():
        if gslot.kind != "group" or group in spec.questions.exclude:
            continue
        _, fields = u.line(group)
        names = [f for f in fields if (gslot.fields or {})[f].kind in _NAMING_KINDS]
        numeric = [f for f in fields if (gslot.fields or {})[f].kind in NUMERIC_KINDS]
        if not names:
            continue
        name = names[0]
        for field in numeric:
            top = f"top_{group}_{field}"
            F, N = lit(u.label(f"{group}.{field}")), lit(u.label(f"{group}.{name}"))
            rec = f"{group}[{top}]"
            keys = [f"{group}.{{{{ {top} }}}}.{name}", f"{group}.{{{{ {top} }}}}.{field}"]
            if zh:
                questions = [f"{anchor}中{F}最高的是哪一项？是多少？"]
                kps = [(f"{anchor}中{F}最高的{N}是{{{{ {rec}.{name} }}}}。", keys[:1]),
                       (f"其{F}为{{{{ {rec}.{field} }}}}。", keys[1:])]
                answer = "".join(t for t, _ in kps)
            else:
                questions = [f"Which {N} had the highest {F} in {anchor}, and what was it?"]
                kps = [(sentence(f"the {N} with the highest {F} in {anchor} was {{{{ {rec}.{name} }}}}."), keys[:1]),
                       (f"Its {F} was {{{{ {rec}.{field} }}}}.", keys[1:])]
                answer = " ".join(t for t, _ in kps)
            add(id=f"{spec.name}.multi_hop.top.{group}.{field}", type="multi_hop", questions=questions,
                answer=answer, facts=keys, when=f"{top} is defined",
                keypoints=[KeypointTemplate(text=t, facts=f) for t, f in kps])


def _summary(u: Units, add, exclude: set[str], sentence) -> None:
    spec, zh, anchor = u.spec, u.zh, "{{ anchor }}"
    for section in spec.sections:
        T = f"{{{{ section_title.{section.id} }}}}"
        if section.layout in ("fields", "prose"):
            keys_all = [k for k in section.slots if k not in exclude and u.slot(k).kind != "narrative"][:5]
            if len(keys_all) < 2:
                continue
            kps = []
            for k in keys_all:
                value, keys = u.value(k)
                L = lit(u.label(k))
                text = f"{L}为{value}。" if zh else sentence(f"the {L} was {value}.")
                kps.append(KeypointTemplate(text=text, facts=keys, when=u.present(k)))
            questions = ([f"请概述{anchor}的“{T}”部分。", f"{anchor}的{T}包括哪些内容？"] if zh else
                         [f"Summarize the {T} section of {anchor}.", f"What does {anchor} record under {T}?"])
            facts = [("?" + f) if u.present(f.split(".")[0]) else f for kp in kps for f in kp.facts]
            answer = ("" if zh else " ").join(
                (f"{{% if {kp.when} %}}{kp.text}{{% endif %}}" if kp.when else kp.text) for kp in kps)
            add(id=f"{spec.name}.summary.{section.id}", type="summary", questions=questions,
                answer=answer, facts=facts, keypoints=kps,
                when=f"show_{section.id}" if section.presence < 1 else None)
        elif section.group:
            group = section.group
            line, fields = u.line(group)
            kps = []
            for i in range(4):  # the record lines as the document writes them
                keys = [("?" if i >= 2 else "") + f"{group}.{i}.{f}" for f in fields]
                text = re.sub(r"\bitem\.", f"{group}[{i}].", line) + ("。" if zh else ".")
                kps.append(KeypointTemplate(text=text, facts=keys, when=f"{group}|length > {i}"))
            questions = ([f"请列出{anchor}的“{T}”中的各项。"] if zh else
                         [f"What does the {T} section of {anchor} list?"])
            add(id=f"{spec.name}.summary.{section.id}", type="summary", questions=questions,
                answer=("" if zh else " ").join(f"{{% if {kp.when} %}}{kp.text}{{% endif %}}" for kp in kps),
                facts=[k for kp in kps for k in kp.facts],
                keypoints=kps, when=f"{group} is defined and {group}|length >= 2 and {group}|length <= 4"
                + (f" and show_{section.id}" if section.presence < 1 else ""))


def _multi_document(u: Units, add, top_level: list[str], sentence) -> None:
    spec, zh = u.spec, u.zh
    A, B = "{{ a.anchor }}", "{{ b.anchor }}"
    for key in top_level:
        slot = u.slot(key)
        if slot.kind in ("narrative", "code"):
            continue
        L = lit(u.label(key))
        va, ka = u.value(key, "a.")
        vb, kb = u.value(key, "b.")
        when = " and ".join(w for w in (u.present(key, "a."), u.present(key, "b.")) if w) or None
        kpa = f"{A}的{L}为{va}。" if zh else sentence(f"the {L} of {A} was {va}.")
        kpb = f"{B}的{L}为{vb}。" if zh else sentence(f"the {L} of {B} was {vb}.")
        questions = ([f"{A}和{B}的{L}分别是什么？"] if zh else
                     [f"What was the {L} of {A}, and what was it for {B}?"])
        add(id=f"{spec.name}.integration.{key}", type="integration", questions=questions,
            answer=kpa + ("" if zh else " ") + kpb, when=when,
            facts=[f"a:{k}" for k in ka] + [f"b:{k}" for k in kb],
            keypoints=[KeypointTemplate(text=kpa, facts=[f"a:{k}" for k in ka]),
                       KeypointTemplate(text=kpb, facts=[f"b:{k}" for k in kb])])
    comparable = spec.questions.comparable if spec.questions.comparable is not None else \
        [k for k in top_level if u.slot(k).kind in NUMERIC_KINDS]
    ordered = spec.questions.ordered if spec.questions.ordered is not None else \
        [k for k in top_level if u.slot(k).kind in DATE_KINDS]
    W, Lo = "{{ winner.anchor }}", "{{ loser.anchor }}"
    words = {"duration": (("longer", "更长"), ("shorter", "更短")),
             "count": (("larger", "更多"), ("smaller", "更少")), "quantity": (("larger", "更多"), ("smaller", "更少"))}
    def pair(qtype: str, key: str, pick: str, questions: list[str], verdict: str, kp_l: str) -> None:
        """A comparison or time-sequence template: the verdict states the winner's value, the
        second keypoint the loser's."""
        when = " and ".join(w for w in (u.present(key, "a."), u.present(key, "b.")) if w) or None
        suffix = f".{pick}" if qtype == "comparison" else ""
        add(id=f"{spec.name}.{qtype}.{key}{suffix}", type=qtype, questions=questions, compare=key, pick=pick,
            when=when, answer=(verdict + kp_l) if zh else f"{verdict} {kp_l}",
            facts=[f"winner:{key}", f"loser:{key}"],
            keypoints=[KeypointTemplate(text=verdict, facts=[f"winner:{key}"]),
                       KeypointTemplate(text=kp_l, facts=[f"loser:{key}"])])

    for key in comparable:
        L = lit(u.label(key))
        loser = f"{Lo}的{L}为{{{{ loser.{key} }}}}。" if zh else sentence(f"the {L} of {Lo} was {{{{ loser.{key} }}}}.")
        more, less = words.get(u.slot(key).kind, (("higher", "更高"), ("lower", "更低")))
        for pick, (word_en, word_zh) in (("max", more), ("min", less)):
            if zh:
                pair("comparison", key, pick, [f"{A}和{B}相比，哪一个的{L}{word_zh}？"],
                     f"{W}的{L}{word_zh}，为{{{{ winner.{key} }}}}。", loser)
            else:
                pair("comparison", key, pick, [f"Which had the {word_en} {L}: {A} or {B}?"],
                     sentence(f"{W} had the {word_en} {L}, {{{{ winner.{key} }}}}."), loser)
    for key in ordered:
        L = lit(u.label(key))
        loser = f"{Lo}的{L}为{{{{ loser.{key} }}}}。" if zh else sentence(f"the {L} of {Lo} was {{{{ loser.{key} }}}}.")
        if zh:
            pair("time_sequence", key, "min", [f"{A}的{L}和{B}的{L}，哪一个在前？"],
                 f"{W}的{L}在前，为{{{{ winner.{key} }}}}。", loser)
        else:
            pair("time_sequence", key, "min", [f"Which came first: the {L} of {A} or the {L} of {B}?"],
                 sentence(f"the {L} of {W}, {{{{ winner.{key} }}}}, came first."), loser)
