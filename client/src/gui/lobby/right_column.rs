//! How the lobby's right column is shared between the open rooms (with our games in progress
//! above them) and the stored games under them: each list gets what it needs when both fit;
//! otherwise a list that needs less than its share leaves the rest to the other, and two long
//! lists share the height at [`ROOMS_SHARE`].

/// The share of the right column's height the open rooms take when both lists are long.
const ROOMS_SHARE: f32 = 0.55;

/// The height a list of `rows` rows of `row_height` wants: its heading, at least one row (an
/// empty list says so on one), and the line under it.
pub fn list_height(rows: usize, row_height: f32, heading: f32, foot: f32) -> f32 {
    heading + rows.max(1) as f32 * row_height + foot
}

/// Where the stored games start in the column from `top` to `bottom`, `gap` under the rooms,
/// when the rooms (with our games) want `rooms` and the stored games `records` in height.
pub fn records_top(top: f32, bottom: f32, gap: f32, rooms: f32, records: f32) -> f32 {
    let shared = top + (bottom - top) * ROOMS_SHARE;
    let under_rooms = top + rooms + gap;
    if under_rooms <= shared {
        return under_rooms;
    }
    shared.max(under_rooms.min(bottom - records))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_list_gets_what_it_needs_and_two_long_ones_share() {
        // A column of 500 from 100; the shared split is at 375.
        let top_of_records = |rooms, records| records_top(100.0, 600.0, 16.0, rooms, records);
        assert_eq!(
            top_of_records(100.0, 100.0),
            216.0,
            "both fit: right under the rooms"
        );
        assert_eq!(
            top_of_records(450.0, 80.0),
            520.0,
            "few stored games give way"
        );
        assert_eq!(top_of_records(400.0, 80.0), 516.0, "both fit, just");
        assert_eq!(top_of_records(330.0, 80.0), 446.0, "both fit still");
        assert_eq!(top_of_records(400.0, 400.0), 375.0, "both long: shared");
        assert_eq!(
            top_of_records(900.0, 50.0),
            550.0,
            "the stored games keep what they need"
        );
        assert_eq!(
            top_of_records(900.0, 300.0),
            375.0,
            "but never less than their share"
        );
    }

    #[test]
    fn an_empty_list_wants_one_row() {
        assert_eq!(list_height(0, 50.0, 34.0, 34.0), 118.0);
        assert_eq!(list_height(3, 50.0, 34.0, 34.0), 218.0);
    }
}
