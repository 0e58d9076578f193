# shellcheck shell=bash disable=SC2154 # the cross_* variables come from lib/cross-chroot.sh
# Where the executed instructions of one measurement go, by source line: the profile
# mode of scripts/chacha-insn-count. Sourced after lib/cross-chroot.sh,
# lib/insn-count.sh and cross_chroot_enter.
#
# The same trace as insn_run (QEMU's `-one-insn-per-tb -d exec,nochain`), but counted
# per instruction address for each measurement between the markers. QEMU names the
# symbol of many instructions; such addresses against the symbols' values in the ELF
# give the load base, and the host's `addr2line` (which reads any ELF) maps each
# address to its chain of inlined frames. Each count goes to the
# innermost frame in the repository's own sources (`/ragged/...` in the chroot), so
# an inlined `core` helper is charged to the ragged line that called it.

# insn_profile TARGET PROGRAM ARG OUT [NAME=VALUE]...: runs PROGRAM (a path in the
# chroot) with the one argument ARG (and the given variables in its environment) under
# the trace, and writes OUT: "m K ADDR COUNT" for every address executed in the
# K-th measurement (K from 1, counting only measurements that executed something),
# and "s SYMBOL ADDR" for the instructions QEMU names.
insn_profile() {
    local t=$1 prog=$2 arg=$3 out=$4 g fifo awk_pid rc=0
    shift 4
    g=$(cross_gnu "$t")
    fifo=/tmp/ragged-insn-profile-$$.fifo
    rm -f "$cross_root$fifo"
    mkfifo "$cross_root$fifo"
    awk '
        $1 != "Trace" { next }
        # The address is the second field of the bracketed "[a/pc/b/c]".
        {
            for (i = 2; i <= NF; i++) if ($i ~ /^\[/) { split($i, f, "/"); pc = f[2]; break }
            named = $NF !~ /^\[/
        }
        named && !(pc in symbol) { symbol[pc] = $NF }
        named && $NF == "ragged_insn_begin" { if (!counting) { counting = 1; k++; n[k] = 0 }; next }
        named && $NF == "ragged_insn_end" { counting = 0; next }
        counting { c[k, pc]++; n[k]++ }
        END {
            for (key in c) { split(key, p, SUBSEP); if (n[p[1]]) print "m", p[1], p[2], c[key] }
            for (pc in symbol) print "s", symbol[pc], pc
        }
    ' <"$cross_root$fifo" >"$out.raw" &
    awk_pid=$!
    in_root "$@" "$(cross_qemu "$t")" -L "/usr/$g" -one-insn-per-tb -d exec,nochain -D "$fifo" \
        "$prog" "$arg" >/dev/null || rc=$?
    wait "$awk_pid" || rc=$?
    rm -f "$cross_root$fifo"
    if [ "$rc" != 0 ]; then
        rm -f "$out.raw"
        echo "the traced run of $prog failed (status $rc)" >&2
        exit 1
    fi
    # Renumber the measurements that executed something 1, 2, ...
    awk '
        $1 == "m" { seen[$2] = 1; line[NR] = $0; next }
        { print }
        END {
            for (k in seen) ks[++nk] = k + 0
            for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++) if (ks[j] < ks[i]) { x = ks[i]; ks[i] = ks[j]; ks[j] = x }
            for (i = 1; i <= nk; i++) rank[ks[i]] = i
            for (r in line) { split(line[r], p, " "); print "m", rank[p[2]], p[3], p[4] }
        }
    ' "$out.raw" >"$out"
    rm -f "$out.raw"
}

# insn_profile_table ELF OUT K TOP: the K-th measurement of insn_profile's OUT by
# source line (the TOP largest, with the line's text) and by the function that line
# is in, each with its share of the measurement's instructions.
insn_profile_table() {
    local elf=$1 out=$2 k=$3 top=$4 repo base
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    # The load base: a named instruction's address less its symbol's value, where that
    # is a whole number of pages (QEMU may name an instruction inside a function too);
    # the base most of them agree on. Kept in decimal, formatted with "%.0f": mawk
    # formats larger integers with CONVFMT's six digits, and no hex above 32 bits.
    base=$(nm "$elf" | awk '
        function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        FNR == NR { if (NF == 3) value[$3] = hex($1); next }
        $1 == "s" && ($2 in value) { d = hex($3) - value[$2]; if (d > 0 && d % 4096 == 0) votes[sprintf("%.0f", d)]++ }
        END { for (d in votes) if (votes[d] > best) { best = votes[d]; base = d }; if (best) print base }
    ' - "$out")
    if [ -z "$base" ]; then
        echo "no named instruction to find the load base by" >&2
        exit 1
    fi
    awk -v k="$k" -v base="$base" '
        function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        $1 == "m" && $2 == k { printf "0x%x %d\n", hex($3) - base, $4 }
    ' "$out" >"$out.counts"
    awk '{ print $1 }' "$out.counts" | addr2line -a -f -i -C -e "$elf" >"$out.frames"
    # Each address's count to the innermost frame in the repository's sources, and to
    # the function that frame's line is in (the next frame out names it).
    awk '
        function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
        function flush(   i, where, in_fn) {
            if (addr == "") return
            where = ""
            for (i = 1; i <= nf; i++) if (loc[i] ~ /^\/ragged\//) { where = loc[i]; in_fn = (i < nf) ? fn[i + 1] : fn[i]; break }
            sub(/ \(discriminator [0-9]+\)$/, "", where)
            if (where == "") { where = "(outside: " fn[1] ")"; in_fn = fn[nf] }
            print "line", count[addr], where
            print "fn", count[addr], in_fn
            addr = ""
        }
        FNR == NR { count[hex($1)] = $2; next }
        /^0x/ { flush(); addr = hex($1); nf = 0; pending = ""; next }
        { if (pending == "") { pending = $0 } else { fn[++nf] = pending; loc[nf] = $0; pending = "" } }
        END { flush() }
    ' "$out.counts" "$out.frames" >"$out.charged"
    total=$(awk '{ t += $2 } END { print t }' "$out.counts")
    echo "$total instructions"
    echo
    echo "by function (the function a charged line is in, inlined or not):"
    awk '$1 == "fn" { $1 = ""; n = $2; $2 = ""; sub(/^ +/, ""); s[$0] += n } END { for (f in s) print s[f], f }' "$out.charged" |
        sort -rn | head -n "$top" | while read -r n what; do
            printf '%8d %5.1f%%  %s\n' "$n" "$(awk -v n="$n" -v t="$total" 'BEGIN { print 100 * n / t }')" "${what:0:110}"
        done
    echo
    echo "by source line:"
    awk '$1 == "line" { n = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); s[$0] += n } END { for (w in s) print s[w], w }' "$out.charged" |
        sort -rn | head -n "$top" | while read -r n where; do
            text=""
            case $where in
            /ragged/*:[0-9]*)
                file=$repo/${where#/ragged/}
                file=${file%:*}
                [ -f "$file" ] && text=$(sed -n "${where##*:}p" "$file" | sed 's/^ *//' | cut -c1-60)
                ;;
            esac
            printf '%8d %5.1f%%  %-44s %s\n' "$n" "$(awk -v n="$n" -v t="$total" 'BEGIN { print 100 * n / t }')" "${where#/ragged/crates/}" "$text"
        done
    rm -f "$out.counts" "$out.frames" "$out.charged"
}
