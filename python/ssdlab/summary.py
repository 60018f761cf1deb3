"""Readable terminal summaries of results (rich tables)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table


def _bytes(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if abs(n) < 1024 or unit == "TiB":
            return f"{n:,.1f} {unit}" if unit != "B" else f"{int(n):,} B"
        n /= 1024
    return f"{n:.1f}"


def render_run(result: Any, console: Console) -> None:
    """Prints the summary of a run result (a RunResult or its dict)."""
    r = result
    workload = r["workload"]
    device = r["device"]
    console.print(
        f"[bold]{r['name'] or 'run'}[/bold]  workload: "
        + (workload["source"] if workload["kind"] == "synthetic" else f"trace [dim]{workload['source']}[/dim]")
        + (f" ({workload['format']})" if workload.get("format") else "")
        + (f" x{workload['loops']} loops" if workload["loops"] > 1 else "")
    )
    tiers = r.get("tiers") or {}
    scm = r.get("scm")
    # An All S-SCM device keeps a NAND geometry in its config but stores nothing in it (SCM role
    # "only"): its NAND geometry, GC, write amplification and die figures would all read 0.
    has_nand = not (scm and scm.get("role") == "only")
    if not has_nand:
        console.print(
            f"device: {scm['media'].upper()} only, {_bytes(scm['capacity_bytes'])} (logical {_bytes(device['logical_capacity_bytes'])}), "
            f"no NAND; middleware {device['middleware']}"
        )
    elif len(tiers) > 1:
        console.print(
            f"device: {len(tiers)} tiers, {_bytes(device['physical_capacity_bytes'])} "
            f"(logical {_bytes(device['logical_capacity_bytes'])}), placement {r['placement']}"
        )
        console.print(f"GC {device['gc_policy']}, read path {device['read_strategy']}, middleware {device['middleware']}")
        _render_tiers(tiers, device["page_size_bytes"], console)
    else:
        console.print(
            f"device: {device['channels']} ch x {device['chips_per_channel']} chips x {device['dies_per_chip']} dies x "
            f"{device['planes_per_die']} planes x {device['blocks_per_plane']} blocks x {device['pages_per_block']} pages x "
            f"{device['page_size_bytes'] // 1024} KiB = {_bytes(device['physical_capacity_bytes'])} "
            f"(logical {_bytes(device['logical_capacity_bytes'])}); GC {device['gc_policy']}, "
            f"read path {device['read_strategy']}, middleware {device['middleware']}"
        )
    if has_nand and device["logical_capacity_bytes"] > device["physical_capacity_bytes"]:
        console.print(
            "[dim]logical capacity exceeds physical: the device is sized to the pages the workload touches "
            "(ftl.sizing = footprint), while its address space (the largest address used) is larger[/dim]"
        )
    # Latencies in the unit that keeps the widest value short (an overloaded run's are seconds), so
    # the table fits 80 columns; a narrower terminal folds a number rather than cutting it short.
    longest_us = max(r[label]["latency_us"]["max"] for label in ("read", "write", "all"))
    unit, scale = ("us", 1.0) if longest_us < 1e5 else ("ms", 1e3) if longest_us < 1e8 else ("s", 1e6)
    rows = []
    for label in ("read", "write", "all"):
        op = r[label]
        lat = op["latency_us"]
        mbps = f"{op['mbps']:,.0f}" if op["mbps"] >= 100 else f"{op['mbps']:,.1f}"
        rows.append(
            [
                label,
                f"{op['count']:,}",
                f"{op['iops']:,.0f}",
                mbps,
                *(f"{lat[key] / scale:,.1f}" for key in ("mean", "p50", "p99", "p999", "max")),
            ]
        )
    headers = ("", "requests", "IOPS", "MB/s", f"mean {unit}", f"p50 {unit}", f"p99 {unit}", f"p99.9 {unit}", f"max {unit}")
    # A light frame (no vertical rules) and columns as wide as their widest number fit 80 columns.
    table = Table(show_header=True, header_style="bold", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    for index, column in enumerate(headers):
        width = max(max(len(row[index]) for row in rows), max((len(word) for word in column.split()), default=0))
        table.add_column(column, justify="right", min_width=width, overflow="fold")
    for row in rows:
        table.add_row(*row)
    console.print(table)
    gc = r["gc"]
    # Write amplification is NAND programs over host pages written to NAND: with none written (every
    # write went to SCM, or a read-only run) it reads 0.000, which says nothing.
    nand_written = r.get("host_pages_written", 0) > 0 or (r.get("flash") or {}).get("page_programs", 0) > 0 or gc["pages_copied"] > 0
    if has_nand and nand_written:
        _render_gc(r, console)
    elif has_nand:
        console.print("NAND: nothing written during the run (no GC, no write amplification)")
    _render_energy(r, has_nand, console)
    _render_details(r, scm, workload, tiers, console)


def _render_gc(r: Mapping[str, Any], console: Console) -> None:
    """The NAND GC lines: what GC did, write amplification, how it held host writes, a collapse."""
    gc = r["gc"]
    erase = r["erase_count"]
    console.print(
        f"GC: {gc['invocations']:,} invocations, {gc['blocks_collected']:,} blocks collected, "
        f"{gc['pages_copied']:,} pages copied, "
        + (f"{gc['pages_migrated']:,} migrated, " if gc.get("pages_migrated") else "")
        + f"{gc['blocks_erased']:,} erases; "
        f"write amplification {r['write_amplification']:.3f}; erase count min/mean/max "
        f"{erase['min']}/{erase['mean']:.2f}/{erase['max']} (rated {erase['endurance_pe_cycles']})"
    )
    held = gc.get("host_writes_held")
    if held:
        console.print(_held_writes_line(held))
    collapse = collapse_warning(r)
    if collapse:
        console.print(f"[yellow]warning:[/yellow] {collapse}")


def _render_energy(r: Mapping[str, Any], has_nand: bool, console: Console) -> None:
    """Energy and how busy the media were: NAND dies and channels, or an SCM-only device's banks."""
    energy = f"energy {r['energy_total_uj'] / 1e6:,.3f} J" if r["energy_total_uj"] > 0 else "energy not modelled (set device.energy.*)"
    if has_nand:
        console.print(
            f"{energy}; die utilisation {r['utilisation']['die']:.1%}, "
            f"channel {r['utilisation']['channel']:.1%}; unmapped page reads {r['unmapped_page_reads']:,}; "
            f"read-modify-writes {r['read_modify_writes']:,}"
        )
        if r["unmapped_page_reads"] > 0 and r["flash"]["page_reads"] == 0 and r["read"]["count"] > 0:
            # A run of reads on an empty drive (MQSim's shipped read scenario: preconditioning off)
            # reads nothing: say so, rather than leave 0 us unexplained.
            console.print(
                "[yellow]note:[/yellow] every read was of a page never written: no flash work, so the reads took "
                "no time. Precondition the drive (ftl.precondition) to read data."
            )
    else:
        scm = r["scm"]
        console.print(
            f"{energy}; SCM bank utilisation {scm['bank_utilisation']:.1%}, channel {scm['channel_utilisation']:.1%}; "
            f"unmapped page reads {r['unmapped_page_reads']:,}"
        )


def _render_details(
    r: Mapping[str, Any], scm: Mapping[str, Any] | None, workload: Mapping[str, Any], tiers: Mapping, console: Console
) -> None:
    """Everything after the GC and energy lines: the parts a run has (read path, middleware, caches,
    flows, SCM, events), the oracle, trace warnings and the run's speed."""
    read_path = r.get("read_path")
    if read_path and read_path["sampled_reads"]:
        sampled = read_path["sampled_reads"]
        needing = ", ".join(f"{k}: {count:,}" for k, count in enumerate(read_path["reads_needing_levels"]) if count)
        look_ahead = (
            f"; look-ahead {read_path['look_ahead_started']:,} started, {read_path['look_ahead_cancelled']:,} cancelled"
            if read_path["look_ahead_started"]
            else ""
        )
        if read_path.get("decoders"):
            # Seed 000's policies: which decoder each read started with, and how often each failed.
            uses = "; ".join(
                f"{d['decoder']} first for {d['first_choice_reads'] / sampled:.1%}, {d['failures']:,} of {d['attempts']:,} failed"
                for d in sorted(read_path["decoders"], key=lambda d: -d["attempts"])
            )
            console.print(f"decoders ({sampled:,} reads): {uses}; uncorrectable {read_path['uncorrectable_reads']:,}")
            switch = read_path.get("switch_pe_cycles") or {}
            points = lambda values: "/".join("-" if v is None else f"{v:,.0f}" for v in values)  # noqa: E731
            parts = [f"{name} {points(switch[name])}" for name in ("hot", "cold", "all") if switch.get(name)]
            if parts:
                console.print(f"switch P/E per chip class: {'; '.join(parts)}")
            warning = outside_tables_warning(read_path)
            if warning:
                console.print(f"[yellow]warning:[/yellow] {warning}")
        else:
            console.print(
                f"decoding: {read_path['hard_decision_failures'] / sampled:.1%} of {sampled:,} reads failed hard decision"
                f"{_requests_failing(read_path)}; "
                f"fewest extra sensing levels needed {{{needing}}}; uncorrectable {read_path['uncorrectable_reads']:,}{look_ahead}"
            )
    middleware = r.get("middleware") or {}
    rule_writes = sum(middleware.get(key, 0) for key in ("rule1_empty_page_writes", "rule2_victim_page_writes", "rule3_other_page_writes"))
    if rule_writes:
        attempts = middleware.get("rule2_attempts", 0)
        victims = middleware.get("victims_read", 0)
        console.print(
            f"LBA scrambler: rule 1/2/3 writes {middleware['rule1_empty_page_writes']:,}/{middleware['rule2_victim_page_writes']:,}/"
            f"{middleware['rule3_other_page_writes']:,}; rule 2 hit rate {middleware['rule2_victim_page_writes'] / attempts if attempts else 0:.1%}; "
            f"{middleware['victim_fragmented_pages'] / victims if victims else 0:.1f} dead-but-valid pages per victim read; "
            f"{middleware['fragmented_pages']:,} fragmented at the end"
        )
    deletes = r.get("deletes")
    if deletes and deletes["requests"]:
        console.print(
            f"deletes: {deletes['requests']:,} requests over {deletes['pages']:,} whole pages, sent to {deletes['target']}; "
            f"{deletes['pages_trimmed']:,} pages trimmed in the FTL"
        )
    dead = r.get("dead_data")
    if dead and (dead["pages_held"] or dead["gc_pages_copied"]):
        copied = r["gc"]["pages_copied"] + r["gc"]["pages_migrated"]
        console.print(
            f"dead data the FTL holds (deleted above it or moved by the middleware): {dead['pages_held']:,} pages at the end; "
            f"GC copied {dead['gc_pages_copied']:,} of them ({dead['gc_pages_copied'] / copied if copied else 0:.1%} of its copies, "
            f"{dead['gc_pages_copied_per_victim']:.1f} per victim)"
        )
    workload_class = r.get("workload_class")
    if workload_class:
        last = workload_class["changes"][-1]
        console.print(
            f"workload class ({workload_class['mode']}): {workload_class['final_class']} "
            f"({last['writes_per_week']:,.1f} writes per page per week, {last['read_share']:.0%} reads; {len(workload_class['changes']) - 1} changes)"
        )
    queue = r.get("host_queue")
    if queue and queue["requests_waited"]:
        console.print(
            f"host queue: {queue['requests_waited']:,} requests found the device queue ({queue['device_queue_depth']:,}) full and waited; "
            f"mean wait {queue['mean_wait_us']:,.1f} us over all requests, max {queue['max_wait_us']:,.1f} us (counted in latency)"
        )
    for event in r.get("events") or []:
        console.print(_event_line(event))
    dead = r.get("dead_time")
    if dead and (r.get("events") or len(tiers) > 1):
        stall = dead.get("longest_host_stall_us")
        console.print(
            f"dead time {dead['dead_time_us'] / 1e6:,.3f} s: the longest the host got nothing done (suspension "
            f"{dead['longest_suspension_us'] / 1e6:,.3f} s"
            + (", or a host stall)" if stall is not None else "; host stalls are not tracked here: bounded by background work)")
        )
        if stall is not None:
            console.print(f"longest host-visible stall {stall / 1e6:,.3f} s (no completion while a request waited)")
        console.print(f"longest background run on one die {dead['longest_background_span_us'] / 1e6:,.3f} s")
    pre = r["precondition"]
    if pre["pages_written"]:
        console.print(
            f"preconditioning: {pre['pages_written']:,} pages written, {pre['gc_pages_copied']:,} copied by GC "
            f"({pre['wall_seconds']:.2f} s wall)"
        )
    if scm:
        placed = scm["placement"]
        operations = scm.get("operations") or {}
        console.print(
            f"SCM ({scm['media']}, {scm['role']}, {scm['capacity_bytes'] / 2**20:,.1f} MiB, {100 * scm['used_fraction']:.1f} % used): "
            f"{placed['pieces_to_scm']:,} write pieces to SCM ({placed['hot_pieces']:,} hot, {placed['fragmented_pieces']:,} fragmented), "
            f"{placed['pieces_to_nand']:,} to NAND; {placed['pages_evicted']:,} pages evicted ({placed['forced_evictions']:,} forced), "
            f"{placed['split_reads']:,} split reads; most-written sector {scm['max_writes_per_sector']:,} writes "
            f"({scm['wear_leveling_moves']:,} wear-leveling moves); {scm['power_w'] * 1e3:,.2f} mW ({scm['io_power_w'] * 1e3:,.2f} mW I/O)"
            + (
                f"; {operations['sectors_written']:,} sectors written, {operations['sectors_read']:,} read, "
                f"mean {scm['mean_writes_per_sector']:,.2f} writes per sector slot"
                if operations and "mean_writes_per_sector" in scm
                else ""
            )
        )
    cache = r.get("data_cache")
    if cache:
        console.print(
            f"DRAM data cache ({cache['capacity_bytes'] / 2**20:,.1f} MiB"
            f"{', writes forced to flash' if cache['force_unit_access'] else ''}): read hit ratio {cache['read_hit_ratio']:.3f}, "
            f"{cache['write_page_hits']:,} of {cache['write_page_hits'] + cache['write_page_misses']:,} written pages hit; "
            f"{cache['pages_destaged_in_background']:,} pages destaged in the background, {cache['pages_destaged_at_eviction']:,} at eviction; "
            f"unsaved at a power loss: max {cache['unsaved_bytes_max'] / 2**20:,.2f} MiB, mean {cache['unsaved_bytes_mean'] / 2**20:,.2f} MiB; "
            f"DRAM bus {100 * cache['dram_utilisation']:.1f} % busy"
        )
    cmt = r.get("mapping_cache")
    if cmt:
        console.print(
            f"mapping-table cache ({cmt['capacity_entries']:,} entries, {cmt['capacity_bytes'] / 2**20:,.2f} MiB): "
            f"hit ratio {cmt['hit_ratio']:.3f}; {cmt['translation_page_reads']:,} translation reads for misses, "
            f"{cmt['translation_page_programs']:,} write-backs ({cmt['translation_page_reads_for_write_back']:,} merge reads); "
            f"{100 * cmt['translation_die_time_share']:.1f} % of die time"
        )
    gangs = r.get("ganging")
    if gangs:
        console.print(
            f"DiskSim gangs ({gangs['gangs']} of {gangs['chips_per_gang']} chips, {gangs['element_overlap'].replace('_', ' ')}): "
            f"{100 * gangs['mean_utilisation']:.1f} % busy; {gangs['read_pieces']:,} read pieces, {gangs['write_pieces']:,} write pieces "
            f"({gangs['partial_write_pieces']:,} read-modify-writes, {gangs['rewritten_pages']:,} pages rewritten); "
            f"{gangs['cleanings']:,} cleanings holding a gang for {gangs['cleaning_ns'] / 1e6:,.1f} ms"
        )
    logged = r.get("request_log")
    if logged and logged.get("mean_breakdown_us"):
        parts = logged["mean_breakdown_us"]
        names = (
            ("host_queue_us", "host queue"),
            ("before_flash_us", "before flash (gates)"),
            ("die_wait_us", "die wait"),
            ("array_us", "array"),
            ("channel_wait_us", "channel wait"),
            ("channel_us", "channel"),
            ("dram_us", "DRAM"),
            ("controller_us", "decode"),
        )
        console.print(
            "mean latency breakdown (request log, critical path), us: " + ", ".join(f"{label} {parts[key]:,.1f}" for key, label in names)
        )
    queued = r.get("scheduler")
    if queued:
        suspended = queued["program_suspensions"] + queued["erase_suspensions"]
        suspensions = (
            f"; {queued['program_suspensions']:,} program and {queued['erase_suspensions']:,} erase suspensions "
            f"({queued['suspend_time_us'] / 1e3:,.1f} ms suspending, {queued['resumes']:,} resumes)"
            if suspended
            else "; no suspension"
        )
        console.print(
            f"die queues ({queued['policy'].replace('_', ' ')}): {queued['queued_operations']:,} operations waited "
            f"(mean {queued['mean_queue_wait_us']:,.1f} us, longest {queued['longest_queue_wait_us']:,.1f} us){suspensions}"
        )
    flows = r.get("flows")
    if flows:
        fairness = f", fairness {flows['fairness']:.2f}" if flows.get("fairness") is not None else ""
        console.print(f"{flows['queues']} flows, {flows['arbitration'].replace('_', ' ')}{fairness}:")
        for flow in flows["per_flow"]:
            lat = flow["all"]["latency_us"]
            slowdown = (
                f", slowdown {flow['slowdown']:.2f} (alone {flow['alone_mean_latency_us']:,.1f} us)"
                if flow.get("slowdown") is not None
                else ""
            )
            console.print(
                f"  {flow['name']} ({flow['priority_class']}): {flow['requests']:,} requests, {flow['iops']:,.0f} IOPS, "
                f"mean {lat['mean']:,.1f} us, p99 {lat['p99']:,.1f} us, p99.9 {lat['p999']:,.1f} us{slowdown}"
            )
    integrity = r["integrity"]
    if integrity["enabled"]:
        unit = "sectors" if scm else "pages"
        console.print(
            f"integrity oracle: {integrity['reads_checked']:,} {unit} read and {integrity['pages_checked_at_end']:,} "
            f"{unit} at the end returned the latest write"
        )
    if workload["skipped_lines"]:
        console.print(f"[yellow]skipped {workload['skipped_lines']:,} malformed trace lines[/yellow]")
        for message in workload["skipped_line_messages"]:
            console.print(f"  [dim]{message}[/dim]")
    if workload["timestamps_reordered"]:
        console.print(
            f"[yellow]{workload['timestamps_reordered']:,} requests had decreasing timestamps (replayed at the previous time)[/yellow]"
        )
    console.print(
        f"{r['requests']:,} requests completed; simulated {r['simulated_seconds']:.3f} s in {r['wall_seconds']:.2f} s wall "
        f"({r['requests_per_cpu_second']:,.0f} requests per CPU-second of replay)"
    )


def render_trace_stats(report: dict[str, Any], console: Console) -> None:
    scan = report["scan"]
    s = report["stats"]
    console.print(f"[bold]{scan['path']}[/bold] ({scan['format']})")
    table = Table(show_header=False)
    table.add_column("", style="bold")
    table.add_column("", justify="right")
    rows = [
        ("requests", f"{s['requests']:,}"),
        ("reads / writes", f"{s['reads']:,} / {s['writes']:,} ({s['read_share']:.1%} reads)"),
        ("bytes read / written", f"{_bytes(s['bytes_read'])} / {_bytes(s['bytes_written'])}"),
        ("request size min / mean / max", f"{s['min_request_bytes']:,} / {s['mean_request_bytes']:,.0f} / {s['max_request_bytes']:,} B"),
        (f"footprint ({s['block_bytes']} B blocks)", f"{s['footprint_blocks']:,} blocks = {_bytes(s['footprint_bytes'])}"),
        ("written blocks", f"{s['written_blocks']:,}"),
        ("devices / address space", f"{len(scan['devices'])} / {_bytes(scan['address_space_bytes'])}"),
        ("duration", f"{s['duration_s']:,.3f} s"),
        (
            "inter-arrival mean / p50 / p99 / max",
            f"{s['inter_arrival']['mean_us']:,.1f} / {s['inter_arrival']['p50_us']:,.1f} / "
            f"{s['inter_arrival']['p99_us']:,.1f} / {s['inter_arrival']['max_us']:,.1f} us",
        ),
        ("writes per block per week", f"{s['writes_per_block_per_week']:,.2f}"),
        ("workload class (seed 000)", f"{s['class'].replace('_', ' ')} ({s['class_basis']})"),
    ]
    for name, value in rows:
        table.add_row(name, value)
    console.print(table)
    if report.get("timestamps_reordered"):
        console.print(
            f"[yellow]{report['timestamps_reordered']:,} requests have decreasing timestamps (a run replays each at the previous time)[/yellow]"
        )
    skipped = scan.get("skipped", {})
    if skipped.get("count"):
        console.print(f"[yellow]skipped {skipped['count']:,} malformed lines[/yellow]")
        for message in skipped.get("first_messages", []):
            console.print(f"  [dim]{message}[/dim]", markup=False)
    sizes = Table(title="request sizes", show_header=True, header_style="bold")
    sizes.add_column("size <=", justify="right")
    sizes.add_column("requests", justify="right")
    sizes.add_column("share", justify="right")
    for bucket in s["size_histogram"]:
        sizes.add_row(_bytes(bucket["upper_bytes"]), f"{bucket['requests']:,}", f"{bucket['requests'] / s['requests']:.1%}")
    console.print(sizes)
    if scan["skipped"]["count"]:
        console.print(f"[yellow]skipped {scan['skipped']['count']:,} malformed lines[/yellow]")
        for message in scan["skipped"]["first_messages"]:
            console.print(f"  [dim]{message}[/dim]")


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.2e}"


def render_ecc_curve(result: Any, paths: dict[str, Any], console: Console) -> None:
    spec = result.table["spec"]
    source = (
        "loaded from cache"
        if result.from_cache
        else f"simulated in {result.table['wall_seconds']:.1f} s on {result.table['threads']} threads"
    )
    frames = sum(p["frames"] for p in result.points)
    console.print(
        f"[bold]ECC curve[/bold] {spec['cell'].upper()} page {spec['page']}, {spec['retention_hours']:g} h retention: "
        f"{len(result.points)} points, {frames:,} frames, {source} (table {result.table['key']}, v{result.table['version']})"
    )
    table = Table(
        title=f"Tolerable raw bit error rate per decoder (FER {spec['comparison_frame_error_rate']:g} measured; {spec['target_frame_error_rate']:g} exact or extrapolated)"
    )
    for column in (
        "decoder",
        "lowest FER measured",
        f"RBER @ {spec['comparison_frame_error_rate']:g}",
        "x BCH",
        f"RBER @ {spec['target_frame_error_rate']:g}",
        "how",
    ):
        table.add_column(column, justify="left" if column in ("decoder", "how") else "right")
    for row in result.summary_rows():
        how = row["target_method"] or "-"
        table.add_row(
            row["decoder"],
            _rate(row["lowest_measured_fer"]),
            _rate(row["rber_at_comparison_fer"]),
            "-" if row["vs_bch"] is None else f"{row['vs_bch']:.2f}",
            _rate(row["rber_at_target_fer"]),
            how if len(how) < 60 else how[:57] + "...",
        )
    console.print(table)
    for name, path in paths.items():
        console.print(f"[dim]{name}: {path}[/dim]")


def render_rber(rows: list[dict[str, Any]], console: Console) -> None:
    pages = sorted({r["page"] for r in rows})
    table = Table(title="Raw bit error rate of the NAND channel model (hard references)")
    for column in ["chip", "retention h", "P/E cycles"] + [f"page {p}" for p in pages]:
        table.add_column(column, justify="right")
    grouped: dict[tuple[int, float, float], dict[int, float]] = {}
    for r in rows:
        grouped.setdefault((r["chip"], r["retention_hours"], r["pe_cycles"]), {})[r["page"]] = r["rber"]
    for (chip, retention, pe), by_page in grouped.items():
        table.add_row(str(chip), f"{retention:g}", f"{pe:,.0f}", *[_rate(by_page.get(p)) for p in pages])
    console.print(table)


def render_sweep(outcome: Any, console: Console) -> None:
    """One line per point: its axis labels, status, and a few headline metrics."""
    rows = outcome.rows
    label_keys = sorted({k for row in rows for k in row if k.startswith("point.")})
    table = Table(
        title=f"Sweep: {len(rows)} points ({outcome.ran} run now, {outcome.skipped} already stored, {outcome.failed} failed) in {outcome.wall_seconds:.1f} s"
    )
    for key in label_keys:
        table.add_column(key.removeprefix("point."))
    # The metrics follow what the sweep served: write latency when it has writes (issue 48).
    from ssdlab.sweep_report import summary_columns

    columns = summary_columns(rows)
    for column in ("status", *(header for header, _, _ in columns), "seconds"):
        table.add_column(column, justify="right")
    for row in rows:
        ok = row["status"] == "ok"

        def metric(key: str, fmt: str, row: dict[str, Any] = row, ok: bool = ok) -> str:
            return fmt.format(row[key]) if ok and row.get(key) is not None else "-"

        table.add_row(
            *[str(row.get(k, "")) for k in label_keys],
            "ok" if ok else f"[red]failed[/red]: {str(row.get('error', ''))[:60]}",
            *(metric(key, fmt) for _, key, fmt in columns),
            f"{row['point_seconds']:.1f}",
        )
    console.print(table)
    console.print(
        f"[dim]results: {outcome.out_dir / 'results.parquet'} (one row per point; per-point files in {outcome.out_dir / 'points'})[/dim]"
    )


def render_decoding_table(table: dict[str, Any], console: Console, with_toml: bool = True) -> None:
    spec = table["spec"]
    title = (
        f"Decoding failure probability, {spec['cell'].upper()} at {spec['pe_cycles']:,.0f} P/E, {spec['retention_hours']:g} h "
        f"at {spec['storage_temperature_c']:g} C ({spec['frames_per_case']:,} frames per chip, page type and precision)"
    )
    grid = Table(title=title)
    rows = spec["interleave_groups"] or [[chip] for chip in range(len(table["failure_probabilities"]))]
    grid.add_column("chips" if spec["interleave_groups"] else "chip", justify="right")
    for k in range(len(table["mean"])):
        grid.add_column("hard" if k == 0 else f"+{k} level{'s' if k > 1 else ''}", justify="right")
    for chips, row in zip(rows, table["failure_probabilities"]):
        grid.add_row(",".join(str(c) for c in chips), *(f"{p:.4f}" for p in row))
    grid.add_row("mean", *(f"{p:.4f}" for p in table["mean"]))
    console.print(grid)
    if with_toml:
        # Unfolded at any console width: the block is meant to be pasted into a config.
        console.print(table["config_toml"], highlight=False, markup=False, soft_wrap=True)


def render_decoder_tables(result: dict[str, Any], console: Console) -> None:
    """Tolerable P/E of each decoder by retention (seed 000 Fig. 5), then the chip-mean failure
    probability of each decoder over the P/E x retention grid."""
    spec = result["spec"]
    target = spec["target_failure_probability"]
    hours = spec["retention_hours"]
    tolerable = Table(
        title=f"Tolerable P/E (mean failure probability reaches {target:g}), {spec['cell'].upper()} at {spec['storage_temperature_c']:g} C"
    )
    tolerable.add_column("decoder")
    for h in hours:
        tolerable.add_column(f"{h:g} h", justify="right")
    beyond = f">{spec['pe_cycles'][-1]:,.0f}"

    def shown(pe: float | None, interval: list[float | None] | None) -> str:
        # The 95 % interval (conservative; ecc decoder_tables.rs) after the estimate.
        text = beyond if pe is None else f"{pe:,.0f}"
        if interval:
            low, high = interval
            text += f" [{beyond if low is None else f'{low:,.0f}'}, {beyond if high is None else f'{high:,.0f}'}]"
        return text

    for table in result["tables"]:
        intervals = table.get("tolerable_pe_interval") or [None] * len(table["tolerable_pe"])
        tolerable.add_row(table["decoder"], *(shown(pe, interval) for pe, interval in zip(table["tolerable_pe"], intervals)))
    console.print(tolerable)
    console.print("[brackets: 95 % interval of the tolerable P/E from the Monte Carlo estimates' Wilson bounds]", markup=False)
    for table in result["tables"]:
        grid = Table(title=f"{table['decoder']}: failure probability, mean over chips ({table['frames']:,} frames)")
        grid.add_column("P/E", justify="right")
        for h in hours:
            grid.add_column(f"{h:g} h", justify="right")
        chips = table["failure_probabilities"]
        for index, pe in enumerate(spec["pe_cycles"]):
            grid.add_row(f"{pe:,.0f}", *(f"{sum(chip[index][r] for chip in chips) / len(chips):.4f}" for r in range(len(hours))))
        console.print(grid)


def _render_tiers(tiers: dict, page_bytes: int, console: Console) -> None:
    """Three short lines per tier of a heterogeneous device: its make-up, its data, its wear."""
    for name, tier in tiers.items():
        console.print(
            f"  {name} ({tier['cell_type']}): {tier['chips']} chips, {tier['channels']} ch, {tier['planes_per_die']} planes x "
            f"{tier['blocks_per_plane']} blocks x {tier['pages_per_block']} pages = {_bytes(tier['physical_capacity_bytes'])}"
        )
        console.print(
            f"    holds {_bytes(tier['valid_pages'] * page_bytes)}; host pages {tier['host_pages_written']:,}; "
            f"migrated in {tier['pages_migrated_in']:,}, out {tier['pages_migrated_out']:,}; GC copies {tier['gc']['pages_copied']:,}"
        )
        erase = tier["erase_count"]
        energy = f"; {tier['energy_total_uj'] / 1e6:,.3f} J" if tier["energy_total_uj"] > 0 else ""
        console.print(
            f"    {tier['collector']}; erases mean/max {erase['mean']:.2f}/{erase['max']} "
            f"(rated {erase['endurance_pe_cycles']}); dies {tier['utilisation']['die']:.1%} busy{energy}"
        )


def _event_line(event: dict) -> str:
    """One device event: when it fired and what the chip held; then when it was empty."""
    head = f"event {event['action']} chip {event['chip']}"
    if event["fired_at_ns"] is None:
        return f"{head}: never fired (its trigger was not reached)"
    text = f"{head} at {event['fired_at_ns'] / 1e9:,.3f} s"
    if event["action"] == "chip_writable":
        return text
    text += f": {event['valid_pages_at_fire']:,} valid pages\n  "
    if event["emptied_at_ns"] is not None:
        text += f"empty at {event['emptied_at_ns'] / 1e9:,.3f} s ({event['pages_moved']:,} moved)"
    else:
        text += f"not empty at the end ({event['pages_moved']:,} moved)"
    if event["suspended_ns"]:
        text += f"; host suspended {event['suspended_ns'] / 1e9:,.3f} s"
    if event.get("drain"):
        # One step moves one block: the typical and longest time a block moved held its dies.
        text += f"\n  drain {event['drain'].replace('_', ' ')}: {event['steps']:,} blocks"
        if event["steps"]:
            text += f", {event['median_step_ns'] / 1e6:,.1f} ms typical, {event['longest_step_ns'] / 1e6:,.1f} ms longest each"
    return text


def _held_writes_line(held: dict[str, Any]) -> str:
    """How GC held host writes back (``result.gc.host_writes_held``, docs/gc-modes.md)."""
    mode = held["mode"].replace("_", " ")
    if held["mode"] == "background":
        return "GC mode background: host writes never wait for GC (GC may fall behind without bound)"
    rule = f"GC mode {mode} (writes wait below {held['threshold_blocks']:,} erased blocks per plane)"
    if not held["programs_held"]:
        return f"{rule}: no write waited"
    line = (
        f"{rule}: {held['requests_held']:,} write requests waited ({held['programs_held']:,} programs, "
        f"mean {held['wait_mean_us'] / 1e3:,.2f} ms, max {held['wait_max_us'] / 1e3:,.1f} ms); "
        f"a plane held writes {held['any_plane_blocked_fraction']:.1%} of the time (at most "
        f"{held['max_planes_blocked']:,} at once)"
    )
    if held["gc_yields"]:
        line += f"; GC stepped aside {held['gc_yields']:,} times"
    return line


def collapse_warning(result: Mapping[str, Any]) -> str | None:
    """A sentence when the drive collapsed (the thresholds of a degenerate comparison side,
    ``ssdlab.reproduce.base``): write amplification above 20, a block erased past its rated endurance,
    or most GC invocations ending short of their watermark (GC has no room to work in); None otherwise."""
    from ssdlab.reproduce.base import DEGENERATE_WRITE_AMPLIFICATION

    parts = []
    amplification = result.get("write_amplification") or 0.0
    if amplification > DEGENERATE_WRITE_AMPLIFICATION:
        parts.append(f"write amplification {amplification:,.1f} is above {DEGENERATE_WRITE_AMPLIFICATION:g}")
    erases = result.get("erase_count") or {}
    if erases.get("endurance_pe_cycles") and erases.get("max", 0) > erases["endurance_pe_cycles"]:
        parts.append(f"a block was erased {erases['max']:,} times, past the rated {erases['endurance_pe_cycles']:,}")
    gc = result.get("gc") or {}
    if gc.get("invocations") and gc.get("invocations_short", 0) > SHORT_INVOCATIONS_WARNING * gc["invocations"]:
        parts.append(
            f"{gc['invocations_short']:,} of {gc['invocations']:,} GC invocations ended short of the high watermark "
            f"({gc.get('invocations_stuck', 0):,} on stuck planes)"
        )
    if not parts:
        return None
    return "the drive collapsed: " + "; ".join(parts) + " (more spare flash or another victim policy; docs/gc-modes.md)."


# Share of GC invocations ending short of their watermark past which a run's summary warns.
SHORT_INVOCATIONS_WARNING = 0.5


def _requests_failing(read_path: dict) -> str:
    """ ", in N % of R requests": the requests with a page that failed hard decision (absent in older results)."""
    requests = read_path.get("sampled_requests") or 0
    if not requests:
        return ""
    return f" ({read_path.get('requests_with_hard_failures', 0) / requests:.1%} of {requests:,} requests)"


def outside_tables_warning(read_path: Mapping[str, Any] | None) -> str | None:
    """A sentence on reads looked up outside the decoder tables' grid (clamped to its edge), or None."""
    outside = (read_path or {}).get("outside_decoder_tables") or {}
    parts = []
    if outside.get("reads_past_pe_grid"):
        parts.append(
            f"{outside['reads_past_pe_grid']:,} reads on blocks past the tables' last P/E ({outside['grid_max_pe_cycles']:,.0f}; "
            f"up to {outside['max_pe_cycles_past_grid']:,}) used the last P/E row"
        )
    if outside.get("reads_younger_than_age_grid"):
        parts.append(
            f"{outside['reads_younger_than_age_grid']:,} reads of data younger than {outside['grid_min_age_hours']:g} h used the youngest column"
        )
    if outside.get("reads_older_than_age_grid"):
        parts.append(
            f"{outside['reads_older_than_age_grid']:,} reads of data older than {outside['grid_max_age_hours']:g} h "
            f"(up to {outside['max_age_hours_past_grid']:,.0f} h) used the oldest column"
        )
    if not parts:
        return None
    return "decoder tables clamped: " + "; ".join(parts) + " (extend read_path.decoder_tables with ssdlab ecc decoder-tables)."
