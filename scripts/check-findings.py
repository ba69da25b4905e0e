#!/usr/bin/env python3
"""An outside check of a study's findings (budgetrl reproduce): recomputes, from study.db with plain SQL and Python,
the Pass@1 comparisons the findings read (finding 1's gains and difference of gains, finding 4's and the hidden
question's differences at every budget), pooled as the plan says (per task, then per seed, then per env, each
weighing the same), with its own seeds-then-tasks bootstrap, and compares them with report.json.

    python3 scripts/check-findings.py STUDY_DIR [RESAMPLES]

Point estimates must agree to 1e-9; intervals, drawn with another random stream, to within a point or so. Written
from docs/study.md and src/metrics/clustered-mean.ts's header only (not from the TypeScript), as an independent
implementation."""
import json
import random
import sqlite3
import sys
from collections import defaultdict

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


def pooled(cells, envs, seed_draw, task_draw):
    """mean over envs of the mean over drawn seeds of the mean over drawn tasks (crossed: one task draw per env)."""
    env_means = []
    for env in envs:
        seed_means = []
        for seed in seed_draw:
            values = cells[env][seed]
            picked = [values[t] for t in task_draw[env] if t in values]
            if picked:
                seed_means.append([sum(v[k] for v in picked) / len(picked) for k in range(3)])
        if seed_means:
            env_means.append([sum(m[k] for m in seed_means) / len(seed_means) for k in range(3)])
    return [sum(m[k] for m in env_means) / len(env_means) for k in range(3)]


def estimate(claim, envs, budgets, mode):
    cells = {env: {seed: per_task(claim, env, seed, budgets, mode) for seed in seeds} for env in envs}
    tasks = {env: sorted({t for seed in seeds for t in cells[env][seed]}) for env in envs}
    value = pooled(cells, envs, seeds, tasks)
    rng = random.Random(12345)
    draws = []
    for _ in range(resamples):
        seed_draw = [rng.choice(seeds) for _ in seeds]
        task_draw = {env: [rng.choice(tasks[env]) for _ in tasks[env]] for env in envs}
        draws.append(pooled(cells, envs, seed_draw, task_draw)[0])
    draws.sort()
    q = lambda p: draws[min(len(draws) - 1, max(0, round(p * (len(draws) - 1))))]
    return value[0], q(0.025), q(0.975)


worst = 0.0
for claim in config["plan"]["claims"]:
    if claim["id"] not in ("rl-budgets", "budgetmix", "hidden-budget"):
        continue
    finding = next(f for f in report["findings"] if f["id"] == claim["id"])
    decided = next(s for s in finding["scopes"] if s["seed"] is None and s["scope"] == " + ".join(claim["envs"]))
    mode = "hidden" if claim["id"] == "hidden-budget" else "announced"
    for comparison in decided["comparisons"]:
        if comparison["outcome"] in ("cannot move", "no data"):
            continue
        if comparison["key"] == "shrink":
            budgets = [claim["generous"], claim["tight"]]
        elif comparison["key"] in ("generous", "tight"):
            budgets = [claim[comparison["key"]]]
        else:
            budgets = [comparison["metric"].split(" at ")[1].split(" ")[0]]
        value, low, high = estimate(claim, claim["envs"], budgets, mode)
        ours = comparison["difference"]
        gap = abs(value - ours["value"])
        worst = max(worst, gap)
        print(
            f"{claim['id']:14} {comparison['metric']:36} python {100*value:+7.2f} [{100*low:+6.1f}, {100*high:+6.1f}]"
            f"   report {100*ours['value']:+7.2f} [{100*ours['low']:+6.1f}, {100*ours['high']:+6.1f}]"
        )
print(f"largest difference of point estimates: {worst:.2e}")
sys.exit(0 if worst < 1e-9 else 1)
