"""The pile benchmark over many sets at once, miss by miss (figures for the model card; not a test).

    python models/recipe bench-piles --sets heldout --out /tmp/heldout.json [--model-dir DIR] [--procs 2]
    python models/recipe bench-piles --sets tuning --out /tmp/new.json --compare /tmp/old.json

Each set is 600 game-deck piles (`bench_recognizer.piles`, each scene read with its own deck, as
a game reads it) from one first seed. Two lists of first seeds:

- ``tuning``: the 29 sets (9,200,000..9,520,600) whose misses were looked into to choose how
  the recogniser reads; their figure flatters it;
- ``heldout``: 6 sets (9,530,000..9,550,600) only ever measured, never looked into: the
  unbiased figure. Keep it so: mend what the tuning sets show, then measure here.

``--first-seeds`` runs other sets. ``--procs`` runs that many sets at once (one thread each).
``--set NAME=VALUE`` (repeatable) reads with one of the recogniser's `Settings` changed, to sweep
it. ``--out`` keeps every set's figures and misses as JSON; ``--compare`` an earlier such file
prints, over the sets both ran, the misses mended and the misses lost.
"""
from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib.util
import json
import multiprocessing
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
from companion.vision.recognizer import Settings, parse_settings  # noqa: E402

TUNING = (9200000, 9200600, 9300000, 9300600, 9400000, 9400600, 9410000, 9410600, 9420000, 9420600,
          9430000, 9430600, 9440000, 9440600, 9450000, 9450600, 9460000, 9460600, 9470000, 9480000,
          9480600, 9490000, 9490600, 9500000, 9500600, 9510000, 9510600, 9520000, 9520600)
HELDOUT = (9530000, 9530600, 9540000, 9540600, 9550000, 9550600)
SETS = {"tuning": TUNING, "heldout": HELDOUT}


@functools.cache
def _script(name: str):
    """A script beside this one (bench_recognizer.py) as a module, loaded once per process."""
    spec = importlib.util.spec_from_file_location(name, HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_set(first: int, piles: int, model_dir: str | None, settings: Settings = Settings()) -> dict:
    """One set: `piles` game-deck piles from seed `first`, read with `settings`, with its misses."""
    br = _script("bench_recognizer")
    per_deck = functools.lru_cache(None)(lambda d: br.Recognizer(d, model_dir=model_dir, threads=1, settings=settings))
    misses: list[str] = []
    res = br.piles(per_deck, piles, None, first=first, misses=misses)
    return {"first_seed": first, "readable": res["readable"], "clear_view": res["clear_view"],
            "covered": res["covered"], "misses": misses}


def total(sets: list[dict]) -> dict:
    """The figures over several sets: readable top cards, misses, accuracy; clear views and covered."""
    readable = sum(s["readable"] for s in sets)
    misses = [m for s in sets for m in s["misses"]]
    clear = sum(s["clear_view"] for s in sets)
    clear_misses = sum(m.split()[1] == "clear" for m in misses)
    covered = sum(s["covered"] for s in sets)
    return {"sets": len(sets), "readable": readable, "misses": len(misses),
            "accuracy": round(1 - len(misses) / max(readable, 1), 4),
            "clear_view": clear, "accuracy_clear_view": round(1 - clear_misses / max(clear, 1), 4),
            "covered": covered, "accuracy_covered": round(1 - (len(misses) - clear_misses) / max(covered, 1), 4)}


def compare(old: dict, new: dict) -> dict:
    """Over the sets both runs read: each run's figures, and the misses `new` mended and lost."""
    common = sorted(set(old["sets"]) & set(new["sets"]))
    before = {m.split()[0]: m for s in common for m in old["sets"][s]["misses"]}
    after = {m.split()[0]: m for s in common for m in new["sets"][s]["misses"]}
    return {"common_sets": len(common),
            "old": total([old["sets"][s] for s in common]), "new": total([new["sets"][s] for s in common]),
            "mended": [before[k] for k in sorted(set(before) - set(after))],
            "lost": [after[k] for k in sorted(set(after) - set(before))]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = ap.add_mutually_exclusive_group()
    group.add_argument("--sets", choices=sorted(SETS), default=None, help="heldout (the default) or tuning")
    group.add_argument("--first-seeds", type=int, nargs="+", metavar="SEED")
    ap.add_argument("--piles", type=int, default=600, help="piles per set")
    ap.add_argument("--procs", type=int, default=2, help="sets read at once")
    ap.add_argument("--model-dir", default=None)
    ap.add_argument("--out", type=Path, default=None, help="write every set's figures and misses here (JSON)")
    ap.add_argument("--compare", type=Path, default=None, help="an earlier --out file to compare with")
    ap.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                    help="read with one of the recogniser's Settings changed (repeatable)")
    a = ap.parse_args(argv)
    if a.piles < 1 or a.procs < 1:
        ap.error("--piles and --procs must be 1 or more")
    try:
        settings = parse_settings(a.set)
    except ValueError as exc:
        ap.error(f"--set {exc}")
    changed = {k: v for k, v in dataclasses.asdict(settings).items() if v != getattr(Settings(), k)}
    old = None
    if a.compare is not None:
        try:
            old = json.loads(a.compare.read_text())
            old["sets"]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            ap.error(f"cannot read {a.compare} as an earlier --out file: {exc}")
    firsts = a.first_seeds or SETS[a.sets or "heldout"]
    job = functools.partial(run_set, piles=a.piles, model_dir=a.model_dir, settings=settings)
    done = []
    with contextlib.ExitStack() as stack:
        if a.procs == 1:
            sets = map(job, firsts)
        else:
            pool = stack.enter_context(multiprocessing.get_context("spawn").Pool(min(a.procs, len(firsts))))
            sets = pool.imap(job, firsts, chunksize=1)
        for s in sets:
            done.append(s)
            print(f"  set {s['first_seed']}: {len(s['misses'])} misses of {s['readable']} readable "
                  f"({len(done)}/{len(firsts)} sets)", file=sys.stderr, flush=True)
    res = {"piles_per_set": a.piles, "model_dir": a.model_dir, **({"settings": changed} if changed else {}),
           "sets": {str(s["first_seed"]): s for s in done}}
    res["total"] = total(done)
    if a.out is not None:
        a.out.write_text(json.dumps(res, indent=1))
    report = {"total": res["total"]}
    if old is not None:
        report["compare"] = compare(old, res)
    else:
        report["misses"] = [m for s in done for m in s["misses"]]
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
