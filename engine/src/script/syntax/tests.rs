#[test]
fn highlight_tells_keywords_calls_names_numbers_text_and_comments() {
    use super::Highlight::*;
    let text = "let n = count(units(in: \"kiev\")) // how many\nif n > 2 { x }";
    let got: Vec<(&str, super::Highlight)> = super::highlight(text)
        .into_iter()
        .map(|(r, h)| (&text[r.start as usize..r.end as usize], h))
        .collect();
    assert_eq!(
        &got[..4],
        &[
            ("let", Keyword),
            ("n", Name),
            ("=", Symbol),
            ("count", Call)
        ]
    );
    assert!(got.contains(&("\"kiev\"", Text)));
    assert!(got.contains(&("// how many", Comment)));
    assert!(got.contains(&("2", Number)));
    assert!(got.contains(&("if", Keyword)));
}

use super::*;

#[test]
fn parses_statements_calls_named_arguments_and_lambdas() {
    let s = parse(
        "let n = count(units(nation: ge))\nif n > 2 and not flag(us_at_war) {\n  add(vp, -1)\n} else { set_flag(x) }\nfor s in spaces(country: romania) { control(s, allied) }\nany(defenders, |u| u.nation == su)",
    );
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(s.stmts.len(), 4);
}

#[test]
fn many_errors_are_reported_in_one_pass() {
    let s = parse("add(vp 1)\nlet = 3\nset_flag(x))\nok()");
    assert_eq!(s.errors.len(), 3, "{:?}", s.errors);
    assert!(matches!(
        s.stmts.last(),
        Some(Stmt::Expr(Expr {
            kind: ExprKind::Call { .. },
            ..
        }))
    ));
}

#[test]
fn error_ranges_point_at_the_offending_token() {
    let text = "add(vp -1 2)";
    let s = parse(text);
    let e = &s.errors[0];
    assert_eq!(&text[e.range.start as usize..e.range.end as usize], "2");
}

#[test]
fn line_breaks_inside_brackets_do_not_end_the_expression() {
    let s = parse("let ok = (played(a)\n    and not played(b))\nadd(vp, count([x,\n y]))");
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(s.stmts.len(), 2);
    let (e, errors) = parse_expr("\nplayed(a)\n");
    assert!(e.is_some() && errors.is_empty(), "{errors:?}");
}

#[test]
fn keywords_may_name_arguments() {
    let s = parse("units(in: moscow, side: axis)");
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(print(&s.stmts), "units(in: moscow, side: axis)\n");
}

#[test]
fn printing_keeps_precedence_with_the_fewest_parentheses() {
    let s = parse("if (a or b) and not (c == 1 + 2 * (3 - x)) { f(y: -1) }");
    assert!(s.errors.is_empty(), "{:?}", s.errors);
    assert_eq!(
        print(&s.stmts),
        "if (a or b) and not c == 1 + 2 * (3 - x) {\n    f(y: -1)\n}\n"
    );
}

mod roundtrip {
    use super::super::*;
    use proptest::prelude::*;

    fn e(kind: ExprKind) -> Expr {
        Expr {
            found: Default::default(),
            kind,
            range: Range::default(),
        }
    }

    fn name() -> impl Strategy<Value = String> {
        "[a-z][a-z0-9_]{0,6}".prop_filter("not a keyword", |n| !is_keyword(n))
    }

    fn ident() -> impl Strategy<Value = Ident> {
        name().prop_map(|name| Ident {
            name: name.into(),
            range: Range::default(),
        })
    }

    fn expr() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![
            (0i64..1000).prop_map(|n| e(ExprKind::Int(n))),
            any::<bool>().prop_map(|b| e(ExprKind::Bool(b))),
            "[a-zA-Z0-9 ]{0,8}".prop_map(|s| e(ExprKind::Text(s))),
            name().prop_map(|n| e(ExprKind::Name(n.into()))),
        ];
        leaf.prop_recursive(4, 40, 4, |inner| {
            let binop = prop::sample::select(vec![
                BinaryOp::Or,
                BinaryOp::And,
                BinaryOp::Eq,
                BinaryOp::Ne,
                BinaryOp::Lt,
                BinaryOp::Le,
                BinaryOp::Gt,
                BinaryOp::Ge,
                BinaryOp::Add,
                BinaryOp::Sub,
                BinaryOp::Mul,
                BinaryOp::Div,
            ]);
            let unop = prop::sample::select(vec![UnaryOp::Neg, UnaryOp::Plus, UnaryOp::Not]);
            let arg = (prop::option::of(ident()), inner.clone());
            prop_oneof![
                (binop, inner.clone(), inner.clone()).prop_map(|(op, l, r)| e(ExprKind::Binary {
                    op,
                    left: Box::new(l),
                    right: Box::new(r)
                })),
                (unop, inner.clone()).prop_map(|(op, x)| e(ExprKind::Unary {
                    op,
                    operand: Box::new(x)
                })),
                (inner.clone(), ident()).prop_map(|(t, f)| e(ExprKind::Field {
                    target: Box::new(t),
                    field: f
                })),
                (ident(), prop::collection::vec(arg, 0..3)).prop_map(|(name, mut args)| {
                    // Positional arguments come first.
                    args.sort_by_key(|a| a.0.is_some());
                    e(ExprKind::Call {
                        name,
                        args: args
                            .into_iter()
                            .map(|(name, value)| Arg { name, value })
                            .collect(),
                    })
                }),
                (ident(), inner.clone()).prop_map(|(param, body)| e(ExprKind::Lambda {
                    param,
                    body: Box::new(body)
                })),
                prop::collection::vec(inner, 0..3).prop_map(|items| e(ExprKind::List(items))),
            ]
        })
    }

    fn stmts() -> impl Strategy<Value = Vec<Stmt>> {
        let simple = prop_oneof![
            (ident(), expr()).prop_map(|(name, value)| Stmt::Let { name, value }),
            expr().prop_map(Stmt::Expr),
        ];
        let stmt = simple.prop_recursive(3, 12, 3, |inner| {
            prop_oneof![
                (
                    expr(),
                    prop::collection::vec(inner.clone(), 0..3),
                    prop::collection::vec(inner.clone(), 0..2)
                )
                    .prop_map(|(cond, then, otherwise)| Stmt::If {
                        cond,
                        then,
                        otherwise
                    }),
                (ident(), expr(), prop::collection::vec(inner, 0..3))
                    .prop_map(|(var, set, body)| Stmt::For { var, set, body }),
            ]
        });
        prop::collection::vec(stmt, 0..4)
    }

    /// The tree with every range zeroed, to compare trees read from different texts.
    fn zero_stmts(stmts: &mut [Stmt]) {
        for s in stmts {
            match s {
                Stmt::Let { name, value } => {
                    name.range = Range::default();
                    zero(value);
                }
                Stmt::If {
                    cond,
                    then,
                    otherwise,
                } => {
                    zero(cond);
                    zero_stmts(then);
                    zero_stmts(otherwise);
                }
                Stmt::For { var, set, body } => {
                    var.range = Range::default();
                    zero(set);
                    zero_stmts(body);
                }
                Stmt::Expr(x) => zero(x),
            }
        }
    }

    fn zero(x: &mut Expr) {
        x.range = Range::default();
        match &mut x.kind {
            ExprKind::Call { name, args } => {
                name.range = Range::default();
                for a in args {
                    if let Some(n) = &mut a.name {
                        n.range = Range::default();
                    }
                    zero(&mut a.value);
                }
            }
            ExprKind::Field { target, field } => {
                field.range = Range::default();
                zero(target);
            }
            ExprKind::Unary { operand, .. } => zero(operand),
            ExprKind::Binary { left, right, .. } => {
                zero(left);
                zero(right);
            }
            ExprKind::Lambda { param, body } => {
                param.range = Range::default();
                zero(body);
            }
            ExprKind::List(items) => items.iter_mut().for_each(zero),
            _ => {}
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn printing_then_parsing_gives_the_same_tree(mut tree in stmts()) {
            let text = print(&tree);
            let mut back = parse(&text);
            prop_assert!(back.errors.is_empty(), "{:?}\n{}", back.errors, text);
            zero_stmts(&mut back.stmts);
            zero_stmts(&mut tree);
            prop_assert_eq!(back.stmts, tree, "{}", text);
        }
    }
}
