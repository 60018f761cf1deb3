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
  losing a file;
* an output folder (``--out`` of sweeps, searches, experiments, recipes) that exists as anything but
  a folder, or cannot be created and written, is refused before any work (``check_folder``).

A write that fails after the work is done (a full disk, ``--json /dev/full``) does not lose the
result: the text is saved to a file in the system's temporary folder (``rescue``) and
:class:`OutputFailed` names both paths (the CLI exits 1). Input files are classified here as well
(``check_input``): a trace that is a folder or a FIFO is refused by name, not called missing.

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


class InputRefused(UsageError):
    """An input path that is not a regular file (a folder, a FIFO, a device)."""


class OutputFailed(Exception):
    """A write that failed after the work was done; the message says where the result was saved instead."""


# How a message names each kind of path (``kind``'s values).
_KIND_WORDS = {
    "regular": "a regular file",
    "folder": "a folder",
    "fifo": "a FIFO (named pipe)",
    "character device": "a character device",
    "block device": "a block device",
    "socket": "a socket",
}


def describe(found: str) -> str:
    """``kind``'s value as a message says it: "a FIFO (named pipe)", "a folder"."""
    return _KIND_WORDS.get(found, found)


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


def check_folder(name: str, path: Path) -> None:
    """Refuses, before any work, an output folder that exists as something else (a file, a FIFO, a
    device) or under a file, or that cannot be created and written; creates it otherwise."""
    path = Path(path)
    found = kind(path)
    if found not in ("missing", "folder"):
        raise OutputRefused(f"{name} {path}: is {describe(found)}, not a folder; give a folder (it is created if missing)")
    # A path under a file ("results.json/out") is "missing" to stat: name the file in the way.
    for parent in path.parents:
        above = kind(parent)
        if above == "folder":
            break
        if above != "missing":
            raise OutputRefused(f"{name} {path}: {parent} is {describe(above)}, not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".ssdlab-", suffix=".check"):
            pass
    except OSError as error:
        raise OutputRefused(f"{name} {path}: cannot write the output folder here: {error.strerror or error}") from None


def check_input(name: str, path: Path, what: str = "trace file") -> None:
    """Refuses an input that is missing (``FileNotFoundError``) or not a regular file: a folder, or a
    FIFO or device, which the readers open more than once (a second open of a FIFO waits forever)."""
    path = Path(path)
    found = kind(path)
    if found == "missing":
        raise FileNotFoundError(f"{name} {path}: no such {what}")
    if found != "regular":
        raise InputRefused(f"{name} {path}: is {describe(found)}, not a regular file; give a {what}")


def rescue(text: str, name: str) -> Path | None:
    """Saves ``text`` to a new file in the system's temporary folder (its name ends with ``name``'s
    file name) after the write the user asked for failed; None if that fails as well."""
    try:
        handle, saved = tempfile.mkstemp(prefix="ssdlab-rescued-", suffix=f"-{Path(name).name or 'output'}")
    except OSError:
        return None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
    except OSError:
        # Half a result would pass for a whole one: none is better.
        Path(saved).unlink(missing_ok=True)
        return None
    return Path(saved)


def failed_message(path: Path, error: Exception, saved: Path | None, what: str = "the result") -> str:
    """The message of a write of ``what`` to ``path`` that failed with ``error``, saying where it went instead."""
    reason = getattr(error, "strerror", None) or str(error)
    if saved is not None:
        return f"{path}: cannot write {what}: {reason}; it was saved to {saved} instead"
    return f"{path}: cannot write {what}: {reason}; saving it to the temporary folder failed as well, so it is lost"


def write_text(path: Path, text: str) -> None:
    """Writes ``text`` to ``path``: through an existing FIFO or character device, else atomically
    (a temporary file beside the symbolic links' target, then a rename onto it). A failed write
    (a full disk) saves the text elsewhere (``rescue``) and raises :class:`OutputFailed` naming both."""
    path = Path(path)
    try:
        _write_text(path, text)
    except OSError as error:
        raise OutputFailed(failed_message(path, error, rescue(text, path.name))) from None


def _write_text(path: Path, text: str) -> None:
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
