"""Scenario definitions: the four Standard Games and the Campaign Game, their options (the
fifteen Variable Situations) and special rules. Written out by make_content.py."""
import tables as T

VS = [
    ("vs01_finland_neutral", "1", "The Finns were not actively allied with the Germans",
     "Finland is neutral; the Finnish Army is not deployed on the map, and neither the Russians nor the Germans may enter Finland. The Russians need not cover the Finnish border."),
    ("vs02_rumania_not_allied", "2", "The Rumanians were not actively allied with the Germans",
     "Rumania fails to agree to the Vienna Award, and is overrun. The Germans may deploy in Rumania, but they do not have the two Rumanian Armies they normally have."),
    ("vs03_hungary_at_war", "3", "The Hungarians entered the war immediately",
     "Allow the Germans to deploy forces in Hungary, and add one Hungarian army to initial Order of Battle (this army must be deployed in Hungary)."),
    ("vs04_invasion_in_may", "4", "The anti-German coup-de-tat in Yugoslavia failed",
     "Start the invasion on the original planning date of May 15 (one turn earlier)."),
    ("vs05_soviet_defence_in_depth", "5", "The Soviets deploy in depth",
     "The Russians may set-up anywhere within their frontier, and are not required to cover the frontier with troops."),
    ("vs06_fortified_frontier", "6", "The Soviet Union fortified their frontier",
     "Any Russian units placed adjacent to the frontier are doubled on defense."),
    ("vs07_soviet_reorganization", "7", "The Soviets had completed the re-organization of their army by the invasion date",
     "The Soviet Player may exchange his initial Order of Battle at the rate of two 2-4-2 for one 5-9-3 and two 2-1-5, and one 1-2-5 for one 6-5-5 with as many or as few of their armies as they wish."),
    ("vs08_german_infantry_motorized", "8", "The Germans had mechanized their essentially infantry army",
     "If the Germans had produced enough transport and utilized more of their captured equipment, they could have put their infantry in trucks, allow all German infantry a Movement Allowance of 8."),
    ("vs09_smaller_france_garrison", "9", "The Germans occupied France with smaller forces",
     "The Germans had excessive troop concentrations in France, allow them to add one 5-7-3 to their initial Order of Battle for the invasion."),
    ("vs10_smaller_western_air_force", "10", "The Germans kept a smaller Air Force in the west",
     "The Germans kept many aircraft in the west to harass England; they also over-estimated the bombing capability of the R.A.F.; allow the Germans one additional Luftwaffe unit in the initial Order of Battle."),
    ("vs11_earlier_tank_production", "11", "The Germans had raised tank production earlier in the war",
     "The Germans were actually producing commercial automobiles until 1942; this was obviously not beneficial to the war effort. Allow the Germans an additional Panzer Army (Note: the effect is tremendous)."),
    ("vs12_mobile_defence_1941", "12", "The Germans had conducted a mobile defense in the winter of 1941",
     "The Germans lost very heavily defending what was basically indefensible terrain; allow the Germans to place an additional 5-7-3 on the board at the beginning of the 1942 Stalingrad Situation."),
    ("vs13_first_panzer_trapped", "13", "First Panzer Army did not escape from Caucasus at Rostov bottleneck",
     "Deduct one 11-8-8 from the German Order of Battle at the beginning of the Zitadelle Situation."),
    ("vs14_sixth_army_withdrew", "14", "Sixth Army withdrew from Stalingrad before its destruction",
     "Add one 5-7-3 to German Order of Battle at the beginning of the Zitadelle situation."),
    ("vs15_bulge_troops_east", "15", "Troops for \"BULGE\" Offensive in the west are used in the east",
     "The Germans thought the attack in the west would bring about greater results. See if they were wrong, and add one 5-7-3 and two 11-8-8 to the Order of Battle for Berlin. Also give the Germans a supply unit every Game-Turn."),
]
VS_BY_ID = {v[0]: v for v in VS}

# Variable Situations that move the start: VS 4 begins in May 1941 (turn 1), one turn earlier.
FIRST_TURN = {"vs04_invasion_in_may": 1}

# Units a Variable Situation adds: (counter, anchor, label); placed when the flag is set.
VS_UNITS = {
    "barbarossa": [
        ("vs03_units", "hu_army", (48.4, 23.0), "VS 3: a Hungarian army (must deploy in Hungary)", "hungary"),
        ("vs09_units", "ge_inf_army", (52.5, 21.8), "VS 9: a 5-7-3 from the garrison of France", None),
        ("vs10_units", "ge_luftwaffe", (52.4, 21.6), "VS 10: a Luftwaffe unit from the west", None),
        ("vs11_units", "ge_pz_army", (51.6, 23.0), "VS 11: a fifth Panzer Army", None),
    ],
    "stalingrad": [("vs12_units", "ge_inf_army", (50.5, 35.5), "VS 12: a 5-7-3 saved by a mobile defence in the winter of 1941", None)],
    "zitadelle": [("vs14_units", "ge_inf_army", (48.4, 37.6), "VS 14: the 6th Army withdrawn from Stalingrad", None)],
    "berlin": [
        ("vs15_units", "ge_inf_army", (52.3, 23.5), "VS 15: a 5-7-3 of the Bulge offensive", None),
        ("vs15_units", "ge_pz_army", (52.0, 24.5), "VS 15: 5th Panzer Army", None),
        ("vs15_units", "ge_ss_pz_army", (50.6, 23.5), "VS 15: 6th SS Panzer Army", None),
    ],
}

COVER = ("Initial Deployment: the German-Allied Player deploys west of the game's front line, the "
         "Soviet Player east of it; each must cover the entire front (the hexes on his side "
         "adjacent to the line) with units or their zones of control, the Soviet Player with "
         "infantry (2-4-2, 5-9-3) only. Finnish units only in Finland, all of them there. The "
         "set-up given is a reconstructed historical deployment that meets these rules; players "
         "may deploy otherwise within them (the regions named in the scenario's notes).")

COMMON = [
    ("initial_deployment", "Initial Deployment", COVER),
    ("finland", "Movement K, Combat J, Supply", "Finnish units may not advance more than six hexes from their 1941 border (region finnish_reach); they defend doubled in Finland, trace General Supply to Helsinki and have no supply units, so they may not attack until they link up with the main front."),
    ("reinforcements", "Time Record and Reinforcement Chart", "Reinforcements arrive by the table reinforcements, one row a month (reconstructed; see its notes)."),
]


SCENARIOS = [
    dict(id="barbarossa", title="The Barbarossa Game (June to December 1941)", first=2, last=8,
         game="barbarossa", limit=2, flags=[],
         control=(["barbarossa_axis", "finland"], ["ussr"]),
         options=[f"vs{n:02d}" for n in range(1, 12)],
         rules=[
             ("length", "Game Length", "Seven Game-Turns, June to December 1941 (reconstructed: the Standard Games' lengths were on the lost Time Record Chart; this one ends with the Soviet winter counter-offensive under way). Victory is judged after the Soviet second Movement Phase of December 1941."),
             ("front", "Starting Front Lines", "The Barbarossa Front Line is the border of the Soviet Union (region ussr; set-up areas barbarossa_axis and barbarossa_soviet). Hungary is neutral: no German-Allied unit deploys there (but see VS 3); Hungary enters the war in July 1941 (its corps arrives by the chart)."),
             ("soviet_stacking", "Stacking", "Soviet units stack two a hex and may not combine into 6-5-5s or 5-9-3s in the Barbarossa Game."),
             ("victory", "Victory Conditions", "Reconstructed: the German-Allied Player's victory points (the Soviet cities he controls at the end) on the table standard_victory, row barbarossa."),
         ]),
    dict(id="stalingrad", title="The Stalingrad Game (June 1942 to February 1943)", first=14, last=22,
         game="stalingrad", limit=2, flags=["soviet_combine", "hungary_at_war"],
         control=(["stalingrad_axis", "finland"], ["stalingrad_soviet"]),
         options=["vs01", "vs08", "vs12"],
         rules=[
             ("length", "Game Length", "Nine Game-Turns, June 1942 to February 1943 (reconstructed: the German summer offensive, Stalingrad and the Soviet winter offensive to the fall of Kharkov)."),
             ("front", "Starting Front Lines", "The Stalingrad Front Line (set-up areas stalingrad_axis and stalingrad_soviet): reconstructed as the front of late June 1942, the Crimea and Kerch in German hands; in the north the Finnish border (Finland is a constant of the game and the Finns set up in Finland)."),
             ("soviet_stacking", "Stacking", "Soviet units stack two a hex; they may combine into 6-5-5s and 5-9-3s."),
             ("victory", "Victory Conditions", "Reconstructed: the table standard_victory, row stalingrad."),
         ]),
    dict(id="zitadelle", title="The Zitadelle Game (July to December 1943)", first=27, last=32,
         game="zitadelle", limit=3, flags=["soviet_combine", "soviet_three_high", "hungary_at_war"],
         control=(["zitadelle_axis", "finland"], ["zitadelle_soviet"]),
         options=["vs01", "vs08", "vs13", "vs14"],
         rules=[
             ("length", "Game Length", "Six Game-Turns, July to December 1943 (reconstructed: Kursk, the Soviet summer and autumn offensives to the Dnieper)."),
             ("front", "Starting Front Lines", "The Zitadelle Front Line (set-up areas zitadelle_axis and zitadelle_soviet): reconstructed as the front of early July 1943, with the Kursk bulge, the Orel salient and the Kuban bridgehead; in the north the Finnish border."),
             ("soviet_stacking", "Stacking", "Soviet units stack three a hex (the flag soviet_three_high, which this scenario sets, raises the Soviet stacking limit); they may combine into 6-5-5s and 5-9-3s."),
             ("victory", "Victory Conditions", "Reconstructed: the table standard_victory, row zitadelle."),
         ]),
    dict(id="berlin", title="The Berlin Game (June 1944 to May 1945)", first=38, last=49,
         game="berlin", limit=3, flags=["soviet_combine", "soviet_three_high", "hungary_at_war"],
         control=(["berlin_axis", "finland"], ["berlin_soviet"]),
         options=["vs01", "vs08", "vs15"],
         rules=[
             ("length", "Game Length", "Twelve Game-Turns, June 1944 to May 1945 (reconstructed: the Soviet summer offensive to the end of the war)."),
             ("front", "Starting Front Lines", "The Berlin Front Line (set-up areas berlin_axis and berlin_soviet): reconstructed as the front of June 1944 before Bagration, with the Soviets in northern Rumania and on the Dniester; in the north the Finnish border."),
             ("soviet_stacking", "Stacking", "Soviet units stack three a hex (the flag soviet_three_high, which this scenario sets, raises the Soviet stacking limit); they may combine into 6-5-5s and 5-9-3s."),
             ("victory", "Victory Conditions", "Reconstructed: the table standard_victory, row berlin; Soviet armies may leave the map by the west edge (box exited_soviet)."),
         ]),
    dict(id="campaign", title="The Campaign Game (June 1941 to the end)", first=2, last=49,
         game="barbarossa", limit=2, flags=["campaign_game"],
         control=(["barbarossa_axis", "finland"], ["ussr"]),
         options=[f"vs{n:02d}" for n in range(1, 12)] + ["modified_victory_conditions"],
         rules=[
             ("length", "Campaign Game", "Start with the Barbarossa Situation and play out the entire war in the Soviet Union: the months marked 'for campaign game only' (January to May 1942, March to June 1943, January to May 1944) join the four Standard Games into one game, June 1941 to May 1945 (Game-Turns 2 to 49; the end in May 1945 is reconstructed). The game ends as soon as a player achieves one of his victory conditions; if neither does, it is a draw."),
             ("soviet_stacking", "Stacking and Unit Breakdown", "The Soviet Player stacks two high until June 1943 (Game-Turn 26), then three (flag soviet_three_high from then on); he may combine his units into 6-5-5s and 5-9-3s from October 1942 (Game-Turn 18, flag soviet_combine)."),
             ("red_air_force", "The Red Air-Force", "Every March (Game-Turns 11, 23, 35, 47) the Germans must remove one Luftwaffe unit, until there are none left (box removed_luftwaffe)."),
             ("replacements", "Replacements", "Only destroyed German units may be replaced: (A) no more than one 11-8-8 (or three 3-2-8s) and no more than two 5-7-3s (or six 1-2-3s) for the entire Campaign Game (tracks ge_panzer_replaced, ge_infantry_replaced); (B) the new army or corps enters anywhere on the western edge of the board except Finland on the third Game-Turn following its destruction (destroyed in January 1943, it returns in April 1943; box german_replacements); (C) only one new army (or three corps) may be brought into the game per Player-Turn."),
             ("soviet_victory", "Campaign Game Victory Conditions: Soviet Victory", "The Soviet Player wins by one of: 1. destroy (or force off the map) all Axis units; 2. drive all Axis forces completely out of the Soviet Union proper and send 10 Soviet armies off the West edge of the map, maintaining a line of supply running off the West edge for two consecutive, complete Soviet Player-Turns after the 10 armies have been exited; 3. send 20 Soviet armies off the West edge, maintaining such a line of supply for two consecutive, complete Soviet Player-Turns after the 20 armies have been exited (track soviet_armies_exited, box exited_soviet)."),
             ("axis_victory", "Campaign Game Victory Conditions: Axis Victory", "The Axis Player wins by one of: 1. eliminate all Soviet units from the map for two consecutive German Player-Turns (none on the map at the end of two consecutive Axis second Movement Phases); 2. allow no Soviet unit west of the Campaign Game Victory Line (region victory_line_west, reconstructed) at the end of each Axis second Movement Phase for twelve consecutive Axis Player-Turns (track victory_line_turns); 3. control, and maintain control of, all cities in the Soviet Union for six consecutive Game-Turns and be able to trace a line of supply from the West edge to all of them (track city_control_turns)."),
         ]),
]


def option_entries(codes):
    out = []
    for code in codes:
        if code == "modified_victory_conditions":
            out.append(("modified_victory_conditions", "Modified victory conditions (footnote)", "Footnote",
                        "The Campaign Game Victory Conditions do utilize a Victory Point system. The German player gains Victory Points for holding cities at the end of the game. The Soviet player gains points for permanently destroying the German player's units and for occupying hexes on the Western edge of the map. Victory is determined by adding the Victory Points for each city held by the German player; the Soviet Victory Points are then subtracted from this total and the Victory Chart is consulted (table campaign_modified_victory). The Soviet player does not gain the Victory Points for destroyed units that were brought back into the game as replacements, and receives one Victory Point for each supplied Soviet unit on the Western edge of the map at the end of the game. The game ends when both players agree, the final turn, or if any player wins the game according to the old Victory Conditions. If German units are forced to retreat off the West edge of the map, they are removed from play but do not count as Victory Points for the Soviet player; the German player may never voluntarily retreat off the map."))
            continue
        vid, num, name, text = next(v for v in VS if v[0].startswith(code + "_"))
        out.append((vid, f"Variable Situation {num}: {name}", f"Variable Situation {num}", text))
    return out
