//! Against classic, its replies foreseen. Classic is the seed's fixed depth-4 minimax: in a
//! given position it always plays the same move, and finds it in a few milliseconds. So at
//! the root's children the search follows the one reply classic will make, where it would
//! otherwise assume classic's best: among moves that all tie against best play, the engine
//! then takes one that classic answers badly. Deeper down classic is still assumed to play
//! its best, so no score is worse than the plain search's.
//!
//! Against classic at 100 ms a move (`client cave arena --a strong --b classic --games 544
//! --openings 272 --a-move-ms 100 --b-move-ms 100 --jobs 2`) this scored 534/2/8 and 530/2/12
//! (wins/losses/ties) where the engine without it scored 514/7/23. At the budget
//! (`--games 200 --openings 100 --a-move-ms 1000 --b-move-ms 1000 --jobs 2`) it scored
//! 197/0/3, 196/0/4 and 198/0/2 with `--opening-offset` 0, 1 and 2, and 196/0/4 and 197/0/3
//! with offsets 0 and 1 again (the search goes by the clock: a run again is a new sample),
//! where the engine without it scored 187 to 196 wins with 0 to 2 losses in five samples of
//! these openings.
//! Foreseeing classic's replies two of its moves deep as well (at the root's grandchildren's
//! children) scored 508/3/33 at 100 ms: sixteen times as many of classic's searches, which
//! cannot be cut short, took the time (0.19 s a move on average, 1 s at most, for a budget of
//! 0.1 s).
//!
//! A reply is only foreseen while classic has played every reply as foreseen: a classic given
//! too little time to finish its search plays otherwise, and from then on the engine plays it
//! as any opponent.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use parlor_shared::cave::{Position, Square, squares_of};

use super::Strong;
use super::zobrist::Hashes;
use crate::cave::CaveEngine;
use crate::cave::classic::Classic;

/// The replies kept; the cache starts again when full.
const KEPT_REPLIES: usize = 1 << 16;
/// Classic's depth-4 search ends in milliseconds: this only keeps its clock from cutting it
/// short, which would make its reply differ from the one it plays.
const UNHURRIED: Duration = Duration::from_secs(60);
/// Turns the key of a root whose score assumes classic's foreseen replies into a key of its
/// own, so the score is never read as a true one: by a search of the position deeper in a
/// tree, in this game or another one the same engine plays (a spare engine serves many).
const FORESEEN_ROOT: u64 = 0x5DEE_CE66_D1CE_F00D;
/// What one of classic's searches is assumed to take before one was timed.
const FIRST_GUESS: Duration = Duration::from_millis(5);

pub struct ClassicReplies {
    classic: Classic,
    known: HashMap<Position, Option<Square>>,
    /// The longest one of classic's searches took: a search is only started with this much
    /// time left, as it cannot be cut short.
    slowest: Duration,
    /// The position the engine's last move left to classic, to check classic's reply against.
    awaited: Option<Position>,
    /// False from the first reply classic made other than foreseen.
    trusted: bool,
}

impl Default for ClassicReplies {
    fn default() -> Self {
        ClassicReplies {
            classic: Classic::default(),
            known: HashMap::new(),
            slowest: FIRST_GUESS,
            awaited: None,
            trusted: true,
        }
    }
}

impl ClassicReplies {
    /// The move classic plays in `position` (`None` when it has none), or `Err` when it is
    /// not known yet and there may not be time to search it before `deadline`.
    pub fn reply_by(
        &mut self,
        position: &Position,
        deadline: Instant,
    ) -> Result<Option<Square>, OutOfTime> {
        if let Some(&reply) = self.known.get(position) {
            return Ok(reply);
        }
        let started = Instant::now();
        if started + self.slowest >= deadline {
            return Err(OutOfTime);
        }
        if self.known.len() >= KEPT_REPLIES {
            self.known.clear();
        }
        let reply = self.classic.choose_move(position, UNHURRIED);
        self.slowest = self.slowest.max(started.elapsed());
        self.known.insert(*position, reply);
        Ok(reply)
    }

    /// The move classic plays in `position`, however long it takes to find.
    fn reply(&mut self, position: &Position) -> Option<Square> {
        let unhurried = Instant::now() + UNHURRIED;
        self.reply_by(position, unhurried).unwrap_or_default()
    }

    /// Whether classic's replies may be foreseen from `position`, the engine's turn: checks
    /// the reply that led here against the one foreseen, if the engine's last move left
    /// classic the position before it.
    pub fn trusted_at(&mut self, position: &Position) -> bool {
        if let Some(left) = self.awaited.take()
            && let Some(played) = move_between(&left, position)
            && self.reply(&left) != Some(played)
        {
            self.trusted = false;
        }
        self.trusted
    }

    /// Foresees nothing from now on: for tests of the rest of the engine against classic.
    #[cfg(test)]
    pub fn distrust(&mut self) {
        self.trusted = false;
    }

    /// Remembers the position the engine's move leaves to classic.
    pub fn await_reply(&mut self, left: Position) {
        self.awaited = Some(left);
    }
}

impl Strong {
    /// The transposition table's key for `hashes` at `ply`, and the symmetry that maps the
    /// position onto the stored frame. The root's children are not stored when their replies
    /// are foreseen, and the root is stored under a key of its own.
    pub(super) fn table_key(&self, hashes: Hashes, ply: i32) -> (u64, usize) {
        let (key, symmetry) = hashes.canonical();
        if self.foresee && ply == 0 {
            (key ^ FORESEEN_ROOT, symmetry)
        } else {
            (key, symmetry)
        }
    }
}

/// No time was left to foresee a reply.
#[derive(Debug, PartialEq)]
pub struct OutOfTime;

/// The one move that leads from `before` to `after`, if one does.
fn move_between(before: &Position, after: &Position) -> Option<Square> {
    let mover = before.to_move();
    let placed = after.bricks(mover) & !before.bricks(mover);
    let same_rest = after.bricks(mover) & before.bricks(mover) == before.bricks(mover)
        && after.bricks(mover.other()) == before.bricks(mover.other());
    (same_rest && placed.count_ones() == 1).then(|| squares_of(placed).next())?
}

#[cfg(test)]
mod tests {
    use parlor_shared::cave::Outcome;
    use proptest::prelude::*;

    use super::super::{WIN, WIN_THRESHOLD};
    use super::*;
    use crate::cave::Opponent;
    use crate::cave::prover::{Xorshift, test_position};

    /// Every position of a game of random moves seeded `seed`, from the empty cave.
    fn random_game(seed: u64) -> Vec<Position> {
        let mut moves = Xorshift::new(seed);
        let mut game = vec![Position::new()];
        while let Some(&last) = game.last()
            && last.outcome().is_none()
            && let Some(square) = moves.legal_move(&last)
        {
            game.push(last.play_unchecked(square));
        }
        game
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(16))]
        #[test]
        fn the_foreseen_reply_is_the_move_classic_plays(seed in any::<u64>()) {
            // One cache for the whole game, asked from the end back and then again: a cache
            // that mixed positions up would answer one with another's reply.
            let game = random_game(seed);
            let mut replies = ClassicReplies::default();
            for position in game.iter().rev().chain(&game) {
                let played = Classic::default().choose_move(position, Duration::from_secs(10));
                prop_assert_eq!(replies.reply(position), played);
            }
        }
    }

    #[test]
    fn the_move_between_two_positions_is_found_only_when_one_brick_was_added() {
        let before = test_position("a1 h8");
        let b1: Square = "b1".parse().unwrap();
        assert_eq!(move_between(&before, &test_position("a1 h8 b1")), Some(b1));
        assert_eq!(move_between(&before, &before), None);
        assert_eq!(
            move_between(&before, &test_position("a1 h8 b1 h7 c1")),
            None
        );
        assert_eq!(move_between(&before, &test_position("a1 h7 b1")), None);
    }

    /// The first eight bricks of an arena game strong tied as White; Black (the engine here)
    /// to move.
    const MIDDLE_GAME: &str = "h1 a8 h4 g4 f4 e4 d4 h5";

    /// Whether the engine, told it plays classic, still foresees its replies after playing
    /// its move in `MIDDLE_GAME` and then meeting the reply `reply` picks, given the position
    /// and classic's own reply.
    fn foresees_after(reply: impl FnOnce(&Position, Square) -> Square) -> bool {
        let mut engine = Strong::new(Some(2));
        engine.face(Opponent::Classic);
        let start = test_position(MIDDLE_GAME);
        let square = engine.search(&start, Duration::from_secs(60)).unwrap();
        assert!(engine.foresee);
        let left = start.play_unchecked(square);
        let classic = ClassicReplies::default().reply(&left).unwrap();
        let next = left.play_unchecked(reply(&left, classic));
        engine.search(&next, Duration::from_secs(60)).unwrap();
        let trusted_then = engine.foresee;
        // Nor is classic trusted again in a later game.
        engine.search(&test_position("a1 h8 b1"), Duration::from_secs(60));
        assert_eq!(engine.foresee, trusted_then);
        trusted_then
    }

    #[test]
    fn classic_is_foreseen_while_it_plays_as_foreseen_and_never_after_it_does_not() {
        assert!(foresees_after(|_, classic| classic));
        let other = |left: &Position, classic: Square| {
            left.legal_squares().find(|&s| s != classic).unwrap()
        };
        assert!(!foresees_after(other));
    }

    #[test]
    fn a_reply_not_known_yet_is_only_searched_with_time_for_it() {
        let mut replies = ClassicReplies::default();
        let position = test_position(MIDDLE_GAME);
        let now = Instant::now();
        assert_eq!(replies.reply_by(&position, now), Err(OutOfTime));
        let known = replies.reply(&position);
        assert!(known.is_some());
        assert_eq!(replies.reply_by(&position, now), Ok(known));
    }

    #[test]
    fn a_root_scored_with_foreseen_replies_is_kept_apart_from_true_scores() {
        let position = test_position(MIDDLE_GAME);
        let mut engine = Strong::new(Some(2));
        engine.face(Opponent::Classic);
        engine.search(&position, Duration::from_secs(60));
        let hashes = Hashes::of(&position);
        assert!(engine.table.probe(hashes.canonical().0, 0).is_none());
        let (key, _) = engine.table_key(hashes, 0);
        let entry = engine.table.probe(key, 0).expect("the root is kept");
        assert_eq!(entry.score, engine.last.score);
    }

    /// 21 bricks of a game strong won as White against classic at 0.1 s a move; White to move.
    const FORESEEN_WIN: &str = "a1 h1 a4 h4 a3 g4 a5 a2 a6 a7 f4 e4 d4 h5 c4 g5 b4 f5 e5 d5 c5";

    #[test]
    fn a_move_classic_answers_badly_is_played_and_wins_against_classic() {
        let start = test_position(FORESEEN_WIN);
        let mut plain = Strong::new(Some(4));
        plain.search(&start, Duration::from_secs(60));
        assert!(
            plain.last.score < WIN_THRESHOLD,
            "the plain search sees no win"
        );
        let mut engine = Strong::new(Some(4));
        engine.face(Opponent::Classic);
        let mut classic = Classic::default();
        let mut position = start;
        while position.outcome().is_none() {
            let square = if position.to_move() == start.to_move() {
                engine.search(&position, Duration::from_secs(60))
            } else {
                classic.choose_move(&position, Duration::from_secs(10))
            };
            if position == start {
                assert_eq!(square, "g1".parse().ok());
                assert_eq!(engine.last.score, WIN - 7, "a win in 7 plies");
            }
            position = position.play(square.unwrap()).unwrap();
        }
        assert_eq!(position.outcome(), Some(Outcome::Win(start.to_move())));
        assert!(
            position.brick_count() <= start.brick_count() + 7,
            "no later than foreseen"
        );
    }

    #[test]
    fn nothing_is_foreseen_of_an_opponent_other_than_classic() {
        let mut engine = Strong::new(Some(2));
        engine.face(Opponent::Unknown);
        engine.search(&test_position(MIDDLE_GAME), Duration::from_secs(60));
        assert!(!engine.foresee);
    }
}
