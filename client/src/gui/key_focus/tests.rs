use super::*;

const TAB: RingKeys = RingKeys {
    next: true,
    back: false,
    press: false,
    escape: false,
    next_part: false,
    back_part: false,
};
const SHIFT_TAB: RingKeys = RingKeys {
    next: false,
    back: true,
    press: false,
    escape: false,
    next_part: false,
    back_part: false,
};
const ENTER: RingKeys = RingKeys {
    next: false,
    back: false,
    press: true,
    escape: false,
    next_part: false,
    back_part: false,
};
const NONE: RingKeys = RingKeys {
    next: false,
    back: false,
    press: false,
    escape: false,
    next_part: false,
    back_part: false,
};

fn rect(y: f32) -> Rect {
    Rect::new(10.0, y, 80.0, 28.0)
}

/// One frame of three buttons at `ys`: what each learnt.
fn frame(ring: &mut Ring, keys: RingKeys, ys: [f32; 3]) -> [Focus; 3] {
    ring.start_frame(keys, false);
    ys.map(|y| ring.control_unnamed(rect(y), false, true))
}

const SCREEN: [f32; 3] = [0.0, 40.0, 80.0];

fn ringed(focus: [Focus; 3]) -> Option<usize> {
    focus.iter().position(|focus| focus.ringed)
}

#[test]
fn tab_walks_the_controls_in_drawing_order_and_wraps_and_shift_tab_walks_back() {
    let mut ring = Ring::default();
    assert_eq!(ringed(frame(&mut ring, NONE, SCREEN)), None);
    let first = frame(&mut ring, TAB, SCREEN);
    assert_eq!(ringed(first), Some(0));
    assert!(first[0].arrived && !first[0].pressed);
    assert_eq!(ringed(frame(&mut ring, NONE, SCREEN)), Some(0), "it stays");
    assert_eq!(ringed(frame(&mut ring, TAB, SCREEN)), Some(1));
    assert_eq!(ringed(frame(&mut ring, TAB, SCREEN)), Some(2));
    assert_eq!(ringed(frame(&mut ring, TAB, SCREEN)), Some(0), "around");
    assert_eq!(ringed(frame(&mut ring, SHIFT_TAB, SCREEN)), Some(2));
    let mut fresh = Ring::default();
    frame(&mut fresh, NONE, SCREEN);
    assert_eq!(
        ringed(frame(&mut fresh, SHIFT_TAB, SCREEN)),
        Some(2),
        "the last"
    );
}

#[test]
fn enter_presses_only_the_ringed_control() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    let pressed = frame(&mut ring, ENTER, SCREEN).map(|focus| focus.pressed);
    assert_eq!(pressed, [false, true, false]);
    let mut unringed = Ring::default();
    frame(&mut unringed, NONE, SCREEN);
    let pressed = frame(&mut unringed, ENTER, SCREEN).map(|focus| focus.pressed);
    assert_eq!(pressed, [false; 3], "Enter with no ring presses nothing");
}

#[test]
fn the_ring_goes_when_another_screen_puts_another_control_in_its_place_or_the_mouse_clicks() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    // The screen changed: the first control is elsewhere.
    let other = [300.0, 340.0, 380.0];
    assert_eq!(ringed(frame(&mut ring, NONE, other)), None);
    assert_eq!(
        ringed(frame(&mut ring, ENTER, other)),
        None,
        "nothing pressed"
    );
    assert_eq!(
        ringed(frame(&mut ring, TAB, other)),
        Some(0),
        "Tab starts over"
    );
    ring.start_frame(NONE, true);
    let clicked = SCREEN.map(|y| ring.control_unnamed(rect(y), false, true));
    assert_eq!(ringed(clicked), None, "a click takes it");
    // Fewer controls than the ring's place: it goes.
    frame(&mut ring, TAB, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    ring.start_frame(NONE, false);
    ring.control_unnamed(rect(0.0), false, true);
    ring.start_frame(NONE, false);
    let focus = [rect(0.0), rect(40.0), rect(80.0)].map(|r| ring.control_unnamed(r, false, true));
    assert_eq!(ringed(focus), None);
}

#[test]
fn a_clicked_field_takes_the_ring_and_tab_goes_on_from_it() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    ring.start_frame(NONE, true);
    let a = ring.control_unnamed(rect(0.0), false, true);
    let field = ring.control_unnamed(rect(40.0), true, true);
    let c = ring.control_unnamed(rect(80.0), false, true);
    assert!(!a.ringed && field.ringed && !field.arrived && !c.ringed);
    assert_eq!(ringed(frame(&mut ring, TAB, SCREEN)), Some(2));
}

#[test]
fn enter_belongs_to_a_field_that_holds_the_keyboard_not_to_the_ringed_button() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    frame(&mut ring, TAB, SCREEN);
    // A field took the keyboard by itself (its turn came) while the ring stood on the first
    // button.
    ring.start_frame(NONE, false);
    ring.control_unnamed(rect(0.0), false, true);
    ring.typing = true;
    ring.start_frame(ENTER, false);
    let first = ring.control_unnamed(rect(0.0), false, true);
    assert!(first.ringed && !first.pressed, "Enter went to the field");
    ring.start_frame(ENTER, false);
    assert!(
        ring.control_unnamed(rect(0.0), false, true).pressed,
        "the field let go: Enter presses"
    );
}

/// One frame of a list of rows, each with a Join and a Close button, drawn top down in
/// `rooms`' order: what each row's buttons learnt, by room.
fn list_frame(ring: &mut Ring, keys: RingKeys, rooms: &[u64]) -> Vec<(u64, [Focus; 2])> {
    ring.start_frame(keys, false);
    ring.control_unnamed(rect(0.0), false, true); // a button above the list
    (rooms.iter().enumerate())
        .map(|(row, &room)| {
            ring.scope = Some(("room", room));
            ring.in_scope = 0;
            let y = 40.0 + 40.0 * row as f32;
            let join = ring.control_unnamed(Rect::new(10.0, y, 80.0, 28.0), false, true);
            let close = ring.control_unnamed(Rect::new(100.0, y, 60.0, 28.0), false, true);
            ring.scope = None;
            (room, [join, close])
        })
        .collect()
}

#[test]
fn the_ring_stays_on_its_rows_control_when_a_row_comes_above_it() {
    let mut ring = Ring::default();
    list_frame(&mut ring, NONE, &[10]);
    for _ in 0..2 {
        list_frame(&mut ring, TAB, &[10]);
    }
    // Room 10's Join has the ring; room 11 is made and listed first.
    let moved = list_frame(&mut ring, NONE, &[11, 10]);
    assert!(!moved[0].1[0].ringed, "not room 11's Join");
    assert!(moved[1].1[0].ringed, "room 10's Join kept it");
    let pressed = list_frame(&mut ring, ENTER, &[11, 10]);
    assert!(pressed[1].1[0].pressed && !pressed[0].1[0].pressed);
    // Tab goes on from where the row is now.
    let next = list_frame(&mut ring, TAB, &[11, 10]);
    assert!(next[1].1[1].ringed, "room 10's Close");
    // The row goes: so does the ring.
    list_frame(&mut ring, NONE, &[11]);
    let after = list_frame(&mut ring, ENTER, &[11]);
    assert!(
        after
            .iter()
            .all(|(_, focus)| !focus[0].pressed && !focus[1].pressed)
    );
}

#[test]
fn a_button_whose_words_grow_leftwards_keeps_the_ring_and_escape_takes_it() {
    let mut ring = Ring::default();
    ring.start_frame(NONE, false);
    ring.control_unnamed(Rect::new(300.0, 10.0, 60.0, 28.0), false, true);
    ring.start_frame(TAB, false);
    assert!(
        ring.control_unnamed(Rect::new(300.0, 10.0, 60.0, 28.0), false, true)
            .ringed
    );
    // "Close" became "Sure? Close", its right edge where it was.
    ring.start_frame(NONE, false);
    assert!(
        ring.control_unnamed(Rect::new(260.0, 10.0, 100.0, 28.0), false, true)
            .ringed
    );
    let escape = RingKeys {
        escape: true,
        ..NONE
    };
    ring.start_frame(escape, false);
    assert!(
        !ring
            .control_unnamed(Rect::new(260.0, 10.0, 100.0, 28.0), false, true)
            .ringed
    );
}

/// One frame of three buttons at `SCREEN`, the middle one `enabled` or not.
fn frame_with_middle(ring: &mut Ring, keys: RingKeys, enabled: bool) -> [Focus; 3] {
    ring.start_frame(keys, false);
    [0, 1, 2].map(|i| ring.control_unnamed(rect(SCREEN[i]), false, i != 1 || enabled))
}

#[test]
fn tab_passes_over_a_disabled_button_both_ways() {
    let mut ring = Ring::default();
    frame_with_middle(&mut ring, NONE, false);
    assert_eq!(ringed(frame_with_middle(&mut ring, TAB, false)), Some(0));
    assert_eq!(ringed(frame_with_middle(&mut ring, TAB, false)), Some(2));
    assert_eq!(
        ringed(frame_with_middle(&mut ring, SHIFT_TAB, false)),
        Some(0)
    );
    // Enabled again, it is reached again.
    frame_with_middle(&mut ring, NONE, true);
    assert_eq!(ringed(frame_with_middle(&mut ring, TAB, true)), Some(1));
    // Disabled under the ring, it keeps it, but Enter presses nothing.
    frame_with_middle(&mut ring, NONE, false);
    let pressed = frame_with_middle(&mut ring, ENTER, false);
    assert!(pressed[1].ringed);
    assert!(pressed.iter().all(|focus| !focus.pressed));
    // With nothing enabled, Tab finds nothing.
    let mut none = Ring::default();
    none.start_frame(NONE, false);
    none.control_unnamed(rect(0.0), false, false);
    none.start_frame(TAB, false);
    assert!(!none.control_unnamed(rect(0.0), false, false).ringed);
}

#[test]
fn a_board_taking_the_keyboard_takes_the_ring_and_frees_the_keys() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    assert!(ring.keys_free());
    frame(&mut ring, TAB, SCREEN);
    assert!(!ring.keys_free(), "a button has the ring");
    ring.let_go();
    assert!(ring.keys_free());
    let after = frame(&mut ring, ENTER, SCREEN);
    assert!(after.iter().all(|focus| !focus.ringed && !focus.pressed));
    // A text field that held the keyboard keeps Enter from the board too.
    ring.typing = true;
    frame(&mut ring, NONE, SCREEN);
    assert!(!ring.keys_free());
}

#[test]
fn escape_says_it_only_took_the_ring_when_there_was_one() {
    let escape = RingKeys {
        escape: true,
        ..NONE
    };
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    frame(&mut ring, escape, SCREEN);
    assert!(!ring.escape_took_ring, "no ring: Escape is the screen's");
    frame(&mut ring, TAB, SCREEN);
    frame(&mut ring, escape, SCREEN);
    assert!(ring.escape_took_ring);
    frame(&mut ring, escape, SCREEN);
    assert!(
        !ring.escape_took_ring,
        "the ring is gone: the next Escape is the screen's"
    );
}

impl Ring {
    /// A control with no words, as most of these tests draw them.
    fn control_unnamed(&mut self, rect: Rect, clicked: bool, enabled: bool) -> Focus {
        self.control(rect, "", clicked, enabled)
    }
}

#[test]
fn another_button_drawn_where_the_ringed_one_was_does_not_take_its_ring() {
    let button = Rect::new(300.0, 10.0, 80.0, 28.0);
    let mut ring = Ring::default();
    ring.start_frame(NONE, false);
    ring.control(button, "Resign", false, true);
    ring.start_frame(TAB, false);
    assert!(ring.control(button, "Resign", false, true).ringed);
    ring.start_frame(ENTER, false);
    let asking = ring.control(button, "Sure? Resign", false, true);
    assert!(asking.ringed && asking.pressed, "the same button, asking");
    // Resigned: Play again stands where Resign stood, and Enter must not press it.
    ring.start_frame(ENTER, false);
    let again = ring.control(button, "Play again", false, true);
    assert!(!again.ringed && !again.pressed);
}

const F6: RingKeys = RingKeys {
    next_part: true,
    ..NONE
};
const SHIFT_F6: RingKeys = RingKeys {
    back_part: true,
    ..NONE
};

/// One frame of a screen in parts: a server row of two controls, then a part of three whose
/// first is disabled, an empty part, and a part of two: which control has the ring.
fn parts_frame(ring: &mut Ring, keys: RingKeys) -> Option<usize> {
    ring.start_frame(keys, false);
    let mut ringed = None;
    let mut index = 0;
    let mut draw = |ring: &mut Ring, enabled: bool| {
        if ring
            .control_unnamed(rect(index as f32 * 40.0), false, enabled)
            .ringed
        {
            ringed = Some(index);
        }
        index += 1;
    };
    draw(ring, true);
    draw(ring, true);
    ring.parts.push(ring.enabled.len());
    draw(ring, false);
    draw(ring, true);
    draw(ring, true);
    ring.parts.push(ring.enabled.len());
    ring.parts.push(ring.enabled.len());
    draw(ring, true);
    draw(ring, true);
    ringed
}

#[test]
fn f6_brings_the_ring_to_each_parts_first_enabled_control_and_around() {
    let mut ring = Ring::default();
    assert_eq!(parts_frame(&mut ring, NONE), None);
    assert_eq!(parts_frame(&mut ring, F6), Some(0), "the first part first");
    assert_eq!(
        parts_frame(&mut ring, F6),
        Some(3),
        "its disabled first passed over"
    );
    assert_eq!(
        parts_frame(&mut ring, F6),
        Some(5),
        "the empty part passed over"
    );
    assert_eq!(parts_frame(&mut ring, F6), Some(0), "around");
    assert_eq!(parts_frame(&mut ring, SHIFT_F6), Some(5));
    assert_eq!(parts_frame(&mut ring, SHIFT_F6), Some(3));
    assert_eq!(
        parts_frame(&mut ring, TAB),
        Some(4),
        "Tab goes on from there"
    );
    assert_eq!(parts_frame(&mut ring, F6), Some(5), "F6 from inside a part");
    assert_eq!(
        parts_frame(&mut ring, SHIFT_F6),
        Some(3),
        "and back to its start"
    );
    let mut fresh = Ring::default();
    parts_frame(&mut fresh, NONE);
    assert_eq!(
        parts_frame(&mut fresh, SHIFT_F6),
        Some(5),
        "Shift+F6: the last part"
    );
}

#[test]
fn f6_on_a_screen_without_parts_rings_its_first_control() {
    let mut ring = Ring::default();
    frame(&mut ring, NONE, SCREEN);
    assert_eq!(ringed(frame(&mut ring, F6, SCREEN)), Some(0));
    assert_eq!(
        ringed(frame(&mut ring, F6, SCREEN)),
        Some(0),
        "one part: it stays"
    );
}
