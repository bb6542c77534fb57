//! The training of HER against the exploiter until HER can no longer lose
//! (`is_unbeatable`, a check of the brain, stays with the rules).

use parlor_shared::hexapawn::{
    Brain, Dims, Her, HerChoice, HerResult, HexapawnError, Pick, Position, Side, Status,
    is_unbeatable,
};

use super::solver::Exploiter;

/// HER, playing `her_side` from an empty brain, against the exploiter until HER can no longer
/// lose: the games that took (0 if it never could lose), or `None` if `max_games` were not
/// enough. The brain changes only when HER loses, so that is when the check runs.
pub fn games_until_unbeatable(
    dims: Dims,
    mirrors: bool,
    her_side: Side,
    seed: u64,
    max_games: u64,
) -> Result<(Option<u64>, Brain), HexapawnError> {
    let mut her = Her::new(Brain::new(dims, mirrors), seed);
    let mut exploiter = Exploiter::new(dims, seed.wrapping_add(1));
    if is_unbeatable(her.brain(), her_side)? {
        return Ok((Some(0), her.into_brain()));
    }
    for game in 1..=max_games {
        let her_won = play_against_exploiter(&mut her, &mut exploiter, her_side)?;
        her.finish(if her_won {
            HerResult::Won
        } else {
            HerResult::Lost
        });
        if !her_won && is_unbeatable(her.brain(), her_side)? {
            return Ok((Some(game), her.into_brain()));
        }
    }
    Ok((None, her.into_brain()))
}

/// One game of HER against the exploiter; whether HER won. HER's punishment is left to the
/// caller.
pub fn play_against_exploiter(
    her: &mut Her,
    exploiter: &mut Exploiter,
    her_side: Side,
) -> Result<bool, HexapawnError> {
    let mut position = Position::start(her.brain().dims());
    loop {
        if let Status::Won { winner, .. } = position.status() {
            return Ok(winner == her_side);
        }
        let mv = if position.to_move() == her_side {
            match her.choose(&position, Pick::Random)? {
                HerChoice::Play(mv) => mv,
                HerChoice::Resign => return Ok(false),
            }
        } else {
            exploiter.choose(&position)?
        };
        position = position.play(mv)?;
    }
}
