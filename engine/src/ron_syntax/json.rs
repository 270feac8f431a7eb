//! The tree to JSON, and the places of its values by JSON pointer.

use super::*;

/// Where each JSON value (and each struct field's name) came from: the parsed tree, walked
/// by a JSON pointer the way [`to_json`] shapes the tree into JSON. Nothing is worked out
/// until a place is asked for (a diagnostic's), so loading pays nothing for it: a file read
/// straight from its text ([`super::from_text`]) keeps the text, and its tree is read the
/// first time a place is asked for (clones share it).
#[derive(Debug, Clone, Default)]
pub struct SpanMap {
    text: Option<std::sync::Arc<str>>,
    root: std::sync::Arc<std::sync::OnceLock<Option<Node>>>,
}

/// Where a walk down the tree stands: a value, or the payload of an enum variant (whose JSON
/// pointer names the variant, and whose span is the variant's).
#[derive(Clone, Copy)]
enum At<'a> {
    Node(&'a Node),
    Items(&'a [Node], (usize, usize)),
    Fields(&'a [Field], (usize, usize)),
}

impl<'a> At<'a> {
    /// A value as JSON sees it: `Some(x)` is `x`.
    fn of(mut node: &'a Node) -> At<'a> {
        while let Value::Option(Some(inner)) = &node.value {
            node = inner;
        }
        At::Node(node)
    }

    fn span(self) -> (usize, usize) {
        match self {
            At::Node(n) => (n.start, n.end),
            At::Items(_, span) | At::Fields(_, span) => span,
        }
    }

    /// The value one pointer segment down, with the span of its name when it is a struct's
    /// field or a map's key.
    fn child(self, segment: &str) -> Option<(At<'a>, Option<(usize, usize)>)> {
        let items = |list: &'a [Node]| {
            let i: usize = segment.parse().ok()?;
            list.get(i).map(|n| (At::of(n), None))
        };
        let fields = |fs: &'a [Field]| {
            fs.iter()
                .find(|f| f.name == segment)
                .map(|f| (At::of(&f.value), Some((f.name_start, f.name_end))))
        };
        match self {
            At::Items(list, _) => items(list),
            At::Fields(fs, _) => fields(fs),
            At::Node(node) => match &node.value {
                Value::List(list) | Value::Tuple(list) => items(list),
                Value::Struct(fs) => fields(fs),
                Value::Map(entries) => entries.iter().find_map(|(k, v)| match &k.value {
                    Value::Str(key) if key.value == segment => {
                        Some((At::of(v), Some((k.start, k.end))))
                    }
                    _ => None,
                }),
                Value::Enum(name, payload) if name == segment => {
                    let span = (node.start, node.end);
                    match payload {
                        Payload::None => None,
                        Payload::Tuple(list) if list.len() == 1 => Some((At::of(&list[0]), None)),
                        Payload::Tuple(list) => Some((At::Items(list, span), None)),
                        Payload::Struct(fs) => Some((At::Fields(fs, span), None)),
                    }
                }
                _ => None,
            },
        }
    }

    /// The values one level down, each with its pointer segment.
    fn children(self) -> Vec<(String, At<'a>)> {
        let items = |list: &'a [Node]| {
            list.iter()
                .enumerate()
                .map(|(i, n)| (i.to_string(), At::of(n)))
        };
        let fields = |fs: &'a [Field]| fs.iter().map(|f| (f.name.clone(), At::of(&f.value)));
        match self {
            At::Items(list, _) => items(list).collect(),
            At::Fields(fs, _) => fields(fs).collect(),
            At::Node(node) => match &node.value {
                Value::List(list) | Value::Tuple(list) => items(list).collect(),
                Value::Struct(fs) => fields(fs).collect(),
                Value::Map(entries) => entries
                    .iter()
                    .filter_map(|(k, v)| match &k.value {
                        Value::Str(key) => Some((key.value.clone(), At::of(v))),
                        _ => None,
                    })
                    .collect(),
                Value::Enum(name, payload) => {
                    let span = (node.start, node.end);
                    let inner = match payload {
                        Payload::None => return Vec::new(),
                        Payload::Tuple(list) if list.len() == 1 => At::of(&list[0]),
                        Payload::Tuple(list) => At::Items(list, span),
                        Payload::Struct(fs) => At::Fields(fs, span),
                    };
                    vec![(name.clone(), inner)]
                }
                _ => Vec::new(),
            },
        }
    }
}

/// What a walk down a JSON pointer found.
struct Found<'a> {
    /// The value, or the nearest ancestor the pointer names.
    at: At<'a>,
    /// The span of its name, when it is a struct's field or a map's key.
    name: Option<(usize, usize)>,
    /// Whether the pointer named it whole.
    whole: bool,
}

/// A JSON pointer's segments, unescaped.
fn segments(pointer: &str) -> impl Iterator<Item = String> + '_ {
    pointer
        .split('/')
        .skip(1)
        .map(|s| s.replace("~1", "/").replace("~0", "~"))
}

impl SpanMap {
    /// The places of a parsed file's values.
    pub fn new(root: Node) -> SpanMap {
        SpanMap {
            text: None,
            root: std::sync::Arc::new(std::sync::OnceLock::from(Some(root))),
        }
    }

    /// The places of the values of a text that parses, worked out when first asked for.
    pub fn of_text(text: &str) -> SpanMap {
        SpanMap {
            text: Some(text.into()),
            root: std::sync::Arc::default(),
        }
    }

    /// The tree, read now if it was not.
    fn root(&self) -> Option<&Node> {
        self.root
            .get_or_init(|| super::parse(self.text.as_deref()?).ok())
            .as_ref()
    }

    /// The value at `pointer`, or its nearest ancestor.
    fn walk(&self, pointer: &str) -> Option<Found<'_>> {
        let mut found = Found {
            at: At::of(self.root()?),
            name: None,
            whole: true,
        };
        for segment in segments(pointer) {
            match found.at.child(&segment) {
                Some((child, name)) => {
                    found.at = child;
                    found.name = name;
                }
                None => {
                    found.whole = false;
                    break;
                }
            }
        }
        Some(found)
    }

    /// The span of the value at `pointer`, or of its nearest ancestor.
    pub fn value(&self, pointer: &str) -> (usize, usize) {
        self.walk(pointer).map_or((0, 0), |f| f.at.span())
    }

    /// The JSON pointer of the innermost value whose span holds `offset` (the editor opens
    /// the place of a diagnostic by it).
    pub fn pointer_at(&self, offset: usize) -> Option<String> {
        let holds = |(s, e): (usize, usize)| s <= offset && offset < e.max(s + 1);
        let mut at = At::of(self.root()?);
        if !holds(at.span()) {
            return None;
        }
        let mut pointer = String::new();
        'down: loop {
            for (segment, child) in at.children() {
                if holds(child.span()) {
                    pointer.push('/');
                    push_segment(&mut pointer, &segment);
                    at = child;
                    continue 'down;
                }
            }
            return Some(pointer);
        }
    }

    /// The span of the field name at `pointer`, falling back to its value.
    pub fn key(&self, pointer: &str) -> (usize, usize) {
        match self.walk(pointer) {
            Some(Found {
                name: Some(name),
                whole: true,
                ..
            }) => name,
            _ => self.value(pointer),
        }
    }
}

/// Escapes one JSON pointer segment.
pub fn pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Converts a tree to JSON (its places are [`SpanMap::new`]'s). Fails on a map key that is
/// not a string.
pub fn to_json(node: &Node) -> Result<serde_json::Value, SyntaxError> {
    use serde_json::Value as J;
    let fields = |fields: &[Field]| -> Result<J, SyntaxError> {
        let mut object = serde_json::Map::new();
        for field in fields {
            object.insert(field.name.clone(), to_json(&field.value)?);
        }
        Ok(J::Object(object))
    };
    let items = |items: &[Node]| -> Result<J, SyntaxError> {
        items
            .iter()
            .map(to_json)
            .collect::<Result<_, _>>()
            .map(J::Array)
    };
    Ok(match &node.value {
        Value::Unit | Value::Option(None) => J::Null,
        // `Some(x)` is `x` in JSON.
        Value::Option(Some(inner)) => to_json(inner)?,
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.value.clone()),
        Value::List(list) | Value::Tuple(list) => items(list)?,
        Value::Struct(fs) => fields(fs)?,
        Value::Map(entries) => {
            let mut object = serde_json::Map::new();
            for (key, value) in entries {
                let Value::Str(k) = &key.value else {
                    return Err(SyntaxError {
                        message: "map keys must be strings".into(),
                        start: key.start,
                        end: key.end,
                        hint: Some("write the key in double quotes".into()),
                    });
                };
                object.insert(k.value.clone(), to_json(value)?);
            }
            J::Object(object)
        }
        Value::Enum(name, payload) => {
            let inner = match payload {
                Payload::None => return Ok(J::String(name.clone())),
                Payload::Tuple(list) if list.len() == 1 => to_json(&list[0])?,
                Payload::Tuple(list) => items(list)?,
                Payload::Struct(fs) => fields(fs)?,
            };
            let mut object = serde_json::Map::new();
            object.insert(name.clone(), inner);
            J::Object(object)
        }
    })
}

fn push_segment(path: &mut String, segment: &str) {
    if segment.contains(['~', '/']) {
        path.push_str(&pointer_segment(segment));
    } else {
        path.push_str(segment);
    }
}
