//! What an action did, told for a person: the rules' own messages (combats with their odds,
//! die-roll modifiers, rolls and results), then what changed on the table between the state
//! before and after it (units moved, entered, eliminated, reduced; control; tracks; markers;
//! flags; cards played; the turn), every id written as its name. The CLI's `play` and the
//! editor's log show it under each action.

use std::collections::BTreeMap;

use crate::content::Content;
use crate::model::BoxRole;
use crate::state::{Loc, State};

/// What an action did: the rules' messages, and the changes on the table.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Happened {
    /// What the rules and scripts said (combats, events that could not be carried out, scripts
    /// that failed), in words.
    pub messages: Vec<String>,
    /// What changed, one line a thing: the turn, units, control, tracks, markers, flags, cards.
    pub changes: Vec<String>,
}

impl Happened {
    /// Every line, the messages first.
    pub fn lines(&self) -> impl Iterator<Item = &String> {
        self.messages.iter().chain(&self.changes)
    }
}

/// What changed from `before` to `after`, in the order a player would tell it.
pub fn what_happened(content: &Content, before: &State, after: &State) -> Happened {
    let names = content.names();
    let told = before.flow.messages.len().min(after.flow.messages.len());
    let messages = after.flow.messages[told..]
        .iter()
        .map(|m| sentence(&names.words(m)))
        .collect();
    let mut out = Vec::new();
    if after.turn != before.turn {
        let turn = content
            .game
            .as_ref()
            .and_then(|g| g.turns.iter().find(|t| t.number == after.turn))
            .map_or(String::new(), |t| format!(" ({})", t.name));
        out.push(format!("Turn {}{turn} begins.", after.turn));
    }
    out.extend(units(content, before, after));
    out.extend(control(content, before, after));
    for (track, value) in &after.tracks {
        let was = before.tracks.get(track).copied().unwrap_or(0);
        if was != *value {
            out.push(format!("{}: {value} (was {was}).", names.or_id(track)));
        }
    }
    out.extend(markers(content, before, after));
    for f in after.flags.difference(&before.flags) {
        out.push(format!("Now in force: {}.", names.or_id(f)));
    }
    for f in before.flags.difference(&after.flags) {
        out.push(format!("No longer in force: {}.", names.or_id(f)));
    }
    for (card, times) in &after.played {
        if before.played.get(card).copied().unwrap_or(0) < *times {
            out.push(format!("{} is played.", names.or_id(card)));
        }
    }
    out.extend(cards(content, before, after));
    Happened {
        messages,
        changes: out,
    }
}

/// A message as a sentence: a capital first, a full stop last.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    let mut s: String = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => return String::new(),
    };
    if !s.ends_with(['.', '!', '?', ')']) {
        s.push('.');
    }
    s
}

/// How a unit went from one place to another, as the verb phrase of its line.
fn went(content: &Content, from: &Loc, to: &Loc) -> Option<String> {
    let names = content.names();
    let place = |id: &str| names.or_id(id);
    Some(match (from, to) {
        (a, b) if a == b => return None,
        (Loc::Space(a), Loc::Space(b)) => format!("move from {} to {}", place(a), place(b)),
        (Loc::Unplaced, Loc::Space(b)) => format!("enter at {}", place(b)),
        (Loc::Unplaced, Loc::Box(b)) => format!("arrive in {}", place(b)),
        (Loc::Space(a), Loc::Box(b)) => match role(content, b) {
            Some(BoxRole::Eliminated | BoxRole::Delayed) => {
                format!("are eliminated in {}", place(a))
            }
            Some(BoxRole::Removed) => format!("are removed from play (from {})", place(a)),
            _ => format!("leave {} for {}", place(a), place(b)),
        },
        (Loc::Box(a), Loc::Space(b)) if role(content, a) == Some(BoxRole::Eliminated) => {
            format!("are rebuilt at {}", place(b))
        }
        (Loc::Box(a), Loc::Space(b)) => format!("come from {} to {}", place(a), place(b)),
        (Loc::Box(a), Loc::Box(b)) => format!("go from {} to {}", place(a), place(b)),
        (Loc::Space(a) | Loc::Box(a), Loc::Unplaced) => format!("are taken up from {}", place(a)),
        (Loc::Space(a) | Loc::Box(a), Loc::Removed) => {
            format!("are removed from play (from {})", place(a))
        }
        (Loc::Removed, Loc::Space(b) | Loc::Box(b)) => format!("return at {}", place(b)),
        _ => return None,
    })
}

/// What a holding box is for.
fn role(content: &Content, id: &str) -> Option<BoxRole> {
    content
        .game
        .as_ref()?
        .boxes
        .iter()
        .find(|b| b.id == id)?
        .role
}

/// The units that moved, entered, left or changed their step: units that did the same thing
/// are told on one line.
fn units(content: &Content, before: &State, after: &State) -> Vec<String> {
    let names = content.names();
    // The same verb phrase, the units in the order of the state.
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    let mut add = |what: String, unit: String| match groups.iter_mut().find(|g| g.0 == what) {
        Some(g) => g.1.push(unit),
        None => groups.push((what, vec![unit])),
    };
    for (a, b) in before.units.iter().zip(&after.units) {
        let name = || names.or_id(&b.name(content));
        if let Some(how) = went(content, &a.at, &b.at) {
            add(how, name());
        }
        if a.reduced != b.reduced && !matches!(b.at, Loc::Removed | Loc::Unplaced) {
            let what = if b.reduced {
                "are reduced"
            } else {
                "are back to full strength"
            };
            add(what.to_string(), name());
        }
        if a.serves != b.serves {
            add(
                format!("now serve {}", names.or_id(&b.side(content))),
                name(),
            );
        }
    }
    groups
        .into_iter()
        .map(|(what, units)| {
            let what = if units.len() == 1 {
                singular(&what)
            } else {
                what
            };
            format!("{} {what}.", list(&units))
        })
        .collect()
}

/// The verb phrase for one unit (`enter` → `enters`, `are` → `is`).
fn singular(what: &str) -> String {
    let (verb, rest) = what.split_once(' ').unwrap_or((what, ""));
    let verb = match verb {
        "are" => "is".to_string(),
        "go" => "goes".to_string(),
        v => format!("{v}s"),
    };
    if rest.is_empty() {
        verb
    } else {
        format!("{verb} {rest}")
    }
}

/// `a`, `a and b`, `a, b and c`; more than six are counted.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        _ if items.len() > 6 => {
            format!("{}, {} and {} others", items[0], items[1], items.len() - 2)
        }
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Spaces that changed hands, by the side that took them.
fn control(content: &Content, before: &State, after: &State) -> Vec<String> {
    let names = content.names();
    let mut taken: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut lost = Vec::new();
    for (space, side) in &after.control {
        if before.control.get(space) != Some(side) {
            taken.entry(side).or_default().push(names.or_id(space));
        }
    }
    for space in before.control.keys() {
        if !after.control.contains_key(space) {
            lost.push(names.or_id(space));
        }
    }
    let mut out: Vec<String> = taken
        .into_iter()
        .map(|(side, spaces)| format!("{} takes control of {}.", names.or_id(side), list(&spaces)))
        .collect();
    if !lost.is_empty() {
        out.push(format!("{} no longer controlled.", list(&lost)));
    }
    out
}

/// Markers placed, removed, or changed in level; the same marker placed (or removed) in
/// several spaces is told on one line.
fn markers(content: &Content, before: &State, after: &State) -> Vec<String> {
    let names = content.names();
    let key = |m: &crate::state::MarkerOnMap| (m.marker, m.space);
    let was: BTreeMap<_, u32> = before.markers.iter().map(|m| (key(m), m.level)).collect();
    let now: BTreeMap<_, u32> = after.markers.iter().map(|m| (key(m), m.level)).collect();
    let mut placed: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut removed: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut out = Vec::new();
    for ((marker, space), level) in &now {
        match was.get(&(*marker, *space)) {
            None => placed.entry(marker).or_default().push(names.or_id(space)),
            Some(l) if l != level => out.push(format!(
                "{} in {}: level {level} (was {l}).",
                names.or_id(marker),
                names.or_id(space)
            )),
            _ => {}
        }
    }
    for (marker, space) in was.keys() {
        if !now.contains_key(&(*marker, *space)) {
            removed.entry(marker).or_default().push(names.or_id(space));
        }
    }
    let told = |(marker, spaces): (&str, Vec<String>), how: &str| {
        format!("{} {how} {}.", names.or_id(marker), list(&spaces))
    };
    let mut lines: Vec<String> = placed.into_iter().map(|m| told(m, "placed in")).collect();
    lines.extend(removed.into_iter().map(|m| told(m, "removed from")));
    lines.extend(out);
    lines
}

/// Cards that went into a side's hand, and cards discarded without being played.
fn cards(content: &Content, before: &State, after: &State) -> Vec<String> {
    let names = content.names();
    let mut out = Vec::new();
    for (side, hand) in &after.hands {
        let had = before.hands.get(side).map_or(&[][..], Vec::as_slice);
        let new = hand.iter().filter(|c| !had.contains(c)).count();
        if new > 0 {
            let cards = if new == 1 { "card" } else { "cards" };
            out.push(format!(
                "{} takes {new} {cards} into hand.",
                names.or_id(side)
            ));
        }
    }
    for (deck, pile) in &after.discards {
        let had = before.discards.get(deck).map_or(&[][..], Vec::as_slice);
        let discarded: Vec<String> = pile
            .iter()
            .filter(|c| !had.contains(c))
            .filter(|c| before.played.get(c.as_str()) == after.played.get(c.as_str()))
            .map(|c| names.or_id(c))
            .collect();
        if !discarded.is_empty() {
            let verb = if discarded.len() == 1 { "is" } else { "are" };
            out.push(format!("{} {verb} discarded.", list(&discarded)));
        }
    }
    out
}

/// What each action of a log did, kept up to date as the log grows: the editor's log shows it
/// under each action. Growing by an action costs that action; any other change of the log
/// (undo, a reload, another line) tells the whole log again.
#[derive(Debug, Clone, Default)]
pub struct Chronicle {
    /// The content and setup the log was told on.
    on: (String, Option<crate::session::Setup>),
    actions: Vec<String>,
    told: Vec<Happened>,
    /// The game after `actions`, to go on from; none after the log was cut short.
    session: Option<crate::session::Session>,
}

impl Chronicle {
    /// What each action of `log` did, telling the actions not told yet.
    pub fn update(
        &mut self,
        content: &Content,
        setup: &crate::session::Setup,
        log: &[String],
    ) -> &[Happened] {
        let same = self.on.0 == content.hash && self.on.1.as_ref() == Some(setup);
        let prefix = same && log.starts_with(&self.actions);
        if same && self.actions.starts_with(log) && !prefix {
            // Cut short (undo): keep what was told of what is left.
            self.actions.truncate(log.len());
            self.told.truncate(log.len());
            self.session = None;
            return &self.told;
        }
        if !prefix || (self.session.is_none() && log.len() > self.actions.len()) {
            *self = Chronicle {
                on: (content.hash.clone(), Some(setup.clone())),
                session: crate::session::Session::new(content, setup.clone()).ok(),
                ..Chronicle::default()
            };
        }
        let Some(session) = &mut self.session else {
            return &self.told;
        };
        // Nothing new to tell (the editor asks at every frame): no rules made.
        if log.len() <= self.actions.len() {
            return &self.told;
        }
        // The rules made once for the actions not told yet.
        let Ok(rules) = crate::rules::Rules::new(content, &setup.scenario) else {
            return &self.told;
        };
        for action in &log[self.actions.len()..] {
            let before = session.state().clone();
            if session.apply_with(&rules, action).is_err() {
                break;
            }
            self.told
                .push(what_happened(content, &before, session.state()));
            self.actions.push(action.clone());
        }
        &self.told
    }
}

/// How two lines of play stand at the same step, for a person: turn, tracks (victory points
/// among them), the result, control and units, each as `what: this in one, that in other`.
/// At most `most` lines of control and of units each, and how many more.
pub fn compare(
    content: &Content,
    (one, a): (&str, &State),
    (other, b): (&str, &State),
    most: usize,
) -> Vec<String> {
    let names = content.names();
    let mut out = Vec::new();
    let both =
        |what: String, x: String, y: String| format!("{what}: {x} in {one}, {y} in {other}.");
    if (a.turn, a.round) != (b.turn, b.round) {
        out.push(both(
            "Turn".into(),
            format!("{} round {}", a.turn, a.round),
            format!("{} round {}", b.turn, b.round),
        ));
    }
    let tracks: std::collections::BTreeSet<&crate::Id> =
        a.tracks.keys().chain(b.tracks.keys()).collect();
    for t in tracks {
        let (x, y) = (
            a.tracks.get(t.as_str()).copied().unwrap_or(0),
            b.tracks.get(t.as_str()).copied().unwrap_or(0),
        );
        if x != y {
            out.push(both(names.or_id(t), x.to_string(), y.to_string()));
        }
    }
    if a.flow.result != b.flow.result {
        let said = |s: &State| match &s.flow.result {
            Some(r) => format!("{} won ({})", names.or_id(&r.winner), r.how),
            None => "play goes on".into(),
        };
        out.push(both("The game".into(), said(a), said(b)));
    }
    let spaces: std::collections::BTreeSet<&crate::Id> =
        a.control.keys().chain(b.control.keys()).collect();
    let held = |s: &State, space: &crate::Id| {
        s.control
            .get(space)
            .map_or("no one".into(), |x| names.or_id(x))
    };
    let control: Vec<String> = spaces
        .into_iter()
        .filter(|s| a.control.get(*s) != b.control.get(*s))
        .map(|s| {
            both(
                format!("{} held by", names.or_id(s)),
                held(a, s),
                held(b, s),
            )
        })
        .collect();
    out.extend(at_most(control, most, "spaces held differently"));
    let place = |u: &crate::state::Unit| {
        let at = match &u.at {
            Loc::Space(s) | Loc::Box(s) => names.or_id(s),
            Loc::Unplaced => "not in play".into(),
            Loc::Removed => "out of play".into(),
        };
        if u.reduced {
            format!("{at} (reduced)")
        } else {
            at
        }
    };
    let units: Vec<String> = a
        .units
        .iter()
        .zip(&b.units)
        .filter(|(x, y)| x.at != y.at || x.reduced != y.reduced)
        .map(|(x, y)| both(names.or_id(&x.name(content)), place(x), place(y)))
        .collect();
    out.extend(at_most(units, most, "units placed differently"));
    if out.is_empty() {
        out.push(format!(
            "{one} and {other} stand the same on the map, the tracks and the result."
        ));
    }
    out
}

/// The first `most` lines, then how many more there are of `what`.
fn at_most(mut lines: Vec<String>, most: usize, what: &str) -> Vec<String> {
    if lines.len() > most {
        let more = lines.len() - most;
        lines.truncate(most);
        lines.push(format!("... and {more} more {what}."));
    }
    lines
}
