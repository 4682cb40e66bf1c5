"""The package's errors: each names the file or directory at fault, first in its message.
They are ValueErrors, so code that caught those before still does."""


class Error(ValueError):
    """A file knightstour wrote, or should have, that cannot be read as what it claims."""


class RunError(Error):
    """A run directory, or a file in one, that knightstour refuses: damaged, edited by hand,
    of another run, or of a format this package does not read."""


class RowError(Error):
    """A row's JSON or CSV (Row.from_json, Row.from_csv) that is not one row of counts."""
