//! Hexapawn in rooms: a person against HER (slow or fast mode), and HER against HER (auto
//! mode) watched live. These are what screens draw; HER's brain itself stays on the server,
//! which makes HER's moves and keeps its brains, so a view carries only HER's box in use.
//!
//! The board part is pure: [`HexGame::play`] moves a pawn, which is all a replay of a stored
//! game needs (stored games list every ply, HER's too).

use serde::{Deserialize, Serialize};

use super::board::{Move, Position, Status};
use super::her::{Brain, MatchboxView};
use super::modes::{CurvePoint, HerStats, RoundResult};
use super::{Dims, HexapawnError, Side};

/// The side the person plays against HER: White, who moves first.
pub const PERSON_SIDE: Side = Side::White;
/// The seats of a game against HER: the person, then HER.
pub const PERSON_SEAT: u8 = 0;
pub const HER_SEAT: u8 = 1;
/// The longest brain name a client may give.
pub const MAX_BRAIN_NAME: usize = 40;

/// How HER plays against a person.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PlayMode {
    /// On HER's turn its matchbox is shown; the person forces one of its moves or lets HER
    /// pick a bead.
    Slow,
    /// HER just moves.
    Fast,
}

/// What a game against HER is created with. The brain is the server's, by name; a name not
/// yet known makes a new, empty brain of this size and mirror setting.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HexSetup {
    pub dims: Dims,
    pub mirrors: bool,
    pub mode: PlayMode,
    pub brain: String,
}

/// One move in a game against HER.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HexMove {
    /// A pawn move: the person's own, or in slow mode on HER's turn the move forced on HER
    /// (it must still have a bead).
    Play(Move),
    /// Slow mode, HER's turn: HER draws a bead at random (or resigns before an empty box).
    HerPicks,
    /// HER faced an empty box and gave up. Only HER's seat makes this move (the server, when
    /// HER draws from an empty box); it is how stored games record the resignation.
    HerResigns,
}

/// A matchbox as a screen shows it: HER's position and each legal move with its bead (0 or 1).
/// A move's chance is its beads over `total`; an empty box means HER resigns.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct BoxView {
    pub position: Position,
    pub beads: Vec<(Move, u32)>,
    pub total: u32,
}

impl From<MatchboxView> for BoxView {
    fn from(view: MatchboxView) -> BoxView {
        BoxView {
            position: view.position,
            beads: view
                .beads
                .iter()
                .map(|bead| (bead.mv, bead.beads))
                .collect(),
            total: view.total,
        }
    }
}

impl BoxView {
    /// The box `brain` holds for `position` (HER to move), or `None` once the game is over.
    pub fn of(brain: &Brain, position: &Position) -> Option<BoxView> {
        brain.matchbox(position).ok().map(BoxView::from)
    }

    /// The chance HER draws `mv`, 0 when it has no bead.
    pub fn chance(&self, mv: Move) -> f64 {
        let beads = self
            .beads
            .iter()
            .find(|(m, _)| *m == mv)
            .map_or(0, |&(_, b)| b);
        if self.total == 0 {
            0.0
        } else {
            f64::from(beads) / f64::from(self.total)
        }
    }
}

/// A game of a person against HER, as every screen sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexGame {
    pub setup: HexSetup,
    pub position: Position,
    /// Every ply from the start, the person's and HER's.
    pub plies: Vec<Move>,
    /// HER's box for the position while HER is to move (slow mode draws it).
    pub matchbox: Option<BoxView>,
    /// HER faced an empty box and gave up.
    pub her_resigned: bool,
    /// HER's brain now: its boxes and beads.
    pub brain_boxes: u32,
    pub brain_beads: u64,
}

impl HexGame {
    pub fn new(setup: HexSetup, brain: &Brain) -> HexGame {
        let position = Position::start(setup.dims);
        HexGame {
            setup,
            position,
            plies: Vec::new(),
            matchbox: None,
            her_resigned: false,
            brain_boxes: brain.boxes() as u32,
            brain_beads: brain.beads(),
        }
    }

    /// Who won, once someone has.
    pub fn winner(&self) -> Option<Side> {
        if self.her_resigned {
            return Some(PERSON_SIDE);
        }
        match self.position.status() {
            Status::Playing => None,
            Status::Won { winner, .. } => Some(winner),
        }
    }

    /// Whose turn it is by seat: the person's on White's turn, HER's on Black's.
    pub fn seat_to_move(&self) -> Option<u8> {
        if self.winner().is_some() {
            return None;
        }
        Some(if self.position.to_move() == PERSON_SIDE {
            PERSON_SEAT
        } else {
            HER_SEAT
        })
    }

    /// The seat whose move the game waits for: in slow mode the person's on HER's turn too,
    /// as they act for HER (they force HER's move or let HER draw).
    pub fn seat_waited_for(&self) -> Option<u8> {
        let seat = self.seat_to_move()?;
        Some(match self.setup.mode {
            PlayMode::Slow => PERSON_SEAT,
            PlayMode::Fast => seat,
        })
    }

    /// What the end of the game says, for the person.
    pub fn result_text(&self) -> Option<String> {
        if self.her_resigned {
            return Some("HER resigns: its matchbox is empty. You win!".into());
        }
        match self.position.status() {
            Status::Playing => None,
            status @ Status::Won { winner, .. } => Some(if winner == PERSON_SIDE {
                format!("You win. {status}")
            } else {
                format!("HER wins. {status}")
            }),
        }
    }

    /// The game after the side to move plays `mv`; HER's matchbox is left for the server to
    /// fill in. Never changes `self`.
    pub fn play(&self, mv: Move) -> Result<HexGame, HexapawnError> {
        if self.her_resigned {
            return Err(HexapawnError::GameOver(Status::Won {
                winner: PERSON_SIDE,
                reason: super::WinReason::NoLegalMove,
            }));
        }
        let mut next = self.clone();
        next.position = self.position.play(mv)?;
        next.plies.push(mv);
        next.matchbox = None;
        Ok(next)
    }
}

impl HexGame {
    /// The game after HER resigns on its turn.
    pub fn her_resigns(&self) -> Result<HexGame, HexapawnError> {
        match self.position.status() {
            Status::Playing if self.position.to_move() != PERSON_SIDE && !self.her_resigned => {
                let mut next = self.clone();
                next.her_resigned = true;
                next.matchbox = None;
                Ok(next)
            }
            Status::Playing => Err(HexapawnError::BadPositionText(
                "HER can only resign on its own turn".into(),
            )),
            over => Err(HexapawnError::GameOver(over)),
        }
    }
}

/// How fast an auto match runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Pace {
    /// As fast as the server can: watchers see a throttled stream of its progress.
    FullSpeed,
    /// Every ply waits this long, so people can follow the games.
    PerPly { ms: u32 },
}

/// The most rounds an auto match may be set up for, and the slowest pace.
pub const MAX_MATCH_ROUNDS: u64 = 1_000_000;
pub const MAX_PLY_MS: u32 = 10_000;

/// What an auto match is created with: two named brains of the server (made empty when new).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct MatchSetup {
    pub dims: Dims,
    pub mirrors: bool,
    pub rounds: u64,
    pub pace: Pace,
    pub brains: [String; 2],
}

impl MatchSetup {
    /// Why this setup cannot start, if it cannot.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_MATCH_ROUNDS).contains(&self.rounds) {
            return Err(format!(
                "an auto match plays 1 to {MAX_MATCH_ROUNDS} rounds, not {}",
                self.rounds
            ));
        }
        if let Pace::PerPly { ms } = self.pace
            && ms > MAX_PLY_MS
        {
            return Err(format!("a ply waits at most {MAX_PLY_MS} ms, not {ms}"));
        }
        if self.brains[0] == self.brains[1] {
            return Err("the two HERs need two different brains".into());
        }
        self.brains
            .iter()
            .try_for_each(|name| super::BrainRef::parse(name).map(drop))
    }
}

/// Why a brain name is refused: names are 1 to [`MAX_BRAIN_NAME`] printable characters, not
/// all of them spaces (a blank name shows as nothing in a list and cannot be told apart).
pub fn check_brain_name(name: &str) -> Result<(), String> {
    let length = name.chars().count();
    if length == 0 || length > MAX_BRAIN_NAME || name.chars().any(char::is_control) {
        return Err(format!(
            "a brain name has 1 to {MAX_BRAIN_NAME} printable characters, not {name:?}"
        ));
    }
    if name.trim().is_empty() {
        return Err(format!(
            "a brain name needs a character other than spaces, not {name:?}"
        ));
    }
    Ok(())
}

/// The most points of the learning curve a view carries: a long match's curve is thinned by
/// merging neighbouring windows, so a view stays small whatever the match's length.
pub const MAX_CURVE_POINTS: usize = 200;

/// An auto match as its watchers see it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchView {
    pub setup: MatchSetup,
    pub rounds_played: u64,
    pub stats: [HerStats; 2],
    /// The board being played (or the last one, between rounds and at full speed).
    pub position: Position,
    /// The move that led to `position`, marked on the board.
    pub last_move: Option<Move>,
    /// Which HER plays White in the round on the board.
    #[serde(deserialize_with = "super::modes::her_index")]
    pub white: u8,
    /// The box of the HER to move, while a round is on the board.
    pub matchbox: Option<BoxView>,
    pub last_round: Option<RoundResult>,
    /// The learning curve, at most [`MAX_CURVE_POINTS`] points of `rounds_per_point` rounds.
    pub curve: Vec<CurvePoint>,
    pub rounds_per_point: u64,
    pub boxes: [u32; 2],
    pub beads: [u64; 2],
    pub finished: bool,
    /// The server could not store the last rounds played (its database out of reach, its
    /// disk full) and the match waits until it can: nothing is lost, and it goes on once they
    /// are stored (version 15).
    pub store_waiting: bool,
}

impl MatchView {
    /// A match about to start, with empty brains.
    pub fn new(setup: MatchSetup) -> MatchView {
        MatchView {
            position: Position::start(setup.dims),
            last_move: None,
            setup,
            rounds_played: 0,
            stats: [HerStats::default(); 2],
            white: 0,
            matchbox: None,
            last_round: None,
            curve: Vec::new(),
            rounds_per_point: super::CURVE_WINDOW,
            boxes: [0; 2],
            beads: [0; 2],
            finished: false,
            store_waiting: false,
        }
    }

    /// Once the match is over: the HER with more wins (as seat 0 or 1), or a tie.
    pub fn outcome(&self) -> Option<crate::game::Outcome> {
        use crate::game::Outcome;
        self.finished
            .then(|| match self.stats[0].wins.cmp(&self.stats[1].wins) {
                std::cmp::Ordering::Greater => Outcome::Won { seat: 0 },
                std::cmp::Ordering::Less => Outcome::Won { seat: 1 },
                std::cmp::Ordering::Equal => Outcome::Tie,
            })
    }
}

/// `curve` (one point per `window` rounds) thinned to at most `max` points by merging runs of
/// neighbours: losses add up, beads are those at the end of the run. Returns the points and
/// the rounds each covers (the last may cover fewer).
pub fn thin_curve(curve: &[CurvePoint], window: u64, max: usize) -> (Vec<CurvePoint>, u64) {
    let per_point = curve.len().div_ceil(max.max(1)).max(1);
    let points = curve
        .chunks(per_point)
        .map(|run| {
            let last = run[run.len() - 1];
            let mut losses = [0u32; 2];
            for point in run {
                losses[0] += point.losses[0];
                losses[1] += point.losses[1];
            }
            CurvePoint { losses, ..last }
        })
        .collect();
    (points, window * per_point as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{self, Format};

    fn point(round: u64, losses: [u32; 2], beads: [u64; 2]) -> CurvePoint {
        CurvePoint {
            round,
            losses,
            beads,
        }
    }

    #[test]
    fn thinning_adds_losses_and_keeps_the_last_beads_of_each_run() {
        let curve: Vec<CurvePoint> = (1..=5)
            .map(|i| point(i * 10, [i as u32, 1], [100 - i, 50]))
            .collect();
        let (thin, per_point) = thin_curve(&curve, 10, 2);
        assert_eq!(per_point, 30);
        assert_eq!(
            thin,
            vec![point(30, [6, 3], [97, 50]), point(50, [9, 2], [95, 50])]
        );
        let (same, per_point) = thin_curve(&curve, 10, 200);
        assert_eq!((same, per_point), (curve, 10));
    }

    #[test]
    fn the_board_part_of_a_game_against_her_refuses_illegal_moves_and_sees_the_end() {
        let setup = HexSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            mode: PlayMode::Slow,
            brain: "test".into(),
        };
        let game = HexGame::new(setup, &Brain::new(Dims::HEXAPAWN, false));
        assert_eq!(game.seat_to_move(), Some(PERSON_SEAT));
        assert!(game.play("a1-a3".parse().unwrap()).is_err());
        let mut game = game;
        for ply in ["b1-b2", "a3xb2", "c1xb2", "c3xb2", "a1xb2"] {
            game = game.play(ply.parse().unwrap()).unwrap();
        }
        assert_eq!(game.winner(), Some(Side::White));
        assert_eq!(game.seat_to_move(), None);
        assert!(game.result_text().unwrap().starts_with("You win"));
        assert!(game.play("b3-b2".parse().unwrap()).is_err());
    }

    #[test]
    fn a_match_view_names_only_her_0_and_her_1() {
        let setup = MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: false,
            rounds: 10,
            pace: Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        };
        let mut view = MatchView::new(setup);
        view.white = 1;
        view.last_round = Some(RoundResult {
            first: 1,
            winner: 0,
            plies: 3,
            resigned: false,
            end: view.position,
            last_move: None,
        });
        for format in [Format::Json, Format::Binary] {
            let frame = codec::encode(&view, format).unwrap();
            assert_eq!(codec::decode::<MatchView>(&frame).unwrap(), view);
        }
        // Screens index two-element arrays with these; a peer may send anything.
        let json = serde_json::to_string(&view).unwrap();
        for bad in [
            json.replace(r#""white":1"#, r#""white":2"#),
            json.replace(r#""first":1"#, r#""first":7"#),
            json.replace(r#""winner":0"#, r#""winner":2"#),
        ] {
            assert_ne!(bad, json);
            let error = serde_json::from_str::<MatchView>(&bad).unwrap_err();
            assert!(
                error.to_string().contains("HERs are numbered 0 and 1"),
                "{error}"
            );
        }
    }

    #[test]
    fn match_setups_and_brain_names_are_checked() {
        let mut setup = MatchSetup {
            dims: Dims::HEXAPAWN,
            mirrors: true,
            rounds: 100,
            pace: Pace::FullSpeed,
            brains: ["A".into(), "B".into()],
        };
        assert_eq!(setup.check(), Ok(()));
        setup.rounds = MAX_MATCH_ROUNDS + 1;
        assert!(setup.check().is_err());
        setup.rounds = 10;
        setup.brains[1] = "A".into();
        assert!(setup.check().is_err());
        assert!(check_brain_name("").is_err());
        assert!(check_brain_name("a\nb").is_err());
        assert!(check_brain_name(&"x".repeat(41)).is_err());
    }

    #[test]
    fn a_brain_name_of_only_spaces_is_refused() {
        for blank in [" ", "   ", "\u{3000}"] {
            let refused = check_brain_name(blank).unwrap_err();
            assert!(
                refused.contains("other than spaces"),
                "{blank:?}: {refused}"
            );
        }
        assert_eq!(check_brain_name(" HER 2 "), Ok(()));
    }
}
