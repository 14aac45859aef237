#!/usr/bin/env bash
# cli_outfile.sh — how `codec` writes files (`dict train -o PATH`, through
# tools/codec/outfile.c): a temporary file beside PATH renamed into place,
# and nothing but a file this run created is ever removed (issue 21,
# finding 2: PATH used to be removed whenever it could not be opened).
. "$(dirname "$0")/cli_lib.bash"

# Samples that train (8+ files, 1 KiB+); readable by an unprivileged user.
chmod 755 "$WORK"
mkdir "$WORK/s"
for i in $(seq 1 40); do
    printf '{"id":%d,"name":"customer-%d","city":"Springfield","tags":["a","b%d"],"total":%d.5}\n' \
        "$i" "$i" $((i % 7)) $((i * 13)) >"$WORK/s/s$i.json"
done
chmod 644 "$WORK"/s/*.json
SAMPLES=("$WORK"/s/*.json)

# no stray temporary files left in DIR
expect_no_temp() {  # NAME DIR
    if ls -A "$2" | grep -q '^\.'; then fail "$1" "left $(ls -A "$2" | grep '^\.' | head -1) in $2"; fi
}

# A new file: written whole, mode 0666 minus the umask, no temporary left.
run new /dev/null dict train -o "$WORK/new.dict" "${SAMPLES[@]}"
expect_rc new 0
[ -s "$WORK/new.dict" ] || fail new "no dictionary written"
[ "$(stat -c %a "$WORK/new.dict")" = 644 ] || fail new "mode $(stat -c %a "$WORK/new.dict"), want 644 (umask 022)"
expect_no_temp new "$WORK"
# zstd itself accepts it
if ! printf 'customer-1 Springfield' | zstd -q -D "$WORK/new.dict" | zstd -q -d -D "$WORK/new.dict" >/dev/null; then
    fail new "zstd rejects the dictionary"
fi

# Replacing an existing file keeps its mode.
printf old >"$WORK/old.dict"
chmod 600 "$WORK/old.dict"
run replace /dev/null dict train -o "$WORK/old.dict" "${SAMPLES[@]}"
expect_rc replace 0
cmp -s "$WORK/new.dict" "$WORK/old.dict" || fail replace "replaced file differs from a fresh one"
[ "$(stat -c %a "$WORK/old.dict")" = 600 ] || fail replace "mode not kept"

# A symbolic link: the file it leads to is written, the link stays a link.
ln -s old.dict "$WORK/link.dict"
printf old >"$WORK/old.dict"
run link /dev/null dict train -o "$WORK/link.dict" "${SAMPLES[@]}"
expect_rc link 0
[ -L "$WORK/link.dict" ] || fail link "the link was replaced"
cmp -s "$WORK/new.dict" "$WORK/old.dict" || fail link "the target was not written"

# An empty directory as -o: refused, and (as root) it used to be removed.
mkdir "$WORK/adir"
run directory /dev/null dict train -o "$WORK/adir" "${SAMPLES[@]}"
expect_error directory 4 "cannot write '.*adir': it is a directory"
[ -d "$WORK/adir" ] || fail directory "the directory was removed"

# A directory that does not exist: nothing created anywhere.
run no-dir /dev/null dict train -o "$WORK/missing/x.dict" "${SAMPLES[@]}"
expect_error no-dir 4 "cannot write '.*missing/x.dict': cannot create a temporary file"
[ ! -e "$WORK/missing" ] || fail no-dir "created something"

# A FIFO is written through, never replaced or removed.
mkfifo "$WORK/pipe"
cat "$WORK/pipe" >"$WORK/from-pipe" &
READER=$!
run fifo /dev/null dict train -o "$WORK/pipe" "${SAMPLES[@]}"
wait $READER
expect_rc fifo 0
[ -p "$WORK/pipe" ] || fail fifo "the FIFO was replaced"
cmp -s "$WORK/new.dict" "$WORK/from-pipe" || fail fifo "wrong bytes through the FIFO"

# Another user's read-only file in a world-writable directory: an
# unprivileged caller must not delete or replace it.
mkdir -m 777 "$WORK/pub"
printf original >"$WORK/pub/theirs"
chmod 444 "$WORK/pub/theirs"
CASES=$((CASES + 1))
setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$CODEC" dict train -o "$WORK/pub/theirs" "${SAMPLES[@]}" >"$OUT" 2>"$ERR"
RC=$?
expect_error not-theirs 4 "cannot write '.*pub/theirs': it exists and you may not write it"
[ "$(cat "$WORK/pub/theirs" 2>/dev/null)" = original ] || fail not-theirs "their file was removed or changed"
expect_no_temp not-theirs "$WORK/pub"

# A failed training touches nothing.
printf keep >"$WORK/keep.dict"
run few-samples /dev/null dict train -o "$WORK/keep.dict" "${SAMPLES[0]}" "${SAMPLES[1]}"
expect_rc few-samples 2
[ "$(cat "$WORK/keep.dict")" = keep ] || fail few-samples "the file was changed"
expect_no_temp few-samples "$WORK"

finish
