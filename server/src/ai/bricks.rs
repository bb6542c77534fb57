//! Dropping Bricks AI seats: the agents (winning, random) in seat 0 and the answerers
//! (adversary, oracle) in seat 1, all from `parlor_engines::bricks`.

use parlor_engines::bricks::{Adversary, Answerer, Oracle, best_drop};
use parlor_shared::bricks::{AGENT_SEAT, ANSWERER_SEAT, BricksGame, BricksMove, Setup, Turn};
use parlor_shared::game::GameSetup;
use parlor_shared::protocol::AiKind;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

pub fn settle_seat(setup: &GameSetup, seat: u8, kind: AiKind, seed: u64) -> Result<AiKind, String> {
    let GameSetup::Bricks {
        height,
        drops,
        bricks,
    } = *setup
    else {
        return Err("not a Dropping Bricks room".into());
    };
    let fits = match kind {
        AiKind::Standard => true,
        AiKind::RandomAgent | AiKind::WinningAgent => seat == AGENT_SEAT,
        AiKind::Oracle { .. } | AiKind::Adversary => seat == ANSWERER_SEAT,
        AiKind::Classic | AiKind::Easy | AiKind::Normal | AiKind::Strong | AiKind::RandomPlayer => {
            false
        }
    };
    if !fits {
        return Err(format!(
            "the {} cannot play seat {seat} of Dropping Bricks",
            name(seat, kind)
        ));
    }
    match kind {
        AiKind::Oracle { strength } => {
            let setup = Setup::new(height, drops, bricks).map_err(|e| e.to_string())?;
            let oracle = match strength {
                Some(strength) => Oracle::new(setup, strength).map_err(|e| e.to_string())?,
                None => Oracle::random(setup, seed),
            };
            Ok(AiKind::Oracle {
                strength: Some(oracle.strength()),
            })
        }
        other => Ok(other),
    }
}

pub fn name(seat: u8, kind: AiKind) -> &'static str {
    match (seat, kind) {
        (AGENT_SEAT, AiKind::Standard) | (_, AiKind::WinningAgent) => "winning agent",
        (_, AiKind::RandomAgent) => "random agent",
        (_, AiKind::Oracle { .. }) => "honest oracle",
        (_, AiKind::Standard) | (_, AiKind::Adversary) => "adversary",
        (_, AiKind::Classic) => "classic Magnetic Cave",
        (_, AiKind::Easy) => "easy Magnetic Cave",
        (_, AiKind::Normal) => "normal Magnetic Cave",
        (_, AiKind::Strong) => "strong Magnetic Cave",
        (_, AiKind::RandomPlayer) => "random EWN player",
    }
}

pub fn choose_move(game: &BricksGame, kind: AiKind, seed: u64) -> Option<BricksMove> {
    let state = game.state();
    match game.turn() {
        Turn::Agent => {
            let range = state.drop_range().ok()?;
            let height = match kind {
                AiKind::RandomAgent => StdRng::seed_from_u64(seed).random_range(range),
                _ => best_drop(state).ok()?,
            };
            Some(BricksMove::Drop(height))
        }
        Turn::Answerer { height } => {
            let answer = match kind {
                AiKind::Oracle {
                    strength: Some(strength),
                } => {
                    let setup = game.setup();
                    Oracle::new(setup, strength).ok()?.answer(state, height)
                }
                _ => Adversary.answer(state, height),
            };
            answer.ok().map(BricksMove::Answer)
        }
        Turn::Over(_) | Turn::Resigned { .. } => None,
    }
}
