"""The difficulty report: reports/difficulty.md, its figures and reports/difficulty.json.

Everything comes from one committed study definition (experiments/studies/difficulty.toml) and
fixed seeds, so the committed report is exactly what the committed code produces: no times,
speeds or dates go into it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from experiments import rulebook
from experiments.calibrate import DEFAULT_BANDS, LEVELS, UNFAIR, Calibration, calibrate
from experiments.plots import CAUSE_COLOURS, loss_causes, loss_hazard, policy_ladder
from experiments.runner import results_frame, run_games
from experiments.skill import skill_section
from experiments.sweep import SweepError, load_config, read_toml, run_sweep, summarize_cell
from policies.registry import POLICIES
from sim.rules import pretty

STUDY_KEYS = {"name", "sweep", "policy", "seed", "calibrate", "rulebook", "skill"}
SKILL_KEYS = {"games", "search_games"}
CALIBRATE_KEYS = {"screen_games", "confirm_games", "max_changes", "other_games", "validate_games", "players"}
RULEBOOK_KEYS = {"games", "policies"}


@dataclass
class Study:
    path: str
    sweep: str
    policy: str
    seed: int
    calibrate: dict
    rulebook: dict
    skill: dict  # the "Who finds it easy" section: games per skill, games per search


def load_study(path: str | Path) -> Study:
    path = str(path)
    data = read_toml(path)
    for key in data:
        if key not in STUDY_KEYS:
            raise SweepError(f"{path}: {key}: unknown key (a study has {', '.join(sorted(STUDY_KEYS))})")
    for section, allowed in (("calibrate", CALIBRATE_KEYS), ("rulebook", RULEBOOK_KEYS), ("skill", SKILL_KEYS)):
        for key in data.get(section, {}):
            if key not in allowed:
                raise SweepError(f"{path}: {section}.{key}: unknown key")
    policy = data.get("policy", "expert")
    if policy not in POLICIES or policy in UNFAIR:
        raise SweepError(f"{path}: policy: {policy!r} is not a registered fair policy")
    for p in data.get("rulebook", {}).get("policies", []):
        if p not in POLICIES:
            raise SweepError(f"{path}: rulebook.policies: unknown policy {p!r}")
    return Study(path, data.get("sweep", "experiments/configs/gauge-by-players.toml"), policy,
                 int(data.get("seed", 2026)), dict(data.get("calibrate", {})), dict(data.get("rulebook", {})),
                 dict(data.get("skill", {})))


def _pct(rate: float) -> str:
    return f"{100 * rate:.1f}%"


def _ci(ci) -> str:
    return f"{100 * ci[0]:.1f}-{100 * ci[1]:.1f}%"


def rules_text(rules: dict) -> str:
    gauge = " ".join(pretty(c) for c in rules["gauge"])
    swim = "Divers: swimming costs 1 action" if rules["swim_cost"] == 1 else "swimming costs 2 actions"
    cpt = rules["cards_per_treasure"]
    return f"{cpt} card{'s' if cpt != 1 else ''} a treasure; gauge {gauge}; {swim}"


def answer_section(cal: Calibration, recs: list[dict]) -> list[str]:
    lines = ["## The answer", ""]
    lines.append(f"Judged with the `{cal.policy}` policy, the strongest fair player the lab has "
                 "(it sees only what a table sees, R19). Bands: "
                 + ", ".join(f"{lvl.capitalize()} {int(100 * b[0])}-{int(100 * b[1])}% wins"
                             for lvl, b in DEFAULT_BANDS.items()) + ".")
    lines.append("")
    for level in LEVELS:
        shared = cal.shared.get(level)
        if shared is not None:
            lines.append(f"- **{level.capitalize()}**, every player count: {shared.describe()}.")
        else:
            per = [r for r in recs if r["level"] == level]
            if not per:
                lines.append(f"- **{level.capitalize()}**: no setting within the searched changes lands in the band.")
                continue
            by_text: dict[str, list[int]] = {}
            for r in per:
                by_text.setdefault(r["change"], []).append(r["players"])
            parts = [f"{'/'.join(str(p) for p in ps)} player{'s' if ps != [1] else ''}: {text}"
                     for text, ps in by_text.items()]
            lines.append(f"- **{level.capitalize()}**, by player count - " + "; ".join(parts) + ".")
    lines.append("")
    if all(cal.shared.get(level) is not None for level in LEVELS):
        lines.append("One setting per level serves every player count.")
    else:
        lines.append("No single setting per level serves every player count within the searched changes: "
                     "use the per-count rules above.")
    lines += ["", "| level | players | rules | change from the rulebook | win rate (95% CI) | "
                  "re-simulated, new seed |", "| --- | --- | --- | --- | --- | --- |"]
    for r in recs:
        v = r.get("validation", {})
        check = (f"{_pct(v['win_rate'])} ({_ci(v['ci95'])}) {'in band' if v['inside_band'] else 'OUT of band'}"
                 if v else "-")
        lines.append(f"| {r['level']} | {r['players']} | {rules_text(r['rules'])} | {r['change']} | "
                     f"{_pct(r['win_rate'])} ({_ci(r['ci95'])}), {r['games']:,} games | {check} |")
    missing = cal.missing
    if missing:
        lines += ["", "Not found within the searched changes: "
                  + ", ".join(f"{lvl} for {p} player(s)" for p, lvl in missing) + "."]
    return lines


def ladder_section(recs: list[dict], figures: Path, report_dir: Path) -> list[str]:
    rows = []
    for r in recs:
        label = f"{r['level']} {r['players']}p"
        rows.append({"label": label, "policy": r["policy"], "win_rate": r["win_rate"],
                     "ci_low": r["ci95"][0], "ci_high": r["ci95"][1]})
        for name, m in r["other_policies"].items():
            rows.append({"label": label, "policy": name, "win_rate": m["win_rate"], "ci_low": m["ci95"][0],
                         "ci_high": m["ci95"][1]})
    if not rows:
        return []
    df = pd.DataFrame(rows)
    path = policy_ladder(df, figures / "policy_ladder.png")
    policies = list(dict.fromkeys(df["policy"]))
    lines = ["## Weaker and stronger players on these rules", "",
             f"![policy ladder]({path.relative_to(report_dir)})", "",
             "| setting | " + " | ".join(policies) + " |", "| --- |" + " --- |" * len(policies)]
    for label, part in df.groupby("label", sort=False):
        cells = []
        for p in policies:
            row = part[part.policy == p]
            cells.append(_pct(row.win_rate.iloc[0]) if len(row) else "-")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    # Does the order of difficulty hold for every policy, per player count?
    lines.append("")
    for players in sorted({r["players"] for r in recs}):
        per = {r["level"]: r for r in recs if r["players"] == players}
        if len(per) < 2:
            continue
        ok = []
        for p in policies:
            rates = [(per[lvl]["win_rate"] if per[lvl]["policy"] == p else per[lvl]["other_policies"].get(p, {})
                      .get("win_rate")) for lvl in LEVELS if lvl in per]
            if None in rates:
                continue
            ok.append((p, all(a >= b for a, b in zip(rates, rates[1:], strict=False))))
        never = {p for p in policies if all(
            (r["win_rate"] if r["policy"] == p else r["other_policies"].get(p, {}).get("win_rate", 0)) == 0
            for r in per.values())}
        holds = [p for p, good in ok if good and p not in never]
        broken = [p for p, good in ok if not good]
        text = (f"{players} player(s): Easy ≥ Normal ≥ Hard holds for " + (", ".join(holds) or "no policy"))
        if broken:
            text += f"; not for {', '.join(broken)}"
        if never:
            text += f"; {', '.join(sorted(never))} never win{'s' if len(never) == 1 else ''}"
        lines.append(f"- {text}.")
    return lines


def causes_section(recs: list[dict], seed: int, figures: Path, report_dir: Path, games: int,
                   threads: int | None) -> list[str]:
    from experiments.calibrate import Setting
    from experiments.sweep import Cell

    rows, frames = [], []
    for r in recs:
        rules_d = r["rules"]
        s = Setting(rules_d["cards_per_treasure"], tuple(rules_d["gauge"]), rules_d["swim_cost"] == 1)
        rules = s.rules(r["players"])
        df = results_frame(run_games(rules, r["policy"], games, seed, threads=threads), rules, r["policy"], seed)
        cell = Cell(rules, r["policy"], f"{r['level']}", len(rules.gauge))
        row = summarize_cell(cell, df)
        rows.append(row)
        frames.append(df)
    if not rows:
        return []
    summary = pd.DataFrame(rows)
    summary["variant"] = [r["level"] for r in recs]
    p1 = loss_causes(summary, figures / "loss_causes_recommended.png")
    p2 = loss_hazard(pd.concat(frames, ignore_index=True), figures / "loss_hazard_recommended.png")
    causes = list(CAUSE_COLOURS)
    lines = ["## Why games are lost", "",
             f"![how games end]({p1.relative_to(report_dir)})", "",
             f"![loss hazard]({p2.relative_to(report_dir)})", "",
             "| level | players | win | " + " | ".join(causes) + " | mean turns |",
             "| --- | --- | --- |" + " --- |" * len(causes) + " --- |"]
    for r, row in zip(recs, rows, strict=True):
        lines.append(f"| {r['level']} | {r['players']} | {_pct(row['win_rate'])} | "
                     + " | ".join(_pct(row[f"loss_{c}"]) for c in causes) + f" | {row['mean_turns']:.1f} |")
    top = {}
    for c in causes:
        top[c] = sum(row[f"loss_{c}"] for row in rows)
    main = sorted(top, key=top.get, reverse=True)[:2]
    lines += ["", f"Across the recommended settings most losses are `{main[0]}`"
              + (f", then `{main[1]}`" if len(main) > 1 and top[main[1]] > 0 else "") + " (R18 causes)."]
    return lines


def paired_section(recs: list[dict], seed: int, games: int, threads: int | None) -> list[str]:
    """Each recommendation against the rulebook's rules on the same games: a paired interval."""
    from experiments.sweep import paired_difference
    from sim.rules import Rules

    lines = ["## How much each change moves the win rate", "",
             "Each recommended setting against the rulebook's rules for the same player count, both played "
             f"on the same {games:,} games (same islands, same flood orders). Pairing the games narrows the "
             "interval: the last column says how many times more games two independent runs would need for "
             "the same precision.", "",
             "| level | players | change | difference (paired 95% CI) | unpaired 95% CI | games saved |",
             "| --- | --- | --- | --- | --- | --- |"]
    base_cache: dict[int, object] = {}
    for r in recs:
        players = r["players"]
        if players not in base_cache:
            base_cache[players] = run_games(Rules(players=players), r["policy"], games, seed, threads=threads)
        if r["changes"] == 0:
            continue
        rules = Rules(**r["rules"])
        won = run_games(rules, r["policy"], games, seed, threads=threads)[:, 0] == 0
        d = paired_difference(won, base_cache[players][:, 0] == 0)
        pci, uci = d["ci95"], d["unpaired_ci95"]
        lines.append(f"| {r['level']} | {players} | {r['change']} | {100 * d['difference']:+.1f} points "
                     f"({100 * pci[0]:+.1f} to {100 * pci[1]:+.1f}) | {100 * uci[0]:+.1f} to {100 * uci[1]:+.1f} | "
                     f"{d['games_ratio']:.1f}x |")
    return lines


def sweep_section(sweep_out: Path, report_dir: Path, figures: Path) -> list[str]:
    lines = ["## How the knobs move the win rate", ""]
    for name, text in (("win_rate_by_gauge.png", "win rate by gauge length"),
                       ("heatmap_win_rate.png", "win rate over cards per treasure and gauge length")):
        src = sweep_out / "figures" / name
        if src.exists():
            dst = figures / f"sweep_{name}"
            dst.write_bytes(src.read_bytes())
            lines += [f"![{text}]({dst.relative_to(report_dir)})", ""]
    return lines


def build_report(study_path: str, report_dir: str | Path = "reports", out_dir: str | Path = "out/report",
                 threads: int | None = None, echo: Callable[[str], None] = print) -> list[dict]:
    """Run the study and write difficulty.md, difficulty.json and the figures; returns the JSON."""
    study = load_study(study_path)
    report_dir = Path(report_dir)
    figures = report_dir / "figures"
    figures.mkdir(parents=True, exist_ok=True)
    echo(f"sweep {study.sweep}")
    sweep_cfg = load_config(study.sweep)
    sweep = run_sweep(sweep_cfg, Path(out_dir) / "sweep", resume=True, threads=threads)
    echo(f"calibrating with {study.policy}")
    c = study.calibrate
    cal = calibrate(players=c.get("players", [1, 2, 3, 4]), policy=study.policy, seed=study.seed,
                    screen_games=c.get("screen_games", 1000), confirm_games=c.get("confirm_games", 8000),
                    max_changes=c.get("max_changes", 3), other_games=c.get("other_games", 4000),
                    validate_games=c.get("validate_games", 8000), threads=threads, echo=echo)
    recs = [r.to_json() for r in cal.recommendations]
    (report_dir / "difficulty.json").write_text(json.dumps(recs, indent=2, ensure_ascii=False) + "\n")
    echo("checking the rulebook's numbers")
    rb_policies = study.rulebook.get("policies", [p for p in POLICIES if p not in UNFAIR | {"idle"}])
    rb = rulebook.check(rb_policies, games=study.rulebook.get("games", 20_000), seed=study.seed,
                        threads=threads)
    rulebook_rows = rb["players"].get(study.policy)

    md = ["# Island Escape: which rules make Easy, Normal and Hard",
          "",
          f"*Generated by `make report` from `{study.path}` (seed {study.seed}); do not edit by hand.*",
          ""]
    md += answer_section(cal, recs)
    if rulebook_rows:
        md += ["", "## The rulebook's own rules", "",
               f"With the rulebook's rules, `{study.policy}` wins "
               + ", ".join(f"{_pct(r['win_rate'])} with {n} player{'s' if n > 1 else ''}"
                           for n, r in rulebook_rows.items())
               + " (solo plays as two pawns, R5)."]
    md += [""] + paired_section(recs, study.seed, c.get("other_games", 4000), threads)
    md += [""] + ladder_section(recs, figures, report_dir)
    if study.skill:
        echo("playing the skill axis")
        md += [""] + skill_section(recs, dict(DEFAULT_BANDS), study.skill.get("games", 2000),
                                   study.skill.get("search_games", 0), study.seed, figures, report_dir, threads)
    md += [""] + causes_section(recs, study.seed, figures, report_dir, c.get("confirm_games", 8000), threads)
    md += [""] + sweep_section(sweep.out, report_dir, figures)
    md += ["## The rulebook's numbers, checked", "", rulebook.markdown(rb), ""]
    md += ["## How this was made", "",
           f"- Policy for the verdict: `{study.policy}`; every fair policy is shown on the same rules. "
           "Policies decide from public information only (R19); `oracle` would read hidden cards and is "
           "never used for a recommendation.",
           f"- Search: every setting a table can lay out with one deck (1-3 cards per treasure, gauges "
           f"of A-5 of clubs and diamonds in rank order, Divers on or off) with up to "
           f"{c.get('max_changes', 3)} changes from the rulebook, screened with {c.get('screen_games', 1000):,} "
           f"games each; candidates confirmed with {c.get('confirm_games', 8000):,} games, fewest changes "
           "first; a recommendation's 95% Wilson interval lies inside its band.",
           f"- All settings play the same games of seed {study.seed} (same islands, same flood orders); the "
           f"re-simulation uses seed {study.seed + 1000}.",
           f"- {cal.screened} settings screened per player group; players 1 and 2 share their games "
           "because a solo game is played with two pawns (R5).",
           f"- Sweep: `{study.sweep}` ({len(sweep.summary)} cells, {sweep_cfg.games:,} games each), "
           f"tables in `{Path(out_dir) / 'sweep'}`.",
           "- Reproduce: `make report` (or `island-escape report`); the numbers depend only on the "
           "code, the study file and the seeds.", ""]
    (report_dir / "difficulty.md").write_text("\n".join(md))
    return recs


def difficulty_table(recs: list[dict]) -> str:
    """The short table `make run` prints."""
    lines = [f"{'level':<7} {'players':>7}  {'win rate (95% CI)':<22} rules"]
    for r in recs:
        lines.append(f"{r['level']:<7} {r['players']:>7}  {_pct(r['win_rate']):>6} ({_ci(r['ci95'])})"
                     f"{'':<3} {r['change']}")
    return "\n".join(lines)
