#!/usr/bin/env bash
# npm run test:hosted: the product on a database shaped like a hosted Supabase project
# (../shared/supabase-hosted, or HOSTED_SHAPE_DIR): the deploy guide followed as written, the
# database suite in postgres mode with every service logging in as Supabase's do, and one
# browser pass (sign in, change the hero title, see it published). Needs root: the hosted shape
# installs Debian's PostgreSQL 15 and runs it as the postgres OS user.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Each step's time goes to $CI_RESULTS_DIR/steps.jsonl when .ci/run sets it.
source scripts/ci/steps.sh
export STEP_PARENT='npm run test:hosted'

SHAPE=${HOSTED_SHAPE_DIR:-../shared/supabase-hosted}
# Every port of the stage follows HOSTED_PORT, so two checkouts with different ones never meet:
# the hosted shape, a plain PostgreSQL (+1), the browser pass's site (+2), and the stacks (three
# ports each) of the deploy guide (+3), the database suite (+6), the browser pass (+9) and the
# plain PostgreSQL's two tests (+12, +15).
PORT=${HOSTED_PORT:-24329}
PLAIN_PORT=$((PORT + 1))
export HOSTED_BROWSER_PORT=$((PORT + 2))
GUIDE_STACK_PORT=$((PORT + 3))
DB_STACK_PORT=$((PORT + 6))
export HOSTED_BROWSER_STACK_PORT=$((PORT + 9))
export PLAIN_STACK_PORT=$((PORT + 12))
export PLAIN_APP_STACK_PORT=$((PORT + 15))
[ -x "$SHAPE/start.sh" ] || { echo "No hosted shape at $SHAPE (set HOSTED_SHAPE_DIR)" >&2; exit 1; }

# PostgreSQL runs as the postgres OS user: its folder must be readable by it.
WORK=$(mktemp -d /var/tmp/chamber-hosted.XXXXXX)
chmod 755 "$WORK"
PGBIN=/usr/lib/postgresql/15/bin
cleanup() {
	"$SHAPE/stop.sh" "$WORK/db" >/dev/null 2>&1 || true
	[ -f "$WORK/plain/PG_VERSION" ] && runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/plain" -m fast stop >/dev/null 2>&1
	rm -rf "$WORK"
}
trap cleanup EXIT

started=$SECONDS
if ! timed 'the hosted shape starts' "$SHAPE/start.sh" "$WORK/db" "$PORT" >/dev/null; then
	# The folder goes with the cleanup below: what PostgreSQL said first.
	echo "── the hosted shape's server log (last 40 lines) ──" >&2
	tail -n 40 "$WORK/db/server.log" >&2 || true
	exit 1
fi
echo "hosted shape ready on 127.0.0.1:$PORT in $((SECONDS - started)) s"

url() { echo "postgres://$1:$1@127.0.0.1:$PORT/postgres"; }
export HOSTED_DB_URL=$(url postgres)
export HOSTED_ADMIN_DB_URL=$(url supabase_admin)
# Hosted Supabase preloads pg-safeupdate for the authenticator role; Debian does not package it,
# so the emulator's authenticator could not log in with the setting.
psql "$HOSTED_ADMIN_DB_URL" -X -q -c 'alter role authenticator reset session_preload_libraries'

# The local stack in postgres mode, each service with the login Supabase gives it.
export DATABASE_URL=$HOSTED_DB_URL
export POSTGREST_DATABASE_URL=$(url authenticator)
export AUTH_DATABASE_URL=$(url supabase_auth_admin)
export STORAGE_DATABASE_URL=$(url supabase_storage_admin)

step() { echo; echo "== $1 ($((SECONDS - started)) s)"; }

# A plain PostgreSQL beside it (the hosted shape installed Debian's 15): a fresh cluster whose
# superuser is postgres, and a login without rights.
install -d -o postgres -g postgres "$WORK/plain"
runuser -u postgres -- "$PGBIN/initdb" -D "$WORK/plain" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$WORK/plain" -l "$WORK/plain/server.log" -w \
	-o "-p $PLAIN_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories=$WORK/plain" start >/dev/null
export PLAIN_DB_URL=postgres://postgres@127.0.0.1:$PLAIN_PORT/postgres
export PLAIN_APP_DB_URL=postgres://app@127.0.0.1:$PLAIN_PORT/postgres
psql "$PLAIN_DB_URL" -X -q -c 'create role app login'

step 'postgres mode on a plain PostgreSQL, without mail settings'
timed 'postgres mode on a plain PostgreSQL' env -u DATABASE_URL -u POSTGREST_DATABASE_URL \
	-u AUTH_DATABASE_URL -u STORAGE_DATABASE_URL \
	node --test --test-reporter=spec tests/hosted/plain-postgres.test.ts

step 'the deploy guide'
CHAMBER_DATA_DIR=.data-test/hosted-guide CHAMBER_STACK_PORT=$GUIDE_STACK_PORT \
	timed 'the deploy guide' node --test --test-reporter=spec tests/hosted/deploy-guide.test.ts

step 'the database suite: the files whose first line says hosted or both'
CHAMBER_TEST_DATA_DIR=.data-test/hosted-db CHAMBER_STACK_PORT=$DB_STACK_PORT DB_TESTS_ON=hosted \
	TEST_TIMINGS_FILE=${CI_RESULTS_DIR:+$CI_RESULTS_DIR/vitest-hosted-db.json} \
	timed 'the database suite (hosted)' npx vitest run --project db

step 'a browser: sign in, change the hero title, see it published'
timed 'a browser publishes' npx playwright test --config playwright.hosted.config.ts
if [ -n "${CI_RESULTS_DIR:-}" ]; then cp test-results/hosted-e2e-report.json "$CI_RESULTS_DIR/" || true; fi

echo; echo "hosted stage passed in $((SECONDS - started)) s"
