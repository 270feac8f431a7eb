//! The scripts of the content: every card's, and those of `game.ron` (the sequence's steps
//! and free actions, the play rules' and the impulses' conditions and effects), checked
//! against the whole content and kept parsed, their problems placed inside their strings.

use super::*;

impl Checker<'_> {
    /// Parses and checks every card's scripts against the whole content, and keeps them.
    pub(super) fn scripts(&mut self, files: &Files, sources: &Sources, content: &mut Content) {
        let names = Names::from_content(content);
        for f in &files.cards {
            let text = &sources.get(f.file).text;
            for (i, card) in f.data.cards.iter().enumerate() {
                let mut scripts = CardScripts::default();
                let place = |field: &str| format!("/cards/{i}/{field}");
                if let Some(src) = &card.playable {
                    let (expr, mut errors) = syntax::parse_expr(src);
                    if let Some(e) = &expr {
                        errors.extend(check_condition(e, &names));
                    }
                    self.script_errors(f, text, &place("playable"), errors);
                    scripts.playable = expr;
                }
                for (field, kind) in [
                    ("effect", ScriptKind::Event),
                    ("combat", ScriptKind::Combat),
                ] {
                    let src = if field == "effect" {
                        &card.effect
                    } else {
                        &card.combat
                    };
                    let Some(src) = src else { continue };
                    let parsed = syntax::parse(src);
                    let mut errors = parsed.errors;
                    errors.extend(check_stmts(&parsed.stmts, kind, &names));
                    self.script_errors(f, text, &place(field), errors);
                    if field == "effect" {
                        scripts.effect = Some(parsed.stmts);
                    } else {
                        scripts.combat = Some(parsed.stmts);
                    }
                }
                content.scripts.insert(card.id.clone(), scripts);
            }
        }
        if let Some(f) = &files.game {
            let text = &sources.get(f.file).text;
            for (p, phase) in f.data.sequence.iter().enumerate() {
                for (s, step) in phase.steps.iter().enumerate() {
                    let place = format!("/sequence/{p}/steps/{s}");
                    match step {
                        Step::Script { effect, .. } => {
                            let parsed = syntax::parse(effect);
                            let mut errors = parsed.errors;
                            errors.extend(check_stmts(&parsed.stmts, ScriptKind::Event, &names));
                            self.script_errors(f, text, &format!("{place}/Script/effect"), errors);
                            content.sequence.steps.insert((p, s), parsed.stmts);
                        }
                        Step::ActionRounds(rounds) => {
                            for (a, action) in rounds.free_actions.iter().enumerate() {
                                let at = format!("{place}/ActionRounds/free_actions/{a}");
                                let condition = action.playable.as_ref().and_then(|src| {
                                    let (expr, mut errors) = syntax::parse_expr(src);
                                    if let Some(e) = &expr {
                                        errors.extend(check_condition(e, &names));
                                    }
                                    self.script_errors(f, text, &format!("{at}/playable"), errors);
                                    expr
                                });
                                let parsed = syntax::parse(&action.effect);
                                let mut errors = parsed.errors;
                                errors.extend(check_stmts(
                                    &parsed.stmts,
                                    ScriptKind::Event,
                                    &names,
                                ));
                                self.script_errors(f, text, &format!("{at}/effect"), errors);
                                content.sequence.actions.insert(
                                    (p, s, a),
                                    crate::script::FreeActionScripts {
                                        playable: condition,
                                        effect: parsed.stmts,
                                    },
                                );
                            }
                        }
                        Step::Impulses(imp) => {
                            self.impulse_scripts(f, text, &names, &place, imp, content);
                        }
                        _ => {}
                    }
                }
            }
            if let Some(play) = &f.data.play {
                let space = [("space", Type::Entity(Kind::Space))];
                let mut conditions: Vec<ScriptPlace> = Vec::new();
                let mut effects: Vec<ScriptPlace> = Vec::new();
                if let Some(e) = &play.entrench {
                    conditions.push(("/play/entrench/playable".into(), &e.playable, &space));
                    effects.push(("/play/entrench/effect".into(), &e.effect, &space));
                }
                for (i, a) in play.victory.automatic.iter().enumerate() {
                    if let Some(c) = &a.when {
                        let at = format!("/play/victory/automatic/{i}/when");
                        conditions.push((at, c, &[]));
                    }
                }
                for (i, c) in play.victory.counts_as.iter().enumerate() {
                    if let Some(w) = &c.when {
                        let at = format!("/play/victory/counts_as/{i}/when");
                        conditions.push((at, w, &space));
                    }
                }
                let combat = [
                    ("attackers", Type::set(Type::Entity(Kind::Unit))),
                    ("defenders", Type::set(Type::Entity(Kind::Unit))),
                    ("defending_space", Type::Entity(Kind::Space)),
                ];
                if !play.hold_also.is_empty() {
                    conditions.push(("/play/hold_also".into(), &play.hold_also, &combat));
                }
                for (i, m) in play.sr_markers.iter().enumerate() {
                    conditions.push((format!("/play/sr_markers/{i}/to"), &m.to, &space));
                }
                for (i, e) in play.box_entries.iter().enumerate() {
                    conditions.push((format!("/play/box_entries/{i}/to"), &e.to, &space));
                }
                let crossing = [
                    ("from", Type::Entity(Kind::Space)),
                    ("to", Type::Entity(Kind::Space)),
                ];
                for (i, n) in play.sr_neutrals.iter().enumerate() {
                    conditions.push((format!("/play/sr_neutrals/{i}/enter"), &n.enter, &crossing));
                    conditions.push((format!("/play/sr_neutrals/{i}/end"), &n.end, &space));
                }
                for (i, t) in play.theatres.iter().enumerate() {
                    let at = format!("/play/theatres/{i}");
                    conditions.push((format!("{at}/sources"), &t.sources, &space));
                    conditions.push((format!("{at}/places"), &t.places, &space));
                }
                for (i, pool) in play.replacements.iter().enumerate() {
                    if let Some(c) = &pool.less_one_unless {
                        let at = format!("/play/replacements/{i}/less_one_unless");
                        conditions.push((at, c, &[]));
                    }
                }
                self.keep_scripts((f, text), &names, conditions, effects, content);
            }
            self.hook_scripts(f, text, &names, content);
        }
    }

    /// Checks the conditions and scripts of a sequence step's operations in impulses, and
    /// keeps them by their JSON pointer.
    pub(super) fn impulse_scripts(
        &mut self,
        f: &Parsed<GameFile>,
        text: &str,
        names: &Names,
        place: &str,
        imp: &crate::model::Impulses,
        content: &mut Content,
    ) {
        let at = format!("{place}/Impulses");
        let combat = [
            ("attackers", Type::set(Type::Entity(Kind::Unit))),
            ("defenders", Type::set(Type::Entity(Kind::Unit))),
            ("defending_space", Type::Entity(Kind::Space)),
        ];
        let space = [("space", Type::Entity(Kind::Space)), ("level", Type::Int)];
        let mut conditions: Vec<ScriptPlace> = Vec::new();
        for (i, r) in imp.reactions.iter().enumerate() {
            conditions.push((format!("{at}/reactions/{i}/when"), &r.when, &combat));
        }
        let unit_only = [("u", Type::Entity(Kind::Unit))];
        for (i, o) in imp.orders.iter().enumerate() {
            if !o.exempt.is_empty() {
                conditions.push((format!("{at}/orders/{i}/exempt"), &o.exempt, &unit_only));
            }
        }
        let unit_to = [
            ("u", Type::Entity(Kind::Unit)),
            ("to", Type::Entity(Kind::Space)),
        ];
        for (i, l) in imp.leave.iter().enumerate() {
            conditions.push((format!("{at}/leave/{i}/when"), &l.when, &unit_only));
            conditions.push((format!("{at}/leave/{i}/to"), &l.to, &unit_to));
        }
        if !imp.combat.bystanders.is_empty() {
            let src = &imp.combat.bystanders;
            conditions.push((format!("{at}/combat/bystanders"), src, &unit_only));
        }
        let mut effects: Vec<ScriptPlace> = vec![(format!("{at}/end_test"), &imp.end_test, &[])];
        let idle = [("u", Type::Entity(Kind::Unit))];
        if !imp.idle.is_empty() {
            effects.push((format!("{at}/idle"), &imp.idle, &idle));
        }
        if !imp.combat.into_closed.is_empty() {
            let src = &imp.combat.into_closed;
            effects.push((format!("{at}/combat/into_closed"), src, &idle));
        }
        if let Some(city) = &imp.city {
            for (i, d) in city.drms.iter().enumerate() {
                conditions.push((format!("{at}/city/drms/{i}/when"), &d.when, &combat));
            }
            effects.push((format!("{at}/city/on_abandon"), &city.on_abandon, &space));
            if !city.on_progress.is_empty() {
                effects.push((format!("{at}/city/on_progress"), &city.on_progress, &space));
            }
        }
        self.keep_scripts((f, text), names, conditions, effects, content);
    }

    /// Checks conditions and effects of `game.ron` at their places, reports their problems
    /// there, and keeps them by their JSON pointer.
    pub(super) fn keep_scripts(
        &mut self,
        (f, text): (&Parsed<GameFile>, &str),
        names: &Names,
        conditions: Vec<ScriptPlace>,
        effects: Vec<ScriptPlace>,
        content: &mut Content,
    ) {
        for (at, src, given) in conditions {
            let (expr, mut errors) = syntax::parse_expr(src);
            if let Some(e) = &expr {
                errors.extend(check_condition_with(e, names, given));
            }
            self.script_errors(f, text, &at, errors);
            if let Some(e) = expr {
                content.sequence.conditions.insert(at, e);
            }
        }
        for (at, src, given) in effects {
            let parsed = syntax::parse(src);
            let mut errors = parsed.errors;
            errors.extend(check_stmts_with(
                &parsed.stmts,
                ScriptKind::Event,
                names,
                given,
            ));
            self.script_errors(f, text, &at, errors);
            content.sequence.effects.insert(at, parsed.stmts);
        }
    }

    /// Reports problems found inside a script at their place in the content file.
    pub(super) fn script_errors<T>(
        &mut self,
        f: &Parsed<T>,
        text: &str,
        pointer: &str,
        errors: Vec<ScriptError>,
    ) {
        if errors.is_empty() {
            return;
        }
        let (start, end) = f.spans.value(pointer);
        let literal = crate::ron_syntax::string_at(text, start);
        // A script of thousands of bad statements gets its first problems only: the report
        // stays short, and its cost linear.
        let more = errors.len().saturating_sub(MAX_SCRIPT_ERRORS);
        for (i, e) in errors.into_iter().take(MAX_SCRIPT_ERRORS).enumerate() {
            let span = match &literal {
                Some(lit) => Span::new(
                    f.file,
                    lit.file_offset(e.range.start as usize),
                    lit.file_offset(e.range.end as usize),
                ),
                None => Span::new(f.file, start, end),
            };
            let mut d = Diagnostic::error(e.code, span, e.message);
            if let Some(h) = e.hint {
                d = d.with_hint(h);
            }
            if more > 0 && i + 1 == MAX_SCRIPT_ERRORS {
                d = d.with_hint(format!("{more} more problems in this script are not shown"));
            }
            self.diags.push(d);
        }
    }
}
