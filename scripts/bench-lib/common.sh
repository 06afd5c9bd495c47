# What the wrk benchmarks (scripts/bench, scripts/bench-402-peers) share: a temporary folder and the
# servers started, both cleaned up on exit; servers pinned to core 0 and waited for; the figures read
# from wrk's reports. Sourced, with ROUNDS set by the caller.
for tool in wrk taskset curl; do
  command -v "$tool" >/dev/null || { echo "$tool is needed (apt-get install -y wrk util-linux curl)" >&2; exit 1; }
done
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

start() { # start <port> <command...>: a server pinned to core 0, waited for
  local port=$1; shift
  taskset -c 0 "$@" >/dev/null 2>"$tmp/server-$port.err" &
  pids+=($!)
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && return 0; sleep 0.1; done
  echo "server on $port did not start:" >&2; cat "$tmp/server-$port.err" >&2; exit 1
}

ready() { # ready <port>: the service answers /ready with 200 (its datasets indexed; on a loaded core 0 that can take seconds)
  for _ in $(seq 1 600); do curl -sf -o /dev/null "http://127.0.0.1:$1/ready" && return 0; sleep 0.1; done
  echo "service on $1 never became ready:" >&2; cat "$tmp/server-$1.err" >&2; exit 1
}

rps() { awk '/Requests\/sec/ {print $2}' "$1"; }
lat() { awk -v p="$2%" '$1 == p {print $2}' "$1"; }
median_report() { # the report of the median round by requests/s
  for f in "$tmp/$1".*.txt; do echo "$(rps "$f") $f"; done | sort -n | awk -v n="$ROUNDS" 'NR == int((n + 1) / 2) {print $2}'
}
