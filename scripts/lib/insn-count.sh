# shellcheck shell=bash disable=SC2154 # the cross_* variables come from lib/cross-chroot.sh
# Counting executed instructions of a program under QEMU user-mode, for
# scripts/riscv-insn-count and scripts/chacha-insn-count (both modes). Sourced after
# lib/cross-chroot.sh and cross_chroot_enter.
#
# The method: QEMU 10's `-one-insn-per-tb` makes every translation block one guest
# instruction, and `-d exec,nochain` logs a "Trace ..." line each time a block runs
# (`nochain` stops QEMU from jumping straight from block to block, which would skip the
# log), ending with the symbol the instruction belongs to. So the trace lines between
# the program's marker functions `ragged_insn_begin` and `ragged_insn_end` are the
# instructions of the measured code, exactly. (Debian's qemu-user has no TCG plugin
# support, so the `libinsn.so` plugin is not an option.) The log goes through a FIFO
# into awk, never to disk: it is about 100 bytes per executed instruction.

# insn_build TARGET PACKAGE EXAMPLE: builds a release example for TARGET in the chroot
# (in that target's own target directory) and prints its path inside the chroot.
insn_build() {
    local t=$1 pkg=$2 example=$3 tr env log
    tr=$(cross_triple "$t")
    log=$cross_logs/insn-build-$t.log
    mapfile -t env < <(cross_env "$t")
    # shellcheck disable=SC2016 # "$0" and "$@" are expanded by the chroot's sh
    in_root "${env[@]}" \
        sh -c 'cd /ragged && exec cargo build --locked --release --target "$0" -p "$1" --example "$2"' \
        "$tr" "$pkg" "$example" >"$log" 2>&1 || {
        tail -n 30 "$log" >&2
        echo "build failed; see $log" >&2
        exit 1
    }
    echo "/var/cache/ragged-target/$t/$tr/release/examples/$example"
}

# insn_trace TARGET AWK TRACE_OUT STDOUT [NAME=VALUE]... -- PROGRAM [ARG]...: runs
# PROGRAM (a path in the chroot, with the given variables in its environment) under
# QEMU with the execution trace, which goes through a FIFO into the awk program AWK
# (its output to TRACE_OUT); the program's stdout goes to STDOUT.
insn_trace() {
    local t=$1 awk_program=$2 trace_out=$3 stdout=$4 g fifo awk_pid rc=0 env=()
    shift 4
    while [ "$1" != -- ]; do
        env+=("$1")
        shift
    done
    shift
    g=$(cross_gnu "$t")
    fifo=/tmp/ragged-insn-$$.fifo
    rm -f "$cross_root$fifo"
    mkfifo "$cross_root$fifo"
    awk "$awk_program" <"$cross_root$fifo" >"$trace_out" &
    awk_pid=$!
    in_root "${env[@]}" "$(cross_qemu "$t")" -L "/usr/$g" -one-insn-per-tb -d exec,nochain \
        -D "$fifo" "$@" >"$stdout" || rc=$?
    wait "$awk_pid" || rc=$?
    rm -f "$cross_root$fifo"
    if [ "$rc" != 0 ]; then
        rm -f "$trace_out" "$stdout"
        echo "the traced run of $1 failed (status $rc)" >&2
        exit 1
    fi
}

# insn_run TARGET PROGRAM OUT [NAME=VALUE]...: runs PROGRAM (a path in the chroot) under
# QEMU with the execution trace (and the given variables in its environment), and
# writes OUT: the program's stdout lines ("cell ... REPS") each followed by the
# instruction counts of its REPS measurements ("count N", one per measurement, in
# order).
insn_run() {
    local t=$1 prog=$2 out=$3 counts rc=0
    shift 3
    counts=$cross_base/insn-counts.$$
    # A trace line ends with the symbol of the instruction (or nothing).
    insn_trace "$t" '
        $1 != "Trace" { next }
        $NF == "ragged_insn_begin" { counting = 1; n = 0; next }
        $NF == "ragged_insn_end" { if (counting) print n; counting = 0; next }
        counting { n++ }
    ' "$counts" "$out.cells" "$@" -- "$prog"
    # Interleave: each "cell ... reps" line, then its `reps` counts.
    awk -v counts="$counts" '
        $1 == "cell" {
            print
            for (i = 0; i < $NF; i++) {
                if ((getline c < counts) <= 0) { print "too few counts" > "/dev/stderr"; exit 1 }
                print "count", c
            }
        }
        END { if ((getline c < counts) > 0) { print "too many counts" > "/dev/stderr"; exit 1 } }
    ' "$out.cells" >"$out" || rc=$?
    rm -f "$counts" "$out.cells"
    [ "$rc" = 0 ] || exit 1
}

# insn_check_same A B: the two runs' counts must be identical.
insn_check_same() {
    if cmp -s "$1" "$2"; then
        echo "deterministic: a second run gave the same $(grep -c '^count' "$1") counts"
    else
        echo "NOT deterministic: the two runs differ:" >&2
        diff "$1" "$2" | head -n 20 >&2
        exit 1
    fi
}
