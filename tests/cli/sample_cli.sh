#!/usr/bin/env bash
# knightstour enumerate --sample: exactly N tours, the first N in one fixed order, the same
# for any thread count and split depth; checked against full enumerations.
. "$(dirname "$0")/lib.sh"
HERE=$(cd "$(dirname "$0")" && pwd)
PY="$HERE/../../scripts/py"

run enumerate 6x6 --start a1 --sample 1000 --out "$TMP/s1000" --json
expect_exit 0
expect_json tours 1000
expect_json sample 1000
expect_json whole_set false
run verify "$TMP/s1000"
expect_exit 0
expect_out 'verify: OK: 1,000 tours in 1 file'
expect_out 'the first 1,000 tours in depth-first search order'

# A smaller sample is the first rows of a larger one, in any format.
run enumerate 6x6 --start a1 --sample 37 --out "$TMP/s37" --format text --compress zstd
expect_exit 0
expect_out '^sample +the first 37 tours'
# The sample is not the tours of the first prefixes of a threaded run by accident: a run
# with another split depth and threads still agrees (the sample does not depend on them).
run enumerate 6x6 --start a1 --out "$TMP/full" --no-symmetry --split-depth 8 --threads 2
expect_exit 0
"$PY" - "$TMP" >"$TMP/py.out" 2>&1 <<'PYEOF'
import sys, glob, numpy as np, zstandard
d = sys.argv[1]
big = np.load(d + "/s1000/tours-0-0.npy")
assert big.shape == (1000, 36), big.shape
names = [f"{c}{r}" for r in range(1, 7) for c in "abcdef"]
text = zstandard.ZstdDecompressor().decompressobj().decompress(open(d + "/s37/tours-0-0.txt.zst", "rb").read()).decode()
small = np.array([[names.index(s) for s in line.split()] for line in text.splitlines()])
assert small.shape == (37, 36) and (small == big[:37]).all(), "the 37 are not the first rows of the 1000"
full = np.concatenate([np.load(f) for f in glob.glob(d + "/full/tours-*.npy")])
seen = {bytes(row) for row in full}
assert all(bytes(row) in seen for row in big.astype(np.uint8)), "a sampled tour is no tour of the full run"
assert len({bytes(row) for row in big}) == 1000
print("sample ok")
PYEOF
CHECKS=$((CHECKS + 1)); grep -q "sample ok" "$TMP/py.out" || { LAST="sample rows"; fail "$(cat "$TMP/py.out")"; }

# Asking for more tours than there are gives all of them, and says so.
run enumerate 5x5 --all-starts --sample 10000 --out "$TMP/all" --json
expect_exit 0
expect_json tours 1728
expect_json whole_set true
run verify "$TMP/all"
expect_exit 0
expect_out 'verify: OK: 1,728 tours'
expect_out 'every tour there is: 1,728, fewer than the 10,000 asked'
run enumerate 6x6 --start a1 --closed --sample 5 --out "$TMP/closed" --json
expect_exit 0
expect_json closed_tours 5
run enumerate 6x6 --prefix a1,b3,c5 --sample 5 --out "$TMP/prefix"
expect_exit 0
run verify "$TMP/prefix"
expect_exit 0
# A manifest naming another prefix than the tours begin with fails verify.
cp -r "$TMP/prefix" "$TMP/other-prefix"
sed -i 's/^    "b3",$/    "c2",/; s/^    "c5"$/    "e3"/' "$TMP/other-prefix/manifest.json"
run verify "$TMP/other-prefix"
expect_exit 4
expect_out 'its checksum does not match what it says'
"$(dirname "$0")/../../scripts/py" "$(dirname "$0")/forge.py" seal "$TMP/other-prefix"  # past it
run verify "$TMP/other-prefix"
expect_exit 4
expect_out 'row 0: does not begin with the prefix'

# Options that mean nothing for a sample, and what a sample cannot be used for.
for opt in "--threads 2" "--split-depth 6" "--max-tours 5" "--no-symmetry" "--shard-count 2"; do
  run enumerate 6x6 --start a1 --sample 5 --out "$TMP/bad" $opt
  expect_usage_error 'means nothing for --sample'
done
run enumerate 6x6 --start a1 --sample 0 --out "$TMP/bad"
expect_usage_error 'at least 1'
run enumerate 6x6 --start a1 --sample 5 --out "$TMP/s1000"
expect_usage_error 'choose another directory'
run enumerate --out "$TMP/s1000" --resume
expect_usage_error 'nothing to resume'
run merge "$TMP/s1000" --out "$TMP/merged"
expect_usage_error 'holds a sample'
run verify "$TMP/s1000" "$TMP/s37"
expect_exit 4
# A stopped sample publishes nothing and says so.
run enumerate 8x8 --start a1 --closed --sample 1G --out "$TMP/stopped" --time-limit 0.5
expect_exit 3
expect_err 'nothing was written'
CHECKS=$((CHECKS + 1)); [ -z "$(ls "$TMP/stopped" | grep -v '^\.lock$')" ] || fail "a stopped sample left $(ls "$TMP/stopped")"
# A tampered sample fails verify.
cp -r "$TMP/s1000" "$TMP/tampered"
sed -i 's/"tours": 1000/"tours": 999/' "$TMP/tampered/manifest.json"
run verify "$TMP/tampered"
expect_exit 4
finish
