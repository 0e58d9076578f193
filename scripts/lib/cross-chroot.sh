# shellcheck shell=bash
# The Debian 13 ("trixie") chroot that the scripts running ragged under QEMU user-mode
# share (scripts/cross-test, scripts/riscv-insn-count, scripts/chacha-insn-count).
# Sourced, not run. The sourcing script sets `set -euo pipefail` and calls
#
#   cross_chroot_enter NAME     # NAME prefixes error messages
#
# which checks for root, takes the chroot's lock (one user at a time; held until the
# script exits), clears bind mounts left behind by a killed run, makes the chroot once
# (debootstrap, then rustc-web with the foreign std, cross linkers and qemu-user) and
# bind-mounts /proc, /dev and the repository (at /ragged) for the rest of the script;
# they are unmounted on exit ($cross_locked_at is $SECONDS when the lock was taken). Then `in_root CMD...` runs a command inside, and
# `cross_env TARGET` prints the NAME=VALUE settings for cargo to build for a target
# and run its programs under QEMU.
#
# Everything big lives outside the repository, under $RAGGED_CROSS_DIR (default
# /var/tmp/ragged-cross):
#   trixie/     the chroot (its own cargo home, registry cache and target directories)
#   logs/       full logs of the last runs
# Each target has its own target directory (trixie/var/cache/ragged-target/<target>):
# s390x's RUSTC_BOOTSTRAP and -Zbuild-std would otherwise make cargo rebuild the shared
# host artefacts (proc macros) every time it switches targets.
# The Debian mirror is read from the host's apt sources at run time (override with
# RAGGED_CROSS_MIRROR); the host's CA bundle is copied in for cargo's downloads.

cross_repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cross_base=${RAGGED_CROSS_DIR:-/var/tmp/ragged-cross}
cross_root=$cross_base/trixie
cross_logs=$cross_base/logs
cross_jobs=${RAGGED_CROSS_JOBS:-2}

# The host's Debian mirror: the first non-security archive in its apt sources.
host_mirror() {
    local f
    if [ -r /etc/apt/sources.list ]; then
        awk '$1 == "deb" {
                 i = 2; if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
                 if ($(i + 1) !~ /security/) { print $i; exit }
             }' /etc/apt/sources.list
    fi
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -r "$f" ] || continue
        # deb822 stanzas are separated by blank lines; take URIs of a stanza whose
        # Suites are not a security suite.
        awk 'BEGIN { RS = ""; FS = "\n" }
             {
                 uri = ""; suites = ""; types = ""
                 for (i = 1; i <= NF; i++) {
                     if ($i ~ /^URIs:/) { uri = $i; sub(/^URIs:[ \t]*/, "", uri); sub(/[ \t].*/, "", uri) }
                     if ($i ~ /^Suites:/) suites = $i
                     if ($i ~ /^Types:/) types = $i
                 }
                 if (uri != "" && types ~ /deb( |$)/ && suites !~ /security/) { print uri; exit }
             }' "$f"
    done
}

cross_mounted=()
cross_cleanup() {
    local i
    for ((i = ${#cross_mounted[@]} - 1; i >= 0; i--)); do
        umount "${cross_mounted[i]}" 2>/dev/null || umount -l "${cross_mounted[i]}" || true
    done
    cross_mounted=()
}

cross_bind() { # cross_bind SRC DEST: bind-mount SRC on DEST (unmounted on exit)
    mkdir -p "$2"
    mount --bind "$1" "$2"
    cross_mounted+=("$2")
}

in_root() { # run a command in the chroot with a clean environment
    nice -n 10 chroot "$cross_root" /usr/bin/env -i \
        HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"
}

cross_packages=(
    rustc-web cargo-web rust-web-src
    libstd-rust-web-dev:arm64 libstd-rust-web-dev:armhf libstd-rust-web-dev:riscv64
    qemu-user ca-certificates
    gcc-aarch64-linux-gnu libc6-dev-arm64-cross
    gcc-arm-linux-gnueabihf libc6-dev-armhf-cross
    gcc-riscv64-linux-gnu libc6-dev-riscv64-cross
    gcc-s390x-linux-gnu libc6-dev-s390x-cross
)

# Makes the chroot with debootstrap and installs the toolchain in it (once).
cross_make_root() {
    local name=$1 mirror start=$SECONDS
    mirror=${RAGGED_CROSS_MIRROR:-$(host_mirror | head -n 1)}
    mirror=${mirror%/}
    [ -n "$mirror" ] || {
        echo "$name: no Debian mirror found in the host's apt sources; set RAGGED_CROSS_MIRROR" >&2
        exit 1
    }
    if ! command -v debootstrap >/dev/null; then
        echo "==> installing debootstrap on the host"
        DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >/dev/null ||
            { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap >/dev/null; }
    fi
    if [ ! -x "$cross_root/usr/bin/apt-get" ]; then
        echo "==> debootstrap trixie into $cross_root (mirror from the host's apt sources)"
        rm -rf --one-file-system "$cross_root"
        nice -n 10 debootstrap --variant=minbase trixie "$cross_root" "$mirror" >"$cross_logs/debootstrap.log" 2>&1 || {
            tail -n 30 "$cross_logs/debootstrap.log" >&2
            exit 1
        }
    fi
    cross_bind /proc "$cross_root/proc"
    cross_bind /dev "$cross_root/dev"
    cp /etc/resolv.conf "$cross_root/etc/resolv.conf"
    rm -f "$cross_root/etc/apt/sources.list"
    cat >"$cross_root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    echo "==> installing rustc-web, foreign std, cross linkers and qemu-user in the chroot"
    {
        in_root dpkg --add-architecture arm64
        in_root dpkg --add-architecture armhf
        in_root dpkg --add-architecture riscv64
        in_root apt-get update
        in_root apt-get install -y --no-install-recommends "${cross_packages[@]}"
    } >"$cross_logs/packages.log" 2>&1 || {
        tail -n 30 "$cross_logs/packages.log" >&2
        exit 1
    }
    touch "$cross_root/.ragged-ready"
    cross_cleanup
    echo "    chroot ready after $((SECONDS - start)) s"
}

cross_chroot_enter() {
    local name=$1 stale m
    if [ "$(id -u)" != 0 ]; then
        echo "$name: needs root (debootstrap, chroot and bind mounts)" >&2
        exit 2
    fi
    trap cross_cleanup EXIT
    trap 'exit 130' INT TERM

    mkdir -p "$cross_base" "$cross_logs"
    exec 9>"$cross_base/lock"
    flock 9 # one user at a time per chroot
    # shellcheck disable=SC2034 # read by the sourcing scripts
    cross_locked_at=$SECONDS

    # Bind mounts left behind by a run that was killed (we hold the lock: none is active).
    stale=$(awk -v r="$cross_root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r)
    for m in $stale; do
        umount "$m" 2>/dev/null || umount -l "$m"
    done

    [ -e "$cross_root/.ragged-ready" ] || cross_make_root "$name"

    cross_bind /proc "$cross_root/proc"
    cross_bind /dev "$cross_root/dev"
    cross_bind "$cross_repo" "$cross_root/ragged"
    cp /etc/resolv.conf "$cross_root/etc/resolv.conf"
    cp /etc/ssl/certs/ca-certificates.crt "$cross_root/etc/ssl/certs/host-ca.crt"
}

# target name -> rust triple, gcc/qemu triple, qemu binary
cross_triple() {
    case $1 in
    aarch64) echo aarch64-unknown-linux-gnu ;;
    armv7) echo armv7-unknown-linux-gnueabihf ;;
    riscv64) echo riscv64gc-unknown-linux-gnu ;;
    s390x) echo s390x-unknown-linux-gnu ;;
    esac
}
cross_gnu() {
    case $1 in
    aarch64) echo aarch64-linux-gnu ;;
    armv7) echo arm-linux-gnueabihf ;;
    riscv64) echo riscv64-linux-gnu ;;
    s390x) echo s390x-linux-gnu ;;
    esac
}
cross_qemu() {
    case $1 in
    aarch64) echo qemu-aarch64 ;;
    armv7) echo qemu-arm ;;
    riscv64) echo qemu-riscv64 ;;
    s390x) echo qemu-s390x ;;
    esac
}

# Where cargo in the chroot keeps its crates and how it reaches the registry, one
# NAME=VALUE a line: every cargo run there starts from these.
cross_cargo_env() {
    printf '%s\n' CARGO_HOME=/root/.cargo CARGO_HTTP_CAINFO=/etc/ssl/certs/host-ca.crt
}

# The environment, one NAME=VALUE a line, for cargo in the chroot to build for target
# $1 (its own target directory, the cross linker, the QEMU runner) and for the
# integration tests to start the `ragged` binary under QEMU.
cross_env() {
    local t=$1 tr g env_tr bootstrap=0
    tr=$(cross_triple "$t")
    g=$(cross_gnu "$t")
    env_tr=$(echo "$tr" | tr 'a-z-' 'A-Z_')
    [ "$t" != s390x ] || bootstrap=1
    cross_cargo_env
    printf '%s\n' \
        "CARGO_TARGET_DIR=/var/cache/ragged-target/$t" CARGO_TERM_COLOR=never \
        "CARGO_BUILD_JOBS=$cross_jobs" "RUST_TEST_THREADS=$cross_jobs" \
        "RUSTC_BOOTSTRAP=$bootstrap" \
        "CARGO_TARGET_${env_tr}_LINKER=$g-gcc" \
        "CARGO_TARGET_${env_tr}_RUNNER=$(cross_qemu "$t") -L /usr/$g" \
        "RAGGED_TEST_RUNNER=$(cross_qemu "$t") -L /usr/$g"
}
