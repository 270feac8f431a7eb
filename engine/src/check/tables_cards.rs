//! `tables.ron` (complete, typed tables) and the cards files.

use super::*;

impl Checker<'_> {
    pub(super) fn tables(&mut self, f: &Parsed<TablesFile>, faces: u32) {
        self.declare(f, "table", ids("/tables", &f.data.tables, |x| &x.id));
        for (i, t) in f.data.tables.iter().enumerate() {
            self.table(f, &format!("/tables/{i}"), t, faces);
        }
    }

    pub(super) fn table(&mut self, f: &Parsed<TablesFile>, p: &str, t: &Table, faces: u32) {
        let width = match &t.columns {
            Columns::Single => 1,
            Columns::Bands(bands) => {
                if bands.is_empty() || bands.windows(2).any(|w| w[0] >= w[1]) {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!("table `{}`: strength bands must ascend strictly", t.id),
                    );
                }
                bands.len()
            }
            Columns::Odds(odds) => {
                let bad_ratio = odds.iter().any(|&(a, d)| a == 0 || d == 0);
                let ascending = odds.windows(2).all(|w| {
                    u64::from(w[0].0) * u64::from(w[1].1) < u64::from(w[1].0) * u64::from(w[0].1)
                });
                if odds.is_empty() || bad_ratio || !ascending {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!(
                            "table `{}`: odds columns must be positive ratios in ascending order",
                            t.id
                        ),
                    );
                }
                odds.len()
            }
            Columns::Named(names) => {
                let set: BTreeSet<&String> = names.iter().collect();
                if names.is_empty() || set.len() != names.len() {
                    self.error(
                        f.at(&format!("{p}/columns")),
                        "E0204",
                        format!(
                            "table `{}`: column names must be present and distinct",
                            t.id
                        ),
                    );
                }
                names.len()
            }
        };
        // Row keys: what they must cover.
        let range = match &t.rows_by {
            RowsBy::Dice { count, clamp } => {
                let natural = (*count as i32, (*count * faces) as i32);
                if *count == 0 {
                    self.error(
                        f.at(&format!("{p}/rows_by")),
                        "E0207",
                        format!("table `{}` rolls no dice", t.id),
                    );
                }
                Some(clamp.unwrap_or(natural))
            }
            RowsBy::Number { from, to } => Some((*from, *to)),
            RowsBy::Name => None,
        };
        let mut covered: BTreeMap<i32, usize> = BTreeMap::new();
        let mut names: BTreeSet<&str> = BTreeSet::new();
        for (r, row) in t.rows.iter().enumerate() {
            let rp = format!("{p}/rows/{r}");
            match (&row.key, range) {
                (RowKey::Name(name), None) => {
                    if !names.insert(name) {
                        self.error(
                            f.at(&format!("{rp}/key")),
                            "E0204",
                            format!("table `{}`: row `{name}` is given twice", t.id),
                        );
                    }
                }
                (RowKey::One(_) | RowKey::Range(..), Some((lo, hi))) => {
                    let (a, b) = match row.key {
                        RowKey::One(n) => (n, n),
                        RowKey::Range(a, b) => (a, b),
                        RowKey::Name(_) => unreachable!(),
                    };
                    if a > b {
                        self.error(
                            f.at(&format!("{rp}/key")),
                            "E0204",
                            format!("table `{}`: row range ({a}, {b}) is backwards", t.id),
                        );
                        continue;
                    }
                    for n in a..=b {
                        if n < lo || n > hi {
                            self.error(
                                f.at(&format!("{rp}/key")),
                                "E0204",
                                format!("table `{}`: row {n} lies outside {lo} to {hi}", t.id),
                            );
                            break;
                        }
                        if let Some(other) = covered.insert(n, r) {
                            self.error(
                                f.at(&format!("{rp}/key")),
                                "E0204",
                                format!(
                                    "table `{}`: {n} is covered by row {} and row {}",
                                    t.id,
                                    other + 1,
                                    r + 1
                                ),
                            );
                            break;
                        }
                    }
                }
                (RowKey::Name(_), Some(_)) => {
                    self.error(
                        f.at(&format!("{rp}/key")),
                        "E0204",
                        format!(
                            "table `{}`: rows are selected by number; this key is a name",
                            t.id
                        ),
                    );
                }
                (_, None) => {
                    self.error(
                        f.at(&format!("{rp}/key")),
                        "E0204",
                        format!(
                            "table `{}`: rows are selected by name; this key is a number",
                            t.id
                        ),
                    );
                }
            }
            if row.cells.len() != width {
                self.error(
                    f.at(&format!("{rp}/cells")),
                    "E0204",
                    format!(
                        "table `{}`: row {} has {} cells for {width} columns",
                        t.id,
                        r + 1,
                        row.cells.len()
                    ),
                );
            }
            for (c, cell) in row.cells.iter().enumerate() {
                self.cell(f, &format!("{rp}/cells/{c}"), &t.id, &t.result, cell);
            }
        }
        if let Some((lo, hi)) = range {
            let missing: Vec<i32> = (lo..=hi).filter(|n| !covered.contains_key(n)).collect();
            if !missing.is_empty() && hi - lo < 1000 {
                self.error(
                    f.at(&format!("{p}/rows")),
                    "E0204",
                    format!(
                        "table `{}` is incomplete: no row for {}",
                        t.id,
                        list(&missing)
                    ),
                )
                .hints
                .push(format!("the rows must cover {lo} to {hi} exactly"));
            }
        }
    }

    pub(super) fn cell(
        &mut self,
        f: &Parsed<TablesFile>,
        p: &str,
        table: &str,
        ty: &ResultType,
        cell: &Cell,
    ) {
        let scalar_ok = |field: &FieldType, s: &Scalar| match (field, s) {
            (FieldType::Int, Scalar::Int(_)) | (FieldType::Bool, Scalar::Bool(_)) => Ok(()),
            (FieldType::Symbol(allowed), Scalar::Symbol(x)) if allowed.contains(x) => Ok(()),
            (FieldType::Symbol(allowed), Scalar::Symbol(x)) => {
                Err(format!("`{x}` is not one of {}", allowed.join(", ")))
            }
            (field, s) => Err(format!(
                "expected {}, found {}",
                field_name(field),
                scalar_name(s)
            )),
        };
        match (ty, cell) {
            (ResultType::Int, Cell::Scalar(s)) => {
                if let Err(e) = scalar_ok(&FieldType::Int, s) {
                    self.error(f.at(p), "E0204", format!("table `{table}`: {e}"));
                }
            }
            (ResultType::Symbol(symbols), Cell::Scalar(s)) => {
                if let Err(e) = scalar_ok(&FieldType::Symbol(symbols.clone()), s) {
                    self.error(f.at(p), "E0204", format!("table `{table}`: {e}"));
                }
            }
            (ResultType::Record(fields), Cell::Record(values)) => {
                for (key, value) in values {
                    let q = format!("{p}/{}", crate::ron_syntax::pointer_segment(key));
                    match fields.iter().find(|d| d.name == *key) {
                        None => {
                            self.error(
                                f.at_key(&q),
                                "E0204",
                                format!("table `{table}`: no field `{key}` in its results"),
                            );
                        }
                        Some(decl) => {
                            if let Err(e) = scalar_ok(&decl.ty, value) {
                                self.error(
                                    f.at(&q),
                                    "E0204",
                                    format!("table `{table}`: field `{key}`: {e}"),
                                );
                            }
                        }
                    }
                }
                for decl in fields {
                    if decl.default.is_none() && !values.contains_key(&decl.name) {
                        self.error(f.at(p), "E0204", format!("table `{table}`: the cell has no `{}` and the field has no default", decl.name));
                    }
                }
            }
            (ResultType::Record(_), Cell::Scalar(_)) => {
                self.error(
                    f.at(p),
                    "E0204",
                    format!("table `{table}`: cells are records such as {{\"field\": 1}}"),
                );
            }
            (_, Cell::Record(_)) => {
                self.error(
                    f.at(p),
                    "E0204",
                    format!("table `{table}`: cells are single values, not records"),
                );
            }
        }
    }

    pub(super) fn cards(&mut self, files: &[Parsed<CardsFile>]) {
        let decks: BTreeSet<String> = self.ids.decks.keys().cloned().collect();
        let (kinds, values) = (self.ids.card_kinds.clone(), self.ids.card_values.clone());
        let mut seen_ids: BTreeSet<String> = BTreeSet::new();
        let mut seen_decks: BTreeSet<String> = BTreeSet::new();
        for f in files {
            let deck = &f.data.deck;
            self.reference(f, "/deck", "deck", deck, &decks);
            if !seen_decks.insert(deck.clone()) {
                self.error(
                    f.at("/deck"),
                    "E0200",
                    format!("deck `{deck}` has cards in two files"),
                );
            }
            let groups = self.ids.decks.get(deck).cloned().unwrap_or_default();
            let mut numbers = BTreeSet::new();
            for (i, card) in f.data.cards.iter().enumerate() {
                let p = format!("/cards/{i}");
                self.ids
                    .card_decks
                    .entry(card.id.clone())
                    .or_insert_with(|| deck.clone());
                if !seen_ids.insert(card.id.clone()) {
                    self.error(
                        f.at(&format!("{p}/id")),
                        "E0200",
                        format!("duplicate card id `{}`", card.id),
                    );
                }
                if !numbers.insert(card.number) {
                    self.error(
                        f.at(&format!("{p}/number")),
                        "E0200",
                        format!("deck `{deck}` has two cards numbered {}", card.number),
                    );
                }
                if let Some(g) = &card.group {
                    self.reference(f, &format!("{p}/group"), "deck group", g, &groups);
                }
                self.reference(f, &format!("{p}/kind"), "card kind", &card.kind, &kinds);
                for key in card.values.keys() {
                    let q = format!("{p}/values/{}", crate::ron_syntax::pointer_segment(key));
                    if !values.contains(key) && !self.broken.contains(&FileKind::Game) {
                        let suggestion = did_you_mean(key, values.iter().map(String::as_str))
                            .map(str::to_string);
                        let d = self.error(
                            f.at_key(&q),
                            "E0201",
                            format!("unknown card value `{key}`"),
                        );
                        if let Some(s) = suggestion {
                            d.hints.push(format!("did you mean `{s}`?"));
                        }
                    }
                }
            }
        }
        self.ids.cards = seen_ids;
    }
}
