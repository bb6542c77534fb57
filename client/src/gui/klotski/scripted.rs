//! Numeric Klotski's part of the hidden `--open-room` (see `gui::scripted`): a room on the
//! board of a file, played by the server's solver (watched until it ends) or by this client,
//! whose slides are clicks on the pieces as a person would make them.
//!
//! The words after `klotski`: the board's file first (the seat's input format, e.g.
//! `levels/klotski/lunaqu4kez_extra_04.in`), then either `solver` with an optional pace per
//! slide (`100ms`, by default the lobby's), or the slides to click (`9L 5R`: a piece's
//! top-left number and a direction letter). A slide is a click on the piece, off its centre
//! towards the direction: what the room view makes of it (that slide, the one way the piece
//! can go, or a refusal with its reason) is the view's business, as for a person's click.

use macroquad::math::{Vec2, vec2};
use parlor_shared::game::{GameSetup, GameState};
use parlor_shared::klotski::{KlotskiBoard, KlotskiStatus, Move, Puzzle, parse_puzzle};
use parlor_shared::protocol::{RoomSnapshot, SeatSpec};

use super::board::board_layout;
use super::lobby_form::{SOLVER_MOVE_MS, klotski_seat};
use super::room::{click_slide, room_layout};
use super::walk::SLIDE_SECONDS;
use crate::gui::board_play::HeldSeat;
use crate::gui::scripted_game::ScriptedGame;
use crate::gui::widgets::Input;
use crate::text_file::read_text_file;

/// How far from a piece's centre a slide's click is, towards its direction, in cells: inside
/// the piece, and clearly nearer that side than any other.
const CLICK_LEAN: f32 = 0.35;

#[derive(Debug)]
pub struct KlotskiScript {
    puzzle: Puzzle,
    /// The server's solver plays, at this many milliseconds a slide; `None`: this client.
    solver_ms: Option<u32>,
    slides: Vec<Move>,
    /// How many of `slides` have been clicked.
    sent: usize,
    /// The moves the game had when the last slide was clicked, if the room view was to send
    /// it: the next click waits for the room to have more.
    sent_at: Option<usize>,
}

/// `9L` as the slide of piece 9 to the left.
fn parse_slide(word: &str) -> Option<Move> {
    let letter = word.find(|c: char| !c.is_ascii_digit())?;
    let (label, dir) = word.split_at(letter);
    format!("{label} {dir}").parse().ok()
}

impl KlotskiScript {
    /// The script of `words` (those after `klotski`); the board's file is read here, so that a
    /// missing or bad one is an error before the window opens.
    pub fn parse(words: &[&str]) -> Result<KlotskiScript, String> {
        let Some((&path, words)) = words.split_first() else {
            return Err(
                "klotski needs a board file, e.g. levels/klotski/lunaqu4kez_extra_04.in".into(),
            );
        };
        let text = read_text_file(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        let puzzle = parse_puzzle(&text).map_err(|e| format!("{path}: {e}"))?;
        let (mut solver, mut pace, mut slides) = (false, None, Vec::new());
        for &word in words {
            let ms = word.strip_suffix("ms").and_then(|ms| ms.parse().ok());
            match (word, ms, parse_slide(word)) {
                ("solver", ..) => solver = true,
                (_, Some(ms), _) => pace = Some(ms),
                (_, _, Some(slide)) if puzzle.piece_index(slide.label).is_some() => {
                    slides.push(slide)
                }
                (_, _, Some(slide)) => {
                    return Err(format!(
                        "{word}: no piece has top-left number {}",
                        slide.label
                    ));
                }
                _ => {
                    return Err(format!(
                        "{word:?} is not solver, a pace such as 100ms or a slide such as 9L"
                    ));
                }
            }
        }
        let solver_ms = match (solver, pace, slides.is_empty()) {
            (true, _, false) => return Err("the solver plays alone: no slides with solver".into()),
            (false, Some(_), _) => return Err("a pace goes with solver".into()),
            (true, pace, true) => Some(pace.unwrap_or(SOLVER_MOVE_MS)),
            (false, None, _) => None,
        };
        let script = KlotskiScript {
            puzzle,
            solver_ms,
            slides,
            sent: 0,
            sent_at: None,
        };
        script
            .room()
            .0
            .start()
            .map_err(|e| format!("{path}: {e}"))?;
        Ok(script)
    }
}

impl ScriptedGame for KlotskiScript {
    fn room(&self) -> (GameSetup, Vec<SeatSpec>) {
        let setup = GameSetup::Klotski(KlotskiBoard::of(&self.puzzle));
        (setup, vec![klotski_seat(self.solver_ms)])
    }

    /// The next slide's click on its piece, once this client is to move and the room has
    /// the last slide the room view sent.
    fn click(
        &mut self,
        snapshot: &RoomSnapshot,
        held: &[HeldSeat],
        screen_w: f32,
        screen_h: f32,
    ) -> Option<Vec2> {
        let GameState::Klotski(game) = &snapshot.state else {
            return None;
        };
        let slide = *self.slides.get(self.sent)?;
        let made = snapshot.moves.len();
        let to_move = snapshot.state.seat_to_move();
        if self.sent_at.is_some_and(|at| made <= at)
            || !held.iter().any(|h| Some(h.seat) == to_move)
        {
            return None;
        }
        let (puzzle, position) = (game.puzzle(), game.position());
        let board = board_layout(
            puzzle.rows(),
            puzzle.cols(),
            room_layout(screen_w, screen_h).board,
        );
        let index = puzzle.piece_index(slide.label)?;
        let piece = board.piece_rect(puzzle.pieces()[index].shape, position.tops()[index]);
        let (rows, cols) = slide.dir.delta();
        let mouse = piece.center() + vec2(cols as f32, rows as f32) * (CLICK_LEAN * board.cell);
        let input = Input {
            mouse,
            clicked: true,
            typed: Vec::new(),
            wheel: 0.0,
        };
        let sends =
            click_slide(&board, puzzle, position, None, &input).is_some_and(|(_, s)| s.is_ok());
        self.sent += 1;
        self.sent_at = sends.then_some(made);
        Some(mouse)
    }

    /// The solver's game once it has ended; this client's after every slide's click, with the
    /// room caught up with the last one sent.
    fn done(&self, snapshot: &RoomSnapshot) -> bool {
        let GameState::Klotski(game) = &snapshot.state else {
            return false;
        };
        match self.solver_ms {
            Some(_) => game.status() != KlotskiStatus::Playing,
            None => {
                self.sent == self.slides.len()
                    && self.sent_at.is_none_or(|at| snapshot.moves.len() > at)
            }
        }
    }

    /// The last slide's animation.
    fn settle_seconds(&self) -> f64 {
        SLIDE_SECONDS
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gui::{WINDOW_HEIGHT, WINDOW_WIDTH};
    use parlor_shared::game::GameMove;
    use parlor_shared::klotski::{GiveUpReason, KlotskiGame, KlotskiMove};
    use parlor_shared::protocol::{AiKind, SeatState, SeatToken};

    const LEVEL: &str = "../levels/klotski/lunaqu4kez_extra_04.in";

    fn parse(words: &str) -> Result<KlotskiScript, String> {
        let words: Vec<&str> = words.split_whitespace().collect();
        KlotskiScript::parse(&words)
    }

    /// The room after `slides` on the level.
    fn snapshot(script: &KlotskiScript, slides: &[&str]) -> RoomSnapshot {
        let mut game = KlotskiGame::new(script.puzzle.clone());
        let mut moves = Vec::new();
        for slide in slides {
            let mv = KlotskiMove::Slide(parse_slide(slide).unwrap());
            game = game.play(mv).unwrap();
            moves.push(GameMove::Klotski(mv));
        }
        RoomSnapshot {
            creator: None,
            watchers: Vec::new(),
            room: 1,
            version: moves.len() as u64,
            seats: vec![SeatState::Taken {
                connected: true,
                player: None,
            }],
            spectators: 0,
            state: GameState::Klotski(game),
            moves,
            plan_ahead: vec![],
            outcome: None,
            record: None,
            again: None,
        }
    }

    #[test]
    fn words_give_the_board_and_the_player() {
        let script = parse(&format!("{LEVEL} solver 50ms")).unwrap();
        let (GameSetup::Klotski(board), seats) = script.room() else {
            panic!("a Klotski room");
        };
        assert_eq!(board, KlotskiBoard::of(&script.puzzle));
        let solver = SeatSpec::Ai {
            move_ms: 50,
            kind: AiKind::Standard,
        };
        assert_eq!(seats, [solver]);
        let script = parse(&format!("{LEVEL} solver")).unwrap();
        assert_eq!(script.solver_ms, Some(SOLVER_MOVE_MS));
        let script = parse(&format!("{LEVEL} 9L 5r")).unwrap();
        assert_eq!(script.room().1, [SeatSpec::Human]);
        assert_eq!(
            script.slides,
            ["9 L".parse().unwrap(), "5 R".parse().unwrap()]
        );
    }

    #[test]
    fn a_bad_file_or_word_is_an_error_that_says_which() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.in");
        std::fs::write(&bad, "2 2\n1 2\n2 0\n0\n").unwrap();
        let error = parse(bad.to_str().unwrap()).unwrap_err();
        assert!(
            error.contains(".in: line 3: number 2 is repeated"),
            "{error}"
        );
        assert!(
            parse("/no/such.in")
                .unwrap_err()
                .starts_with("cannot read /no/such.in")
        );
        assert!(parse("").unwrap_err().contains("needs a board file"));
        let wrong = |words: &str| parse(&format!("{LEVEL} {words}")).unwrap_err();
        assert_eq!(wrong("11L"), "11L: no piece has top-left number 11");
        assert!(wrong("9X").starts_with("\"9X\" is not solver"));
        assert!(wrong("solver 9L").contains("no slides with solver"));
        assert_eq!(wrong("100ms"), "a pace goes with solver");
    }

    #[test]
    fn a_slide_is_a_click_towards_its_side_and_a_refused_one_waits_for_nothing() {
        let mut script = parse(&format!("{LEVEL} 5L 2R 1D")).unwrap();
        let held = [HeldSeat {
            seat: 0,
            token: SeatToken("t".into()),
        }];
        let (w, h) = (WINDOW_WIDTH as f32, WINDOW_HEIGHT as f32);
        let board = board_layout(3, 4, room_layout(w, h).board);
        let start = snapshot(&script, &[]);
        assert_eq!(script.click(&start, &[], w, h), None, "not seated yet");
        // 5 may go left or right: the click leans left of its centre, on cell 9.
        let five = script.click(&start, &held, w, h).unwrap();
        assert_eq!(board.cell_at(five.x, five.y), Some(9));
        assert!(five.x < board.cell_rect(9).center().x);
        assert_eq!(script.click(&start, &held, w, h), None, "waits for 5 L");
        let after = snapshot(&script, &["5 L"]);
        // 2 is shut in: its click is refused by the view, and 1 D follows at once.
        assert!(script.click(&after, &held, w, h).is_some());
        assert!(!script.done(&after));
        let one = script.click(&after, &held, w, h).unwrap();
        assert_eq!(board.cell_at(one.x, one.y), Some(5));
        assert!(!script.done(&after), "1 D is on its way");
        assert!(script.done(&snapshot(&script, &["5 L", "1 D"])));
        assert_eq!(script.settle_seconds(), SLIDE_SECONDS);
    }

    #[test]
    fn the_solver_is_watched_until_the_game_ends() {
        let script = parse(&format!("{LEVEL} solver")).unwrap();
        assert!(!script.done(&snapshot(&script, &["9 L"])));
        let mut over = snapshot(&script, &["9 L"]);
        let GameState::Klotski(game) = &over.state else {
            unreachable!()
        };
        let gave_up = game.play(KlotskiMove::GiveUp(GiveUpReason::Player));
        over.state = GameState::Klotski(gave_up.unwrap());
        assert!(script.done(&over));
    }
}
