#!/usr/bin/env python3
"""An outside check of a study's findings (budgetrl reproduce): recomputes, from study.db with plain SQL and numpy,
the Pass@1 comparisons the findings read (finding 1's gains and difference of gains, finding 4's and the hidden
question's differences at every budget), pooled as the plan says (per task, then per seed, then per env, each
weighing the same), with its own interval over seeds and tasks, over all the seeds and over each half of the plan's
replication split, and compares them with report.json.

    python3 scripts/check-findings.py STUDY_DIR

The interval is deterministic (no resampling), so point estimates and bounds must both agree to 1e-9. Written from
docs/study.md and src/metrics/crossed-mean.ts's header only (not from the TypeScript), with scipy.stats.t for the
quantiles, as an independent implementation."""
import json
import sqlite3
import sys

import numpy as np
from scipy.stats import t

study = sys.argv[1]
resamples = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
db = sqlite3.connect(f"{study}/study.db")
report = json.load(open(f"{study}/report.json"))
config = json.load(open(f"{study}/study.json"))
seeds = config["seeds"]

ROLE_SLUG = {"base": "base", "grpo": "grpo-full", "process": "turn-level", "budgetmix": "budgetmix",
             "budgetmix-hidden": "budgetmix-hidden"}


def pass1(run, budget):
    """task id -> successes / episodes of one run at one budget."""
    rows = db.execute(
        "select t.task_id, sum(e.success), count(*) from episodes e join tasks t"
        " on t.run_id = e.run_id and t.task_index = e.task_index"
        " where e.run_id = ? and e.budget_label = ? and e.stop_reason != 'error' group by t.task_id",
        (run, budget),
    ).fetchall()
    return {task: hits / n for task, hits, n in rows}


def per_task(claim, env, seed, budgets, mode):
    """task id -> (contrast, a, b) for a difference (one budget) or a difference of gains (two)."""
    a = f"seed-{seed}/{env}/{ROLE_SLUG[claim['a']]}/{mode}"
    b = f"seed-{seed}/{env}/{ROLE_SLUG[claim['b']]}/{mode}"
    if len(budgets) == 1:
        pa, pb = pass1(a, budgets[0]), pass1(b, budgets[0])
        return {t: (pa[t] - pb[t], pa[t], pb[t]) for t in pa if t in pb}
    (ga, gb), (ta, tb) = [(pass1(a, x), pass1(b, x)) for x in budgets]
    out = {}
    for t in ga:
        if t in gb and t in ta and t in tb:
            first, second = ga[t] - gb[t], ta[t] - tb[t]
            out[t] = (first - second, first, second)
    return out


def crossed(cells, envs, seeds):
    """value and 95% interval over seeds and tasks of the contrast (series 0), as crossed-mean.ts's header says."""
    envs = [env for env in envs if any(cells[env][seed] for seed in seeds)]
    K = len(envs)
    grids = []
    for env in envs:
        tasks = sorted({t for seed in seeds for t in cells[env][seed]})
        grids.append(np.array([[cells[env][seed].get(t, (np.nan,))[0] for t in tasks] for seed in seeds], dtype=float))
    env_seed_means = np.array([np.nanmean(grid, axis=1) for grid in grids])  # K x S
    value = float(np.mean([np.nanmean(row) for row in env_seed_means]))
    S = len(seeds)
    half2, b_parts, b_dfs, c_sum = 0.0, [], [], 0.0
    for grid in grids:
        u = np.nanmean(grid, axis=0)
        T = int(np.sum(~np.isnan(u)))
        b_parts.append(np.nanvar(u, ddof=1) / (T * K * K))
        b_dfs.append(T - 1)
        if S > 1:
            m = np.nanmean(grid, axis=1)
            g = np.nanmean(u)
            resid = grid - m[:, None] - u[None, :] + g
            c_sum += np.nansum(resid**2) / ((S - 1) * (T - 1)) / (S * T * K * K)
    if S > 1:
        d = np.nanmean(env_seed_means, axis=0)
        A = np.var(d, ddof=1) / S
        half2 += t.ppf(0.975, S - 1) ** 2 * A
    W = max(0.0, sum(b_parts) - c_sum)
    if W > 0:
        df_w = sum(b_parts) ** 2 / sum(b**2 / df for b, df in zip(b_parts, b_dfs))
        half2 += t.ppf(0.975, df_w) ** 2 * W
    half = np.sqrt(half2)
    return value, value - half, value + half


def estimate(claim, envs, budgets, mode, over):
    cells = {env: {seed: per_task(claim, env, seed, budgets, mode) for seed in over} for env in envs}
    return crossed(cells, envs, over)


worst = 0.0
halves = (config["plan"].get("replication") or {}).get("halves") or []
for claim in config["plan"]["claims"]:
    if claim["id"] not in ("rl-budgets", "budgetmix", "hidden-budget"):
        continue
    finding = next(f for f in report["findings"] if f["id"] == claim["id"])
    scope = " + ".join(claim["envs"])
    readings = [("all seeds", seeds, next(s for s in finding["scopes"] if s["seed"] is None and s["scope"] == scope))]
    for half, entry in zip(halves, (finding.get("replication") or {}).get("halves") or []):
        readings.append((f"seeds {','.join(map(str, half))}", half, next(s for s in entry["scopes"] if s["scope"] == scope)))
    mode = "hidden" if claim["id"] == "hidden-budget" else "announced"
    for label, over, decided in readings:
        for comparison in decided["comparisons"]:
            if comparison["outcome"] in ("cannot move", "no data"):
                continue
            if comparison["key"] == "shrink":
                budgets = [claim["generous"], claim["tight"]]
            elif comparison["key"] in ("generous", "tight"):
                budgets = [claim[comparison["key"]]]
            else:
                budgets = [comparison["metric"].split(" at ")[1].split(" ")[0]]
            value, low, high = estimate(claim, claim["envs"], budgets, mode, over)
            ours = comparison["difference"]
            gaps = [abs(value - ours["value"])]
            if ours["low"] is not None:
                gaps += [abs(low - ours["low"]), abs(high - ours["high"])]
            worst = max(worst, *gaps)
            print(
                f"{claim['id']:14} {label:12} {comparison['metric']:34} python {100*value:+7.2f} [{100*low:+6.1f}, {100*high:+6.1f}]"
                f"   report {100*ours['value']:+7.2f} [{100*(ours['low'] or 0):+6.1f}, {100*(ours['high'] or 0):+6.1f}]"
            )
print(f"largest difference of point estimates and bounds: {worst:.2e}")
sys.exit(0 if worst < 1e-9 else 1)
