#!/usr/bin/env bash
# build/cluster.sh: a throwaway three-node CaptionQA cluster on this
# machine, for trying scale-out (make cluster runs it after make build).
#
#   build/cluster.sh        # from anywhere; Ctrl-C stops it all
#
# What it starts, each in a temporary folder removed on exit:
#   - PostgreSQL (Debian's postgresql package: initdb, then postgres as the
#     postgres user when run as root) on 127.0.0.1:5433, or the next free
#     port, trust authentication, database "captionqa";
#   - versitygw's POSIX gateway (S3) on 127.0.0.1:7070, or the next free
#     port, with a bucket "captionqa" and throwaway credentials;
#   - three nodes of build/bin/captionqa, sharing both (--store, --blobs):
#       node 1  http://127.0.0.1:8787  role all: API and jobs; started
#               first, so it migrates the database and creates the owner
#       node 2  http://127.0.0.1:8788  role all
#       node 3  http://127.0.0.1:8789  role worker: jobs only (renders,
#               extracts, webhook deliveries, sweepers); answers only
#               /healthz and /readyz
# It prints the URLs, the owner API key (from node 1's first start) and the
# admin command line for the cluster's store, then waits. Ctrl-C (or
# SIGTERM) stops the nodes (gracefully), then the gateway and PostgreSQL,
# and removes the temporary folder. A node that exits on its own stops the
# cluster too, with the end of its log.
#
# Needs: build/bin/captionqa (make build), PostgreSQL's server binaries
# (apt-get install postgresql), versitygw (go install
# github.com/versity/versitygw/cmd/versitygw@v1.8.0), ffmpeg for video
# jobs (make run installs it).

set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin="$root/build/bin/captionqa"
bucket=captionqa
# The gateway's root account: good only on this loopback gateway.
export AWS_ACCESS_KEY_ID=captionqa-cluster AWS_SECRET_ACCESS_KEY=captionqa-cluster-secret
region=us-east-1
node_ports=(8787 8788 8789)
node_roles=(all all worker)

fail() {
	echo "cluster: $*" >&2
	exit 1
}

# alive PID: the process runs (a child that exited stays a zombie until
# waited for, and kill -0 still succeeds on a zombie).
alive() {
	local st
	st=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
	st=${st##*) }
	[ "${st:0:1}" != Z ]
}

# listening PORT: something accepts connections on 127.0.0.1:PORT.
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# free_port FROM: FROM, or the first port above it nothing listens on.
free_port() {
	local p=$1
	while listening "$p"; do
		p=$((p + 1))
		[ "$p" -lt $(($1 + 100)) ] || fail "no free port from $1 to $p"
	done
	echo "$p"
}

[ -x "$bin" ] || fail "$bin is missing: run make build first"
pg_bin=${PG_BINDIR:-$( (ls -d /usr/lib/postgresql/*/bin 2>/dev/null || true) | sort -V | tail -n 1)}
[ -x "$pg_bin/initdb" ] || fail "PostgreSQL's initdb not found in /usr/lib/postgresql/*/bin: apt-get install postgresql (or set PG_BINDIR)"
vgw=$(command -v versitygw || echo "$HOME/go/bin/versitygw")
[ -x "$vgw" ] || fail "versitygw not found on PATH nor in \$HOME/go/bin: go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"
for p in "${node_ports[@]}"; do
	! listening "$p" || fail "port $p is in use: stop what listens there (another captionqa?)"
done

tmp=$(mktemp -d -t captionqa-cluster.XXXXXX)
# The postgres user needs to reach its folder inside.
chmod 711 "$tmp"
pids=() names=() # every process started, in start order, and its name

cleanup() {
	local code=$?
	trap - INT TERM
	# Nodes first (their shutdown still writes to the store), newest first,
	# then the gateway and PostgreSQL.
	for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
		local pid=${pids[i]}
		alive "$pid" || continue
		kill -TERM "$pid" 2>/dev/null || true
		for _ in $(seq 150); do alive "$pid" || break; sleep 0.1; done
		kill -KILL "$pid" 2>/dev/null || true
		wait "$pid" 2>/dev/null || true
	done
	rm -rf "$tmp"
	[ "$code" = 130 ] && echo "cluster: stopped; removed $tmp"
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS DESCRIPTION PID COMMAND...: retry COMMAND every 0.1 s
# while the process PID runs.
wait_for() {
	local secs=$1 what=$2 pid=$3
	shift 3
	local deadline=$(($(date +%s) + secs))
	until "$@" >/dev/null 2>&1; do
		alive "$pid" || fail "exited while waiting for $what"
		[ "$(date +%s)" -lt "$deadline" ] || fail "timed out after ${secs}s waiting for $what"
		sleep 0.1
	done
}

# start NAME COMMAND...: run COMMAND in the background in a session of its
# own (Ctrl-C reaches this script only, which stops everything in order),
# its output in $tmp/NAME.out and $tmp/NAME.log; the pid is in $started.
start() {
	local name=$1
	shift
	setsid "$@" >"$tmp/$name.out" 2>"$tmp/$name.log" </dev/null &
	started=$!
	pids+=("$started")
	names+=("$name")
}

# 1. PostgreSQL. It refuses to run as root: as root, initdb and postgres
# run as the postgres user (setpriv execs, so the pid is postgres's).
as_pg=()
mkdir "$tmp/pg"
if [ "$(id -u)" = 0 ]; then
	id postgres >/dev/null 2>&1 || fail "running as root needs the postgres user (apt-get install postgresql makes it)"
	chown postgres: "$tmp/pg"
	as_pg=(setpriv --reuid=postgres --regid=postgres --init-groups)
fi
"${as_pg[@]}" "$pg_bin/initdb" -D "$tmp/pg/data" -U postgres -A trust -E UTF8 --locale=C >"$tmp/initdb.log" 2>&1 ||
	{ cat "$tmp/initdb.log" >&2; fail "initdb failed"; }
pg_port=$(free_port 5433)
start postgres "${as_pg[@]}" "$pg_bin/postgres" -D "$tmp/pg/data" -p "$pg_port" \
	-c listen_addresses=127.0.0.1 -c unix_socket_directories="$tmp/pg"
wait_for 30 "PostgreSQL on port $pg_port" "$started" "$pg_bin/pg_isready" -q -h 127.0.0.1 -p "$pg_port"
"$pg_bin/createdb" -h 127.0.0.1 -p "$pg_port" -U postgres captionqa || fail "createdb captionqa failed"
store="postgres://postgres@127.0.0.1:$pg_port/captionqa?sslmode=disable"

# 2. The S3 gateway. Its POSIX backend serves each folder of its root as a
# bucket of the root account: the bucket is a folder made beforehand.
s3_port=$(free_port 7070)
mkdir -p "$tmp/s3/$bucket"
start versitygw "$vgw" --access "$AWS_ACCESS_KEY_ID" --secret "$AWS_SECRET_ACCESS_KEY" --region "$region" \
	--port "127.0.0.1:$s3_port" posix "$tmp/s3"
wait_for 30 "versitygw on port $s3_port" "$started" listening "$s3_port"
blobs="s3://$bucket?endpoint=http://127.0.0.1:$s3_port&region=$region&pathstyle=true"

# 3. The nodes: node 1 alone first (it migrates the store and creates the
# owner, whose key only the creating node prints), then the others.
# start_node N: start node N; its pid is in $started.
start_node() {
	local i=$(($1 - 1))
	mkdir -p "$tmp/node$1"
	start "node$1" "$bin" serve --addr "127.0.0.1:${node_ports[i]}" --data "$tmp/node$1" \
		--store "$store" --blobs "$blobs" --role "${node_roles[i]}" --log-format json
}
# ready N PID: node N printed its start line.
ready() { wait_for 60 "node $1's start (see $tmp/node$1.log)" "$2" grep -q '^CaptionQA is running at ' "$tmp/node$1.out"; }
start_node 1
ready 1 "$started"
start_node 2
n2=$started
start_node 3
ready 2 "$n2"
ready 3 "$started"
owner_key=$(sed -n 's/^  \(cqa_[A-Za-z0-9_-]*\)$/\1/p' "$tmp/node1.out" | head -n 1)
[ -n "$owner_key" ] || fail "node 1 printed no owner key:$(printf '\n'; cat "$tmp/node1.out")"
link=$(sed -n 's/^Sign in to the UI .*: \(http[^ ]*\)$/\1/p' "$tmp/node1.out" | head -n 1)

cat <<EOF
CaptionQA cluster: three nodes sharing PostgreSQL and an S3 bucket
  node 1  role all     http://127.0.0.1:${node_ports[0]}/
  node 2  role all     http://127.0.0.1:${node_ports[1]}/
  node 3  role worker  http://127.0.0.1:${node_ports[2]}/  (jobs only; /healthz and /readyz)
  store   $store
  blobs   $blobs (versitygw on $tmp/s3)
Owner API key (owner@localhost; shown once):
  $owner_key
Sign in to the UI at node 1 or 2 (one-time link, from node 1): ${link:-none printed}
Admin commands take the store, e.g.:
  $bin account list --store '$store'
Logs (JSON) and data: $tmp (node1.log, ...), removed on exit.
Press Ctrl-C to stop the cluster.
EOF

# Wait until Ctrl-C, or until a process exits on its own.
wait -n || true
for i in "${!pids[@]}"; do
	if ! alive "${pids[i]}"; then
		echo "cluster: ${names[i]} exited; the end of its log:" >&2
		tail -n 20 "$tmp/${names[i]}.log" >&2
	fi
done
fail "stopping the cluster"
