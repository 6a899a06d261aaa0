#!/usr/bin/python3
"""Best-so-far validation accuracy against time for gitui studies: reads each study
directory's trials.jsonl (jobs in the order they ran, each with its seconds) and prints,
per study, the cumulative seconds at which the best validation accuracy at the study's
top rung (its largest training size) improved. With --target ACC it prints the seconds
at which each study first reached ACC.

Run: /usr/bin/python3 best_so_far.py STUDY_DIR... [--target 0.969]
"""
import argparse, json, os


def jobs(d):
    out = []
    for line in open(os.path.join(d, "trials.jsonl")):
        try:
            r = json.loads(line)["record"]
        except (ValueError, KeyError):
            continue
        if r.get("kind") == "job":
            out.append(r)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dirs", nargs="+")
    ap.add_argument("--target", type=float)
    a = ap.parse_args()
    for d in a.dirs:
        js = jobs(d)
        top = max(j["n"] for j in js)
        t, best, curve, reached = 0.0, -1.0, [], None
        for j in js:
            t += j["seconds"]
            if j["n"] == top and j["validation"] > best:
                best = j["validation"]
                curve.append((round(t, 2), best))
            if reached is None and a.target is not None and j["n"] == top and j["validation"] >= a.target:
                reached = round(t, 2)
        print(json.dumps({"study": d, "top_n": top, "jobs": len(js), "seconds": round(t, 2), "best": best,
                          "curve": curve, "reached_target_at": reached}))


if __name__ == "__main__":
    main()
