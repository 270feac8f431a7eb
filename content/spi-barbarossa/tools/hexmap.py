"""The hex grid of the reconstructed map: projection, terrain, rivers, regions.

Grid: 48 columns by 45 rows of flat-topped hexes in vertical columns, odd columns half a hex
lower (the engine's default `shifted: Odd`), numbered from 0101 in the north-west corner.
One hex is 30 miles (48 km) across its flats. The projection is a Lambert conformal conic
(standard parallels 47 and 57 N, centre 53 N 33 E), in miles.
"""
import math
from functools import lru_cache

import geography as G

COLUMNS, ROWS = 48, 45
HEX_MILES = 30.0                 # distance between the centres of two adjacent hexes
COL_MILES = HEX_MILES * math.sqrt(3) / 2   # distance between two columns
X_WEST, Y_NORTH = -545.0, 690.0  # projected miles of the centre of hex 0101 (before its shift)
EARTH = 3958.8


def _lcc_constants(lat1=47.0, lat2=57.0, lat0=53.0):
    r = math.radians
    n = math.log(math.cos(r(lat1)) / math.cos(r(lat2))) / math.log(
        math.tan(math.pi / 4 + r(lat2) / 2) / math.tan(math.pi / 4 + r(lat1) / 2))
    f = math.cos(r(lat1)) * math.tan(math.pi / 4 + r(lat1) / 2) ** n / n
    rho0 = EARTH * f / math.tan(math.pi / 4 + r(lat0) / 2) ** n
    return n, f, rho0


_N, _F, _RHO0 = _lcc_constants()
LON0 = 33.0


def project(lat, lon):
    """(lat, lon) in degrees to (x east, y north) in miles."""
    rho = EARTH * _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    th = _N * math.radians(lon - LON0)
    return rho * math.sin(th), _RHO0 - rho * math.cos(th)


def centre(c, r):
    """Projected centre of hex (column, row)."""
    half = 0.5 if c % 2 == 1 else 0.0
    return X_WEST + (c - 1) * COL_MILES, Y_NORTH - (r - 1 + half) * HEX_MILES


def cells():
    return [(c, r) for c in range(1, COLUMNS + 1) for r in range(1, ROWS + 1)]


DIRS = ["N", "NE", "SE", "S", "SW", "NW"]


def step(cell, d):
    c, r = cell
    low = c % 2 == 1
    return {
        "N": (c, r - 1), "S": (c, r + 1),
        "NE": (c + 1, r) if low else (c + 1, r - 1),
        "SE": (c + 1, r + 1) if low else (c + 1, r),
        "SW": (c - 1, r + 1) if low else (c - 1, r),
        "NW": (c - 1, r) if low else (c - 1, r - 1),
    }[d]


def on_grid(cell):
    c, r = cell
    return 1 <= c <= COLUMNS and 1 <= r <= ROWS


def neighbours(cell):
    return [n for n in (step(cell, d) for d in DIRS) if on_grid(n)]


def to_cube(cell):
    c, r = cell
    # odd columns are shifted down: "odd-q" offset coordinates to cube coordinates
    x = c
    z = r - (c - (c & 1)) // 2
    return x, -x - z, z


def distance(a, b):
    ax, ay, az = to_cube(a)
    bx, by, bz = to_cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def nearest_cell(x, y):
    best = None
    for cell in cells():
        cx, cy = centre(*cell)
        d = (cx - x) ** 2 + (cy - y) ** 2
        if best is None or d < best[0]:
            best = (d, cell)
    return best[1]


# --- polygons and lines in projected miles ------------------------------------------------------

def densify(points, step_deg=0.1):
    out = []
    for (a, b) in zip(points, points[1:]):
        n = max(1, int(max(abs(b[0] - a[0]), abs(b[1] - a[1])) / step_deg))
        for i in range(n):
            t = i / n
            out.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t))
    out.append(points[-1])
    return out


def projected(points, closed=False):
    pts = list(points) + ([points[0]] if closed else [])
    return [project(*p) for p in densify(pts)]


def inside(poly, x, y):
    """Even-odd rule; poly is a list of projected points, closed implicitly."""
    result = False
    n = len(poly)
    for i in range(n):
        x1, y1 = poly[i]
        x2, y2 = poly[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xi = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xi > x:
                result = not result
    return result


def _segments_cross(p1, p2, p3, p4):
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(p3, p4, p1), orient(p3, p4, p2)
    d3, d4 = orient(p1, p2, p3), orient(p1, p2, p4)
    return (d1 > 0) != (d2 > 0) and (d3 > 0) != (d4 > 0)


def _distance_to_line(line, p):
    best = float("inf")
    for (x1, y1), (x2, y2) in zip(line, line[1:]):
        dx, dy = x2 - x1, y2 - y1
        t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((p[0] - x1) * dx + (p[1] - y1) * dy) / (dx * dx + dy * dy)))
        best = min(best, math.hypot(p[0] - x1 - t * dx, p[1] - y1 - t * dy))
    return best


def crossings(line, a, b):
    """How many times the polyline `line` crosses the segment a-b."""
    n = 0
    for p, q in zip(line, line[1:]):
        if _segments_cross(a, b, p, q):
            n += 1
    return n


@lru_cache(maxsize=None)
def poly(name):
    return projected(getattr(G, name), closed=True)


def unproject(x, y):
    """Projected miles back to (lat, lon) in degrees."""
    rho = math.copysign(math.hypot(x, _RHO0 - y), _N)
    th = math.atan2(x, _RHO0 - y)
    lat = 2 * math.atan((EARTH * _F / rho) ** (1 / _N)) - math.pi / 2
    return math.degrees(lat), LON0 + math.degrees(th / _N)


# --- the model ----------------------------------------------------------------------------------

STRAIT_LON = 36.55  # the Kerch Straits run north-south about here
SEAS = ["BALTIC", "BLACK_SEA", "AZOV", "CASPIAN"]
COUNTRY_POLYS = [  # tested in this order, after the Soviet Union
    ("germany", "GERMANY"), ("general_government", "GENERAL_GOVERNMENT"),
    ("slovakia", "SLOVAKIA"), ("hungary", "HUNGARY"), ("rumania", "RUMANIA"),
    ("bulgaria", "BULGARIA"),
]
WARRING = {"ussr", "finland", "germany", "general_government", "slovakia", "hungary", "rumania"}
FRONTS = [("stalingrad", "FRONT_1942", "FRONT_1942_ENCLAVES"),
          ("zitadelle", "FRONT_1943", "FRONT_1943_ENCLAVES"),
          ("berlin", "FRONT_1944", "FRONT_1944_ENCLAVES")]


@lru_cache(maxsize=None)
def build():
    """Everything the map needs, as plain data."""
    m = {"log": []}
    log = m["log"].append
    all_cells = cells()
    pos = {cell: centre(*cell) for cell in all_cells}
    seas = [poly(s) for s in SEAS]
    sea = {cell for cell in all_cells if any(inside(p, *pos[cell]) for p in seas)}

    # Cities: the hex holding each city's coordinates (moved off the sea and off another city).
    rivers = [(rid, name, major, projected(pts)) for rid, name, major, pts in G.RIVERS]
    city_at, city_cell = {}, {}
    for cid, name, lat, lon, vp, notes in sorted(G.CITIES, key=lambda c: -c[4]):
        p = project(lat, lon)
        want = nearest_cell(*p)
        if cid == "kerch":  # Kerch is the Crimean end of the straits: a hex west of them
            want = min((c for c in all_cells if c not in sea and unproject(*pos[c])[1] < STRAIT_LON),
                       key=lambda c: (pos[c][0] - p[0]) ** 2 + (pos[c][1] - p[1]) ** 2)
        ranked = sorted(all_cells, key=lambda c: (c[0] - want[0]) ** 2 + (c[1] - want[1]) ** 2 + 0.001 * ((pos[c][0] - p[0]) ** 2 + (pos[c][1] - p[1]) ** 2))
        chosen = None
        for cand in ranked[:40]:
            if cand in city_at:
                continue
            # same side of every river as the city itself (a city lying on a river's course, less
            # than a mile from it, may take either bank)
            if any(crossings(line, p, pos[cand]) % 2 for _, _, _, line in rivers
                   if _distance_to_line(line, p) > 1.0):
                continue
            chosen = cand
            break
        if chosen is None:
            raise SystemExit(f"no hex for {cid}")
        if chosen != want:
            log(f"city {cid}: hex {chosen} instead of {want}")
        if chosen in sea:
            sea.discard(chosen)
            log(f"city {cid}: hex {chosen} made land")
        city_at[chosen] = cid
        city_cell[cid] = chosen

    # The Kerch Straits: Kerch's hex (west of the straits) and the land hex of the Taman
    # peninsula across them; any other hex pair that would join the two shores is made sea.
    kerch = city_cell["kerch"]
    taman_p = project(45.25, 36.8)
    taman = min((n for n in neighbours(kerch) if unproject(*pos[n])[1] > STRAIT_LON),
                key=lambda c: (pos[c][0] - taman_p[0]) ** 2 + (pos[c][1] - taman_p[1]) ** 2)
    if taman in sea:
        sea.discard(taman)
        log(f"Taman {taman} made land")
    for cell in all_cells:
        lat, lon = unproject(*pos[cell])
        if cell in sea or not (44.5 < lat < 45.7 and 35.0 < lon < STRAIT_LON):
            continue
        for n in neighbours(cell):
            nlat, nlon = unproject(*pos[n])
            if n in sea or nlon <= STRAIT_LON or (cell, n) == (kerch, taman):
                continue
            gone = cell if n == taman else n
            sea.add(gone)
            log(f"{gone} made sea: it would join {cell} in the Crimea to {n} on the Taman peninsula")
    m["kerch"] = (kerch, taman)
    # Perekop: the isthmus hex is land.
    perekop = nearest_cell(*project(46.15, 33.7))
    if perekop in sea:
        sea.discard(perekop)
        log(f"Perekop {perekop} made land")

    land = [c for c in all_cells if c not in sea]
    m["holes"] = sorted(sea)
    m["land"] = land

    # Terrain.
    lakes = [(lid, projected(p, True)) for lid, _, p in G.LAKES]
    swamps = [projected(p, True) for _, _, p in G.SWAMPS]
    mountains = [projected(p, True) for _, _, p in G.MOUNTAINS]
    rough = [projected(p, True) for _, _, p in G.ROUGH]
    terrain, lake_of = {}, {}
    for cell in land:
        x, y = pos[cell]
        if cell not in city_at:
            lk = next((lid for lid, p in lakes if inside(p, x, y)), None)
            if lk:
                terrain[cell] = "lake"
                lake_of[cell] = lk
                continue
        if any(inside(p, x, y) for p in mountains):
            terrain[cell] = "mountain"
        elif any(inside(p, x, y) for p in swamps):
            terrain[cell] = "swamp"
        elif any(inside(p, x, y) for p in rough):
            terrain[cell] = "rough"
        else:
            terrain[cell] = "clear"
    for lid, name, pts in G.LAKES:
        if lid not in lake_of.values():
            la = sum(p[0] for p in pts) / len(pts)
            lo = sum(p[1] for p in pts) / len(pts)
            cell = nearest_cell(*project(la, lo))
            if cell in city_at or cell in sea:
                log(f"lake {lid}: no hex of its own")
                continue
            terrain[cell] = "lake"
            lake_of[cell] = lid
            log(f"lake {lid}: its centre hex {cell}")
    m["terrain"], m["lake_of"] = terrain, lake_of
    m["city_at"], m["city_cell"] = city_at, city_cell

    # Rivers on hexsides: the side between two hexes carries a river when the line joining
    # their centres crosses the river's course an odd number of times.
    landset = set(land)
    hexsides = {}
    for cell in land:
        for d in ("NE", "SE", "S"):
            other = step(cell, d)
            if other not in landset:
                continue
            if terrain[cell] == "lake" or terrain[other] == "lake":
                continue
            kinds = []
            for rid, name, major, line in rivers:
                if crossings(line, pos[cell], pos[other]) % 2:
                    kinds.append((rid, major))
            if kinds:
                major = any(mj for _, mj in kinds)
                hexsides[(cell, d)] = ("major_river" if major else "river", [r for r, _ in kinds])
    hexsides[(kerch, next(d for d in DIRS if step(kerch, d) == taman))] = ("kerch_strait", [])
    m["hexsides"] = hexsides

    # Countries.
    ussr = poly("USSR")
    country = {}
    for cell in land:
        x, y = pos[cell]
        lat, lon = unproject(x, y)
        if inside(ussr, x, y):
            country[cell] = "ussr"
        elif lat > 59.6:
            country[cell] = "finland"
        else:
            country[cell] = next((cid for cid, pname in COUNTRY_POLYS if inside(poly(pname), x, y)), "yugoslavia")
    m["country"] = country

    # The fronts of the later Standard Games, and the Campaign Game Victory Line.
    sides = {}
    for game, pname, ename in FRONTS:
        main = poly(pname)
        enclaves = [projected(p, True) for p in getattr(G, ename)]
        for cell in land:
            if country[cell] not in WARRING:
                continue
            x, y = pos[cell]
            soviet = inside(main, x, y) or any(inside(p, x, y) for p in enclaves)
            sides[(game, cell)] = "soviet" if soviet else "axis"
    for cell in land:
        if country[cell] in WARRING:
            sides[("barbarossa", cell)] = "soviet" if country[cell] == "ussr" else (
                "axis" if country[cell] in {"germany", "general_government", "rumania", "slovakia", "finland"} else None)
    m["sides"] = sides
    vl = poly("VICTORY_LINE_WEST")
    m["victory_west"] = {cell for cell in land if inside(vl, *pos[cell])}

    # Map edges that supply, and the Finns' six hexes.
    m["west_edge"] = {c for c in land if c[0] == 1 and country[c] not in {"finland", "bulgaria"}}
    m["east_edge"] = {c for c in land if c[0] == COLUMNS}
    # counted over land (a frozen lake included), not across the Gulf of Finland
    reach, frontier = {}, [c for c in land if country[c] == "finland"]
    for c in frontier:
        reach[c] = 0
    while frontier:
        nxt = []
        for c in frontier:
            for n in neighbours(c):
                if n in landset and n not in reach and reach[c] < 6:
                    reach[n] = reach[c] + 1
                    nxt.append(n)
        frontier = nxt
    m["finnish_reach"] = {c for c, d in reach.items() if d > 0}
    return m
