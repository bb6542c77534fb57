//! The df-pn transposition table: buckets of four entries keyed by a node's full canonical
//! bitboards (never by a hash alone, so a hit is always the same position up to symmetry). A
//! full bucket gives up the entry with the least work under it (entries of earlier searches
//! are free slots, all alike, so a search goes the same way in a used table as in a new
//! one). Losing an entry only costs
//! search time: a node that is searched again starts from its estimate, and a proof is only
//! ever made from terminal nodes, so the size of the table never changes a proven result.

/// Proof and disproof numbers are at most this; `INF` marks a solved node.
pub const INF: u32 = u32::MAX / 2;
const BUCKET: usize = 4;

#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    /// The canonical (attacker's bricks, defender's bricks).
    key: (u64, u64),
    phi: u32,
    delta: u32,
    /// Nodes searched under this entry (saturating), for replacement.
    work: u32,
    /// The search that wrote it: entries of earlier searches are free slots.
    generation: u32,
}

/// A bucket on two whole cache lines (a pair the CPU fetches together), so that looking a
/// position up costs one trip to memory.
#[derive(Clone, Copy, Debug, Default)]
#[repr(C, align(128))]
struct Bucket([Entry; BUCKET]);

pub struct Table {
    buckets: Vec<Bucket>,
    /// The current search; 0 marks slots never written.
    generation: u32,
    /// Entries given up for another position since the last `clear`.
    pub replaced: u64,
}

/// A 64-bit mix of the key (splitmix64's finaliser), for the bucket index.
fn mix(key: (u64, u64)) -> u64 {
    let mut z = key.0 ^ key.1.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Table {
    /// A table of `1 << bits` entries (at least one bucket).
    pub fn new(bits: u32) -> Table {
        Table {
            buckets: vec![Bucket::default(); ((1usize << bits) / BUCKET).max(1)],
            generation: 1,
            replaced: 0,
        }
    }

    /// Forgets everything, so that a search starts the same way every time. It only starts a
    /// new generation (a table of megabytes is not rewritten between the engine's searches).
    pub fn clear(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.buckets.fill(Bucket::default());
            self.generation = 1;
        }
        self.replaced = 0;
    }

    fn bucket(&self, key: (u64, u64)) -> usize {
        (mix(key) % self.buckets.len() as u64) as usize
    }

    /// The (phi, delta) stored for `key`.
    pub fn get(&self, key: (u64, u64)) -> Option<(u32, u32)> {
        self.buckets[self.bucket(key)]
            .0
            .iter()
            .find(|e| e.generation == self.generation && e.key == key)
            .map(|e| (e.phi, e.delta))
    }

    pub fn put(&mut self, key: (u64, u64), phi: u32, delta: u32, work: u64) {
        let index = self.bucket(key);
        let generation = self.generation;
        let bucket = &mut self.buckets[index].0;
        let current = |e: &Entry| e.generation == generation;
        let slot = match bucket.iter().position(|e| current(e) && e.key == key) {
            Some(same) => same,
            None => {
                let (slot, old) = bucket
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, e)| {
                        if current(e) {
                            (true, e.work)
                        } else {
                            (false, 0)
                        }
                    })
                    .expect("a bucket has entries");
                self.replaced += u64::from(current(old));
                slot
            }
        };
        bucket[slot] = Entry {
            key,
            phi,
            delta,
            work: u32::try_from(work).unwrap_or(u32::MAX),
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_bucket_gives_up_its_least_worked_entry() {
        let mut table = Table::new(2); // one bucket of four
        for (i, work) in [5, 1, 9, 7].into_iter().enumerate() {
            table.put((i as u64, 0), 1, 2, work);
        }
        table.put((99, 0), 3, 4, 2);
        assert_eq!(table.get((1, 0)), None, "the entry with work 1 went");
        assert_eq!(table.replaced, 1);
        assert_eq!(table.get((99, 0)), Some((3, 4)));
        assert_eq!(
            table.get((0, 0)),
            Some((1, 2)),
            "the empty board is a key like any other"
        );
        table.put((3, 0), 0, INF, 10);
        assert_eq!(table.get((3, 0)), Some((0, INF)), "updated in place");
        table.clear();
        assert_eq!((table.get((3, 0)), table.replaced), (None, 0));
    }
}
