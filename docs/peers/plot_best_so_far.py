#!/usr/bin/python3
"""Draws best-so-far validation accuracy against time as an SVG (no plotting library
needed): reads the JSON lines best_so_far.py prints (one per study) and labels each
curve with --label (in the same order).

Run: /usr/bin/python3 best_so_far.py A B ... | /usr/bin/python3 plot_best_so_far.py \
        --label "ASHA+TPE" --label "random" --title "..." > out.svg
"""
import argparse, json, sys

COLORS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"]
DASH = ["", "6,3", "2,2"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--label", action="append", default=[])
    ap.add_argument("--style", action="append", default=[], help="color index,dash index per curve")
    ap.add_argument("--title", default="best validation accuracy so far")
    a = ap.parse_args()
    studies = [json.loads(l) for l in sys.stdin if l.strip()]
    W, H, L, R, T, B = 720, 420, 70, 200, 40, 50
    tmax = max(s["seconds"] for s in studies)
    ys = [v for s in studies for _, v in s["curve"]]
    ylo, yhi = min(ys), max(ys)
    pad = max(0.002, (yhi - ylo) * 0.05)
    ylo, yhi = ylo - pad, yhi + pad

    def X(t):
        return L + (W - L - R) * t / tmax

    def Y(v):
        return T + (H - T - B) * (1 - (v - ylo) / (yhi - ylo))

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" font-family="sans-serif" font-size="12">',
           f'<rect width="{W}" height="{H}" fill="white"/>',
           f'<text x="{W/2}" y="20" text-anchor="middle" font-size="14">{a.title}</text>',
           f'<line x1="{L}" y1="{H-B}" x2="{W-R}" y2="{H-B}" stroke="black"/>',
           f'<line x1="{L}" y1="{T}" x2="{L}" y2="{H-B}" stroke="black"/>',
           f'<text x="{(L+W-R)/2}" y="{H-12}" text-anchor="middle">seconds (jobs run one at a time)</text>',
           f'<text x="16" y="{(T+H-B)/2}" text-anchor="middle" transform="rotate(-90 16 {(T+H-B)/2})">validation accuracy</text>']
    for i in range(6):
        t = tmax * i / 5
        out.append(f'<text x="{X(t)}" y="{H-B+16}" text-anchor="middle">{t:.0f}</text>')
        v = ylo + (yhi - ylo) * i / 5
        out.append(f'<text x="{L-6}" y="{Y(v)+4}" text-anchor="end">{v:.3f}</text>')
        out.append(f'<line x1="{L}" y1="{Y(v)}" x2="{W-R}" y2="{Y(v)}" stroke="#eee"/>')
    for k, s in enumerate(studies):
        ci, di = k % len(COLORS), 0
        if k < len(a.style):
            c, d = a.style[k].split(",")
            ci, di = int(c), int(d)
        pts, last = [], None
        for t, v in s["curve"]:
            if last is not None:
                pts.append((X(t), Y(last)))
            pts.append((X(t), Y(v)))
            last = v
        if last is not None:
            pts.append((X(s["seconds"]), Y(last)))
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)
        dash = f' stroke-dasharray="{DASH[di]}"' if DASH[di] else ""
        out.append(f'<polyline points="{path}" fill="none" stroke="{COLORS[ci]}" stroke-width="2"{dash}/>')
        label = a.label[k] if k < len(a.label) else s["study"]
        ly = T + 16 * k + 10
        out.append(f'<line x1="{W-R+10}" y1="{ly-4}" x2="{W-R+34}" y2="{ly-4}" stroke="{COLORS[ci]}" stroke-width="2"{dash}/>')
        out.append(f'<text x="{W-R+40}" y="{ly}">{label}</text>')
    out.append("</svg>")
    print("\n".join(out))


if __name__ == "__main__":
    main()
