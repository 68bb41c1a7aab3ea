"""The errors dragonforge raises on purpose. Each message is what the user reads."""


class DragonforgeError(Exception):
    """Base class: the CLI prints the message on one line and exits non-zero."""


class InputError(DragonforgeError):
    """A command-line argument or input file is invalid; nothing was written."""


class OutputConflictError(DragonforgeError):
    """The output directory holds something this command must not overwrite."""


class TemplateError(DragonforgeError):
    """A document or QRA template is malformed or disagrees with its config."""


class SeedLeak(DragonforgeError):
    """Generated documents hold a distinctive seed value or a run of seed prose; nothing was written."""


class ValidationFailed(DragonforgeError):
    """A benchmark directory failed validation; ``problems`` lists every finding."""

    def __init__(self, problems: list[str]):
        super().__init__(f"{len(problems)} problem(s) found")
        self.problems = problems


def first_error(exc: Exception) -> str:
    """The first problem of a pydantic ValidationError as ``field.path: message`` (else the
    exception's text): one line for the user."""
    errors = getattr(exc, "errors", None)
    if callable(errors):
        err = errors()[0]
        return f"{'.'.join(map(str, err['loc'])) or 'record'}: {err['msg']}"
    return str(exc)
