"""Squares, grids and the board's symmetries, for tours given as arrays of square indices."""

import numpy as np


def square_name(index, cols):
    """a1-style name of a square index (files a..z, then aa, ab, ...)."""
    r, c = divmod(int(index), cols)
    n, name = c + 1, ""
    while n > 0:
        n -= 1
        name = chr(ord("a") + n % 26) + name
        n //= 26
    return f"{name}{r + 1}"


def parse_square(name, cols):
    """The index of an a1-style square name."""
    letters = name.rstrip("0123456789")
    if not letters or not letters.isalpha() or len(letters) == len(name):
        raise ValueError(f"not a square name: {name!r}")
    c = 0
    for ch in letters.lower():
        c = c * 26 + (ord(ch) - ord("a") + 1)
    c -= 1
    r = int(name[len(letters):]) - 1
    if c >= cols or r < 0:
        raise ValueError(f"{name!r} is off a board with {cols} files")
    return r * cols + c


def grid(tour, rows, cols):
    """Move numbers 1..R*C as a (rows, cols) array, rank 1 in row 0 (flip with [::-1] to
    print rank R on top)."""
    g = np.zeros(rows * cols, dtype=np.int64)
    g[np.asarray(tour, dtype=np.int64)] = np.arange(1, rows * cols + 1)
    return g.reshape(rows, cols)


def tour_from_grid(g):
    """The inverse of grid(): the squares in visit order."""
    flat = np.asarray(g).reshape(-1)
    return np.argsort(flat, kind="stable").astype(np.int64)


def symmetries(rows, cols):
    """The board's symmetries as index maps: perm[s] is the image of square s. 4 on a
    rectangle (identity, two reflections, half turn), 8 on a square board."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    maps = [(r, c), (rows - 1 - r, c), (r, cols - 1 - c), (rows - 1 - r, cols - 1 - c)]
    out = [rr * cols + cc for rr, cc in maps]
    if rows == cols:
        out += [cc * cols + rr for rr, cc in maps]
    return [np.asarray(p, dtype=np.int64) for p in out]


def _keep_smaller(best, images, perm):
    """Rows of perm[images] that are lexicographically smaller than those of `best` replace
    them. Only rows whose image is not larger on the first square are mapped whole."""
    first = perm[images[:, 0]]
    idx = np.nonzero(first <= best[:, 0])[0]
    if len(idx) == 0:
        return
    image, current = perm[images[idx]], best[idx]
    diff = image != current
    at = np.argmax(diff, axis=1)
    rows = np.arange(len(idx))
    smaller = diff.any(axis=1) & (image[rows, at] < current[rows, at])
    best[idx[smaller]] = image[smaller]


def _as_tours(tours):
    t = np.atleast_2d(np.asarray(tours))
    return t if np.issubdtype(t.dtype, np.integer) else t.astype(np.int64)


def canonical(tours, rows, cols, reversal=False):
    """Each tour (rows of an (n, R*C) array) replaced by the lexicographically smallest of its
    mirror images: equal canonical forms mean the tours are mirror images of one another.
    With reversal=True, also of its images read backwards (the tour walked from its other
    end). The tours' integer dtype is kept (uint8 from tour files stays small)."""
    t = _as_tours(tours)
    perms = [p.astype(t.dtype) for p in symmetries(rows, cols)]
    best = t.copy()
    for perm in perms[1:]:
        _keep_smaller(best, t, perm)
    if reversal:
        backwards = t[:, ::-1]
        for perm in perms:
            _keep_smaller(best, backwards, perm)
    return best


def canonical_cycles(tours, rows, cols):
    """Each closed tour replaced by one form of its cycle, the same for every tour of the
    cycle and of its mirror images: over the board's symmetries, the cycle read from its
    smallest square towards its smaller neighbour, the smallest such sequence."""
    t = _as_tours(tours)
    n = t.shape[1]
    rows_idx = np.arange(len(t))[:, None]
    best = None
    identity = np.arange(n, dtype=t.dtype)
    for perm in symmetries(rows, cols):
        image = perm.astype(t.dtype)[t]
        shift = np.argmin(image, axis=1)
        rolled = image[rows_idx, (np.arange(n) + shift[:, None]) % n]
        flip = rolled[:, -1] < rolled[:, 1]
        rolled[flip, 1:] = rolled[flip, :0:-1]
        if best is None:
            best = rolled
        else:
            _keep_smaller(best, rolled, identity)
    return best


def is_mirror_symmetric(tours, rows, cols):
    """For each tour, whether a symmetry other than the identity maps it onto itself read
    backwards (its image is the same path, walked from the other end). Read forwards no
    tour can be its own image: the start square would have to be fixed, and every other."""
    t = np.atleast_2d(np.asarray(tours, dtype=np.int64))
    out = np.zeros(len(t), dtype=bool)
    for perm in symmetries(rows, cols)[1:]:
        out |= (perm[t] == t[:, ::-1]).all(axis=1)
    return out
