//! Tests of the Dropping Bricks rules: the closed form against backward induction, whole games
//! between agents and answerers, huge inputs, and properties.

mod closed_form;
mod games;
mod properties;

use super::*;

fn setup(height: u64, drops: u64, bricks: u32) -> Setup {
    Setup::new(height, drops, bricks).unwrap()
}

/// A finished game: how many drops were made and where it ended.
struct Playthrough {
    drops_made: u64,
    end: Status,
    statement: Statement,
}

/// Plays `agent` against `answerer` to the end.
fn play_out(agent: &mut dyn Agent, answerer: &mut dyn Answerer) -> Playthrough {
    let mut drops_made = 0;
    while agent.can_continue() {
        let height = agent.drop_height().unwrap();
        let answer = answerer.answer(agent.state(), height).unwrap();
        agent.update(height, answer).unwrap();
        drops_made += 1;
    }
    Playthrough {
        drops_made,
        end: agent.state().status(),
        statement: agent.statement(),
    }
}

#[test]
fn a_drop_narrows_the_interval_and_spends_a_brick_only_when_broken() {
    let start = State::start(setup(10, 3, 2));
    let safe = start.after(4, Answer::Safe).unwrap();
    assert_eq!((safe.min_safe(), safe.max_safe()), (4, 10));
    assert_eq!((safe.drops_left(), safe.bricks_left()), (2, 2));
    let broken = safe.after(7, Answer::Broken).unwrap();
    assert_eq!((broken.min_safe(), broken.max_safe()), (4, 6));
    assert_eq!((broken.drops_left(), broken.bricks_left()), (1, 1));
    assert_eq!(broken.status(), Status::Playing);
    let last = broken.after(5, Answer::Broken).unwrap();
    assert_eq!(last.status(), Status::Won { strength: 4 });
}

#[test]
fn drops_outside_the_open_heights_and_after_the_end_are_refused() {
    let start = State::start(setup(10, 1, 1));
    assert_eq!(
        start.after(0, Answer::Safe),
        Err(BricksError::DropOutOfRange {
            height: 0,
            low: 1,
            high: 10
        })
    );
    assert!(start.after(11, Answer::Broken).is_err());
    let over = start.after(3, Answer::Safe).unwrap();
    assert_eq!(over.status(), Status::Lost { low: 3, high: 10 });
    assert_eq!(
        over.after(4, Answer::Safe),
        Err(BricksError::GameOver(Status::Lost { low: 3, high: 10 }))
    );
}

#[test]
fn setups_over_the_limits_are_refused() {
    assert_eq!(Setup::new(0, 1, 1), Err(BricksError::ZeroHeight));
    assert_eq!(
        Setup::new(MAX_HEIGHT + 1, 1, 1),
        Err(BricksError::HeightTooLarge(MAX_HEIGHT + 1))
    );
    assert_eq!(
        Setup::new(1, MAX_DROPS + 1, 1),
        Err(BricksError::TooManyDrops(MAX_DROPS + 1))
    );
    assert_eq!(Setup::new(1, 1, 65), Err(BricksError::TooManyBricks(65)));
    assert!(Setup::new(MAX_HEIGHT, MAX_DROPS, MAX_BRICKS).is_ok());
}

#[test]
fn the_statement_is_certain_only_when_one_strength_is_left() {
    let mut agent = WinningAgent::new(setup(1, 1, 1));
    agent.update(1, Answer::Broken).unwrap();
    assert_eq!(agent.statement(), Statement::Certain(0));
    let mut agent = WinningAgent::new(setup(5, 0, 1));
    assert!(!agent.can_continue());
    assert_eq!(
        agent.statement(),
        Statement::Guess {
            guess: 2,
            low: 0,
            high: 5
        }
    );
    assert_eq!(
        agent.statement().to_string(),
        "The strength is 2, with doubts: it is somewhere from 0 to 5."
    );
}
