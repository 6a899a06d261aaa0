#!/usr/bin/python3
"""Best-so-far validation accuracy against time for gitui studies: reads each study
directory's trials.jsonl (jobs in the order they ran, each with its seconds and, since
the journal records it, the Unix time it ended) and prints, per study, the time at which
the best validation accuracy at the study's top rung (its largest training size)
improved: wall seconds since the first job started when every job has its end time
("clock": "wall"), else the jobs' cumulative seconds ("clock": "summed", the wall time
of a study run one job at a time). With --target ACC it prints the time at which each
study first reached ACC.

Run: /usr/bin/python3 best_so_far.py STUDY_DIR... [--target 0.969]
"""
import argparse, json, os


def jobs(d):
    out = []
    for line in open(os.path.join(d, "trials.jsonl")):
        try:
            r = json.loads(line)
        except ValueError:
            continue  # a torn or damaged line: gitui's reader sets it aside too
        r = r.get("record", r)  # lines of the first journal format wrapped the record
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
        wall = all(j.get("end") for j in js)
        if wall:  # in the order the jobs ended
            js.sort(key=lambda j: j["end"])
            start = min(j["end"] - j["seconds"] for j in js)
        t, best, curve, reached = 0.0, -1.0, [], None
        for j in js:
            t = j["end"] - start if wall else t + j["seconds"]
            if j["n"] == top and j["validation"] > best:
                best = j["validation"]
                curve.append((round(t, 2), best))
            if reached is None and a.target is not None and j["n"] == top and j["validation"] >= a.target:
                reached = round(t, 2)
        print(json.dumps({"study": d, "clock": "wall" if wall else "summed", "top_n": top, "jobs": len(js), "seconds": round(t, 2), "best": best,
                          "curve": curve, "reached_target_at": reached}))


if __name__ == "__main__":
    main()
