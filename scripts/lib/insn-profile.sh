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

# An awk function: the value of a hex string (with or without "0x"). mawk has no
# strtonum; addresses up to 2^53 are exact in its doubles.
insn_awk_hex='function hex(s,   i, v) { v = 0; s = tolower(s); sub(/^0x/, "", s); for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }'

# insn_profile TARGET PROGRAM ARG OUT [NAME=VALUE]...: runs PROGRAM (a path in the
# chroot) with the one argument ARG (and the given variables in its environment) under
# the trace, and writes OUT: "m K ADDR COUNT" for every address executed in the K-th
# measurement (K from 1), and "s SYMBOL ADDR" for the instructions QEMU names.
insn_profile() {
    local t=$1 prog=$2 arg=$3 out=$4
    shift 4
    insn_trace "$t" '
        $1 != "Trace" { next }
        # The address is the second field of the bracketed "[a/pc/b/c]".
        {
            for (i = 2; i <= NF; i++) if ($i ~ /^\[/) { split($i, f, "/"); pc = f[2]; break }
            named = $NF !~ /^\[/
        }
        named && !(pc in symbol) { symbol[pc] = $NF }
        named && $NF == "ragged_insn_begin" { if (!counting) { counting = 1; k++ }; next }
        named && $NF == "ragged_insn_end" { counting = 0; next }
        counting { c[k, pc]++ }
        END {
            for (key in c) { split(key, p, SUBSEP); print "m", p[1], p[2], c[key] }
            for (pc in symbol) print "s", symbol[pc], pc
        }
    ' "$out" /dev/null "$@" -- "$prog" "$arg"
}

# insn_profile_table ELF OUT K TOP: the K-th measurement of insn_profile's OUT by the
# function and by the source line its instructions were charged to (the TOP largest,
# a line with its text), each with its share of the measurement's instructions.
insn_profile_table() {
    local elf=$1 out=$2 k=$3 top=$4 repo base
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    # The load base: a named instruction's address less its symbol's value, where that
    # is a whole number of pages (QEMU may name an instruction inside a function too);
    # the base most of them agree on. Kept in decimal, formatted with "%.0f": mawk
    # formats larger integers with CONVFMT's six digits, and no hex above 32 bits.
    base=$(nm "$elf" | awk "$insn_awk_hex"'
        FNR == NR { if (NF == 3) value[$3] = hex($1); next }
        $1 == "s" && ($2 in value) { d = hex($3) - value[$2]; if (d > 0 && d % 4096 == 0) votes[sprintf("%.0f", d)]++ }
        END { for (d in votes) if (votes[d] > best) { best = votes[d]; base = d }; if (best) print base }
    ' - "$out")
    if [ -z "$base" ]; then
        echo "no named instruction to find the load base by" >&2
        exit 1
    fi
    awk -v k="$k" -v base="$base" "$insn_awk_hex"'
        $1 == "m" && $2 == k { printf "0x%x %d\n", hex($3) - base, $4 }
    ' "$out" >"$out.counts"
    awk '{ print $1 }' "$out.counts" | addr2line -a -f -i -C -e "$elf" >"$out.frames"
    # Each address's count to the innermost frame in the repository's sources, and to
    # the function that frame's line is in (the next frame out names it); then the
    # sums by function and by line, with their shares.
    awk "$insn_awk_hex"'
        function flush(   i, where, in_fn) {
            if (addr == "") return
            where = ""
            for (i = 1; i <= nf; i++) if (loc[i] ~ /^\/ragged\//) { where = loc[i]; in_fn = (i < nf) ? fn[i + 1] : fn[i]; break }
            sub(/ \(discriminator [0-9]+\)$/, "", where)
            if (where == "") { where = "(outside: " fn[1] ")"; in_fn = fn[nf] }
            by_line[where] += count[addr]
            by_fn[in_fn] += count[addr]
            addr = ""
        }
        FNR == NR { count[hex($1)] = $2; total += $2; next }
        /^0x/ { flush(); addr = hex($1); nf = 0; pending = ""; next }
        { if (pending == "") { pending = $0 } else { fn[++nf] = pending; loc[nf] = $0; pending = "" } }
        END {
            flush()
            print "total", total
            for (f in by_fn) printf "fn %d %.1f %s\n", by_fn[f], 100 * by_fn[f] / total, f
            for (w in by_line) printf "line %d %.1f %s\n", by_line[w], 100 * by_line[w] / total, w
        }
    ' "$out.counts" "$out.frames" >"$out.charged"
    echo "$(awk '$1 == "total" { print $2 }' "$out.charged") instructions"
    echo
    echo "by function (the function a charged line is in, inlined or not):"
    awk '$1 == "fn"' "$out.charged" | sort -k2,2nr | head -n "$top" | while read -r _ n share what; do
        printf '%8d %5.1f%%  %s\n' "$n" "$share" "${what:0:110}"
    done
    echo
    echo "by source line:"
    awk '$1 == "line"' "$out.charged" | sort -k2,2nr | head -n "$top" | while read -r _ n share where; do
        text=""
        case $where in
        /ragged/*:[0-9]*)
            file=$repo/${where#/ragged/}
            file=${file%:*}
            [ -f "$file" ] && text=$(sed -n "${where##*:}p" "$file" | sed 's/^ *//' | cut -c1-60)
            ;;
        esac
        printf '%8d %5.1f%%  %-44s %s\n' "$n" "$share" "${where#/ragged/crates/}" "$text"
    done
    rm -f "$out.counts" "$out.frames" "$out.charged"
}
