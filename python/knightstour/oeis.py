"""The field's rows as OEIS holds them, to mark each term of a Row as known or new.

    kt.oeis.mark(row)     # {length: "A175881" | "A175881 b-file" | "odd squares" | "new"}

The terms below are the data lines (%S %T %U) of the entries in oeis/oeisdata at commit
1ebf49cffb40 (read on 2026-12-03; the nine rows, A391999 and A391009, at 6bf0c5f496e7 and
7cb03262f758, the versions stored here). Some entries list more terms in a b-file, which was not
readable here: a term within a b-file's range is marked "A… b-file" (known, not compared),
not "new". An entry may have grown since that commit; "new" means past every term and b-file
that commit lists. OEIS counts closed tours as cycles and open tours as undirected paths
(Row's conventions).
"""

from dataclasses import dataclass, field


@dataclass
class OeisRow:
    number: str          # A-number
    rows: int
    what: str            # "closed" or "open"
    first: int           # the length of the first term
    step: int            # 1, or 2 for the entries of even lengths only (5 x 2n, 7 x 2n)
    terms: list = field(default_factory=list)
    b_file_to: int = 0   # the longest length its b-file lists (0: none listed)

    def by_length(self):
        return {self.first + i * self.step: t for i, t in enumerate(self.terms)}


KNOWN = [
    OeisRow("A175855", 5, "closed", 2, 2, [
        0, 0, 8, 44202, 13311268, 4557702762, 1495135512514, 491857035772330,
        161514101568508400, 53034853662012222798, 17414154188157170439208,
        5717847862749642677204182, 1877435447920358266870897874,
        616447390029326136628439042672, 202407848349722353779265745190616,
        66459727085467788423206394162537418, 21821760546806761707309514948565417796,
        7165079447164571822068029945303172129766, 2352622444655438705806553391345493395131580,
        772473271844923268504474277422663237674924998]),
    OeisRow("A175881", 6, "closed", 1, 1, [
        0, 0, 0, 0, 8, 9862, 1067638, 55488142, 3374967940, 239187240144, 15360134570696,
        964730606632516, 61989683445413228, 4005716717182224826, 255967892553030600920,
        16378998506224697063588, 1050504687249683771795632, 67351449674771471216148786,
        4314151246752166099728445868], b_file_to=40),
    OeisRow("A193054", 7, "closed", 2, 2, [
        0, 0, 1067638, 34524432316, 1250063279938854, 38350427205194670084,
        1254934986399237346242334, 40157773188600794694366079616,
        1293153423896688571314211086231916, 41575689378315795601749194654016984354,
        1337089200028352592236847382536061361269314], b_file_to=30),
    OeisRow("A193055", 8, "closed", 1, 1, [
        0, 0, 0, 0, 44202, 55488142, 34524432316, 13267364410532, 7112881119092574,
        4235482818156697040, 2122880233853945590892, 1105420672289849239070962,
        586820057145837880942582376, 311550865881297158579957164664,
        162703111270636640083076205067310], b_file_to=18),
    OeisRow("A083386", 5, "open", 1, 1, [
        0, 0, 0, 82, 864, 18784, 622868, 18061054, 264895640, 7886117822, 128411926952,
        3611823644006, 56348098488396, 1548284436152798, 24535910156176100,
        650456890341276338, 10364916108987670024, 267426031403733462626], b_file_to=50),
    OeisRow("A306281", 6, "open", 1, 1, [
        0, 0, 0, 744, 18784, 3318960, 389969466, 24964893804, 1770631206422, 143827657320448,
        10668015492137018]),
    OeisRow("A306283", 7, "open", 1, 1, [0, 0, 52, 6378, 622868, 389969466, 82787609160]),
    OeisRow("A391999", 9, "closed", 2, 2, [0, 0, 3374967940, 7112881119092574]),
    OeisRow("A391009", 9, "open", 1, 1, [
        0, 0, 560, 189688, 264895640, 1770631206422, 2903212163753000, 6132937892156709562]),
]


def known_row(rows, what):
    """The OEIS entry of this row, or None."""
    for k in KNOWN:
        if (k.rows, k.what) == (rows, what):
            return k
    return None


def mark(row):
    """Each length of `row` marked: the A-number where it equals the term read here, "A… b-file"
    where the entry's b-file holds it (not compared here), "odd squares" for a closed count of
    R x n with R*n odd (0, no closed tour), "new" past them. ValueError on a term that differs
    from OEIS: a wrong count, never to be written as new."""
    k = known_row(row.rows, row.what)
    terms = k.by_length() if k else {}
    marks = {}
    for n in row.lengths:
        c = row.counts[n]
        if n in terms:
            if terms[n] != c:
                raise ValueError(f"{row.rows}x{n} {row.what}: {c} differs from {k.number}'s "
                                 f"{terms[n]}")
            marks[n] = k.number
        elif row.what == "closed" and row.rows * n % 2 == 1:
            if c != 0:
                raise ValueError(f"{row.rows}x{n} has an odd number of squares: no closed tour, "
                                 f"not {c}")
            marks[n] = "odd squares"
        elif k and n <= k.b_file_to:
            marks[n] = f"{k.number} b-file"
        else:
            marks[n] = "new"
    return marks


def kind(mark_text):
    """What a mark of `mark` says: "known" (compared with OEIS and equal), "odd squares"
    (0 by parity), "b-file" (in an entry's b-file, not compared) or "new"."""
    if mark_text in ("new", "odd squares"):
        return mark_text
    return "b-file" if mark_text.endswith(" b-file") else "known"
