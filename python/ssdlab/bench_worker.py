"""One ``ssdlab bench`` scenario in its own process; prints one JSON line with the measurements.

Not a public entry point: ``ssdlab.bench`` starts it so that peak memory is per scenario.
"""

from __future__ import annotations

import json
import resource
import sys

from ssdlab import api


def main(argv: list[str]) -> int:
    request = json.loads(argv[1])
    result = api.run(request["config"], overrides=request["overrides"], trace=request["trace"])
    # Linux reports ru_maxrss in KiB.
    peak_rss_bytes = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(
        json.dumps(
            {
                "requests": result["requests"],
                "requests_completed": result["requests_completed"],
                "footprint_pages": result["workload"]["footprint_pages"],
                "requests_per_cpu_second": result["requests_per_cpu_second"],
                "replay_cpu_seconds": result["replay_cpu_seconds"],
                "wall_seconds": result["wall_seconds"],
                "precondition_wall_seconds": result["precondition"]["wall_seconds"],
                "write_amplification": result["write_amplification"],
                "gc_invocations": result["gc"]["invocations"],
                "iops": result["all"]["iops"],
                "die_utilisation": result["utilisation"]["die"],
                "channel_utilisation": result["utilisation"]["channel"],
                "requests_waited": result["host_queue"]["requests_waited"],
                "peak_rss_bytes": peak_rss_bytes,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
