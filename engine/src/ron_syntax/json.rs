//! The tree to JSON, with a map from JSON pointer to span.

use super::*;

/// Where each JSON value (and each struct field's name) came from.
///
/// Only looked up, never iterated, so hashing cannot make any output depend on it.
#[derive(Debug, Clone, Default)]
pub struct SpanMap {
    /// JSON pointer of a value -> byte range of that value.
    pub values: HashMap<String, (usize, usize)>,
    /// JSON pointer of a struct field -> byte range of the field's name.
    pub keys: HashMap<String, (usize, usize)>,
}

impl SpanMap {
    /// The span of the value at `pointer`, or of its nearest recorded ancestor.
    pub fn value(&self, pointer: &str) -> (usize, usize) {
        let mut p = pointer;
        loop {
            if let Some(&span) = self.values.get(p) {
                return span;
            }
            match p.rfind('/') {
                Some(i) => p = &p[..i],
                None => return (0, 0),
            }
        }
    }

    /// The JSON pointer of the innermost value whose span holds `offset` (the editor opens
    /// the place of a diagnostic by it).
    pub fn pointer_at(&self, offset: usize) -> Option<String> {
        self.values
            .iter()
            .filter(|(_, &(s, e))| s <= offset && offset < e.max(s + 1))
            .min_by(|a, b| {
                let len = |(s, e): (usize, usize)| e - s;
                len(*a.1)
                    .cmp(&len(*b.1))
                    .then_with(|| b.0.len().cmp(&a.0.len()))
                    .then_with(|| a.0.cmp(b.0))
            })
            .map(|(p, _)| p.clone())
    }

    /// The span of the field name at `pointer`, falling back to its value.
    pub fn key(&self, pointer: &str) -> (usize, usize) {
        self.keys
            .get(pointer)
            .copied()
            .unwrap_or_else(|| self.value(pointer))
    }
}

/// Escapes one JSON pointer segment.
pub fn pointer_segment(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

/// Converts a tree to JSON, recording spans. Fails on a map key that is not a string.
pub fn to_json(node: &Node) -> Result<(serde_json::Value, SpanMap), SyntaxError> {
    let mut map = SpanMap::default();
    let mut path = String::new();
    let value = convert(node, &mut path, &mut map)?;
    Ok((value, map))
}

/// Converts `node`, whose JSON pointer is `path` (restored on return).
fn convert(
    node: &Node,
    path: &mut String,
    map: &mut SpanMap,
) -> Result<serde_json::Value, SyntaxError> {
    use serde_json::Value as J;
    if let Value::Option(Some(inner)) = &node.value {
        // `Some(x)` is `x` in JSON: the pointer names the inner value.
        return convert(inner, path, map);
    }
    map.values
        .entry(path.clone())
        .or_insert((node.start, node.end));
    let len = path.len();
    let fields =
        |fields: &[Field], path: &mut String, map: &mut SpanMap| -> Result<J, SyntaxError> {
            let len = path.len();
            let mut object = serde_json::Map::new();
            for field in fields {
                path.push('/');
                push_segment(path, &field.name);
                map.keys
                    .insert(path.clone(), (field.name_start, field.name_end));
                let value = convert(&field.value, path, map);
                path.truncate(len);
                object.insert(field.name.clone(), value?);
            }
            Ok(J::Object(object))
        };
    let items = |items: &[Node], path: &mut String, map: &mut SpanMap| -> Result<J, SyntaxError> {
        let len = path.len();
        let mut out = Vec::with_capacity(items.len());
        for (i, item) in items.iter().enumerate() {
            let _ = write!(path, "/{i}");
            let value = convert(item, path, map);
            path.truncate(len);
            out.push(value?);
        }
        Ok(J::Array(out))
    };
    Ok(match &node.value {
        Value::Unit | Value::Option(None) => J::Null,
        Value::Option(Some(_)) => unreachable!("handled above"),
        Value::Bool(b) => J::Bool(*b),
        Value::Int(i) => J::from(*i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(J::Null, J::Number),
        Value::Str(s) => J::String(s.value.clone()),
        Value::List(list) | Value::Tuple(list) => items(list, path, map)?,
        Value::Struct(fs) => fields(fs, path, map)?,
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
                path.push('/');
                push_segment(path, &k.value);
                map.keys.insert(path.clone(), (key.start, key.end));
                let converted = convert(value, path, map);
                path.truncate(len);
                object.insert(k.value.clone(), converted?);
            }
            J::Object(object)
        }
        Value::Enum(name, payload) => {
            let inner = match payload {
                Payload::None => return Ok(J::String(name.clone())),
                _ => {
                    path.push('/');
                    push_segment(path, name);
                    let inner = match payload {
                        Payload::Tuple(list) if list.len() == 1 => convert(&list[0], path, map),
                        Payload::Tuple(list) => {
                            map.values.insert(path.clone(), (node.start, node.end));
                            items(list, path, map)
                        }
                        Payload::Struct(fs) => {
                            map.values.insert(path.clone(), (node.start, node.end));
                            fields(fs, path, map)
                        }
                        Payload::None => unreachable!("returned above"),
                    };
                    path.truncate(len);
                    inner?
                }
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
