"""``cardsim play`` (issue 43): the engine in-process (screens, hint, critique, saving, replay,
bad input) and one scripted game per family (rummy: Tonk, trick: Marafon, Tripoli) driven
through a pseudo-terminal at 80x24, its screens checked."""
from __future__ import annotations

import json
import os
import re
import sys

import pytest
from typer.testing import CliRunner

from cardsim.sim.cli import app
from cardsim.sim.errors import UsageError
from cardsim.sim.play import WIDTH, PlaySession, load_document, replay_lines, run_terminal
from cardsim.sim.step import ActionValue
from cli_helpers import assert_usage_error, cardsim_cmd, invoke


def scripted(s: PlaySession, answers, save=None):
    """``run_terminal`` on ``s`` with ``answers`` typed in order (then 1 at every prompt); the
    lines it printed, prompts included."""
    it = iter(answers)
    lines = []

    def prompt(text):
        lines.append(text)
        return next(it, "1")
    run_terminal(s, save, echo=lines.append, prompt=prompt)
    return lines


def fits(lines):
    too_wide = [x for x in lines if len(x) > WIDTH]
    assert not too_wide, too_wide


# ---- the engine -------------------------------------------------------------------------------


def test_the_tonk_screen_shows_what_the_seat_sees():
    """Own hand sorted, the pile, the spreads, the others' cards only as counts, the actions
    numbered in the game's words; every line within 80 columns."""
    from cardsim.sim.games.tonk.step import fmt_mask
    s = PlaySession("tonk", players=3, seed=11)
    s.advance()
    assert s.my_turn()
    screen = s.screen(s.events())
    fits(screen)
    text = "\n".join(screen)
    obs = s.state.observation(0)
    assert f"your hand {fmt_mask(obs['hand'])}" in text
    assert "cards [" in text and "stock" in text
    for q in (1, 2):                    # another seat's cards it has not shown appear nowhere
        hidden = s.state.observation(q)["hand"] & ~obs["taken"][q]
        assert hidden
        for card in fmt_mask(hidden).split():
            assert not re.search(rf"(?<![\w]){re.escape(card)}(?![\w])", text), (card, text)
    legal = s.legal()
    for i, (_, words) in enumerate(legal):
        assert re.search(rf"^\s*{i + 1}  {re.escape(words)}", text, re.M)


def test_a_tonk_hint_has_values_with_intervals():
    s = PlaySession("tonk", seed=11, worlds=16)
    s.advance()
    lines = s.hint()
    fits(lines)
    assert "95% interval" in lines[0]
    rows = lines[1:]
    assert len(rows) == len(s.legal()) and all("±" in r for r in rows)
    means = [float(re.search(r"([+-]\d+\.\d+) ±", r)[1]) for r in rows]
    assert means == sorted(means, reverse=True) and rows[0].endswith("best")


def test_a_hint_of_many_actions_fits_a_screen(monkeypatch):
    """Where there are more legal actions than a screen shows (Telefunken's cut aim: 105), the
    hint lists the best and says in one line what the rest are worth."""
    from cardsim.sim.play import HINTS_SHOWN
    from cardsim.sim.step import ActionValue
    s = PlaySession("tonk", seed=11)
    s.advance()
    legal = [(i, f"action {i}") for i in range(40)]
    monkeypatch.setattr(PlaySession, "legal", lambda self: legal)
    monkeypatch.setattr(PlaySession, "values",
                        lambda self, state, worlds, seed: [ActionValue(i, i / 10, 0.01, worlds) for i in range(40)])
    lines = s.hint()
    fits(lines)
    assert len(lines) == 1 + HINTS_SHOWN and lines[1].startswith(" 40  action 39") and lines[1].endswith("best")
    assert lines[-1] == "  ... 25 more, from +2.40 down to +0.00"


def test_no_hints_where_the_game_does_not_evaluate(monkeypatch):
    s = PlaySession("tonk", seed=1)
    s.advance()
    monkeypatch.setattr(type(s.state), "action_values", lambda self, **kw: None)
    assert s.hint() == ["no hints for tonk yet (its step adapter does not evaluate actions)"]


def test_after_a_deal_the_costliest_decisions_with_the_better_action(monkeypatch):
    """The critique ranks the person's decisions by cost (best mean - chosen mean), at most 3,
    naming the better action and the cost's interval."""
    s = PlaySession("tonk", seed=4)
    values = {}

    def fake(self, worlds=32, policy="strong", seed=0):
        legal = self.legal_actions()
        k = len(values)
        values[k] = [ActionValue(a, -0.1 * (i + k % 4) if i else 0.0, 0.05, worlds) for i, a in enumerate(legal)]
        return values[k]
    monkeypatch.setattr(type(s.state), "action_values", fake)
    lines = scripted(s, ["2"] * 40)              # the second action each time: it costs 0.1 x its index
    crit = [x for x in lines if x.startswith("after ")]
    assert len(crit) == 1 and "costliest" in crit[0]
    at = lines.index(crit[0])
    shown = [x for x in lines[at + 1:at + 4] if "decision" in x]
    assert 1 <= len(shown) <= 3 and all("better" in x and "±" in x for x in shown)
    costs = [float(re.search(r"cost (\d+\.\d+)", x)[1]) for x in shown]
    assert costs == sorted(costs, reverse=True)
    fits(lines)


def test_a_saved_game_replays(tmp_path):
    """The saved file is the table and every action; `cardsim replay FILE` plays it again
    through the step API, move by move, to the same payouts; table options with it are refused,
    and a file whose actions are not legal is refused in one line."""
    path = tmp_path / "g.json"
    s = PlaySession("tonk", seed=9)
    lines = scripted(s, ["2", "1", "1"], save=str(path))
    assert s.over() and lines[-2:] == [f"saved to {path}", f"replay it: cardsim replay {path}"]
    doc = load_document(str(path))
    assert doc["game"] == "tonk" and doc["seat"] == 0 and doc["finished"] and doc["actions"] == s.actions
    res = invoke("replay", path)
    assert res.exit_code == 0, res.output
    out = res.stdout.splitlines()
    assert out[0].startswith("tonk · 2 players") and out[-1] == s.result_lines()[-1]
    assert any(x.startswith("seat 0 (you): ") for x in out) and any(x.startswith("seat 1 (greedy): ") for x in out)
    assert replay_lines(str(path)) == out
    js = json.loads(invoke("replay", path, "--json").stdout)
    assert js["returns"] == s.state.returns()
    assert_usage_error(invoke("replay", path, "--seed", 3), "--seed", "play file")
    doc["actions"][5] = 10 ** 6
    path.write_text(json.dumps(doc))
    assert_usage_error(invoke("replay", path), "not legal")


def test_quitting_asks_to_save(tmp_path):
    path = tmp_path / "q.json"
    lines = scripted(PlaySession("tonk", seed=2), ["", "x", "q", "y"], save=str(path))
    assert any(x.startswith("type 1 to ") for x in lines) and lines[-1] == "bye"
    doc = load_document(str(path))
    assert not doc["finished"] and doc["returns"] is None
    assert invoke("replay", path).stdout.splitlines()[-1] == "the game was not finished"


@pytest.mark.parametrize("args, fragments", [
    (("nope",), ("unknown game", "tonk")),
    (("tonk", "--seat", "5"), ("--seat 5", "0..1")),
    (("tonk", "--players", "9"), ("2 to 4 players",)),
    (("tonk", "--strategy", "nosuch"), ("unknown strategy",)),
    (("tonk", "--strategy", "nosuch.py:bot"), ("nosuch.py", "does not exist")),
    (("tonk", "--players", "3", "--strategy", "greedy", "--strategy", "greedy", "--strategy", "greedy",
      "--strategy", "greedy"), ("4 strategies",)),
    (("tonk", "--option", "nosuch=1"), ("nosuch",)),
    (("tonk", "--option", "novalue"), ("NAME=VALUE",)),
    (("tonk", "--worlds", "0"), ("--worlds",)),
])
def test_bad_input_is_one_line(args, fragments):
    assert_usage_error(invoke("play", *args), *fragments)


def test_an_existing_save_file_is_refused(tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("mine")
    assert_usage_error(invoke("play", "tonk", "--save", other), "exists")
    assert_usage_error(invoke("play", "tonk", "--save", other, "--overwrite"), "not a cardsim play file")
    assert other.read_text() == "mine"


def test_without_prompt_toolkit_it_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "prompt_toolkit", None)
    assert_usage_error(invoke("play", "tonk"), "pip install 'cardsim[play]'")


def test_piped_input_plays_a_game(tmp_path):
    """Input that is no terminal is read line by line (a script can play)."""
    path = tmp_path / "p.json"
    res = CliRunner().invoke(app, ["play", "tonk", "--seed", "3", "--save", str(path)], input="1\n" * 60)
    assert res.exit_code == 0, res.output
    assert "game over, payouts:" in res.stdout and load_document(str(path))["finished"]


# ---- through a pseudo-terminal ------------------------------------------------------------------

ANSI = re.compile(r"\x1b(\[[0-9;?<=>]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")
PROMPT = r"your move \(1-(\d+), \?, q\)>"


def screen_lines(raw: str) -> list[str]:
    """What the terminal printed, escape sequences and carriage returns taken out."""
    text = ANSI.sub("", raw).replace("\r\n", "\n")
    return [x.split("\r")[-1] for x in text.split("\n")]


@pytest.mark.parametrize("game, players, hint", [("tonk", 3, True), ("marafon", 4, False), ("tripoli", 5, False)])
def test_a_game_in_a_pseudo_terminal(tmp_path, game, players, hint):
    """One scripted game per family, typed into a pseudo-terminal of 80x24: the first screen
    shows the seat's hand and the numbered actions; the Tonk hint shows values with ±; the game
    ends, is saved and replays; no printed line is wider than 80 columns."""
    pexpect = pytest.importorskip("pexpect")
    pytest.importorskip("prompt_toolkit")
    save = "game.json"
    env = dict(os.environ, PROMPT_TOOLKIT_NO_CPR="1", TERM="xterm", COLUMNS="80", LINES="24")
    cmd = cardsim_cmd("play", game, "--players", players, "--seed", 5, "--save", save, "--critique-worlds", 4)
    child = pexpect.spawn(cmd[0], cmd[1:], dimensions=(24, 80), env=env, encoding="utf-8", timeout=240,
                          cwd=tmp_path)
    log = []
    try:
        child.expect(PROMPT)
        first = screen_lines(child.before)
        log.append(child.before)
        assert any(x.startswith("  your hand ") for x in first), first
        assert any(re.match(r"^\s*1  \S", x) for x in first), first
        if hint:
            child.sendline("?")
            child.expect("95% interval")        # the prompt is drawn again as the key is typed: wait for the hint
            child.expect(PROMPT)
            log.append(child.before)
            rows = [x for x in screen_lines(child.before) if "±" in x]
            assert rows and rows[0].rstrip().endswith("best")
        for _ in range(400):
            child.sendline("1")
            child.expect("you: ")
            k = child.expect([PROMPT, pexpect.EOF])
            log.append(child.before)
            if k == 1:
                break
        else:
            pytest.fail("the game did not end in 400 moves")
    finally:
        child.close(force=True)
    lines = screen_lines("".join(log))
    assert any(x.startswith("game over, payouts: 0 you ") for x in lines), lines[-20:]
    assert any(x.startswith(f"saved to {save}") for x in lines)
    fits(lines)
    assert child.exitstatus == 0, lines[-20:]
    res = invoke("replay", tmp_path / save)
    assert res.exit_code == 0 and "game over, payouts:" in res.stdout
