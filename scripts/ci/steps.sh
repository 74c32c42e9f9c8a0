# Sourced by .ci/run and tests/hosted/run.sh: `timed NAME COMMAND…` runs COMMAND and, when
# CI_RESULTS_DIR is set, appends a line to $CI_RESULTS_DIR/steps.jsonl with its wall time, the CPU
# time of everything it started (as the shell's `times` counts its finished children) and the
# machine's load at its start and end, for scripts/ci-summary.ts. STEP_PARENT names the step it is
# part of. Returns the command's exit code.

# The CPU seconds (user + system) of the finished children in a `times` output.
steps_cpu() {
	awk 'NR == 2 {
		total = 0
		for (i = 1; i <= 2; i++) { split($i, t, "m"); sub("s", "", t[2]); total += t[1] * 60 + t[2] }
		printf "%.1f", total
	}' "$1"
}

timed() {
	local name=$1
	shift
	local record start load code=0 cpu_start
	record=$(mktemp)
	start=$(date +%s%3N)
	load=$(cut -d' ' -f1 /proc/loadavg)
	# `times` here, not in $(…): a subshell has no children of its own.
	times >"$record"
	cpu_start=$(steps_cpu "$record")
	"$@" || code=$?
	times >"$record"
	if [ -n "${CI_RESULTS_DIR:-}" ]; then
		mkdir -p "$CI_RESULTS_DIR"
		printf '{"name":"%s","parent":"%s","start":%s,"end":%s,"cpu":%s,"code":%s,"load":[%s,%s]}\n' \
			"$name" "${STEP_PARENT:-}" "$start" "$(date +%s%3N)" \
			"$(awk -v a="$(steps_cpu "$record")" -v b="$cpu_start" 'BEGIN { printf "%.1f", a - b }')" \
			"$code" "$load" "$(cut -d' ' -f1 /proc/loadavg)" >>"$CI_RESULTS_DIR/steps.jsonl"
	fi
	rm -f "$record"
	return "$code"
}
