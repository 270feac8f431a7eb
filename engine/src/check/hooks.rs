//! Checks the hooks of `game.ron`: each effect fits its point, and each script parses and
//! type-checks with the names its point gives; keeps them parsed for play.

use super::{Checker, Diagnostic, Names, Span};
use crate::content::Content;
use crate::load::Parsed;
use crate::model::{GameFile, HookEffect, PointKind};
use crate::script::check::{check_condition_with, check_number_with, check_stmts_with, ScriptKind};
use crate::script::syntax;
use crate::script::syntax::{BinaryOp, Expr, ExprKind};
use crate::script::types::{Kind, Type};
use crate::script::HookScripts;

/// The type of a name a hook point gives (see [`crate::model::HookPoint::names`]).
fn type_of(what: &str) -> Type {
    match what {
        "unit" => Type::Entity(Kind::Unit),
        "space" => Type::Entity(Kind::Space),
        "nation" => Type::Entity(Kind::Nation),
        "units" => Type::set(Type::Entity(Kind::Unit)),
        "bool" => Type::Bool,
        _ => Type::Int,
    }
}

impl Checker<'_> {
    pub(super) fn hook_scripts(
        &mut self,
        f: &Parsed<GameFile>,
        text: &str,
        names: &Names,
        content: &mut Content,
    ) {
        for (i, hook) in f.data.hooks.iter().enumerate() {
            let given: Vec<(&str, Type)> = hook
                .at
                .names()
                .iter()
                .map(|(n, what)| (*n, type_of(what)))
                .collect();
            let mut kept = HookScripts {
                index: i,
                at: hook.at,
                when: None,
                value: None,
                run: Vec::new(),
            };
            if !hook.when.trim().is_empty() {
                let (expr, mut errors) = syntax::parse_expr(&hook.when);
                if let Some(e) = &expr {
                    errors.extend(check_condition_with(e, names, &given));
                }
                let at = format!("/hooks/{i}/when");
                let never = expr.as_ref().and_then(|e| never(e, content));
                if let (Some(why), true) = (never, errors.is_empty()) {
                    self.diags.push(
                        Diagnostic::warning(
                            "W0020",
                            f.span(&at),
                            format!("the hook `{}` can never apply: {why}", hook.id),
                        )
                        .with_hint("check the ids its condition compares with"),
                    );
                }
                self.script_errors(f, text, &at, errors);
                kept.when = expr;
            }
            let kind = hook.at.kind();
            let then = format!("/hooks/{i}/then");
            if !hook.then.fits(kind) {
                let wanted = match kind {
                    PointKind::Condition => "`May(\"condition\")` or `Forbid`",
                    PointKind::Modifier => {
                        "`Add`, `Set`, `AtLeast`, `AtMost` (with a number), `Half` or `Double`"
                    }
                    PointKind::After => "`Run(\"script\")`",
                };
                let span: Span = f.span(&then);
                self.error(
                    span,
                    "E0220",
                    format!(
                        "`{}` does not fit the hook point `{:?}`",
                        hook.then.variant(),
                        hook.at
                    ),
                )
                .hints
                .push(format!("at `{:?}` a hook does {wanted}", hook.at));
                continue;
            }
            let variant = hook.then.variant();
            let at = format!("{then}/{variant}");
            match (&hook.then, hook.then.script()) {
                (HookEffect::Run(src), _) => {
                    let parsed = syntax::parse(src);
                    let mut errors = parsed.errors;
                    errors.extend(check_stmts_with(
                        &parsed.stmts,
                        ScriptKind::Event,
                        names,
                        &given,
                    ));
                    self.script_errors(f, text, &at, errors);
                    kept.run = parsed.stmts;
                }
                (HookEffect::May(src), _) => {
                    let (expr, mut errors) = syntax::parse_expr(src);
                    if let Some(e) = &expr {
                        errors.extend(check_condition_with(e, names, &given));
                    }
                    self.script_errors(f, text, &at, errors);
                    kept.value = expr;
                }
                (_, Some(src)) => {
                    let (expr, mut errors) = syntax::parse_expr(src);
                    if let Some(e) = &expr {
                        errors.extend(check_number_with(e, names, &given));
                    }
                    self.script_errors(f, text, &at, errors);
                    kept.value = expr;
                }
                (_, None) => {}
            }
            content.sequence.hooks.push(kept);
        }
    }
}

/// Why a condition can never be true, when that can be seen from the content alone: it is
/// `false`, or it needs a unit's type, nation or size, or a space's terrain or country, to be an
/// id that no counter or space has (through `and`, and both sides of an `or`).
fn never(e: &Expr, content: &Content) -> Option<String> {
    match &e.kind {
        ExprKind::Bool(false) => Some("its condition is `false`".into()),
        ExprKind::Binary { op, left, right } => match op {
            BinaryOp::And => never(left, content).or_else(|| never(right, content)),
            BinaryOp::Or => {
                let (a, b) = (never(left, content)?, never(right, content)?);
                Some(format!("{a}, and {b}"))
            }
            BinaryOp::Eq => {
                unmatched(left, right, content).or_else(|| unmatched(right, left, content))
            }
            _ => None,
        },
        _ => None,
    }
}

/// `field == id` where no counter or space has that value of the field.
fn unmatched(field: &Expr, id: &Expr, content: &Content) -> Option<String> {
    let (ExprKind::Field { field, .. }, ExprKind::Name(id)) = (&field.kind, &id.kind) else {
        return None;
    };
    let counters = |get: fn(&crate::model::Counter) -> &str, what: &str| {
        (!content.counters.iter().any(|c| get(c) == id))
            .then(|| format!("no counter has {what} `{id}`"))
    };
    let spaces = |get: fn(&crate::model::Space) -> Option<&str>, what: &str| {
        (!content.graph.spaces.iter().any(|s| get(s) == Some(id)))
            .then(|| format!("no space has {what} `{id}`"))
    };
    match field.name.as_str() {
        "type" => counters(|c| &c.unit_type, "unit type"),
        "nation" => counters(|c| &c.nation, "nation"),
        "size" => counters(|c| &c.size, "size"),
        "terrain" => spaces(|s| s.terrain.as_deref(), "terrain"),
        "country" => spaces(|s| s.country.as_deref(), "country"),
        _ => None,
    }
}
