"""The package's checksums against tests/data/checksum_vectors.json, which the binary's test
suite reads too (tests/run/checksum_vectors_test.cpp): both compute them alike, from one set of
values. Run: scripts/py -m unittest discover -s python/tests"""

import copy
import json
import os
import tempfile
import unittest

from knightstour import checks
from knightstour.frontier import fnv1a, job_key, manifest_checksum

VECTORS = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data",
                       "checksum_vectors.json")


def vectors():
    with open(VECTORS) as f:
        return json.load(f)


class ChecksumVectors(unittest.TestCase):
    def test_fnv1a_gives_the_published_values(self):
        v = vectors()["fnv1a"]
        self.assertEqual(len(v), 3)
        for t in v:
            self.assertEqual(fnv1a(t["text"]), t["hex"], t["text"])

    def test_journal_lines_check_out_by_their_key(self):
        v = vectors()["journal_lines"]
        self.assertTrue(v)
        for t in v:
            body, _, check = t["line"].rpartition("\t")
            self.assertEqual(checks.keyed_checksum(t["key"], body), check)
            self.assertNotEqual(checks.keyed_checksum(t["key"] + " ", body), check)

    def test_manifests_check_out_and_are_keyed_by_their_job(self):
        v = vectors()["manifests"]
        self.assertEqual(len(v), 3)
        for t in v:
            m = t["manifest"]
            if t["method"] == "dfs":
                self.assertEqual(checks.dfs_job_key(m), t["job_key"])
                self.assertEqual(checks.dfs_checksum(m), m["checksum"])
            else:
                self.assertEqual(job_key(m), t["job_key"])
                self.assertEqual(manifest_checksum(m), m["frontier"]["checksum"])
            # Fields checked as the binary checks them; a count edited no longer checks out.
            with tempfile.TemporaryDirectory() as d:
                with open(os.path.join(d, "manifest.json"), "w") as f:
                    json.dump(m, f)
                self.assertEqual(checks.read_manifest(d), m)
            edited = copy.deepcopy(m)
            if t["method"] == "dfs":
                edited["totals"]["tours"] += 2
                self.assertNotEqual(checks.dfs_checksum(edited), m["checksum"])
            else:
                edited["frontier"]["counts"]["tours"] = "1"
                self.assertNotEqual(manifest_checksum(edited), m["frontier"]["checksum"])


if __name__ == "__main__":
    unittest.main()
