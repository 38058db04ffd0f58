#!/usr/bin/env bash
# full_disk.sh TOOL CLI_DIR SHIM [auto|tmpfs|shim] — outputs on a disk that is really full
# (issue 27, item 5: "full disk (a small tmpfs where root, else an injected write error through an
# LD_PRELOAD shim)").
#
# faults.sh fills the disk with the file-size limit (ulimit -f: EFBIG, no privilege needed); this
# script gives the writers the error a full disk gives, ENOSPC, at the point the disk runs out:
#  - tmpfs (as root, where a mount is allowed): the script runs again in a mount namespace of its
#    own (unshare -m: the mount goes with the process, even when CTest kills it) with a 64 KiB
#    tmpfs on a scratch directory. Part of each output fits, the rest does not; afterwards the
#    tmpfs must hold exactly what it held before (nothing half-written, no temporary);
#  - shim (otherwise, or when asked): SHIM (tests/full_disk_shim.c) is preloaded into the tool and
#    so into gnuplot, and every file created under the scratch directory has /dev/full under its
#    descriptor: full from the first byte. The same commands into another directory must still
#    work (the shim hits its directory only).
# `auto` takes tmpfs when it can be mounted, else the shim; CTest runs both (cli_full_disk, and
# cli_full_disk_shim so that the fallback is exercised where root mounts the tmpfs).
# The cases: export --format json, chrome and msccl (exit 3, one line, the old file untouched, no
# temporary); a Chakra export whose ranks fill the disk part way (every old
# rank file untouched, none new); sweep --plot and --csv (gnuplot's own writes fail: exit 3, the
# old plot and CSV untouched); reproduce --out into a new directory (exit 3, no directory left).
set -u
# shellcheck source=tests/cli/lib.sh
. "${2:-$(dirname "$0")}/lib.sh" # sets TOOL, CLI_DIR and T from the arguments
TOOL=$(cd "$(dirname "$TOOL")" && pwd)/$(basename "$TOOL")
SHIM=${3:-}
MODE=${4:-auto}

# The tmpfs needs a mount namespace: the script starts again inside one (exec: same process, so
# CTest's timeout still reaches it), marked by OC_FULL_DISK_INNER.
if [ "${OC_FULL_DISK_INNER:-}" != 1 ] && [ "$MODE" != shim ]; then
    if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
        unshare -m --propagation private sh -c \
            'd=$(mktemp -d) && mount -t tmpfs -o size=64k tmpfs "$d" && umount "$d"; r=$?; rmdir "$d"; exit $r' \
            2>/dev/null; then
        rm -rf "$OC_TMP"
        OC_FULL_DISK_INNER=1 exec unshare -m --propagation private bash "$0" "$@"
    elif [ "$MODE" = tmpfs ]; then
        fail "a 64 KiB tmpfs could not be mounted (not root, or mounts not allowed here)"
        finish
    fi
    MODE=shim
elif [ "${OC_FULL_DISK_INNER:-}" = 1 ]; then
    MODE=tmpfs
fi

FULL=$T/full  # where the disk is full
ROOM=$T/room  # where it is not (shim mode's control)
mkdir -p "$FULL" "$ROOM"
PRELOAD=()
if [ "$MODE" = tmpfs ]; then
    if ! mount -t tmpfs -o size=64k,mode=0755 tmpfs "$FULL"; then
        fail "mount a 64 KiB tmpfs on $FULL"
        finish
    fi
    trap 'umount "$FULL" 2>/dev/null; rm -rf "$OC_TMP"' EXIT
    echo "full disk: a 64 KiB tmpfs"
else
    if [ -z "$SHIM" ] || [ ! -f "$SHIM" ]; then
        if [ "$MODE" = shim ]; then
            fail "full disk through the shim: no shim library (${SHIM:-none given})"
        else
            skip "full disk: no tmpfs and no shim library (${SHIM:-none given})"
        fi
        finish
    fi
    # an ASan-built tool refuses a preloaded library before its runtime unless told not to
    PRELOAD=(env "OC_FULL_DISK_DIR=$FULL" "LD_PRELOAD=$SHIM"
        "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0")
    echo "full disk: ENOSPC injected under $FULL by $SHIM"
fi

# on_full ARGS...: the tool with ARGS on the full disk; stdout, stderr and RC as run_tool's.
on_full() {
    LC_ALL=C "${PRELOAD[@]}" "$TOOL" "$@" >"$T/out" 2>"$T/err"
    RC=$?
}
no_temporaries() { [ -z "$(find "$1" -maxdepth 1 -name '.opticoll-*' -print -quit)" ]; }
one_line() { [ "$(wc -l <"$T/err")" -eq 1 ]; }
holds() { printf '%s\n' "$2" | cmp -s - "$1"; }
# the tmpfs's used blocks (shim mode: the bytes of the directory's files, 0 when nothing is new)
used() {
    if [ "$MODE" = tmpfs ]; then
        df -k --output=used "$FULL" | tail -1 | tr -d ' '
    else
        du -sb "$FULL" | cut -f1
    fi
}

# ---- the full disk itself: an output that fits is written; one that does not is refused ----
on_full export -c allgather -a ring -t ring -n 3 -s 1KiB --format json -o "$FULL/small.json"
if [ "$MODE" = tmpfs ]; then
    if [ "$RC" -eq 0 ] && [ -s "$FULL/small.json" ]; then
        pass "a 3-node schedule fits on the 64 KiB tmpfs"
    else
        fail "a 3-node schedule fits on the 64 KiB tmpfs" "exit $RC" "$(cat "$T/err")"
    fi
    rm -f "$FULL/small.json"
else
    on_room() {
        LC_ALL=C "${PRELOAD[@]}" "$TOOL" "$@" >"$T/out" 2>"$T/err"
        RC=$?
    }
    on_room export -c allgather -a ring -t ring -n 64 -s 1KiB --format json -o "$ROOM/x.json"
    if [ "$RC" -eq 0 ] && [ -s "$ROOM/x.json" ]; then
        pass "with the shim preloaded, a directory beside the full one is written"
    else
        fail "with the shim preloaded, a directory beside the full one is written" "exit $RC" \
            "$(cat "$T/err")"
    fi
fi

# ---- one-file exports: exit 3, one line, the old file as it was ----
# ring all-gather on 64 nodes: a schedule of 290 KB, an MSCCL program of 950 KB, a Chrome trace
# of 1.8 MB. Each line names the system's reason, ENOSPC's "No space left on device" (the
# schedule's said only "write error at round R").
for f in json chrome msccl; do
    echo old >"$FULL/x.$f"
    before=$(used)
    on_full export -c allgather -a ring -t ring -n 64 -s 1KiB --format "$f" -o "$FULL/x.$f"
    if [ "$RC" -eq 3 ] && one_line && grep -q "^opticoll: cannot write .*x.$f: .*write error.*: No space left on device$" "$T/err" &&
        holds "$FULL/x.$f" old && no_temporaries "$FULL" && [ "$(used)" = "$before" ]; then
        pass "export --format $f on a full disk: exit 3, one line ($(cat "$T/err")), the old file kept"
    else
        fail "export --format $f on a full disk" "exit $RC" "$(cat "$T/err")" \
            "used $before before, $(used) after" "$(ls -la "$FULL")"
    fi
    rm -f "$FULL/x.$f"
done

# ---- Chakra: the disk runs out part way through the ranks; the old rank files stay ----
# (the line names the system's reason too: it said "write error" alone, as reproduce --out did)
# 64 rank files of 12.5 KB each (4 pages of the tmpfs): ranks 0-3 there from an older export
# leave room for three, so the fourth temporary fails.
if run_tool export -c allgather -a ring -t ring -n 3 -s 1KiB --format chakra -o "$T/probe" &&
    [ "$RC" -eq 0 ]; then
    for r in 0 1 2 3; do echo old >"$FULL/c.$r.et"; done
    before=$(used)
    on_full export -c allgather -a ring -t ring -n 64 -s 1KiB --format chakra -o "$FULL/c"
    kept=$(cat "$FULL"/c.*.et | grep -c '^old$')
    if [ "$RC" -eq 3 ] && one_line &&
        grep -q "cannot write .*c\.[0-9]*\.et: .*No space left on device$" "$T/err" &&
        [ "$kept" -eq 4 ] && [ "$(find "$FULL" -name 'c.*.et' | wc -l)" -eq 4 ] &&
        no_temporaries "$FULL" && [ "$(used)" = "$before" ]; then
        pass "chakra of 64 ranks on a full disk: exit 3, one line, ranks 0-3 old, none new"
    else
        fail "chakra of 64 ranks on a full disk" "exit $RC" "$(cat "$T/err")" \
            "$kept old rank files kept; used $before before, $(used) after" \
            "$(find "$FULL" -name 'c.*.et' | wc -l) rank files"
    fi
    rm -f "$FULL"/c.*.et
else
    skip "chakra on a full disk (not built)"
fi

# ---- sweep --plot and --csv: gnuplot's writes fail; the old plot and CSV stay ----
# The line is opticoll's, naming the disk's refusal: gnuplot's own last line (a data block it
# found empty, "Skipping data file with no valid points") was passed on as the reason.
if command -v gnuplot >/dev/null 2>&1; then
    echo old-plot >"$FULL/p.png"
    echo old-csv >"$FULL/p.csv"
    before=$(used)
    # three panels of a PNG of ~100 KiB: more than the 64 KiB tmpfs holds
    on_full sweep -c allgather -t ring --nodes 3,5,7 --sizes 1KiB..1MiB:*32 --plot "$FULL/p.png" \
        --csv "$FULL/p.csv"
    if [ "$RC" -eq 3 ] && one_line &&
        grep -q "^opticoll: cannot write .*p.png: No space left on device" "$T/err" &&
        ! grep -qi "gnuplot could not\|warning\|line [0-9]" "$T/err" &&
        holds "$FULL/p.png" old-plot && holds "$FULL/p.csv" old-csv &&
        no_temporaries "$FULL" && [ "$(used)" = "$before" ] && ! grep -q wrote "$T/out"; then
        pass "sweep --plot on a full disk: exit 3, one line ($(cat "$T/err")), old plot and CSV kept"
    else
        fail "sweep --plot on a full disk" "exit $RC" "$(cat "$T/err")" \
            "used $before before, $(used) after" "$(ls -la "$FULL")"
    fi
    rm -f "$FULL/p.png" "$FULL/p.csv"

    # ---- reproduce --out NEW: nothing left, not even the directory ----
    on_full reproduce star --out "$FULL/new"
    if [ "$RC" -eq 3 ] && one_line && grep -q "No space left on device" "$T/err" &&
        [ ! -e "$FULL/new" ] && no_temporaries "$FULL"; then
        pass "reproduce --out NEW on a full disk: exit 3, one line, no directory left"
    else
        fail "reproduce --out NEW on a full disk" "exit $RC" "$(cat "$T/err")" \
            "$(ls -la "$FULL/new" 2>&1 | head)"
    fi
else
    skip "sweep --plot and reproduce --out on a full disk (no gnuplot)"
fi

[ "$MODE" = tmpfs ] && umount "$FULL"
finish
