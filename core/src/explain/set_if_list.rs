//! A candidate's list of changes, held without a heap allocation in the usual case.
//!
//! A large batch has half a million candidates, and nearly every one has a list of one
//! to three changes of `returnN` and `maxChunksPerDocument`. As a `Vec` each list was
//! an allocation to make and another to free, which cost more than analysing the whole
//! batch did. Those lists are kept here as their counts, in place; any other list (a
//! longer one, or one that sets another key) is kept as the changes themselves.

use super::change::Change;
use super::SetIf;
use crate::config::{SettingKey, SettingValue};
use serde::ser::SerializeSeq;
use serde::{Serialize, Serializer};
use std::fmt;

/// How many changes are held in place: the nearest `returnN` and the nearest caps (at
/// most two at the same distance).
const IN_PLACE: usize = 3;

/// Changes listed against a candidate; serialises as the list of [`SetIf`] it holds.
#[derive(Clone, Default)]
pub struct SetIfList(Repr);

#[derive(Clone)]
enum Repr {
    /// Per change, its `returnN` and its `maxChunksPerDocument`, 0 for a key it does
    /// not set (no change sets either to 0).
    Counts {
        len: u8,
        counts: [[u16; 2]; IN_PLACE],
    },
    /// Boxed twice: a thin pointer keeps the whole list at 16 bytes.
    Changes(Box<Longer>),
}

/// A list not held in place.
#[derive(Clone)]
struct Longer(Box<[SetIf]>);

impl Default for Repr {
    fn default() -> Self {
        Repr::EMPTY
    }
}

impl Repr {
    const EMPTY: Repr = Repr::Counts {
        len: 0,
        counts: [[0; 2]; IN_PLACE],
    };
}

fn change_of([return_n, cap]: [u16; 2]) -> Change {
    match (return_n, cap) {
        (0, cap) => Change::max_chunks(usize::from(cap)),
        (return_n, 0) => Change::return_n(usize::from(return_n)),
        (return_n, cap) => Change::return_n_and_max_chunks(usize::from(return_n), usize::from(cap)),
    }
}

/// The counts `change` sets, when it sets only `returnN` and `maxChunksPerDocument`
/// (each at most once) to values held in place. It then reads back as the very same
/// change: a pair is always kept in the contract's order.
fn counts_of(change: &Change) -> Option<[u16; 2]> {
    let mut counts = [0u16; 2];
    for s in change.settings() {
        let slot = match s.key {
            SettingKey::ReturnN => 0,
            SettingKey::MaxChunksPerDocument => 1,
            _ => return None,
        };
        let SettingValue::Count(value) = s.value else {
            return None;
        };
        let value = u16::try_from(value).ok().filter(|&v| v > 0)?;
        let count = counts.get_mut(slot)?;
        if *count != 0 {
            return None;
        }
        *count = value;
    }
    Some(counts)
}

impl SetIfList {
    pub const fn new() -> SetIfList {
        SetIfList(Repr::EMPTY)
    }

    /// The list of `changes`, in their order.
    pub fn from_slice(changes: &[SetIf]) -> SetIfList {
        if changes.len() <= IN_PLACE {
            let mut counts = [[0u16; 2]; IN_PLACE];
            let held =
                changes
                    .iter()
                    .zip(counts.iter_mut())
                    .all(|(s, slot)| match counts_of(&s.set) {
                        Some(c) => {
                            *slot = c;
                            true
                        }
                        None => false,
                    });
            if held {
                return SetIfList(Repr::Counts {
                    len: changes.len() as u8,
                    counts,
                });
            }
        }
        SetIfList(Repr::Changes(Box::new(Longer(changes.into()))))
    }

    /// Appends `set`, held in place while the list fits there.
    pub(crate) fn push(&mut self, set: Change) {
        if let Repr::Counts { len, counts } = &mut self.0 {
            if let (Some(slot), Some(held)) = (counts.get_mut(usize::from(*len)), counts_of(&set)) {
                *slot = held;
                *len += 1;
                return;
            }
        }
        self.spill(set);
    }

    /// Appends `{"returnN": value}`.
    pub(crate) fn push_return_n(&mut self, value: usize) {
        self.push_count(0, value, Change::return_n);
    }

    /// Appends `{"maxChunksPerDocument": value}`.
    pub(crate) fn push_max_chunks(&mut self, value: usize) {
        self.push_count(1, value, Change::max_chunks);
    }

    /// Appends `{"maxChunksPerDocument": cap, "returnN": return_n}`, written in place
    /// as [`SetIfList::push_return_n`] is.
    pub(crate) fn push_pair(&mut self, return_n: usize, cap: usize) {
        if let Repr::Counts { len, counts } = &mut self.0 {
            let held = |v: usize| u16::try_from(v).ok().filter(|&v| v > 0);
            if let (Some(slot), Some(r), Some(c)) =
                (counts.get_mut(usize::from(*len)), held(return_n), held(cap))
            {
                *slot = [r, c];
                *len += 1;
                return;
            }
        }
        self.push(Change::return_n_and_max_chunks(return_n, cap));
    }

    /// Appends the change `change(value)` of the count at `key` (as in [`Repr::Counts`]),
    /// written in place without building the change while it fits there: each of a
    /// large batch's candidates pushes one to three of these.
    fn push_count(&mut self, key: usize, value: usize, change: fn(usize) -> Change) {
        if let Repr::Counts { len, counts } = &mut self.0 {
            let held = u16::try_from(value).ok().filter(|&v| v > 0);
            if let (Some(slot), Some(held)) = (counts.get_mut(usize::from(*len)), held) {
                *slot = [0; 2];
                if let Some(count) = slot.get_mut(key) {
                    *count = held;
                }
                *len += 1;
                return;
            }
        }
        self.push(change(value));
    }

    /// Appends `set` to the changes held as themselves.
    #[cold]
    fn spill(&mut self, set: Change) {
        let mut changes = self.to_vec();
        changes.push(SetIf { set });
        self.0 = Repr::Changes(Box::new(Longer(changes.into())));
    }

    pub fn len(&self) -> usize {
        match &self.0 {
            Repr::Counts { len, .. } => usize::from(*len),
            Repr::Changes(changes) => changes.0.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The change at `index`.
    pub fn get(&self, index: usize) -> Option<SetIf> {
        match &self.0 {
            Repr::Counts { len, counts } => counts
                .get(..usize::from(*len))
                .and_then(|held| held.get(index))
                .map(|&c| SetIf { set: change_of(c) }),
            Repr::Changes(changes) => changes.0.get(index).copied(),
        }
    }

    /// The changes, in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            list: self,
            next: 0,
            end: self.len(),
        }
    }

    pub fn to_vec(&self) -> Vec<SetIf> {
        self.iter().collect()
    }
}

impl From<Vec<SetIf>> for SetIfList {
    fn from(changes: Vec<SetIf>) -> SetIfList {
        SetIfList::from_slice(&changes)
    }
}

impl FromIterator<SetIf> for SetIfList {
    fn from_iter<I: IntoIterator<Item = SetIf>>(iter: I) -> SetIfList {
        SetIfList::from_slice(&iter.into_iter().collect::<Vec<_>>())
    }
}

/// The changes of a [`SetIfList`], by value (each is `Copy`).
#[derive(Debug, Clone)]
pub struct Iter<'a> {
    list: &'a SetIfList,
    next: usize,
    end: usize,
}

impl Iterator for Iter<'_> {
    type Item = SetIf;

    fn next(&mut self) -> Option<SetIf> {
        if self.next >= self.end {
            return None;
        }
        let item = self.list.get(self.next);
        self.next += 1;
        item
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.end - self.next;
        (left, Some(left))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<SetIf> {
        if self.next >= self.end {
            return None;
        }
        self.end -= 1;
        self.list.get(self.end)
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a SetIfList {
    type Item = SetIf;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

impl PartialEq for SetIfList {
    fn eq(&self, other: &SetIfList) -> bool {
        self.len() == other.len() && self.iter().zip(other).all(|(a, b)| a.set == b.set)
    }
}

/// As the list it holds, so that it reads as a `Vec<SetIf>` did.
impl fmt::Debug for SetIfList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for SetIfList {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.len()))?;
        for s in self {
            seq.serialize_element(&s)?;
        }
        seq.end()
    }
}

/// A list of its changes, as a `Vec<SetIf>` would be.
#[cfg(feature = "schema")]
impl schemars::JsonSchema for SetIfList {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "SetIfList".into()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        Vec::<super::SetIf>::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::HybridQuality;

    fn listed(changes: &[Change]) -> Vec<SetIf> {
        changes.iter().map(|&set| SetIf { set }).collect()
    }

    #[test]
    fn a_list_takes_sixteen_bytes() {
        // Half a million candidates each hold one.
        assert_eq!(std::mem::size_of::<SetIfList>(), 16);
    }

    #[test]
    fn every_list_reads_back_as_given_and_serialises_as_a_vec() {
        let pair = |return_n, cap| {
            Change::pair(
                super::super::ChangedSetting {
                    key: SettingKey::MaxChunksPerDocument,
                    value: SettingValue::Count(cap),
                },
                super::super::ChangedSetting {
                    key: SettingKey::ReturnN,
                    value: SettingValue::Count(return_n),
                },
            )
        };
        let lists = [
            vec![],
            vec![Change::return_n(7)],
            vec![
                Change::return_n(3),
                Change::max_chunks(1),
                Change::max_chunks(5),
            ],
            vec![pair(6, 3), pair(2, 1)],
            // Longer, another key, a count too large to hold in place, and a 0.
            vec![pair(6, 3), pair(5, 4), pair(4, 5), pair(3, 6)],
            vec![Change::number(SettingKey::MaxL2Distance, 0.9)],
            vec![Change::hybrid_quality(HybridQuality::MaxRankDense)],
            vec![Change::return_n(70_000), Change::max_chunks(2)],
            vec![Change::return_n(0)],
            // The same key twice is no pair of counts.
            vec![Change::pair(
                super::super::ChangedSetting {
                    key: SettingKey::ReturnN,
                    value: SettingValue::Count(3),
                },
                super::super::ChangedSetting {
                    key: SettingKey::ReturnN,
                    value: SettingValue::Count(5),
                },
            )],
        ];
        for changes in lists {
            let vec = listed(&changes);
            let list = SetIfList::from_slice(&vec);
            assert_eq!(list.len(), vec.len());
            assert_eq!(list.is_empty(), vec.is_empty());
            let back = list.to_vec();
            assert!(back.iter().zip(&vec).all(|(a, b)| a.set == b.set));
            assert_eq!(back.len(), vec.len());
            assert_eq!(
                serde_json::to_string(&list).ok(),
                serde_json::to_string(&vec).ok()
            );
            assert_eq!(format!("{list:?}"), format!("{vec:?}"));
            let reversed: Vec<SetIf> = list.iter().rev().collect();
            assert!(reversed.iter().rev().zip(&vec).all(|(a, b)| a.set == b.set));
            // Pushed one at a time, a single count through its own way: the same list.
            let mut pushed = SetIfList::new();
            for &set in &changes {
                let single = |key| match (set.settings().count(), set.value(key)) {
                    (1, Some(SettingValue::Count(value))) => Some(value),
                    _ => None,
                };
                let pair = |key| match set.value(key) {
                    Some(SettingValue::Count(value)) if set.settings().count() == 2 => Some(value),
                    _ => None,
                };
                match (
                    single(SettingKey::ReturnN),
                    single(SettingKey::MaxChunksPerDocument),
                    pair(SettingKey::ReturnN).zip(pair(SettingKey::MaxChunksPerDocument)),
                ) {
                    (Some(value), _, _) => pushed.push_return_n(value),
                    (_, Some(value), _) => pushed.push_max_chunks(value),
                    (_, _, Some((return_n, cap))) => pushed.push_pair(return_n, cap),
                    _ => pushed.push(set),
                }
            }
            assert_eq!(
                serde_json::to_string(&pushed).ok(),
                serde_json::to_string(&vec).ok()
            );
            assert_eq!(format!("{pushed:?}"), format!("{vec:?}"));
        }
    }
}
