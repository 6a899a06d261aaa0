#!/usr/bin/env bash
# Stop the daemons testdata/slurm/start.sh started in DIR, by the PIDs in DIR/pids:
# SIGTERM, then SIGKILL after 10 s.
set -u
dir=${1:?usage: stop.sh DIR}
[ -f "$dir/pids" ] || exit 0
tac "$dir/pids" | while read -r name pid; do
  kill -TERM "$pid" 2>/dev/null || continue
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$pid" 2>/dev/null && { echo "stop.sh: $name ($pid) ignored SIGTERM: SIGKILL" >&2; kill -KILL "$pid"; }
done
: >"$dir/pids"
