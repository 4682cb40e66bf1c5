"""Tests of the knightstour Python package against runs the real binary writes
(KNIGHTSTOUR_BIN; ctest sets it). Run: scripts/py -m unittest discover -s python/tests"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

import knightstour as kt

BIN = os.environ.get("KNIGHTSTOUR_BIN", os.path.join(os.path.dirname(__file__), "..", "..",
                                                     "build", "release", "knightstour"))


def knightstour(*args):
    quiet = [] if args[0] in ("merge", "verify") else ["--progress", "0"]
    r = subprocess.run([BIN, *args, *quiet], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"knightstour {' '.join(args)}: {r.stderr}")
    return r.stdout


class Squares(unittest.TestCase):
    def test_names_round_trip_past_z(self):
        for cols in (5, 8, 30):
            for s in range(cols * 3):
                self.assertEqual(kt.parse_square(kt.square_name(s, cols), cols), s)
        self.assertEqual(kt.square_name(27, 28), "ab1")
        with self.assertRaises(ValueError):
            kt.parse_square("f1", 5)

    def test_grid_round_trip(self):
        tour = np.random.default_rng(1).permutation(35)
        g = kt.grid(tour, 5, 7)
        self.assertEqual(g.shape, (5, 7))
        self.assertEqual(g.reshape(-1)[tour[0]], 1)
        self.assertTrue((kt.tour_from_grid(g) == tour).all())


class Runs(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        d = cls.tmp.name
        cls.dirs = {}
        for name, extra in {"npy": [], "text-zstd": ["--format", "text", "--compress", "zstd"],
                            "board": ["--format", "board"], "npy-zstd": ["--compress", "zstd"]}.items():
            cls.dirs[name] = os.path.join(d, name)
            knightstour("enumerate", "5x5", "--all-starts", "--out", cls.dirs[name], *extra)
        cls.dirs["count"] = os.path.join(d, "count")
        cls.counted = json.loads(knightstour("count", "5x5", "--all-starts", "--run-dir",
                                             cls.dirs["count"], "--json"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def tours(self, name, size=100):
        chunks = list(kt.Run(self.dirs[name]).chunks(size))
        self.assertTrue(all(len(c) <= size for c in chunks))
        t = np.concatenate(chunks).astype(np.int64)
        return t[np.lexsort(t.T[::-1])]

    def test_every_format_holds_the_same_tours(self):
        npy = self.tours("npy")
        self.assertEqual(npy.shape, (1728, 25))
        for name in ("text-zstd", "board", "npy-zstd"):
            self.assertTrue((self.tours(name) == npy).all(), name)

    def test_start_end_matrix_agrees_with_the_counter(self):
        m = kt.Run(self.dirs["npy"]).start_end_matrix()
        self.assertEqual(int(m.sum()), 1728)
        self.assertEqual(m.sum(axis=1).tolist(), self.counted["tours_by_start"])
        self.assertTrue((m == m.T).all())  # a tour read backwards swaps start and end
        from_journal = kt.Run(self.dirs["count"]).start_end_matrix()
        self.assertTrue((from_journal == m).all())

    def test_symmetry_classes(self):
        t = self.tours("npy")
        canon = kt.canonical(t, 5, 5)
        # No directed tour is its own mirror image, so every class has 8 members.
        self.assertEqual(len(np.unique(canon, axis=0)), 1728 // 8)
        for perm in kt.symmetries(5, 5):
            self.assertTrue((kt.canonical(perm[t], 5, 5) == canon).all())
        # A path equal to its mirror image walked backwards: start and end are images.
        sym = kt.is_mirror_symmetric(t, 5, 5)
        for tour in t[sym]:
            self.assertTrue(any((p[tour] == tour[::-1]).all() for p in kt.symmetries(5, 5)[1:]))

    def test_classes_with_reversal_and_of_cycles(self):
        t = self.tours("npy")
        canon = kt.canonical(t, 5, 5, reversal=True)
        self.assertTrue((kt.canonical(t[:, ::-1], 5, 5, reversal=True) == canon).all())
        # Burnside: (1,728 directed tours + 64 self-reverse ones) / 16 = 112 classes.
        self.assertEqual(int(kt.is_mirror_symmetric(t, 5, 5).sum()), 64)
        self.assertEqual(len(np.unique(canon, axis=0)), (1728 + 64) // 16)
        # A cycle's form does not depend on where it is entered, nor on the direction.
        cyc = np.array([[0, 1, 2, 3, 4, 5]])
        forms = [kt.canonical_cycles(np.roll(c, k, axis=1), 2, 3)
                 for c in (cyc, cyc[:, ::-1]) for k in range(6)]
        self.assertTrue(all((f == forms[0]).all() for f in forms))
        self.assertEqual(kt.canonical_cycles(cyc, 2, 3)[0].tolist()[:2], [0, 1])

    def test_one_tour_and_a_sample(self):
        run = kt.Run(self.dirs["npy"])
        first = run.tour(0)
        self.assertEqual(sorted(first.tolist()), list(range(25)))
        sample = os.path.join(self.tmp.name, "sample")
        knightstour("enumerate", "5x5", "--start", "a1", "--sample", "10", "--out", sample)
        s = kt.Run(sample)
        self.assertTrue(s.is_sample)
        self.assertEqual(sum(len(c) for c in s.chunks()), 10)

    def test_heatmap_writes_a_png(self):
        from knightstour.plot import heatmap
        run = kt.Run(self.dirs["count"])
        out = os.path.join(self.tmp.name, "by_end.png")
        by_end = run.by_end()
        heatmap(by_end, 5, 5, out, "5x5 tours by last square", "tours", start=0,
                hatch=by_end == 0)
        with open(out, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_tour_drawn(self):
        run = kt.Run(self.dirs["npy"])
        tour = run.tour(3)
        out = os.path.join(self.tmp.name, "tour.png")
        ax = kt.plot.tour(tour, 5, 5, out)
        with open(out, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        labels = sorted(int(t.get_text()) for t in ax.texts)
        self.assertEqual(labels, list(range(1, 26)))  # every square numbered with its move
        self.assertEqual([t.get_text() for t in ax.get_legend().get_texts()],
                         ["start", "last square"])
        line = ax.lines[0].get_xydata()
        self.assertEqual([int(y) * 5 + int(x) for x, y in line], [int(s) for s in tour])
        with self.assertRaisesRegex(ValueError, "not a tour of 5x5"):
            kt.plot.tour(tour[:-1], 5, 5, out)

    def test_frontier_run_directory(self):
        # A frontier run holds counts (exact, by start square), not tours: counts() and
        # by_start() read it, the tour readers say why they cannot.
        d = os.path.join(self.tmp.name, "frontier")
        knightstour("count", "5x5", "--all-starts", "--method", "frontier", "--run-dir", d)
        run = kt.Run(d)
        self.assertEqual(run.method, "frontier")
        c = run.counts()
        self.assertEqual((c["complete"], c["tours"], c["closed_tours"]), (True, 1728, 0))
        by_start = run.by_start()
        self.assertEqual((by_start[0], by_start[12], by_start[1]), (304, 64, 0))  # DESIGN.md
        self.assertEqual(sum(by_start), 1728)
        with self.assertRaisesRegex(ValueError, "by pinned tails: it has no table by last square; "
                                                "a count by units of end pairs has one"):
            run.start_end_matrix()
        with self.assertRaisesRegex(ValueError, "holds counts, not tours"):
            run.journal()
        with self.assertRaisesRegex(ValueError, "no manifest.json"):
            kt.Run(self.tmp.name)


class FrontierRuns(unittest.TestCase):
    """Runs of the frontier method by units of end pairs, single and sharded then merged: the
    package gives what count --json gives, as integers."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.d = cls.tmp.name

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def merged(self, board, shards):
        out = os.path.join(self.d, f"{board}-merged")
        dirs = []
        for i in range(shards):
            dirs.append(os.path.join(self.d, f"{board}-{i}"))
            knightstour("count", board, "--all-starts", "--grid", "end-pairs", "--shard-index",
                        str(i), "--shard-count", str(shards), "--run-dir", dirs[-1])
        knightstour("merge", *dirs, "--out", out)
        return out, dirs

    def test_tables_equal_the_cli(self):
        for board, shards in (("5x6", 3), ("3x40", 2), ("1x1", 2)):
            with self.subTest(board=board):
                out, dirs = self.merged(board, shards)
                cli = json.loads(knightstour("count", "--run-dir", out, "--resume", "--json"))
                run = kt.Run(out)
                m = run.start_end_matrix()
                self.assertEqual(m.tolist(), cli["tours_by_start_end"])
                self.assertEqual(run.by_start().tolist(), cli["tours_by_start"])
                self.assertEqual(run.by_end().tolist(), m.sum(axis=0).tolist())
                self.assertEqual(run.counts()["tours_directed"], cli["tours_directed"])
                self.assertEqual(run.counts()["tours"], cli["tours"])  # the names before 0.1
                # Integers: int64 while they fit, Python ints past it (3x40 holds 1.8e20).
                fits = max(max(r) for r in cli["tours_by_start_end"]) < 2**63
                self.assertEqual(m.dtype, np.int64 if fits else object)
                with self.assertRaisesRegex(ValueError, "merge every shard"):
                    kt.Run(dirs[0]).start_end_matrix()

    def test_a_single_run_and_an_incomplete_one(self):
        d = os.path.join(self.d, "6x6-single")
        cli = json.loads(knightstour("count", "6x6", "--all-starts", "--grid", "end-pairs",
                                     "--run-dir", d, "--json"))
        self.assertEqual(kt.Run(d).start_end_matrix().tolist(), cli["tours_by_start_end"])
        self.assertEqual(int(kt.Run(d).by_start().sum()), 6637920)  # DESIGN.md
        part = os.path.join(self.d, "6x6-part")
        r = subprocess.run([BIN, "count", "6x6", "--all-starts", "--grid", "end-pairs", "--run-dir",
                            part, "--time-limit", "0.1", "--progress", "0"], capture_output=True)
        self.assertEqual(r.returncode, 3)
        with self.assertRaisesRegex(ValueError, "is incomplete"):
            kt.Run(part).start_end_matrix()
        self.assertFalse(kt.Run(part).counts()["complete"])

    def test_an_edited_manifest_is_refused(self):
        out, _ = self.merged("5x5", 1)
        path = os.path.join(out, "manifest.json")
        with open(path) as f:
            m = json.load(f)
        m["frontier"]["counts"]["tours"] = str(int(m["frontier"]["counts"]["tours"]) + 1)
        with open(path, "w") as f:
            json.dump(m, f)
        with self.assertRaisesRegex(ValueError, "checksum does not match"):
            kt.Run(out)
        r = subprocess.run([BIN, "verify", out], capture_output=True, text=True)
        self.assertEqual(r.returncode, 4)  # verify refuses it too


if __name__ == "__main__":
    unittest.main()


class Rows(unittest.TestCase):
    """A row from count --every-length --json: Python ints equal to OEIS, through CSV and a
    plot."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.closed = os.path.join(cls.tmp.name, "6x15-closed.json")
        with open(cls.closed, "w") as f:
            f.write(knightstour("count", "6x15", "--closed", "--every-length", "--json"))
        cls.open = os.path.join(cls.tmp.name, "5x9-open.json")
        with open(cls.open, "w") as f:
            f.write(knightstour("count", "5x9", "--all-starts", "--total-only", "--every-length",
                                "--json"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def test_closed_row_is_a175881_past_64_bits(self):
        row = kt.Row.from_json(self.closed)
        self.assertEqual((row.rows, row.what, row.lengths), (6, "closed", list(range(1, 16))))
        self.assertEqual(row.terms()[4:], [8, 9862, 1067638, 55488142, 3374967940, 239187240144,
                                           15360134570696, 964730606632516, 61989683445413228,
                                           4005716717182224826, 255967892553030600920])
        self.assertTrue(all(type(c) is int for c in row.terms()))
        self.assertGreater(row.counts[15], 2**64)

    def test_open_row_is_a083386(self):
        row = kt.Row.from_json(self.open)
        self.assertEqual(row.what, "open")
        self.assertEqual(row.terms(), [0, 0, 0, 82, 864, 18784, 622868, 18061054, 264895640])

    def test_csv_round_trip_and_plot(self):
        rows = [kt.Row.from_json(self.closed), kt.Row.from_json(self.open)]
        for row in rows:
            path = os.path.join(self.tmp.name, f"{row.rows}-{row.what}.csv")
            row.to_csv(path)
            back = kt.Row.from_csv(path)
            self.assertEqual((back.rows, back.what, back.counts), (row.rows, row.what, row.counts))
        png = os.path.join(self.tmp.name, "rows.png")
        script = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "row-plot")
        r = subprocess.run([sys.executable, script, self.closed, self.open, "--out", png],
                           capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("6x15 has 255,967,892,553,030,600,920 closed cycles (68 bits)", r.stdout)
        with open(png, "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")

    def test_a_row_from_its_run_directory(self):
        # The run's manifest keeps a count a length (its units): Run.row() gives the same row
        # as the JSON, for closed and for open rows, and its checksum is the binary's.
        for name, args in (("6x15-closed", ["6x15", "--closed"]),
                           ("5x9-open", ["5x9", "--all-starts", "--total-only"])):
            d = os.path.join(self.tmp.name, name)
            knightstour("count", *args, "--every-length", "--run-dir", d)
            run = kt.Run(d)
            self.assertTrue(run.counts()["complete"])
            want = kt.Row.from_json(self.closed if "closed" in name else self.open)
            got = run.row()
            self.assertEqual((got.rows, got.what, got.counts), (want.rows, want.what, want.counts))
        with self.assertRaisesRegex(ValueError, "a count of one board, not a row"):
            d = os.path.join(self.tmp.name, "one-board")
            knightstour("count", "6x7", "--closed", "--method", "frontier", "--run-dir", d)
            kt.Run(d).row()

    def test_a_count_of_one_board_is_not_a_row(self):
        one = json.loads(knightstour("count", "5x5", "--all-starts", "--json"))
        with self.assertRaisesRegex(ValueError, "no by_length list"):
            kt.Row.from_json(one)


class CheckedRuns(unittest.TestCase):
    """kt.Run refuses what the binary refuses, with a kt.RunError naming the path (the whole
    table of tamperings against every reader: tests/cli/tampered_runs.py)."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.count = os.path.join(cls.tmp.name, "count")
        knightstour("count", "6x6", "--start", "a1", "--method", "dfs", "--run-dir", cls.count)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def copy(self, name):
        import shutil
        d = os.path.join(self.tmp.name, name)
        shutil.copytree(self.count, d)
        return d

    def edit_lines(self, d, change):
        path = os.path.join(d, "journal-0.tsv")
        with open(path) as f:
            lines = f.read().split("\n")
        with open(path, "w") as f:
            f.write("\n".join(change(lines)))

    def refused(self, d, pattern):
        with self.assertRaisesRegex(kt.RunError, pattern) as caught:
            kt.Run(d)
        self.assertTrue(str(caught.exception).startswith(d), str(caught.exception))
        self.assertNotEqual(subprocess.run([BIN, "verify", d], capture_output=True).returncode, 0)

    def test_a_genuine_run_reads(self):
        run = kt.Run(self.count)
        self.assertEqual(run.counts()["tours_directed"], 524486)
        self.assertEqual(run.counts()["tours"], 524486)
        self.assertEqual(int(run.start_end_matrix().sum()), 524486)
        self.assertEqual(len(run.journal()), 428)

    def test_an_edited_total_is_refused(self):
        d = self.copy("total")
        path = os.path.join(d, "manifest.json")
        with open(path) as f:
            m = json.load(f)
        m["totals"]["tours"] += 1000
        with open(path, "w") as f:
            json.dump(m, f)
        self.refused(d, "checksum does not match")

    def test_duplicated_dropped_and_edited_lines_are_refused(self):
        d = self.copy("twice")
        self.edit_lines(d, lambda lines: lines[:2] + lines[1:])
        self.refused(d, "journaled twice")
        d = self.copy("gap")
        self.edit_lines(d, lambda lines: lines[:1] + lines[2:])
        self.refused(d, "says complete but 427 of its 428")
        d = self.copy("edited")
        self.edit_lines(d, lambda lines: [lines[0], lines[1].replace("\t", "\t1", 1)] + lines[2:])
        self.refused(d, "line 2: does not check out")

    def test_unknown_formats_and_unreadable_manifests_are_refused(self):
        for name, change, pattern in (
                ("v9", lambda t: t.replace('"format_version": 5', '"format_version": 9'),
                 "unsupported manifest version 9"),
                ("v4", lambda t: t.replace('"format_version": 5', '"format_version": 4'),
                 "unsupported manifest version 4 of the dfs method"),
                ("torn", lambda t: t[: len(t) // 2], "cannot be read as JSON"),
                ("keyless", lambda t: t.replace('"totals"', '"sums"'), "no totals")):
            d = self.copy(name)
            path = os.path.join(d, "manifest.json")
            with open(path) as f:
                text = f.read()
            with open(path, "w") as f:
                f.write(change(text))
            self.refused(d, pattern)
        with self.assertRaisesRegex(kt.RunError, "does not exist"):
            kt.Run(os.path.join(self.tmp.name, "nowhere"))

    def test_rows_read_only_whole_rows(self):
        path = os.path.join(self.tmp.name, "row.csv")
        for text, pattern in (
                ("rows,length,count\n5,1,0\n", "no what column"),
                ("rows,length,count,what\n5,1,0,closed\n6,2,0,closed\n", "2 heights"),
                ("rows,length,count,what\n5,1,0,closed\n5,3,0,closed\n", "length 2 is missing"),
                ("rows,length,count,what\n5,1,0,closed\n5,1,0,closed\n", "given twice"),
                ("rows,length,count,what\n5,1,0,closed\n5,2,0,cyclic\n", "closed or of open"),
                ("rows,length,count,what\n5,1,-1,closed\n", "not a whole number")):
            with open(path, "w") as f:
                f.write(text)
            with self.assertRaisesRegex(kt.RowError, pattern):
                kt.Row.from_csv(path)
        j = json.loads(knightstour("count", "3x4", "--all-starts", "--total-only", "--every-length",
                                   "--json"))
        self.assertEqual(kt.Row.from_json(j).counts[4], 8)  # 3x4: 16 directed, 8 paths
        older = [{k: v for k, v in r.items() if not k.endswith("_directed")} for r in j["by_length"]]
        self.assertEqual(kt.Row.from_json(dict(j, by_length=older)).counts[4], 8)  # before 0.1
        odd = dict(j, by_length=[dict(r, tours_directed=r["tours_directed"] + 1)
                                 for r in j["by_length"]])
        with self.assertRaisesRegex(kt.RowError, "an odd number"):
            kt.Row.from_json(odd)
        # Residues (count --modulus) are no row of counts, as JSON or as CSV.
        args = ("count", "5x8", "--closed", "--every-length", "--modulus", "1000003")
        with self.assertRaisesRegex(kt.RowError, "residues modulo 1000003"):
            kt.Row.from_json(json.loads(knightstour(*args, "--json")))
        knightstour(*args, "--csv", path)
        with self.assertRaisesRegex(kt.RowError, "a modulus column"):
            kt.Row.from_csv(path)
        with self.assertRaisesRegex(kt.RowError, "missing"):
            kt.Row.from_json(dict(j, by_length=j["by_length"][1:]))


class RowTable(unittest.TestCase):
    """kt.oeis marks a row's terms; scripts/row-table keeps a term only when OEIS or a second
    run agrees with it."""

    SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "row-table")

    def test_marks(self):
        counts = {n: 0 for n in range(1, 42)}
        counts.update(kt.oeis.known_row(6, "closed").by_length())
        marks = kt.oeis.mark(kt.Row(6, "closed", counts))
        self.assertEqual((marks[6], marks[19], marks[20], marks[40], marks[41]),
                         ("A175881", "A175881", "A175881 b-file", "A175881 b-file", "new"))
        five = kt.oeis.mark(kt.Row(5, "closed", {5: 0, 6: 8, 41: 0}))
        self.assertEqual((five[5], five[6], five[41]), ("odd squares", "A175855", "odd squares"))
        with self.assertRaisesRegex(ValueError, "6x6 closed: 9863 differs from A175881's 9862"):
            kt.oeis.mark(kt.Row(6, "closed", {6: 9863}))
        with self.assertRaisesRegex(ValueError, "5x7 has an odd number of squares"):
            kt.oeis.mark(kt.Row(5, "closed", {7: 2}))

    def test_the_entries_agree_where_the_table_meets_itself(self):
        # R x n and n x R are one board: a term copied wrong into kt.oeis shows up here.
        met = 0
        for a in kt.oeis.KNOWN:
            for b in kt.oeis.KNOWN:
                if a.what == b.what and a.rows < b.rows:
                    x, y = a.by_length().get(b.rows), b.by_length().get(a.rows)
                    if x is not None and y is not None:
                        self.assertEqual(x, y, f"{a.number} {a.rows}x{b.rows}, {b.number}")
                        met += 1
        self.assertGreaterEqual(met, 12)

    def test_a_term_past_oeis_needs_a_check_that_agrees(self):
        with tempfile.TemporaryDirectory() as tmp:
            def count(name, *args):
                path = os.path.join(tmp, name)
                with open(path, "w") as f:
                    f.write(knightstour("count", *args, "--json"))
                return path

            def table(*args):
                return subprocess.run([sys.executable, self.SCRIPT, *args], capture_output=True,
                                      text=True)

            row = count("row.json", "6x20", "--closed", "--every-length")
            unfolded = count("unfolded.json", "6x20", "--closed", "--every-length",
                             "--no-mirror-fold")
            alone = count("alone.json", "6x20", "--closed", "--method", "frontier")
            csv_path = os.path.join(tmp, "6-closed.csv")
            r = table(row, "--out", csv_path)  # 6x20 is in A175881's b-file only
            self.assertEqual(r.returncode, 1)
            self.assertIn("6x20 closed: neither compared with OEIS nor confirmed by a check",
                          r.stderr)
            self.assertFalse(os.path.exists(csv_path))
            r = table(row, "--check", unfolded, "--check", alone, "--out", csv_path)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("6 x n closed, lengths 1 to 20: 1 b-file, 19 known", r.stdout)
            with open(csv_path) as f:
                lines = f.read().splitlines()
            self.assertEqual(lines[0], "rows,length,closed_cycles,known,checked")
            self.assertEqual(lines[19].split(",")[3:], ["A175881", "unfolded row"])
            self.assertEqual(lines[20].split(",")[3:], ["A175881 b-file", "alone; unfolded row"])
            back = kt.Row.from_csv(csv_path)
            self.assertEqual(back.counts, kt.Row.from_json(row).counts)
            with open(alone) as f:
                j = json.load(f)
            j["closed_cycles"] += 1
            with open(alone, "w") as f:
                json.dump(j, f)
            r = table(row, "--check", unfolded, "--check", alone, "--out", csv_path)
            self.assertEqual(r.returncode, 1)
            self.assertRegex(r.stderr, r"6x20 closed: \d+ here, \d+ in .*alone.json")
