"""The records of a fixed set of runs per game (every preset, two strategy mixes) are
byte-identical to the digests committed in tests/data/record_digests.json (written by
scripts/tools/record_digests.py). Work meant to keep the play — compile-time changes, refactors —
must keep them; a change meant to alter play rewrites the file and says so."""
import hashlib
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts" / "tools"))
import record_digests as RD

EXPECTED = json.loads((ROOT / "tests" / "data" / "record_digests.json").read_text())
CONFIGS = list(RD.configs())


def test_the_fixed_set_is_the_committed_one():
    assert sorted(RD.key(*c) for c in CONFIGS) == sorted(EXPECTED)


@pytest.mark.parametrize("config", CONFIGS, ids=[RD.key(*c) for c in CONFIGS])
def test_records_are_byte_identical(config):
    got = hashlib.sha256(RD.records(*config).tobytes()).hexdigest()
    assert got == EXPECTED[RD.key(*config)], f"{RD.key(*config)}: the records changed"
