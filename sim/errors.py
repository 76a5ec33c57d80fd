"""Errors the CLI turns into one clear line and exit code 2."""


from contextvars import ContextVar

# set while the command line runs: its errors name flags; a Python call's name its arguments (cardsim.api)
CLI_CALL: ContextVar[bool] = ContextVar("cardsim_cli_call", default=False)


class UsageError(ValueError):
    """Bad user input: unknown name, value out of range, unwritable path, ..."""


class CheckError(RuntimeError):
    """A ``--check`` run found a rule invariant broken; carries the deal id and a trace."""

    def __init__(self, message: str, deal_id: int, trace: str):
        super().__init__(message)
        self.deal_id = deal_id
        self.trace = trace

    def __reduce__(self):  # travels back from Dask workers intact
        return (CheckError, (str(self), self.deal_id, self.trace))


class OutputError(RuntimeError):
    """Writing an output failed (a full disk, an I/O error): one ``Error:`` line and exit code 1.
    The message names what failed, what was removed and what was kept."""


class UsageTypeError(UsageError, TypeError):
    """Bad user input of the wrong type (the Python API: a str where a count is expected, a
    bool where a count is expected, a non-bool flag): a UsageError that is also a TypeError."""


class PluginError(UsageError):
    """A plug-in strategy stopped a deal (decide raised, or gave an illegal answer): one line
    naming the plug-in, the deal and the decision, exit 2. Like an interruption, not like a
    failure, it keeps a run's finished shards (the work directory) for ``--resume``."""
