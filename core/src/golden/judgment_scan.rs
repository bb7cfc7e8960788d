//! The docIds a cases file's `judgments` objects name more than once. A parsed JSON
//! object keeps only the last of a repeated key, so the text is read once more, keeping
//! nothing but those keys.

use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::fmt;

/// The most repeated judgments reported: the first ones say what to fix.
const MOST_REPORTED: usize = 100;

/// `(case index, docId)` of each judgment a case's `judgments` object repeats, in file
/// order (at most [`MOST_REPORTED`]). A text that is not a cases file gives none.
pub(super) fn repeated_judgments(text: &str) -> Vec<(usize, String)> {
    if !text.contains("judgments") {
        return Vec::new();
    }
    let mut de = serde_json::Deserializer::from_str(text);
    match <Top as de::Deserialize>::deserialize(&mut de) {
        Ok(Top(found)) => found,
        Err(_) => Vec::new(),
    }
}

struct Top(Vec<(usize, String)>);
struct Cases(Vec<(usize, String)>);
/// One case: the docIds its `judgments` repeat.
struct Case(Vec<String>);
/// The keys an object repeats.
struct RepeatedKeys(Vec<String>);

impl<'de> de::Deserialize<'de> for Top {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Top;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a cases file")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Top, A::Error> {
                Ok(Top(cases(seq)?))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Top, A::Error> {
                let mut found = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "cases" {
                        found = map.next_value::<Cases>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Top(found))
            }
        }
        d.deserialize_any(V)
    }
}

fn cases<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Vec<(usize, String)>, A::Error> {
    let mut found = Vec::new();
    let mut i = 0;
    while let Some(Case(docs)) = seq.next_element::<Case>()? {
        for doc in docs {
            if found.len() < MOST_REPORTED {
                found.push((i, doc));
            }
        }
        i += 1;
    }
    Ok(found)
}

impl<'de> de::Deserialize<'de> for Cases {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Cases;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of cases")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Cases, A::Error> {
                Ok(Cases(cases(seq)?))
            }
        }
        d.deserialize_seq(V)
    }
}

impl<'de> de::Deserialize<'de> for Case {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Case;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a case")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Case, A::Error> {
                let mut repeated = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if key == "judgments" {
                        repeated = map.next_value::<RepeatedKeys>()?.0;
                    } else {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
                Ok(Case(repeated))
            }
        }
        // Anything but an object is an error the cases' parse reports.
        d.deserialize_map(V)
    }
}

impl<'de> de::Deserialize<'de> for RepeatedKeys {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = RepeatedKeys;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of grades")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RepeatedKeys, A::Error> {
                let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
                let mut repeated: Vec<String> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    map.next_value::<IgnoredAny>()?;
                    if !seen.insert(key.clone()) && !repeated.contains(&key) {
                        repeated.push(key);
                    }
                }
                Ok(RepeatedKeys(repeated))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::repeated_judgments;

    #[test]
    fn repeated_docs_of_each_case_are_found() {
        let text = r#"{"cases": [
            {"caseId": "a", "judgments": {"d1": 1, "d2": 0, "d1": 3}},
            {"caseId": "b", "expectedDocIds": ["x"]},
            {"caseId": "c", "judgments": {"x": 1, "y": 2, "x": 0, "x": 1, "y": -1}}
        ]}"#;
        assert_eq!(
            repeated_judgments(text),
            [
                (0, "d1".to_owned()),
                (2, "x".to_owned()),
                (2, "y".to_owned())
            ]
        );
        assert_eq!(repeated_judgments(r#"[{"judgments": {"a": 1}}]"#), []);
    }
}
