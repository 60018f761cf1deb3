"""Output files that cannot clobber what they should not (issue 33).

A result is written where the user pointed, and nowhere else:

* a regular file (or a new one) is replaced atomically: a temporary file beside it, then a rename, so a
  reader never sees half a file and a failed run leaves the old one;
* a symbolic link is followed: its target is replaced, the link stays;
* an existing FIFO or character device (``/dev/stdout``, a named pipe another program reads) is
  written through, never replaced by a regular file; Parquet output into one is refused (it is
  written by a library that replaces files);
* a block device, socket or folder is refused;
* an output that is one of the run's inputs (trace, config) or another of its outputs is refused, so
  ``--json`` naming the trace, or ``--request-log X --json X``, fails before any work instead of
  losing a file.

Refusals raise :class:`OutputRefused` (the CLI exits 2).
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from ssdlab.usage import UsageError


class OutputRefused(UsageError):
    """An output path that would clobber an input, another output or a special file."""


def kind(path: Path) -> str:
    """What is at ``path`` once symbolic links are followed: ``missing``, ``regular``, ``folder``,
    ``fifo``, ``character device``, ``block device`` or ``socket``."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "missing"
    if stat.S_ISREG(mode):
        return "regular"
    if stat.S_ISDIR(mode):
        return "folder"
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    return "socket"


def is_written_through(path: Path) -> bool:
    """Whether output to ``path`` goes straight into an existing special file (FIFO, character device)."""
    return kind(path) in ("fifo", "character device")


def target(path: Path) -> Path:
    """The file an atomic write replaces: the end of ``path``'s chain of symbolic links."""
    return Path(os.path.realpath(path))


def _same_file(first: Path, second: Path) -> bool:
    try:
        return os.path.samefile(first, second)
    except OSError:
        # One of them does not exist yet: the same path once links are followed.
        return target(first) == target(second)


def check(outputs: Mapping[str, Path | None], inputs: Mapping[str, Path | None] | None = None) -> None:
    """Refuses, before any work, outputs that cannot be written or would clobber something.

    ``outputs`` and ``inputs`` map how the user named each path (``--json``, ``--trace``) to it;
    Parquet outputs are recognised by their suffix."""
    named_outputs = [(name, Path(path)) for name, path in outputs.items() if path is not None]
    named_inputs = [(name, Path(path)) for name, path in (inputs or {}).items() if path is not None]
    for index, (name, path) in enumerate(named_outputs):
        found = kind(path)
        if found == "folder":
            raise OutputRefused(f"{name} {path}: is a folder; give a file name")
        if found in ("block device", "socket"):
            raise OutputRefused(f"{name} {path}: is a {found}; refusing to write a result into it")
        if found in ("fifo", "character device") and path.suffix == ".parquet":
            raise OutputRefused(f"{name} {path}: is a {found}; Parquet output needs a regular file")
        for input_name, input_path in named_inputs:
            if _same_file(path, input_path):
                raise OutputRefused(f"{name} {path}: is the input {input_name} ({input_path}); refusing to overwrite it")
        for other_name, other in named_outputs[:index]:
            if _same_file(path, other):
                raise OutputRefused(f"{name} {path}: is also the output {other_name}; give each output its own file")
        if found in ("fifo", "character device"):
            if not os.access(path, os.W_OK):
                raise OutputRefused(f"{name} {path}: cannot write the output here: permission denied")
            continue
        folder = target(path).parent
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=folder, prefix=f".{path.name}.", suffix=".check"):
                pass
        except OSError as error:
            raise OutputRefused(f"{name} {path}: cannot write the output here: {error.strerror or error}") from None


def write_text(path: Path, text: str) -> None:
    """Writes ``text`` to ``path``: through an existing FIFO or character device, else atomically
    (a temporary file beside the symbolic links' target, then a rename onto it)."""
    path = Path(path)
    if is_written_through(path):
        with open(path, "w", encoding="utf-8") as file:
            file.write(text)
        return
    final = target(path)
    final.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=final.parent, prefix=f".{final.name}.", suffix=".tmp")
    try:
        # mkstemp makes the file private (0600); the result gets the mode the file it replaces had, or
        # that of a new file.
        os.chmod(temporary, _mode_for(final))
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
        os.replace(temporary, final)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def partial_beside(path: Path, suffix: str = "") -> Path:
    """A temporary name beside ``path``'s final target, for output built up before it is complete."""
    final = target(Path(path))
    return final.with_name(f".{final.name}.partial-{os.getpid()}{suffix}")
