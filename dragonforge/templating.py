"""Jinja2 plumbing shared by document and QRA templates.

Templates are YAML files whose leaves are Jinja2 strings. A config's facts are exposed to
them as a nested structure built from the dotted fact keys: ``events.0.date`` is reachable
as ``events[0].date`` (its written text) and ``val.events[0].date`` (its canonical value).
"""

from __future__ import annotations

import re
from collections import ChainMap
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import jinja2
import jinja2.sandbox
import yaml
from pydantic import BaseModel

from dragonforge.errors import TemplateError
from dragonforge.models import Config
from dragonforge.resources import resource_dir, user_cache_dir


class _SourceLoader(jinja2.BaseLoader):
    """Templates named by their own source, so that Jinja's bytecode cache applies to them."""

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, None, Callable[[], bool]]:
        return template, None, lambda: True


class _QuietBytecodeCache(jinja2.FileSystemBytecodeCache):
    """Jinja's own on-disk cache of compiled templates, keyed by their source and Jinja's and
    Python's versions; a cache that cannot be written is only slower."""

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        try:
            super().dump_bytecode(bucket)
        except OSError:
            pass


def _bytecode_cache() -> jinja2.BytecodeCache | None:
    """Compiling templates was a quarter of an offline build; compiled once, they are read back
    from the user's cache (:func:`dragonforge.resources.user_cache_dir`), a folder of the
    user's own like ``__pycache__``."""
    directory = user_cache_dir("jinja")
    return None if directory is None else _QuietBytecodeCache(str(directory), "%s.jinja")


_ENV = jinja2.Environment(
    undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False,
    loader=_SourceLoader(), bytecode_cache=_bytecode_cache(), cache_size=0,
)
# Templates that come from a genre pack (a team's files, or a folder someone sent) render in
# Jinja's sandbox: no attribute starting with _, no unsafe callables, so no way to Python's
# internals. The project's own templates use the plain environment.
_SANDBOX = jinja2.sandbox.ImmutableSandboxedEnvironment(
    undefined=jinja2.StrictUndefined, autoescape=False, keep_trailing_newline=False,
    loader=_SourceLoader(), cache_size=0,
)
_SPACES = re.compile(r"[ \t]+")


@cache
def compile_template(source: str, sandboxed: bool = False) -> jinja2.Template:
    try:
        return (_SANDBOX if sandboxed else _ENV).get_template(source)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"bad template {source!r}: {exc}") from exc


@cache
def compile_expression(source: str, sandboxed: bool = False):
    try:
        return (_SANDBOX if sandboxed else _ENV).compile_expression(source, undefined_to_none=False)
    except jinja2.TemplateSyntaxError as exc:
        raise TemplateError(f"bad expression {source!r}: {exc}") from exc


def _context(template: jinja2.Template, context: dict[str, Any]) -> jinja2.runtime.Context:
    """What ``Template.render`` builds, without copying every name of ``context`` and the
    environment's globals into a new dict on each call (a third of a build's time went there):
    the same names, the same precedence, looked up through a chain."""
    return template.new_context(ChainMap(context, template.globals), shared=True)  # type: ignore[arg-type]


def render(source: str, context: dict[str, Any], sandboxed: bool = False) -> str:
    try:
        template = compile_template(source, sandboxed)
        text = template.environment.concat(template.root_render_func(_context(template, context)))
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"template {source!r}: {exc}") from exc
    except jinja2.sandbox.SecurityError as exc:
        raise TemplateError(f"template {source!r} is refused by the sandbox: {exc}") from exc
    return _SPACES.sub(" ", text).strip()


def evaluate(source: str, context: dict[str, Any], sandboxed: bool = False) -> Any:
    try:
        expression = compile_expression(source, sandboxed)
        template = expression._template
        ctx = _context(template, context)
        for _ in template.root_render_func(ctx):
            pass
        result = ctx.vars["result"]
        return None if expression._undefined_to_none and isinstance(result, jinja2.Undefined) else result
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"expression {source!r}: {exc}") from exc
    except jinja2.sandbox.SecurityError as exc:
        raise TemplateError(f"expression {source!r} is refused by the sandbox: {exc}") from exc


def nest(flat: dict[str, Any]) -> dict[str, Any]:
    """Turn ``{"a.0.b": x}`` into ``{"a": [{"b": x}]}``."""
    root: dict[str, Any] = {}
    for key, value in flat.items():
        parts = key.split(".")
        node = root
        for part in parts[:-1]:
            node = node.setdefault(part, {})
        node[parts[-1]] = value
    return _listify(root)


def _listify(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    converted = {k: _listify(v) for k, v in node.items()}
    if converted and all(k.isdigit() for k in converted):
        return [converted[k] for k in sorted(converted, key=int)]
    return converted


def config_context(config: Config) -> dict[str, Any]:
    """The names a template sees for one config."""
    context = nest({key: fact.text for key, fact in config.facts.items()})
    context["val"] = nest({key: fact.value for key, fact in config.facts.items()})
    context.update(config.extras)
    return context


M = TypeVar("M", bound=BaseModel)


def load_template_model(kind: str, domain: str, language: str, model: type[M]) -> M:
    """``templates/<kind>/<domain>.<language>.yaml`` validated as ``model``."""
    path = resource_dir("templates") / kind / f"{domain}.{language}.yaml"
    if not path.exists():
        raise TemplateError(f"no {kind} template for {domain}/{language} ({path})")
    try:
        return model.model_validate(load_yaml(path))
    except ValueError as exc:
        raise TemplateError(f"{path}: {exc}") from exc


# libyaml's parser where PyYAML was built with it (the wheels are): the same safe subset of
# YAML, about ten times faster than the pure-Python one, which dominated small builds.
SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 (a safe loader)


@cache
def load_yaml(path: Path) -> Any:
    try:
        return parse_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise TemplateError(f"cannot read template file {path}: {exc}") from exc
