"""Errors in how a command was called (bad argument values, unknown names, unwritable outputs).

The command line maps them to exit code 2, like configuration and trace errors.
"""


class UsageError(Exception):
    """A command-line argument that cannot be used; the message says which and why."""
