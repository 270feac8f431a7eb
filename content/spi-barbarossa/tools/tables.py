"""The tables of the game: the two Combat Results Tables, the Terrain Effects Chart, the
weather, the Time Record and Reinforcement Chart, and victory. Written out as tables.ron by
make_content.py."""


def q(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


ODDS = [(1, 4), (1, 3), (1, 2), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1)]

# Combat Results Table I: the defender stands (no defender retreats; exchanges and eliminations).
CRT_HOLD = {
    1: ["ar", "ar", "ex", "ex", "ex", "de", "de", "de", "de"],
    2: ["ae", "ar", "ar", "ex", "ex", "ex", "de", "de", "de"],
    3: ["ae", "ae", "ar", "ar", "ex", "ex", "ex", "de", "de"],
    4: ["ae", "ae", "ae", "ar", "ar", "ex", "ex", "ex", "de"],
    5: ["ae", "ae", "ae", "ae", "ar", "ar", "ex", "ex", "ex"],
    6: ["ae", "ae", "ae", "ae", "ae", "ar", "ar", "ex", "ex"],
}
# Combat Results Table II: the defender gives ground (retreats instead of exchanges).
CRT_YIELD = {
    1: ["ar", "dr", "dr", "dr", "dr", "dr", "de", "de", "de"],
    2: ["ar", "ar", "dr", "dr", "dr", "dr", "dr", "de", "de"],
    3: ["ae", "ar", "ar", "dr", "dr", "dr", "dr", "dr", "de"],
    4: ["ae", "ae", "ar", "ar", "dr", "dr", "dr", "dr", "dr"],
    5: ["ae", "ae", "ae", "ar", "ar", "dr", "dr", "dr", "dr"],
    6: ["ae", "ae", "ae", "ae", "ar", "ar", "ar", "dr", "dr"],
}

CRT_NOTES = (
    "Results: ae, all attacking units eliminated (AE of the Luftwaffe rules; Luftwaffe units are "
    "not affected); ar, the attacking units retreat one hex (Ar; Luftwaffe units not affected); "
    "ex, exchange: the defending units are eliminated and the attacker eliminates attacking units "
    "of at least the same total printed Attack Strength as the defenders' Defense Strength; dr, "
    "the defending units retreat one hex; de, all defending units eliminated. A unit that cannot "
    "retreat (enemy units, enemy zones of control as Zones of Control F defines them for retreats, "
    "prohibited terrain, the stacking limit) is eliminated; support units are destroyed instead of "
    "retreating (Combat L). The defender chooses the table before the die is rolled (General "
    "Course of Play); the odds are rounded in the defender's favour (Combat G: 26 to 9 is 2 to 1); "
    "odds worse than 1 to 4 are fought at 1 to 4, better than 6 to 1 at 6 to 1; at 9 to 1 a "
    "motorized force may overrun instead, in a Movement Phase (Overrun)."
)
CRT_PROVENANCE = (
    "The two CRTs were printed on the map, which was lost in extraction. The text fixes: odds "
    "columns rounded for the defender, results AE and Ar (Luftwaffe D), retreats (Combat L), the "
    "defender's choice between two tables. Reconstructed as a pair that gives that choice a "
    "meaning, in the spirit of the designer's notes (a defence in place against a mobile defence): "
    "table I never retreats the defender but exchanges and eliminates it from 1 to 1 up and "
    "punishes low-odds attackers with AE; table II retreats the defender instead (eliminating it "
    "only from 4 to 1 up) and lets the attacker off with Ar more often. A defender who can retreat "
    "(the Germans: Soviet zones of control do not block their retreats into vacant hexes) prefers "
    "II at good odds; a Soviet defender whose retreat Axis zones of control cut off prefers I. "
    "Nine columns from 1 to 4 to 6 to 1, as in SPI's odds tables of 1969-71; every column's "
    "results improve for the attacker from right to left and from 6 to 1 on the die."
)


# The printed results, as the fields of the record the general odds procedure reads.
CRT_FIELDS = {
    "ae": "attacker_eliminated",
    "ar": "attacker_retreat",
    "ex": "exchange",
    "dr": "retreat",
    "de": "defender_eliminated",
}


def crt(id_, name, rows, extra):
    out = ["        (", f"            id: {q(id_)},", f"            name: {q(name)},",
           "            rows_by: Dice(count: 1, clamp: Some((1, 6))),",
           "            columns: Odds([" + ", ".join(f"({a}, {d})" for a, d in ODDS) + "]),",
           "            result: Record([" + ", ".join(
               f'(name: "{f}", type: Bool, default: Some(false))' for f in CRT_FIELDS.values()) + "]),",
           "            rows: ["]
    for k in range(1, 7):
        out.append(f"                (key: {k}, cells: [" + ", ".join(
            '{"' + CRT_FIELDS[c] + '": true}' for c in rows[k]) + "]),")
    out += ["            ],", f"            notes: {q(extra + ' ' + CRT_NOTES)},",
            f"            provenance: Reconstructed({q(CRT_PROVENANCE)}),", "        ),"]
    return out


TEC_FIELDS = [
    ("other_mp", "Int", "1"), ("motorized_mp", "Int", "1"), ("defence", "Int", "1"),
    ("prohibited", "Bool", "false"), ("winter_clear", "Bool", "false"),
    ("no_attack_across", "Bool", "false"),
]
TEC_ROWS = [
    ("clear", {}),
    ("rough", {"other_mp": 2, "motorized_mp": 3, "defence": 2}),
    ("swamp", {"other_mp": 3, "motorized_mp": 4}),
    ("mountain", {"other_mp": 3, "motorized_mp": 4, "defence": 2}),
    ("lake", {"other_mp": 0, "motorized_mp": 0, "prohibited": True, "winter_clear": True}),
    ("city", {"other_mp": 0, "motorized_mp": 0, "defence": 2}),
    ("river", {"other_mp": 1, "motorized_mp": 1, "defence": 2, "winter_clear": True}),
    ("major_river", {"other_mp": 1, "motorized_mp": 2, "defence": 2, "winter_clear": True}),
    ("kerch_strait", {"other_mp": 0, "motorized_mp": 0, "no_attack_across": True}),
    ("enter_enemy_zoc", {"other_mp": 1, "motorized_mp": 2}),
    ("leave_enemy_zoc", {"other_mp": 1, "motorized_mp": 1}),
    ("overrun", {"other_mp": 0, "motorized_mp": 3}),
    ("finland_finnish_defender", {"other_mp": 0, "motorized_mp": 0, "defence": 2}),
]
TEC_NOTES = (
    "Rows by terrain (a hex's terrain or feature), hexside kind or situation. other_mp and "
    "motorized_mp: the Movement Points to enter a hex of that terrain, or more to cross that "
    "hexside or to enter or leave an enemy-controlled hex (0 for a row that adds nothing); "
    "motorized_mp is for motorized (armor, armored infantry) and support units. Costs are "
    "cumulative (Movement J: a motorized unit entering an enemy-controlled clear hex across a "
    "river pays 1 + 2 + 1 = 4); a supplied unit may always move one hex. defence: the defender's "
    "multiplier, in its hex (rough, mountains, a city) or when every attacker attacks across such "
    "a hexside (Overrun F); multipliers are not cumulative (at most doubled). prohibited: no unit "
    "enters; winter_clear: in Winter (November to February) frozen, the hex treated as clear or "
    "the hexside ignored (Winter A). Kerch Straits: crossed in five Movement Phases (Movement L), "
    "supply traces across (Supply E), no attack across (Combat K). Finnish units defending in "
    "Finland are doubled (Combat J)."
)
TEC_PROVENANCE = (
    "The Terrain Effects Chart was printed on the map. Printed in the text: the zone-of-control "
    "costs (Zones of Control A to E), +1 to cross a river (Movement J), the river and rough-terrain "
    "doubling (Overrun F), the overrun's three extra points (Overrun D), lakes and rivers in "
    "winter (Winter A), the Kerch Straits (Movement L, Combat K, Supply E), the Finns in Finland "
    "(Combat J). Reconstructed: the entry costs of rough (2, motorized 3), swamp (3 and 4) and "
    "mountains (3 and 4), mountains and cities doubling the defender, major rivers costing "
    "motorized units one point more, lakes prohibited when not frozen (implied by Winter A and E)."
)

WEATHER_NOTES = (
    "By season of the Game-Turn (game.ron's turns). german_motorized_ma and german_infantry_ma: "
    "the German movement allowances in force (0: as printed; 8 for German infantry under VS 8 "
    "whatever the weather is not said: read as clear weather only). attack_supply: 'all', every "
    "attacking unit must be adjacent to or stacked with a supply unit (one supplies any number of "
    "adjacent units); 'axis', every German or Allied attacker must; 'none', the ordinary Attack "
    "Supply ranges (three hexes Soviet, six German-Allied). frozen: rivers and lakes frozen. "
    "air_attack: a Luftwaffe unit's attack strength."
)


def weather():
    rows = [
        ("clear", {"german_motorized_ma": 0, "german_infantry_ma": 0, "attack_supply": "none", "frozen": False, "air_attack": 2}),
        ("mud", {"german_motorized_ma": 5, "german_infantry_ma": 2, "attack_supply": "all", "frozen": False, "air_attack": 2}),
        ("winter", {"german_motorized_ma": 5, "german_infantry_ma": 2, "attack_supply": "axis", "frozen": True, "air_attack": 1}),
    ]
    out = ["        (", '            id: "weather",', '            name: "Weather: Rasputitsa and Winter",',
           "            rows_by: Name,", "            columns: Single,", "            result: Record([",
           '                (name: "german_motorized_ma", type: Int, default: Some(0)),',
           '                (name: "german_infantry_ma", type: Int, default: Some(0)),',
           '                (name: "attack_supply", type: Symbol(["none", "all", "axis"]), default: Some("none")),',
           '                (name: "frozen", type: Bool, default: Some(false)),',
           '                (name: "air_attack", type: Int, default: Some(2)),',
           "            ]),", "            rows: ["]
    for key, cell in rows:
        out.append(f"                (key: {q(key)}, cells: [{{" + ", ".join(f"{q(k)}: {str(v).lower() if isinstance(v, bool) else (q(v) if isinstance(v, str) else v)}" for k, v in cell.items()) + "}]),")
    out += ["            ],", f"            notes: {q(WEATHER_NOTES)},", "        ),"]
    return out


def tec():
    out = ["        (", '            id: "terrain_effects",', '            name: "Terrain Effects Chart",',
           "            rows_by: Name,", "            columns: Single,", "            result: Record(["]
    for name, typ, default in TEC_FIELDS:
        out.append(f"                (name: {q(name)}, type: {typ}, default: Some({default})),")
    out += ["            ]),", "            rows: ["]
    for key, cell in TEC_ROWS:
        full = {name: (cell.get(name, {"Int": int(default) if typ == "Int" else None, "Bool": default == "true"}[typ])) for name, typ, default in TEC_FIELDS}
        body = ", ".join(f"{q(k)}: {str(v).lower() if isinstance(v, bool) else v}" for k, v in full.items())
        out.append(f"                (key: {q(key)}, cells: [{{{body}}}]),")
    out += ["            ],", f"            notes: {q(TEC_NOTES)},", f"            provenance: Reconstructed({q(TEC_PROVENANCE)}),", "        ),"]
    return out


# ---------------------------------------------------------------------------------------------
# The Time Record and Reinforcement Chart (reconstructed): what enters at the start of each
# month's Game-Turn (turn 1 = May 1941 for VS 4, turn 2 = June 1941 ... turn 49 = May 1945).
# ---------------------------------------------------------------------------------------------
REINFORCEMENT_COLUMNS = [
    "ge_pz_army", "ge_ss_pz_army", "ge_pz_corps", "ge_ss_pz_corps", "ge_inf_army", "ge_inf_corps",
    "ge_supply", "ro_army", "ro_corps", "hu_army", "hu_corps", "it_army", "it_corps",
    "su_inf_army", "su_shock_army", "su_gds_army", "su_tank_army", "su_gds_tank_army",
    "su_tank_corps", "su_mech_corps", "su_supply",
]
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]


def month(turn):
    """The month of a Game-Turn: 1 is May 1941."""
    k = turn - 1 + 4
    return f"{MONTH_NAMES[k % 12]} {1941 + k // 12}"


_ARRIVALS = {
    3: {"ge_supply": 2, "hu_corps": 1, "su_inf_army": 8, "su_supply": 1},
    4: {"ge_supply": 2, "it_corps": 1, "su_inf_army": 6, "su_supply": 1},
    5: {"ge_supply": 2, "su_inf_army": 4, "su_supply": 1},
    6: {"ge_supply": 1, "su_inf_army": 4, "su_tank_corps": 2, "su_supply": 1},
    7: {"ge_supply": 1, "su_inf_army": 4, "su_supply": 1},
    8: {"ge_supply": 1, "su_inf_army": 6, "su_tank_corps": 2, "su_supply": 2},
    9: {"ge_supply": 1, "ge_inf_corps": 1, "su_inf_army": 2, "su_tank_corps": 1, "su_supply": 1},
    10: {"ge_supply": 1, "su_inf_army": 2, "su_supply": 1},
    11: {"ge_supply": 1, "ge_pz_corps": 1, "su_inf_army": 2, "su_tank_corps": 2, "su_supply": 1},
    12: {"ge_supply": 1, "ge_inf_corps": 1, "ro_corps": 1, "su_inf_army": 2, "su_mech_corps": 2, "su_supply": 1},
    13: {"ge_supply": 2, "ge_pz_corps": 1, "hu_army": 1, "ro_corps": 1, "su_inf_army": 2, "su_tank_corps": 2, "su_supply": 1},
    14: {"ge_supply": 2, "ge_inf_corps": 1, "su_inf_army": 2, "su_tank_corps": 2, "su_supply": 1},
    15: {"ge_supply": 2, "it_army": 1, "ro_army": 1, "su_inf_army": 3, "su_tank_corps": 2, "su_supply": 1},
    16: {"ge_supply": 2, "ro_army": 1, "su_inf_army": 2, "su_mech_corps": 1, "su_supply": 1},
    17: {"ge_supply": 2, "su_inf_army": 2, "su_tank_corps": 2, "su_supply": 1},
    18: {"ge_supply": 1, "su_shock_army": 1, "su_gds_army": 1, "su_mech_corps": 1, "su_supply": 1},
    19: {"ge_supply": 1, "su_gds_army": 1, "su_tank_army": 1, "su_tank_corps": 2, "su_supply": 2},
    20: {"ge_supply": 1, "ge_pz_corps": 1, "su_gds_army": 1, "su_shock_army": 1, "su_supply": 2},
    21: {"ge_supply": 1, "su_gds_army": 1, "su_tank_army": 1, "su_supply": 2},
    22: {"ge_supply": 1, "ge_ss_pz_corps": 2, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 2},
    23: {"ge_supply": 1, "ge_inf_army": 1, "su_shock_army": 1, "su_mech_corps": 1, "su_supply": 2},
    24: {"ge_supply": 1, "ge_pz_corps": 1, "su_gds_tank_army": 1, "su_tank_corps": 2, "su_supply": 2},
    25: {"ge_supply": 2, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 2},
    26: {"ge_supply": 2, "su_gds_tank_army": 1, "su_shock_army": 1, "su_supply": 2},
    27: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    28: {"ge_supply": 1, "su_shock_army": 1, "su_mech_corps": 1, "su_supply": 3},
    29: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    30: {"ge_supply": 1, "su_gds_tank_army": 1, "su_supply": 2},
    31: {"ge_supply": 1, "ge_pz_corps": 1, "su_shock_army": 1, "su_mech_corps": 1, "su_supply": 2},
    32: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 2},
    33: {"ge_supply": 1, "su_shock_army": 1, "su_tank_corps": 2, "su_supply": 2},
    34: {"ge_supply": 1, "su_gds_army": 1, "su_supply": 2},
    35: {"ge_supply": 1, "hu_army": 1, "su_gds_tank_army": 1, "su_mech_corps": 1, "su_supply": 2},
    36: {"ge_supply": 1, "ge_ss_pz_corps": 1, "su_shock_army": 1, "su_supply": 3},
    37: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    38: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    39: {"su_shock_army": 1, "su_mech_corps": 1, "su_supply": 3},
    40: {"ge_supply": 1, "hu_army": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    41: {"su_shock_army": 1, "su_supply": 3},
    42: {"ge_supply": 1, "su_gds_army": 1, "su_tank_corps": 2, "su_supply": 3},
    43: {"su_tank_army": 1, "su_supply": 3},
    44: {"ge_supply": 1, "su_gds_army": 1, "su_supply": 3},
    45: {"su_shock_army": 1, "su_tank_corps": 2, "su_supply": 4},
    46: {"ge_supply": 1, "ge_ss_pz_army": 1, "su_gds_army": 1, "su_supply": 3},
    47: {"su_shock_army": 1, "su_supply": 3},
    48: {"ge_supply": 1, "su_gds_army": 1, "su_supply": 3},
}


def arrivals(turn):
    return _ARRIVALS.get(turn, {})


REINFORCEMENT_NOTES = (
    "The Time Record and Reinforcement Chart: one row a Game-Turn (1 = May 1941, used only by VS 4; "
    "2 = June 1941 ... 49 = May 1945), one column a counter, the number of its pieces that enter at "
    "the start of that Game-Turn, before the German-Allied Player-Turn. The same chart serves every "
    "game (the months marked 'for campaign game only' join the four Standard Games into the "
    "Campaign Game): a Standard Game takes the rows from its second Game-Turn on (its set-up is the "
    "situation at the start of its first month, the first row's units included). Entry "
    "(reconstructed): German-Allied units on any west-edge hex outside Finland (as German "
    "replacements, Replacements B), Soviet units on any east-edge hex, in General Supply and not "
    "in an enemy zone of control. Pieces come from the counter mix: a piece not on the map (never "
    "placed, or eliminated) may enter; when none is left the arrival is lost. Soviet 5-9-3s and "
    "6-5-5s arrive only from October 1942, when the Campaign Game lets the Soviets combine. VS 15 "
    "gives the Germans one more supply unit every Game-Turn of the Berlin Game."
)
REINFORCEMENT_PROVENANCE = (
    "The chart was printed on the map and lost. Reconstructed from the course of the war at the "
    "game's scale: Soviet mobilisation of 1941 (the designer's notes: two million reservists called "
    "up in July, two million more by the end of the year) as rifle armies, the tank corps of 1942, "
    "the Guards, Shock and Tank armies from the winter of 1942-43 on; German supply units two a "
    "month in the summers of 1941 and 1942 and one otherwise, one every other month from July 1944 "
    "(so that VS 15's 'a supply unit every Game-Turn' is a gain); allies as they entered (the "
    "Hungarian Mobile Corps in July 1941, the Italian corps in August 1941, the Hungarian 2nd Army, "
    "the Italian 8th Army and the Rumanian 3rd and 4th Armies in the summer of 1942, the Hungarian "
    "1st Army in 1944); German arrivals few (the designer's notes: German replacements are "
    "'self-regulating'): panzer corps from the west, the SS Panzer Corps in February 1943, the "
    "re-formed 6th Army in March 1943, the 6th SS Panzer Army in February 1945."
)


def reinforcements():
    out = ["        (", '            id: "reinforcements",', '            name: "Time Record and Reinforcement Chart",',
           "            rows_by: Number(from: 1, to: 49),",
           "            columns: Named([" + ", ".join(q(c) for c in REINFORCEMENT_COLUMNS) + "]),",
           "            result: Int,", "            rows: ["]
    for t in range(1, 50):
        a = arrivals(t)
        out.append(f"                (key: {t}, cells: [" + ", ".join(str(a.get(c, 0)) for c in REINFORCEMENT_COLUMNS) + "]),")
    out += ["            ],", f"            notes: {q(REINFORCEMENT_NOTES)},",
            f"            provenance: Reconstructed({q(REINFORCEMENT_PROVENANCE)}),", "        ),"]
    return out


# ---------------------------------------------------------------------------------------------
# Victory
# ---------------------------------------------------------------------------------------------
STANDARD_VICTORY = [  # minimum German-Allied VP at the end for each level
    ("barbarossa", [130, 112, 90, 70]),
    ("stalingrad", [130, 112, 92, 80]),
    ("zitadelle", [95, 75, 55, 40]),
    ("berlin", [25, 15, 8, 1]),
]


def standard_victory(start_vp):
    notes = ("Standard Games' victory (reconstructed): at the end of the last Game-Turn the "
             "German-Allied Player scores the victory points of the Soviet cities he controls "
             "(Control of Cities: a city always behind his front line, or occupied and behind it at "
             "the end, or held by his unit; a city that changed hands belongs to the last player "
             "who passed a unit through it). The row is the game; a column gives the least score "
             "for a level: axis_decisive, axis_marginal, draw, soviet_marginal; below the last, a "
             "Soviet decisive victory. The Axis holds at the start: " +
             ", ".join(f"{g} {v}" for g, v in start_vp.items()) + " points (of 209 in the Soviet Union).")
    prov = ("The Standard Games' victory conditions were lost in extraction (only 'the Victory Point "
            "value for a given city is printed directly on that city on the map' remains). "
            "Reconstructed as levels of the Axis city score around the historical result of each "
            "game: about 100 at the end of 1941 (Barbarossa) and before Stalingrad's fall, about 55 "
            "after the Dnieper battles of 1943 (Zitadelle), none in May 1945 (Berlin).")
    out = ["        (", '            id: "standard_victory",', '            name: "Standard Games: victory levels",',
           "            rows_by: Name,", '            columns: Named(["axis_decisive", "axis_marginal", "draw", "soviet_marginal"]),',
           "            result: Int,", "            rows: ["]
    for g, vals in STANDARD_VICTORY:
        out.append(f"                (key: {q(g)}, cells: [{', '.join(map(str, vals))}]),")
    out += ["            ],", f"            notes: {q(notes)},", f"            provenance: Reconstructed({q(prov)}),", "        ),"]
    return out


def modified_campaign_victory():
    rows = [((0, 9), "soviet_strategic"), ((10, 26), "soviet_tactical"), ((27, 41), "soviet_marginal"),
            ((42, 60), "draw"), ((61, 81), "german_marginal"), ((82, 94), "german_tactical"),
            ((95, 250), "german_strategic")]
    notes = ("The footnote 'Barbarossa: Modified Victory Conditions' (an article printed after the "
             "rules, by Gary Staglano), an optional rule of the Campaign Game (option "
             "modified_victory_conditions): German points are the victory points of the cities he "
             "holds at the end, less the Soviet points (German units permanently eliminated, not "
             "those replaced; one for each supplied Soviet unit on the west edge at the end); the "
             "row is that difference (below 0 counts as 0). German units forced off the west edge "
             "are removed but give no Soviet points; the Germans may not retreat off it on purpose. "
             "The game ends when both players agree, on the last turn, or on a victory by the "
             "printed conditions.")
    out = ["        (", '            id: "campaign_modified_victory",', '            name: "Campaign Game: modified victory chart (optional)",',
           "            rows_by: Number(from: 0, to: 250),", "            columns: Single,",
           '            result: Symbol(["soviet_strategic", "soviet_tactical", "soviet_marginal", "draw", "german_marginal", "german_tactical", "german_strategic"]),',
           "            rows: ["]
    for (a, b), r in rows:
        out.append(f"                (key: ({a}, {b}), cells: [{q(r)}]),")
    out += ["            ],", f"            notes: {q(notes)},",
            '            provenance: Reconstructed("The chart is printed (95 or more, 82-94, 61-81, 42-60, 27-41, 10-26, less than 10); the points for each German unit eliminated were not printed and are left to the rules (one a corps, three an army is a fair reading). The upper bound 250 is the model\'s.") ,',
            "        ),"]
    return out


def tables_ron(start_vp):
    out = ["(", "    tables: ["]
    out += crt("crt_hold", "Combat Results Table I (the defender stands)", CRT_HOLD,
               "The first of the two CRTs printed on the map: the defender holds his ground.")
    out += crt("crt_yield", "Combat Results Table II (the defender gives ground)", CRT_YIELD,
               "The second CRT: the defender retreats rather than fight it out.")
    out += tec()
    out += weather()
    out += reinforcements()
    out += standard_victory(start_vp)
    out += modified_campaign_victory()
    out += ["    ],", ")"]
    return "\n".join(out) + "\n"
