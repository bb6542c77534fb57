//! Lists that must fit one frame: names may be long and in four-byte letters, so a list's
//! length alone does not bound its size (the lobby's 200 rooms, each naming its creator, its
//! seats' players and its rematch's maker, could take 160 KB). Past a frame the client would
//! get an error instead of the list, whoever made it too long.

use parlor_shared::codec::MAX_FRAME_BYTES;
use serde::Serialize;

/// What a message adds around its list's items, with room to spare.
const ENVELOPE: usize = 128;

/// Cuts `items` to what one frame holds in JSON, the larger format, taking out first the item
/// `next_to_go` picks each time (`None`: nothing more may go); it is given the items left and
/// their sizes in bytes, each measured once.
pub fn fit_in_a_frame<T: Serialize>(
    items: &mut Vec<T>,
    mut next_to_go: impl FnMut(&[T], &[usize]) -> Option<usize>,
) {
    // Each item with the comma after it.
    let size = |item: &T| serde_json::to_vec(item).map_or(MAX_FRAME_BYTES, |json| json.len() + 1);
    let mut sizes: Vec<usize> = items.iter().map(size).collect();
    let mut total = ENVELOPE + sizes.iter().sum::<usize>();
    while total > MAX_FRAME_BYTES {
        let Some(at) = next_to_go(items, &sizes) else {
            break;
        };
        items.remove(at);
        total -= sizes.remove(at);
    }
}
