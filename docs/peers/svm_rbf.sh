#!/usr/bin/env bash
# Peer of the SVM row path: LIBSVM's svm-train -t 2 (RBF) on raw MNIST pixels in [0, 1],
# C = 10, gamma = 0.02, the same digits as core/learn's BenchmarkTrainSVCRowsMNIST.
# Usage: svm_rbf_peer.sh N [DATA_DIR] [PREFIX] [OUTDIR]
#   N        training digits (the first N of PREFIX-images), e.g. 5000 or 60000
#   DATA_DIR holds mnist/ (default ../shared/data; ../shared/data/mnist-full for 60,000)
#   PREFIX   train10k (default; ../shared/data/mnist) or train (mnist-full)
# Writes OUTDIR/train-N.libsvm and OUTDIR/test.libsvm (sparse "label j:v", zeros left
# out, v = pixel/255 with 6 digits), then times svm-train (-m 1024: the row path's 1 GiB
# cache) and svm-predict. Needs only /usr/bin/python3 (stdlib) and libsvm-tools.
set -eu
n=${1:-5000}; data=${2:-../shared/data}; prefix=${3:-train10k}; out=${4:-$(mktemp -d)}
mkdir -p "$out"
command -v svm-train >/dev/null || { echo "install libsvm-tools first (apt-get install libsvm-tools)" >&2; exit 2; }
/usr/bin/python3 - "$n" "$data/mnist" "$prefix" "$out" <<'PY'
import gzip, struct, sys
n, d, prefix, out = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
def read(name):
    with gzip.open(f"{d}/{name}") as f: b = f.read()
    nd = b[3]; dims = struct.unpack(">" + "I" * nd, b[4:4 + 4 * nd])
    return dims, b[4 + 4 * nd:]
def write(path, img, lab, m):
    with open(path, "w") as f:
        for i in range(m):
            px = img[i * 784:(i + 1) * 784]
            f.write(str(lab[i]) + " " + " ".join(f"{j+1}:{v/255:.6g}" for j, v in enumerate(px) if v) + "\n")
_, img = read(f"{prefix}-images-idx3-ubyte.gz"); _, lab = read(f"{prefix}-labels-idx1-ubyte.gz")
write(f"{out}/train-{n}.libsvm", img, lab, n)
_, img = read("t10k-images-idx3-ubyte.gz"); _, lab = read("t10k-labels-idx1-ubyte.gz")
write(f"{out}/test.libsvm", img, lab, 10000)
PY
TIMEFORMAT=%R
secs=$( { time svm-train -q -s 0 -t 2 -c 10 -g 0.02 -m 1024 "$out/train-$n.libsvm" "$out/train-$n.model" >/dev/null; } 2>&1 )
psecs=$( { time svm-predict "$out/test.libsvm" "$out/train-$n.model" "$out/pred-$n.txt" > "$out/predict-$n.log"; } 2>&1 )
echo "svm-train n=$n: $secs s (parsing included); svm-predict: $psecs s; $(cat "$out/predict-$n.log"); nSV $(grep total_sv "$out/train-$n.model" | cut -d' ' -f2)"
