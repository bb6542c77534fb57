//! What a seat tells its engine of the other seat.

use super::*;

#[test]
fn only_classic_is_named_as_an_opponent() {
    let ai = |kind| SeatSpec::Ai { move_ms: 100, kind };
    let seats = [ai(AiKind::Strong), ai(AiKind::Classic)];
    assert_eq!(Opponent::facing(&seats, 0), Opponent::Classic);
    assert_eq!(Opponent::facing(&seats, 1), Opponent::Unknown);
    for kind in [AiKind::Easy, AiKind::Normal] {
        assert_eq!(
            Opponent::facing(&[SeatSpec::Human, ai(kind)], 0),
            Opponent::Unknown
        );
    }
    let strong_against_person = [ai(AiKind::Standard), SeatSpec::Human];
    assert_eq!(
        Opponent::facing(&strong_against_person, 0),
        Opponent::Unknown
    );
    assert_eq!(
        Opponent::facing(&strong_against_person, 1),
        Opponent::Unknown
    );
    assert_eq!(
        Opponent::facing(&[ai(AiKind::Classic)], 0),
        Opponent::Unknown,
        "alone"
    );
}
