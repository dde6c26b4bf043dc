# router-process.sh - shell functions shared by the router-bench scripts (sourced, not run).
# Needs: RPID (the router's pid, or empty), TMP (the script's temp dir), KEEP (1 = keep TMP), NAME (prefix
# of messages).

# stop_router: SIGTERM the router if it still runs, wait up to 10 s, then SIGKILL
stop_router() {
    if [ -n "$RPID" ] && kill -0 "$RPID" 2>/dev/null; then
        kill -TERM "$RPID" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$RPID" 2>/dev/null || break; sleep 0.2; done
        kill -0 "$RPID" 2>/dev/null && kill -KILL "$RPID" 2>/dev/null || true
        wait "$RPID" 2>/dev/null || true
    fi
}

# cleanup: stop the router and remove (or keep) the temp dir; installed as the EXIT trap
cleanup() {
    stop_router
    if [ "$KEEP" = 1 ]; then echo "$NAME: kept $TMP" >&2; else rm -rf "$TMP"; fi
}

tcp_listening() { ss -ltnH "( sport = :$1 )" 2>/dev/null | grep -q .; }
udp_bound() { ss -lunH "( sport = :$1 )" 2>/dev/null | grep -q .; }

# free_port [EXCLUDED...]: a random port in 20000..32767 (below the ephemeral range) that no TCP or UDP
# socket uses and that is not among the arguments
free_port() {
    local p
    for _ in $(seq 200); do
        p=$((20000 + RANDOM % 12768))
        [[ " $* " == *" $p "* ]] && continue
        if ! tcp_listening "$p" && ! udp_bound "$p"; then echo "$p"; return 0; fi
    done
    echo "$NAME: no free port found" >&2
    return 1
}
