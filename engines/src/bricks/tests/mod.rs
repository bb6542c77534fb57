//! Tests of who plays Dropping Bricks: the closed form against backward induction, whole games
//! between agents and answerers, huge inputs, and properties. The rules' are
//! `parlor_shared::bricks`'s.

mod closed_form;
mod games;
mod properties;

use parlor_shared::bricks::*;

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
