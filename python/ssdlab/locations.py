"""Where ssdlab finds data that lives beside the repository rather than in it.

The real trace samples are never copied into the repository: they live in ``../shared/traces`` next to
a checkout (or wherever ``SSDLAB_SHARED_DIR`` points). Users bring their own full traces by path.
"""

from __future__ import annotations

import os
from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def shared_dir() -> Path | None:
    """The shared folder (with ``traces/`` and ``seeds/``), or None when it cannot be found."""
    explicit = os.environ.get("SSDLAB_SHARED_DIR")
    if explicit:
        path = Path(explicit).expanduser()
        return path if path.is_dir() else None
    # python/ssdlab -> repository root -> its sibling "shared"; then the working directory's sibling.
    candidates = [_PACKAGE_DIR.parent.parent.parent / "shared", Path.cwd().parent / "shared", Path.cwd() / "shared"]
    for candidate in candidates:
        if (candidate / "traces").is_dir():
            return candidate.resolve()
    return None


def shared_trace(name: str) -> Path | None:
    """A trace sample from the shared folder by file name, or None when it is absent."""
    base = shared_dir()
    if base is None:
        return None
    path = base / "traces" / name
    return path if path.is_file() else None
