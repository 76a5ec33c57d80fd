"""The study scripts rewrite their reports but keep what was written there by hand: a critique
round's notes in ``results/critique/<game>.md`` (``scripts/studies/critique_tables.py``) and the
"What changed" section of the Trionfo bids report (``scripts/studies/study_trionfo.py``). A rerun
of Trionfo's answers once dropped both."""
import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "studies" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_critique_tables_keeps_the_hand_written_sections(tmp_path):
    ct = _script("critique_tables")
    f = tmp_path / "g.md"
    assert ct.kept_notes(f) == []                                      # no earlier file
    f.write_text("# T\n\nheader\n\n" + ct.GENERATED + "\n\nold report\n")
    assert ct.kept_notes(f) == []                                      # nothing hand-written
    f.write_text("# T\n\nheader\n\n## Notes\n\nkept\n\n" + ct.GENERATED + "\n\nold report\n")
    assert ct.kept_notes(f) == ["## Notes", "", "kept", ""]
    committed = ROOT / "results" / "critique" / "trionfo.md"
    assert any(line.startswith("## Issue 41, the solo's round") for line in ct.kept_notes(committed))


def test_study_trionfo_keeps_what_changed(tmp_path):
    st = _script("study_trionfo")
    f = tmp_path / "report.md"
    assert st.kept_changes(f) == []
    f.write_text("# T\n\n## Answer\n\nx\n\n" + st.CHANGED + "\n\nby hand\n\n![fig](f.png)\n\n## Forced\n")
    assert st.kept_changes(f) == [st.CHANGED, "", "by hand", ""]
    f.write_text("# T\n\n" + st.CHANGED + "\n\nby hand\n\n## Forced\n")
    assert st.kept_changes(f) == [st.CHANGED, "", "by hand", ""]
    kept = st.kept_changes(ROOT / "results" / "trionfo_bids" / "report.md")
    assert kept[0] == st.CHANGED and any("written by hand" in line for line in kept)
