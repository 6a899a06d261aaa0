#!/usr/bin/env bash
# Start a single-node Slurm cluster on localhost (munged, slurmctld, slurmd -N localhost)
# with its state, spool, logs and config under DIR (default: a new temporary directory).
# Needs root and the Debian packages slurmctld slurmd slurm-client munge.
# Prints "export SLURM_CONF=DIR/slurm.conf"; the daemons' PIDs are in DIR/pids, and
# testdata/slurm/stop.sh DIR stops them by PID. Exits 1, naming the step, when the node
# is not idle within 60 s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dir=${1:-$(mktemp -d /tmp/gitui-slurm.XXXXXX)}
mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
chmod 0755 "$dir" # munged runs as the munge user and must reach its socket directory
for cmd in munged slurmctld slurmd sinfo sbatch; do
  command -v "$cmd" >/dev/null || { echo "start.sh: $cmd not found: apt-get install slurmctld slurmd slurm-client munge" >&2; exit 1; }
done
[ "$(id -u)" = 0 ] || { echo "start.sh: needs root (slurmd runs jobs as their user)" >&2; exit 1; }
ctlport=${GITUI_SLURM_PORT:-16817}
sed -e "s|@DIR@|$dir|g" -e "s|@USER@|root|g" -e "s|@CTLPORT@|$ctlport|g" -e "s|@DPORT@|$((ctlport + 1))|g" \
  "$here/slurm.conf.in" >"$dir/slurm.conf"
export SLURM_CONF=$dir/slurm.conf
: >"$dir/pids"

# munged as the munge user, with its socket, pid and log under DIR.
[ -s /etc/munge/munge.key ] || { echo "start.sh: /etc/munge/munge.key is missing: reinstall munge" >&2; exit 1; }
chown munge: "$dir/munge"
chmod 0755 "$dir/munge"
sock=$dir/munge/munge.socket
runuser -u munge -- munged --socket="$sock" --pid-file="$dir/munge/munged.pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/munged.seed"
for _ in $(seq 50); do [ -s "$dir/munge/munged.pid" ] && break; sleep 0.1; done
echo "munged $(cat "$dir/munge/munged.pid")" >>"$dir/pids"
echo "AuthInfo=socket=$sock" >>"$dir/slurm.conf"

slurmctld -D -f "$dir/slurm.conf" -i >>"$dir/slurmctld.out" 2>&1 &
echo "slurmctld $!" >>"$dir/pids"
slurmd -D -N localhost -f "$dir/slurm.conf" >>"$dir/slurmd.out" 2>&1 &
echo "slurmd $!" >>"$dir/pids"

for _ in $(seq 120); do
  state=$(sinfo -h -N -o %t 2>/dev/null || true)
  if [ "$state" = idle ]; then
    echo "export SLURM_CONF=$dir/slurm.conf"
    exit 0
  fi
  sleep 0.5
done
echo "start.sh: the node is not idle after 60 s (sinfo: ${state:-no answer}); logs in $dir" >&2
exit 1
