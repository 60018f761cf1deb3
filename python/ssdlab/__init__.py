"""ssdlab: a fast, trace-driven SSD architecture simulator.

The simulation runs in Rust (``ssdlab._native``); this package validates input, drives runs and
presents results. One call crosses into Rust per run.

>>> import ssdlab
>>> result = ssdlab.run("default", overrides=["workload.synthetic.requests=1000"])
>>> result.requests
1000
"""

from ssdlab._native import (
    ConfigurationError,
    IntegrityError,
    InternalError,
    SimulationFailure,
    SsdlabError,
    TraceError,
    __version__,
)
from ssdlab.api import RunResult, build_trace_cache, load_config, preset_names, run, trace_stats

__all__ = [
    "ConfigurationError",
    "IntegrityError",
    "InternalError",
    "RunResult",
    "SimulationFailure",
    "SsdlabError",
    "TraceError",
    "__version__",
    "build_trace_cache",
    "load_config",
    "preset_names",
    "run",
    "trace_stats",
]
