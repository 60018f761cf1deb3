"""bench/mqsim_compare.py: MQSim's results XML read by name, bad files named, the workload XML written."""

from __future__ import annotations

import importlib.util
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
