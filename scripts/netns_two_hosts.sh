#!/usr/bin/env bash
# Two app hosts and a database host in network namespaces on one machine; one app host's link is cut
# while it holds a tournament's lock, mid-burst; the other host must keep serving every tournament and
# take writes to the cut host's tournament again within 30 s (issue 29). docs/operations.md, "A lost host".
#
#   sudo scripts/netns_two_hosts.sh            # the app's bounds (DB_* settings as in .env.example)
#   sudo MODE=baseline scripts/netns_two_hosts.sh   # the same without them (the server's defaults)
#
# Needs root (ip netns, veth), PostgreSQL's server binaries (initdb, postgres) and the project's .venv.
# Everything runs in namespaces this script creates (names "${PREFIX}-*") on a private bridge inside one
# of them, addresses 10.231.0.0/24 that exist only there; the machine's own interfaces and routes are
# not touched, and nothing is sent anywhere else. Everything is removed on exit.
#
#   ns ${PREFIX}-sw      a bridge (the "switch")
#   ns ${PREFIX}-db      PostgreSQL          10.231.0.1:5432
#   ns ${PREFIX}-app1    gunicorn            10.231.0.11:8000   (the host whose link is cut)
#   ns ${PREFIX}-app2    gunicorn            10.231.0.12:8000
#   ns ${PREFIX}-client  the load driver     10.231.0.100
#
# What it does: a process on app1 takes the tournament lock (`lock_tournament`) inside a transaction, as a
# request does, and stops talking (as a host that is going away); a burst of writes to both hosts follows;
# 3 s later app1's link is cut. The driver keeps writing to the locked tournament and reading and writing
# another one through app2, and prints a JSON line: seconds from the cut until app2 took a write to the
# locked tournament, the answers it got meanwhile (503 tournament_busy with Retry-After, not a hung
# worker), and the other tournament's slowest answer.
set -euo pipefail

PREFIX=${PREFIX:-tnd}
MODE=${MODE:-bounded}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PY:-$ROOT/.venv/bin/python}
WORK=$(mktemp -d /tmp/netns-two-hosts.XXXXXX)
PGBIN=${PGBIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)}
NET=10.231.0
PIDS=()

ns() { local name=$1; shift; ip netns exec "$PREFIX-$name" "$@"; }

cleanup() {
    set +e
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    sleep 1
    for pid in "${PIDS[@]}"; do kill -9 "$pid" 2>/dev/null; done
    if [ -f "$WORK/pg/postmaster.pid" ]; then
        ns db su postgres -s /bin/sh -c "$PGBIN/pg_ctl -D $WORK/pg -m immediate stop" >/dev/null 2>&1
    fi
    for name in client app2 app1 db sw; do ip netns del "$PREFIX-$name" 2>/dev/null; done
    rm -rf "$WORK"
}
trap cleanup EXIT

# --- the network: a bridge in its own namespace, one veth pair per host ---------------------------------
ip netns add "$PREFIX-sw"
ns sw ip link add br0 type bridge
ns sw ip link set br0 up
ns sw ip link set lo up
attach() {  # attach NAME ADDRESS
    local name=$1 address=$2
    ip netns add "$PREFIX-$name"
    ns "$name" ip link set lo up
    ip link add "$PREFIX-$name-h" type veth peer name "$PREFIX-$name-s"
    ip link set "$PREFIX-$name-h" netns "$PREFIX-$name"
    ip link set "$PREFIX-$name-s" netns "$PREFIX-sw"
    ns "$name" ip link set "$PREFIX-$name-h" name eth0
    ns "$name" ip addr add "$address/24" dev eth0
    ns "$name" ip link set eth0 up
    ns sw ip link set "$PREFIX-$name-s" master br0
    ns sw ip link set "$PREFIX-$name-s" up
}
attach db "$NET.1"
attach app1 "$NET.11"
attach app2 "$NET.12"
attach client "$NET.100"

# --- the database host ------------------------------------------------------------------------------------
mkdir -p "$WORK/pg" && chown postgres "$WORK" "$WORK/pg" && chmod 700 "$WORK/pg"
su postgres -s /bin/sh -c "$PGBIN/initdb -D $WORK/pg -U postgres -A trust" >"$WORK/initdb.log"
echo "host all all $NET.0/24 trust" >>"$WORK/pg/pg_hba.conf"
ns db su postgres -s /bin/sh -c "$PGBIN/postgres -D $WORK/pg -c listen_addresses=$NET.1 -c port=5432 \
    -c unix_socket_directories=$WORK/pg -c fsync=off" >"$WORK/postgres.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do ns app1 "$PY" -c "import socket; socket.create_connection(('$NET.1', 5432), 1)" 2>/dev/null && break; sleep 0.2; done
ns db su postgres -s /bin/sh -c "$PGBIN/psql -h $WORK/pg -q -c 'CREATE DATABASE netns'" 

export DATABASE_URL="postgres://postgres@$NET.1:5432/netns" DEBUG=True SECRET_KEY=netns-demo-not-secret \
       ALLOWED_HOSTS='*' REDIS_URL= CELERY_BROKER_URL= LOG_LEVEL=ERROR DB_CONN_MAX_AGE=60
if [ "$MODE" = baseline ]; then
    export DB_STATEMENT_TIMEOUT=0 DB_LOCK_TIMEOUT=0 DB_IDLE_IN_TRANSACTION_TIMEOUT=0
fi
cd "$ROOT"
ns app1 "$PY" manage.py migrate -v0
ns app1 "$PY" manage.py shell -v0 -c "
import json
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from tournaments import services
org = get_user_model().objects.create_user('netns-org')
out = {'token': Token.objects.create(user=org).key}
for key, name in (('locked', 'Cut Cup'), ('other', 'Other Cup')):
    t = services.tournament_create(actor=org, name=name, game='taki')
    services.entrants_import_csv(actor=org, tournament=t, csv_text='name\n' + '\n'.join(f'{name} {i}' for i in range(16)))
    out[key] = {'slug': t.slug, 'id': t.pk}
print(json.dumps(out))
" >"$WORK/scene.json"

# --- the app hosts -----------------------------------------------------------------------------------------
for host in app1 app2; do
    address=$NET.$([ $host = app1 ] && echo 11 || echo 12)
    ns $host "$ROOT/.venv/bin/gunicorn" config.wsgi -b "$address:8000" -w 2 --timeout 30 \
        --error-logfile "$WORK/$host.log" >/dev/null 2>&1 &
    PIDS+=($!)
done
for address in "$NET.11" "$NET.12"; do
    for _ in $(seq 100); do ns client "$PY" -c "import socket; socket.create_connection(('$address', 8000), 1)" 2>/dev/null && break; sleep 0.2; done
done

# app1's request in the middle of its transaction: the tournament locked, then silence.
ns app1 "$PY" -c "
import django, os, sys, time
os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'config.settings'); django.setup()
from django.db import transaction
from tournaments.services.locking import lock_tournament
with transaction.atomic():
    lock_tournament($(python3 -c "import json;print(json.load(open('$WORK/scene.json'))['locked']['id'])"))
    print('locked', flush=True)
    time.sleep(600)
" >"$WORK/holder.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 50); do grep -q locked "$WORK/holder.log" 2>/dev/null && break; sleep 0.2; done

# --- the burst, the cut, the measurement -----------------------------------------------------------------
ns client "$PY" - "$WORK/scene.json" "$NET" <<'PY' &
import json, sys, threading, time, urllib.request, urllib.error
scene = json.load(open(sys.argv[1])); net = sys.argv[2]
token = scene["token"]
def call(host, method, path, body=None, timeout=40):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"http://{net}.{host}:8000{path}", data=data, method=method, headers={
        "Authorization": f"Token {token}", "Content-Type": "application/json", "Accept": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, time.monotonic() - started, ""
    except urllib.error.HTTPError as error:
        payload = error.read().decode(errors="replace")
        code = json.loads(payload).get("error", {}).get("code", "") if payload.startswith("{") else ""
        return error.code, time.monotonic() - started, f"{code} retry-after={error.headers.get('Retry-After')}"
    except Exception as error:
        return 0, time.monotonic() - started, type(error).__name__
locked = scene["locked"]["slug"]
# the burst: writes to the locked tournament through both hosts (they queue behind the lock)
for i in range(6):
    threading.Thread(target=call, args=(11 if i % 2 else 12, "POST", f"/api/tournaments/{locked}/entrants/",
                                        {"name": f"burst {i}"}), daemon=True).start()
print("burst started", flush=True)
open(sys.argv[1] + ".go", "w").close()
while not __import__("os").path.exists(sys.argv[1] + ".cut"):
    time.sleep(0.05)
cut = time.monotonic()
answers, first_write, done = [], None, threading.Event()
other = {"answers": 0, "failed": 0, "slowest": 0.0}

def probe_other() -> None:  # another tournament's reads and writes through app2, all along
    n = 0
    while not done.is_set():
        n += 1
        for method, path, body in (("GET", f"/api/tournaments/{scene['other']['slug']}/standings/", None),
                                   ("POST", f"/api/tournaments/{scene['other']['slug']}/entrants/", {"name": f"other {n}"})):
            o_status, o_seconds, _ = call(12, method, path, body, timeout=30)
            other["answers"] += 1
            other["failed"] += o_status not in (200, 201)
            other["slowest"] = max(other["slowest"], round(o_seconds, 2))
        time.sleep(0.3)

prober = threading.Thread(target=probe_other, daemon=True)
prober.start()
n = 0
while time.monotonic() - cut < 60:
    n += 1
    status, seconds, note = call(12, "POST", f"/api/tournaments/{locked}/entrants/", {"name": f"after cut {n}"})
    answers.append([round(time.monotonic() - cut, 1), status, round(seconds, 2), note])
    if status == 201:
        first_write = time.monotonic() - cut
        break
    time.sleep(0.5)
time.sleep(1)
done.set()
prober.join(timeout=35)
print(json.dumps({"cut_host_tournament_writable_after_s": None if first_write is None else round(first_write, 1),
                  "answers_from_app2_meanwhile": answers, "other_tournament_through_app2": other}))
PY
DRIVER=$!
PIDS+=($DRIVER)
for _ in $(seq 100); do [ -f "$WORK/scene.json.go" ] && break; sleep 0.1; done
sleep 3
ns app1 ip link set eth0 down          # the cut: app1 is gone from the network, mid-burst
ns sw ip link set "$PREFIX-app1-s" down
touch "$WORK/scene.json.cut"
echo "link of app1 cut at $(date +%T) (mode: $MODE)"
wait "$DRIVER" || true
echo "server's view of app1's sessions afterwards:"
ns db su postgres -s /bin/sh -c "$PGBIN/psql -h $WORK/pg -d netns -Atc \"SELECT client_addr, state, now() - state_change FROM pg_stat_activity WHERE client_addr = '$NET.11'\"" || true
