//! A map that forgets its oldest entries past a fixed size, so that a
//! sandbox left running keeps its memory bounded.

use std::collections::{HashMap, HashSet, VecDeque};

pub struct Bounded<V> {
    map: HashMap<String, V>,
    /// Keys in insertion order; may hold keys already removed.
    order: VecDeque<String>,
    cap: usize,
}

impl<V> Bounded<V> {
    pub fn new(cap: usize) -> Bounded<V> {
        Bounded { map: HashMap::new(), order: VecDeque::new(), cap: cap.max(1) }
    }

    /// Inserts `value`, returning the entries forgotten to make room.
    pub fn insert(&mut self, key: String, value: V) -> Vec<(String, V)> {
        if self.map.insert(key.clone(), value).is_none() {
            self.order.push_back(key);
        }
        let mut gone = Vec::new();
        while self.map.len() > self.cap {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            if let Some(v) = self.map.remove(&old) {
                gone.push((old, v));
            }
        }
        if self.order.len() > 2 * self.cap {
            let map = &self.map;
            self.order.retain(|k| map.contains_key(k));
        }
        gone
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.map.get(key)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut V> {
        self.map.get_mut(key)
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.map.remove(key)
    }

    /// The values, each once, oldest first.
    pub fn values(&self) -> impl Iterator<Item = &V> {
        // `order` may hold a key twice (removed, then inserted again).
        let mut seen = HashSet::new();
        self.order.iter().filter(move |k| seen.insert(k.as_str())).filter_map(|k| self.map.get(k))
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Bounded;

    #[test]
    fn forgets_the_oldest_past_its_size() {
        let mut m = Bounded::new(2);
        assert!(m.insert("a".into(), 1).is_empty());
        assert!(m.insert("b".into(), 2).is_empty());
        assert_eq!(m.insert("c".into(), 3), vec![("a".to_string(), 1)]);
        assert_eq!(m.len(), 2);
        assert!(m.get("a").is_none());
        assert_eq!(m.get("c"), Some(&3));
        assert_eq!(m.values().collect::<Vec<_>>(), [&2, &3]);
    }

    #[test]
    fn removed_keys_do_not_count() {
        let mut m = Bounded::new(2);
        for i in 0..100 {
            let k = format!("k{i}");
            m.insert(k.clone(), i);
            assert_eq!(m.remove(&k), Some(i));
        }
        assert!(m.is_empty());
        assert!(m.order.len() <= 4);
        m.insert("x".into(), 1);
        m.insert("y".into(), 2);
        assert_eq!(m.len(), 2);
        m.remove("x");
        m.insert("x".into(), 3);
        let mut values: Vec<i32> = m.values().copied().collect();
        values.sort();
        assert_eq!(values, [2, 3], "each value once");
    }
}
