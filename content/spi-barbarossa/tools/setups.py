"""Places the reconstructed orders of battle (oob.py) on the generated map (hexmap.py)."""
import math
import re
import os

import hexmap as H
import oob

HERE = os.path.dirname(os.path.abspath(__file__))


def counter_info():
    """id -> (nation, unit_type, size), read from counters.ron."""
    text = open(os.path.join(os.path.dirname(HERE), "counters.ron")).read()
    info = {}
    for block in re.findall(r"\(\s*id: \"[^\"]+\".*?\n        \),", text, re.S):
        get = lambda k: re.search(rf'{k}: "([^"]+)"', block).group(1)
        info[get("id")] = (get("nation"), get("unit_type"), get("size"))
    return info


INFO = counter_info()
SUPPORT = {"supply", "air"}
INFANTRY = {"infantry", "shock_infantry"}


def areas(m, game, side):
    """(set-up area outside Finland, Finnish area, enemy area) of a side in a game."""
    land = [c for c in m["land"] if m["terrain"][c] != "lake"]
    if game == "barbarossa":
        if side == "soviet":
            own = {c for c in land if m["country"][c] == "ussr"}
            enemy = {c for c in m["land"] if m["country"][c] not in ("ussr", "bulgaria", "yugoslavia")}
            return own, set(), enemy
        own = {c for c in land if m["country"][c] in ("germany", "general_government", "slovakia", "rumania")}
        fin = {c for c in land if m["country"][c] == "finland"}
        return own, fin, {c for c in m["land"] if m["country"][c] == "ussr"}
    other = "axis" if side == "soviet" else "soviet"
    own = {c for c in land if m["sides"].get((game, c)) == side}
    enemy = {c for c in m["land"] if m["sides"].get((game, c)) == other}
    if side == "axis":
        fin = {c for c in own if m["country"][c] == "finland"}
        return own - fin, fin, enemy
    return own, set(), enemy


def front_of(area, enemy):
    return {c for c in area if any(n in enemy for n in H.neighbours(c))}


def cover_positions(front):
    """Hexes from which units cover every front hex with themselves or their zone of control."""
    uncovered, chosen = set(front), []
    while uncovered:
        best = max(sorted(front), key=lambda p: (len(({p} | set(H.neighbours(p))) & uncovered),
                                                   -H.centre(*p)[1]))
        chosen.append(best)
        uncovered -= {best} | set(H.neighbours(best))
    return chosen


def anchor_point(m, anchor):
    if isinstance(anchor, str):
        return H.centre(*m["city_cell"][anchor])
    return H.project(*anchor)


def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def hungarian(cost):
    """Least-cost assignment of every row to a distinct column (rows <= columns).
    Returns the column of each row (Kuhn-Munkres with potentials)."""
    n, m = len(cost), len(cost[0])
    INF = float("inf")
    u, v = [0.0] * (n + 1), [0.0] * (m + 1)
    p, way = [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = [INF] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], INF, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    col = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            col[p[j] - 1] = j - 1
    return col


def match(positions, units, m):
    """Assignment of front units to the covering positions with the least total distance from
    their anchors. Returns {unit index: position}; units left over are not matched."""
    P = sorted(positions)
    if len(units) < len(P):
        print(f"warning: {len(units)} front units for {len(P)} front positions: some stay uncovered")
        P = P[: len(units)]
    anchors = [anchor_point(m, u[1]) for u in units]
    cost = [[dist(a, H.centre(*p)) for a in anchors] for p in P]
    cols = hungarian(cost)
    return {cols[k]: P[k] for k in range(len(P))}


def can_stack(side, stack, counter, limit):
    nation, utype, size = INFO[counter]
    if utype in SUPPORT:
        return True
    units = [c for c in stack if INFO[c][1] not in SUPPORT]
    if side == "soviet":
        return len(units) < limit
    if size == "army":
        return not units
    return len(units) < 3 and not any(INFO[c][2] == "army" for c in units)


def place_side(m, game, side, entries, soviet_limit):
    own, fin, enemy = areas(m, game, side)
    stacks = {}
    placed = []  # (entry index, cell)
    groups = [(own, [i for i, e in enumerate(entries) if INFO[e[0]][0] != "fi"])]
    if side == "axis":
        groups.append((fin, [i for i, e in enumerate(entries) if INFO[e[0]][0] == "fi"]))
    report = []
    for area, idxs in groups:
        front = front_of(area, enemy)
        positions = cover_positions(front)
        fronters = [i for i in idxs if entries[i][3] == "F"]
        if side == "soviet":
            assert all(INFO[entries[i][0]][1] in INFANTRY for i in fronters)
        got = match(positions, [entries[i] for i in fronters], m)
        for k, cell in got.items():
            i = fronters[k]
            stacks.setdefault(cell, []).append(entries[i][0])
            placed.append((i, cell))
        done = {fronters[k] for k in got}
        for i in idxs:
            if i in done:
                continue
            counter, anchor, label, role = entries[i]
            p = anchor_point(m, anchor)
            cands = sorted(area, key=lambda c: dist(p, H.centre(*c)))
            cell = next(c for c in cands if can_stack(side, stacks.get(c, []), counter, soviet_limit))
            stacks.setdefault(cell, []).append(counter)
            placed.append((i, cell))
        # check: every front hex covered by a (Soviet: infantry) unit or its zone of control
        holders = {c for c, st in stacks.items() if c in area and any(
            INFO[x][1] not in SUPPORT and (side != "soviet" or INFO[x][1] in INFANTRY) for x in st)}
        bare = [c for c in front if not ({c} | set(H.neighbours(c))) & holders]
        report.append(f"{game} {side}: {len(front)} front hexes, {len(positions)} covering positions,"
                      f" {len(fronters)} front units, uncovered {sorted(bare)}")
    placed.sort()
    return placed, report


def scenario_setups(m, soviet_limits):
    out = {}
    for game, (axis, soviet) in oob.OOB.items():
        a, ra = place_side(m, game, "axis", axis, soviet_limits[game])
        s, rs = place_side(m, game, "soviet", soviet, soviet_limits[game])
        out[game] = ([(axis[i], c) for i, c in a], [(soviet[i], c) for i, c in s], ra + rs)
    return out
