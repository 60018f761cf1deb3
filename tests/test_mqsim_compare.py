"""bench/mqsim_compare.py: MQSim's results XML read by name, bad files named, the workload XML written."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _module():
    spec = importlib.util.spec_from_file_location("mqsim_compare", ROOT / "bench" / "mqsim_compare.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FTL_ATTRIBUTES = (
    "Issued_Flash_Read_CMD Issued_Flash_Multiplane_Read_CMD Issued_Flash_Program_CMD Issued_Flash_Multiplane_Program_CMD "
    "Issued_Flash_Erase_CMD Issued_Flash_Multiplane_Erase_CMD Issued_Flash_Read_CMD_For_Mapping Issued_Flash_Program_CMD_For_Mapping "
    "CMT_Hits CMT_Misses"
).split()


def _results_xml(path: Path, *, iops: str = "10000") -> Path:
    # As MQSim writes them: a flow's numbers as child elements, the FTL's as attributes.
    ftl = " ".join(f'{name}="{index + 1}"' for index, name in enumerate(FTL_ATTRIBUTES))
    flow = {
        "Name": "Host.IO_Flow.Trace.t",
        "Request_Count": "100",
        "Read_Request_Count": "60",
        "Write_Request_Count": "40",
        "IOPS": iops,
        "Device_Response_Time": "300",
        "End_to_End_Request_Delay": "337",
    }
    children = "".join(f"<{name}>{value}</{name}>" for name, value in flow.items())
    path.write_text(
        f"<MQSim_Results><Host><Host.IO_Flow>{children}</Host.IO_Flow></Host><SSDDevice><SSDDevice.FTL {ftl}/></SSDDevice></MQSim_Results>",
        encoding="ascii",
    )
    return path


def test_mqsim_results_are_read_by_name(tmp_path: Path):
    results = _module().mqsim_results(_results_xml(tmp_path / "r.xml"))
    assert (results["requests"], results["read_requests"], results["end_to_end_us"], results["device_response_us"]) == (100, 60, 337, 300)
    assert results["read_commands"] == 1 and results["cmt_misses"] == len(FTL_ATTRIBUTES)


def test_a_bad_results_file_is_named(tmp_path: Path):
    module = _module()
    with pytest.raises(module.InputError, match="IOPS"):
        module.mqsim_results(_results_xml(tmp_path / "r.xml", iops="fast"))
    (tmp_path / "other.xml").write_text("<Something/>", encoding="ascii")
    with pytest.raises(module.InputError, match="Host.IO_Flow"):
        module.mqsim_results(tmp_path / "other.xml")
    with pytest.raises(module.InputError, match="cannot read"):
        module.mqsim_results(tmp_path / "missing.xml")


def test_the_workload_xml_names_the_trace(tmp_path: Path, capsys):
    trace = tmp_path / "a.trace"
    trace.write_text("0 0 0 8 1\n", encoding="ascii")
    out = tmp_path / "w.xml"
    assert _module().main(["--trace", str(trace), "--write-workload-xml", str(out)]) == 0
    text = out.read_text(encoding="ascii")
    assert f"<File_Path>{trace.resolve()}</File_Path>" in text and "<Initial_Occupancy_Percentage>2<" in text
    assert _module().main(["--trace", str(tmp_path / "none.trace")]) == 2
    assert "no such file" in capsys.readouterr().err


# The scenario mode (issue 49): MQSim's own files through ssdlab's importer, flow by flow.
RESULTS = ROOT / "tests" / "data" / "mqsim_results"
TINY_SSD = RESULTS / "tiny-ssdconfig.xml"
TINY_WORKLOAD = RESULTS / "tiny-workload.xml"
TINY_RESULTS = RESULTS / "tiny-results.xml"


def test_every_flow_of_mqsim_results_is_read_in_order():
    flows = _module().mqsim_flow_results(TINY_RESULTS)
    assert [flow["name"] for flow in flows] == ["Host.IO_Flow.Synth.No_0", "Host.IO_Flow.Synth.No_1"]
    first, second = flows
    assert (first["requests"], first["write_requests"], first["end_to_end_us"], first["max_end_to_end_us"]) == (300, 300, 2595, 4197)
    assert (second["read_requests"], second["write_requests"], second["device_response_us"]) == (68, 82, 1570)
    # MQSim divides by whole seconds: 300 requests at 150 IOPS is a 2-second clock; "inf" is a run under 1 s.
    assert first["clock_seconds"] == 2 and second["clock_seconds"] == 0


def test_the_flows_of_a_tiny_imported_scenario_are_compared(tmp_path: Path, capsys):
    out = tmp_path / "both.json"
    code = _module().main(
        ["--mqsim-config", str(TINY_SSD), "--mqsim-workload", str(TINY_WORKLOAD), "--mqsim-xml", str(TINY_RESULTS), "--json", str(out)]
    )
    text = capsys.readouterr().out
    assert code == 0
    assert (
        "### flow 1: ssdlab flow1, MQSim Host.IO_Flow.Synth.No_0" in text
        and "### flow 2: ssdlab flow2, MQSim Host.IO_Flow.Synth.No_1" in text
    )
    # Both run the flows' Total_Requests_To_Generate; the ratio column divides ssdlab's by MQSim's.
    assert "| requests | 300 | 300 | 1.00 |" in text and "| requests | 150 | 150 | 1.00 |" in text
    both = json.loads(out.read_text())
    ours = both["ssdlab"]
    assert [flow["requests"] for flow in ours] == [300, 150]
    assert ours[0]["read_requests"] == 0 and ours[1]["read_requests"] + ours[1]["write_requests"] == 150
    mean = ours[0]["end_to_end_us"]
    assert mean > 0 and f"| mean response time, us (end to end) | {mean:,.1f} | 2,595.0 | {mean / 2595:.2f} |" in text
    # MQSim's IOPS of a run under one second is "inf": no ratio is printed for it.
    assert "| inf | - |" in text


def test_results_of_another_scenario_are_refused(tmp_path: Path, capsys):
    # MQSim's results with the second flow cut out.
    text = TINY_RESULTS.read_text(encoding="ascii")
    second = text.index("<Host.IO_Flow>", text.index("</Host.IO_Flow>"))
    one_flow = tmp_path / "one.xml"
    one_flow.write_text(text[:second] + text[text.index("</Host.IO_Flow>", second) + len("</Host.IO_Flow>") :], encoding="ascii")
    code = _module().main(["--mqsim-config", str(TINY_SSD), "--mqsim-workload", str(TINY_WORKLOAD), "--mqsim-xml", str(one_flow)])
    assert code == 2 and "has 1 flow(s), ssdlab's run of the scenario 2" in capsys.readouterr().err
    assert _module().main(["--mqsim-config", str(TINY_SSD), "--mqsim-workload", str(TINY_WORKLOAD)]) == 2
    assert "give --mqsim-xml" in capsys.readouterr().err
    code = _module().main(
        ["--mqsim-config", str(TINY_SSD), "--mqsim-workload", str(TINY_WORKLOAD), "--scenario", "2", "--mqsim-xml", str(TINY_RESULTS)]
    )
    assert code == 2 and "--scenario 2" in capsys.readouterr().err


def test_mqsim_gets_the_chosen_scenario_alone_with_absolute_traces(tmp_path: Path):
    module = _module()
    shipped = ROOT / "tests" / "data" / "mqsim" / "workload.xml"
    copy = module.one_scenario_workload(shipped, 3, tmp_path)
    text = copy.read_text(encoding="ascii")
    assert text.count("<IO_Scenario>") == 1 and "IO_Flow_Parameter_Set_Trace_Based" in text
    assert f"<File_Path>{(ROOT / 'tests' / 'data' / 'mqsim' / 'traces' / 'tpcc-small.trace').resolve()}</File_Path>" in text
    with pytest.raises(module.InputError, match="has 3 IO_Scenario"):
        module.one_scenario_workload(shipped, 4, tmp_path)


def test_measure_reports_the_child_cpu_and_peak_memory():
    # A child that holds 60 MB and spins: its own accounting, not the parent's.
    module = _module()
    measured = module.measure([sys.executable, "-c", "block = bytearray(60_000_000); sum(range(3_000_000))"])
    assert measured.exit_code == 0 and measured.peak_rss_bytes >= 60_000_000 and measured.cpu_seconds > 0
    with pytest.raises(module.InputError, match="exited 3"):
        module.measure([sys.executable, "-c", "raise SystemExit(3)"])


def test_time_alternates_ssdlab_and_mqsim_and_prints_the_ratio(tmp_path: Path, monkeypatch):
    module = _module()
    order = []

    def fake_measure(command, cwd=None):
        is_mqsim = command[0] == str(fake_binary.resolve())
        order.append("MQSim" if is_mqsim else "ssdlab")
        if is_mqsim:
            # MQSim writes its results beside the workload it was given.
            (Path(cwd) / "workload_scenario_1.xml").write_text(TINY_RESULTS.read_text())
            return module.Measured(cpu_seconds=10.0, peak_rss_bytes=2_000_000_000, exit_code=0)
        assert command[command.index("--scenario") + 1] == "1" and "--quiet" in command
        return module.Measured(cpu_seconds=2.0, peak_rss_bytes=100_000_000, exit_code=0)

    fake_binary = tmp_path / "MQSim"
    fake_binary.write_text("#!/bin/sh\n")
    fake_binary.chmod(0o755)
    monkeypatch.setattr(module, "measure", fake_measure)
    text = module.time_both(fake_binary, TINY_SSD, TINY_WORKLOAD, 1, [], 3)
    assert order == ["ssdlab", "MQSim"] * 3
    assert "| median | 2.00 | 100 | 10.00 | 2,000 |" in text and "CPU 5.0x, peak memory 20.0x" in text
    with pytest.raises(module.InputError, match="not an executable"):
        module.time_both(tmp_path / "none", TINY_SSD, TINY_WORKLOAD, 1, [], 1)


def test_time_in_trace_mode_runs_both_on_the_trace_and_reads_mqsims_last_results(tmp_path: Path, monkeypatch):
    module = _module()
    trace = tmp_path / "a.trace"
    trace.write_text("0 0 0 16 1\n")
    ssdconfig = tmp_path / "ssdconfig.xml"
    ssdconfig.write_text("<Execution_Parameter_Set/>")
    order = []

    def fake_measure(command, cwd=None):
        if command[0] == str(fake_binary.resolve()):
            order.append("MQSim")
            # MQSim is given the drive and a workload XML replaying the trace, in its own folder.
            assert command[command.index("-i") + 1] == str(ssdconfig.resolve())
            workload = Path(command[command.index("-w") + 1])
            assert workload.parent == Path(cwd) and f"<File_Path>{trace.resolve()}</File_Path>" in workload.read_text()
            _results_xml(Path(cwd) / "workload_scenario_1.xml", iops=str(1000 * len(order)))
            return module.Measured(cpu_seconds=30.0, peak_rss_bytes=2_000_000_000, exit_code=0)
        order.append("ssdlab")
        assert command[command.index("run") + 1] == "mqsim-default" and "--quiet" in command
        assert f"workload.trace.path={json.dumps(str(trace.resolve()))}" in command and "device.data_cache.enabled=false" in command
        return module.Measured(cpu_seconds=1.0, peak_rss_bytes=100_000_000, exit_code=0)

    fake_binary = tmp_path / "MQSim"
    fake_binary.write_text("#!/bin/sh\n")
    fake_binary.chmod(0o755)
    monkeypatch.setattr(module, "measure", fake_measure)
    text, results = module.time_trace(fake_binary, ssdconfig, trace, "mqsim-default", ["device.data_cache.enabled=false"], 2, 2)
    assert order == ["ssdlab", "MQSim"] * 2
    assert "| median | 1.00 | 100 | 30.00 | 2,000 |" in text and "CPU 30.0x, peak memory 20.0x" in text
    assert results["iops"] == 4000  # the last run's
    with pytest.raises(module.InputError, match="no such file"):
        module.time_trace(fake_binary, tmp_path / "none.xml", trace, "mqsim-default", [], 2, 1)
    # The command line: --mqsim-config in trace mode only with --time.
    assert module.main(["--trace", str(trace), "--mqsim-config", str(ssdconfig)]) == 2
