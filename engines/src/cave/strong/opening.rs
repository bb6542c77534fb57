//! The opening: keep away from the opponent's bricks. Every vertical and diagonal five crosses
//! rows 4 and 5, and a brick that touches an opponent's brick shares lines with it that are
//! then dead for both sides. Early contact fills the middle rows in mixed colours and leads to
//! a board where nobody can make five: a tie. Against classic, strong's ties came from such
//! early choices that it scored as near-equal to moves that kept apart. In the six two-brick
//! openings where strong as White always tied, each of White's first replies was played out at
//! 100 ms a move: the touching move strong had chosen tied in all six, and most replies that
//! kept apart won.
//!
//! So before [`BRICKS`] bricks, when the search's best move touches an opponent's brick, the
//! engine searches again without the touching moves, and plays the best of those unless it
//! scores more than [`MARGIN`] worse. Against classic (`client cave arena --a strong --b
//! classic --games 544 --openings 272 --a-move-ms 100 --b-move-ms 100 --jobs 2`) this scored
//! 518/4/22, 522/1/21 and 507/11/26 (wins/losses/ties) where the engine without it scored 498
//! to 510 wins with 27 to 42 ties. Up to 6 bricks it scored 508/6/30, up to 12 514/5/25 and up
//! to 16 492/10/42: later in the game the lines a touching brick kills are already decided. At
//! 1 s a move (`--games 200 --openings 100 --a-move-ms 1000 --b-move-ms 1000`) it scored
//! 193/1/6 and 194/1/5, with `--opening-offset 1` 196/0/4 and 187/2/11 (the search goes by
//! the clock: a run again is a new sample) and with `--opening-offset 2` (44 of its 100
//! openings are offset 0's) 194/0/6, where the engine without it scored 182/0/18 and 181/3/16
//! on the first two samples.
//!
//! Only against classic ([`Opponent::Classic`]): against the strong engine itself, and against
//! normal, the contact moves are right. Strong with the rule against strong without it
//! (`cave arena --a strong --b strong --games 200 --openings 100 [--opening-offset 1]`, 101 ms
//! against 100 ms with the rule on the odd budget only) scored 41.8%, 46.0%, 42.8% and 45.2%
//! where the two without it scored 49.0%; as White it lost 42 to 49 games of 100, the first
//! player building in the middle rows the second had kept away from. Against normal, on the
//! same 100 games at 100 ms (`--b normal --games 100 --openings 50`), it scored 93/1/6 where
//! the plain search scored 98/0/2.
//!
//! The ties that remain are settled in the middle game, not lost at the end: over the 40
//! games strong tied as White in two 544-game runs at 100 ms, df-pn (`cave prove --positions
//! --start-bricks 43 --plies 0 --nodes 3000000`) proves 30 of the positions at brick 43 tied,
//! 3 lost and 1 won for White. A contempt for ties (a tie worth -1500 to the engine against
//! classic) scored 512/6/26 where the engine without it scored 514/7/23 on the same 544 games.
//!
//! Since the engine foresees classic's replies (`foresight.rs`) the rule makes no measurable
//! difference: on the same 544 games at 100 ms it scored 530/2/12 with the rule and 533/0/11
//! without it. It stays, as every 1 s sample of the foresight was played with it.
//!
//! [`Opponent::Classic`]: crate::cave::Opponent::Classic

use parlor_shared::cave::{Position, Square, beside_in_row, squares_of};

use super::zobrist::Hashes;
use super::{Score, Strong, WIN_THRESHOLD};

/// The rule holds while fewer bricks than this are on the board: each side's first four moves.
pub const BRICKS: u32 = 8;
/// How much worse (in the evaluation's units) the best move that keeps apart may score and
/// still be played. Wide: one centre pair is worth 400.
pub const MARGIN: Score = 1000;

/// The empty cells touching one of `theirs`, in any of the eight directions; none across a
/// wall.
pub fn touching(theirs: u64, occupied: u64) -> u64 {
    let beside = beside_in_row(theirs);
    let in_row = theirs | beside;
    (beside | (in_row << 8) | (in_row >> 8)) & !occupied
}

impl Strong {
    /// The opening's search: `deepen` in half the time; when its best move touches, a search
    /// without the touching moves in the other half (see the module's comment). A best move
    /// that keeps apart is played after the first half, as measured: searching the moves apart
    /// again in the other half scored 191/2/7 at 1 s a move (`--opening-offset 0`), where this
    /// scored 194/1/5 and 193/1/6.
    pub(super) fn deepen_apart(
        &mut self,
        position: &Position,
        hashes: Hashes,
        fallback: Square,
    ) -> (Square, Score, i32) {
        let legal = position.legal_moves();
        let theirs = position.bricks(position.to_move().other());
        let touching_moves = touching(theirs, position.occupied()) & legal;
        let Some(first_apart) = squares_of(legal & !touching_moves).next() else {
            return self.deepen(position, hashes, fallback);
        };
        let deadline = self.deadline;
        let now = std::time::Instant::now();
        self.deadline = now + deadline.saturating_duration_since(now) / 2;
        let best = self.deepen(position, hashes, fallback);
        self.deadline = deadline;
        if touching_moves & best.0.bit() == 0 || best.1.abs() >= WIN_THRESHOLD {
            return best;
        }
        self.out_of_time = false;
        self.root_excluded = touching_moves;
        let apart = self.deepen(position, hashes, first_apart);
        self.root_excluded = 0;
        if apart.2 > 0 && apart.1 > -WIN_THRESHOLD && apart.1 >= best.1 - MARGIN {
            apart
        } else {
            best
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::cave::prover::{test_bits as bits, test_position};
    use crate::cave::strong::table::Bound;
    use crate::cave::{CaveEngine, Opponent};

    #[test]
    fn touching_cells_are_the_eight_neighbours_and_none_wrap_across_a_wall() {
        assert_eq!(
            touching(bits("d4"), bits("d4")),
            bits("c3 d3 e3 c4 e4 c5 d5 e5")
        );
        assert_eq!(touching(bits("h4"), bits("h4")), bits("g3 h3 g4 g5 h5"));
        assert_eq!(touching(bits("a1"), bits("a1")), bits("b1 a2 b2"));
        assert_eq!(
            touching(bits("a8"), bits("a8 b8")),
            bits("a7 b7"),
            "only empty cells"
        );
    }

    /// Two of the openings strong as White always tied, with White to move. At fixed depth the
    /// plain search scores (depth 4) b4 at -1130 and the best move apart, h4, at -1744; and
    /// (depth 6) h5 at -1753 and h8 at -2899.
    const NEAR: &str = "a5 a4 b5";
    const FAR: &str = "h6 h1 h4";
    const EIGHT_BRICKS: &str = "h1 a8 h4 g4 f4 e4 d4 h5";

    /// A fixed-depth engine facing `opponent`, with no foresight of classic's replies: the
    /// scores these tests name are the plain search's.
    fn engine_facing(opponent: Opponent, depth: i32) -> Strong {
        let mut engine = Strong::new(Some(depth));
        engine.face(opponent);
        engine.classic_replies.distrust();
        engine
    }

    /// The move of a fixed-depth search facing `opponent`, and whether it touches one of the
    /// opponent's bricks.
    fn plays_facing(opponent: Opponent, moves: &str, depth: i32) -> (Square, bool) {
        let position = test_position(moves);
        let theirs = position.bricks(position.to_move().other());
        let mut engine = engine_facing(opponent, depth);
        let square = engine.search(&position, Duration::from_secs(60)).unwrap();
        let touches = touching(theirs, position.occupied()) & square.bit() != 0;
        (square, touches)
    }

    fn plays(moves: &str, depth: i32) -> (Square, bool) {
        plays_facing(Opponent::Classic, moves, depth)
    }

    #[test]
    fn in_the_opening_the_best_move_apart_is_played_within_the_margin_only() {
        assert_eq!(plays(NEAR, 4), ("h4".parse().unwrap(), false), "614 worse");
        assert_eq!(plays(FAR, 6), ("h5".parse().unwrap(), true), "1146 worse");
    }

    #[test]
    fn an_opponent_other_than_classic_gets_the_plain_search() {
        assert_eq!(
            plays_facing(Opponent::Unknown, NEAR, 4),
            ("b4".parse().unwrap(), true)
        );
    }

    #[test]
    fn a_root_searched_without_its_touching_moves_is_kept_as_a_lower_bound_only() {
        // Its score leaves out the touching moves, which may be worth more: as an exact score
        // it would mislead a later search that meets the position (a spare engine serves
        // many games).
        let position = test_position(NEAR);
        let mut engine = engine_facing(Opponent::Classic, 4);
        engine.search(&position, Duration::from_secs(60)).unwrap();
        let (key, _) = engine.table_key(Hashes::of(&position), 0);
        let entry = engine.table.probe(key, 0).expect("the root is kept");
        assert_eq!(entry.bound, Bound::Lower);
        assert_eq!(entry.score, engine.last.score);
    }

    #[test]
    fn past_the_opening_the_plain_search_decides() {
        // The first eight bricks of a game strong tied as White at 0.1 s a move; the plain
        // search's best touches one of Black's bricks.
        let position = test_position(EIGHT_BRICKS);
        assert_eq!(position.brick_count(), BRICKS);
        let mut plain = Strong::new(Some(4));
        plain.deadline = std::time::Instant::now() + Duration::from_secs(60);
        let fallback = position.legal_squares().next().unwrap();
        let (best, _, _) = plain.deepen(&position, Hashes::of(&position), fallback);
        assert_eq!(plays(EIGHT_BRICKS, 4), (best, true));
    }

    #[test]
    fn a_four_is_still_blocked_in_the_opening() {
        // Seven bricks: Black's a1-d1 wants e1, which touches d1.
        let position = test_position("a1 h8 b1 h7 c1 h6 d1");
        let mut engine = engine_facing(Opponent::Classic, 4);
        let square = engine.search(&position, Duration::from_secs(60)).unwrap();
        assert_eq!(square, "e1".parse().unwrap());
    }
}
