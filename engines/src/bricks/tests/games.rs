//! Whole games: agents against the adversary and against honest oracles, exhaustively on small
//! towers.

use super::*;

/// Every small setup, winnable or not.
fn small_setups() -> impl Iterator<Item = Setup> {
    (1..=40).flat_map(|height| {
        (0..=10).flat_map(move |drops| (0..=4).map(move |bricks| setup(height, drops, bricks)))
    })
}

#[test]
fn the_winning_agent_beats_the_adversary_in_the_fewest_drops_whenever_it_can_win() {
    for setup in small_setups() {
        let mut agent = WinningAgent::new(setup);
        if !agent.can_win() {
            continue;
        }
        let game = play_out(&mut agent, &mut Adversary);
        assert!(matches!(game.end, Status::Won { .. }), "{setup:?}");
        assert!(matches!(game.statement, Statement::Certain(_)), "{setup:?}");
        // The adversary makes it use every drop the closed form says it needs, and no more.
        assert_eq!(
            Some(game.drops_made),
            fewest_drops(setup.height, setup.bricks),
            "{setup:?}"
        );
    }
}

#[test]
fn the_winning_agent_finds_every_strength_whenever_it_can_win() {
    for setup in small_setups().filter(|&setup| WinningAgent::new(setup).can_win()) {
        for strength in 0..=setup.height {
            let mut oracle = Oracle::new(setup, strength).unwrap();
            let game = play_out(&mut WinningAgent::new(setup), &mut oracle);
            assert_eq!(game.statement, Statement::Certain(strength), "{setup:?}");
        }
    }
}

#[test]
fn from_a_lost_state_every_drop_gets_an_answer_that_keeps_it_lost() {
    // By induction on the drops left this means the adversary beats every agent: no drop ever
    // leads out of the lost states, and a lost state with nothing left to drop is a loss.
    for setup in small_setups() {
        let start = State::start(setup);
        if is_winnable(&start) {
            continue;
        }
        assert!(!matches!(start.status(), Status::Won { .. }), "{setup:?}");
        for height in start.drop_range().into_iter().flatten() {
            let answer = Adversary.answer(&start, height).unwrap();
            let next = start.after(height, answer).unwrap();
            assert!(!is_winnable(&next), "{setup:?}, drop {height}, {answer}");
        }
    }
}

/// Whether the adversary beats every possible agent from `state`: every sequence of drops ends
/// lost. Walks the whole tree of the agent's choices.
fn adversary_beats_every_agent(state: &State) -> bool {
    match state.drop_range() {
        Err(_) => matches!(state.status(), Status::Lost { .. }),
        Ok(range) => range.into_iter().all(|height| {
            let answer = Adversary.answer(state, height).unwrap();
            adversary_beats_every_agent(&state.after(height, answer).unwrap())
        }),
    }
}

#[test]
fn every_drop_sequence_loses_to_the_adversary_from_a_lost_start() {
    // The whole tree of agent choices, without the induction argument above: up to 8^4 paths.
    for height in 1..=8 {
        for drops in 0..=4 {
            for bricks in 0..=3 {
                let start = State::start(setup(height, drops, bricks));
                if !is_winnable(&start) {
                    assert!(adversary_beats_every_agent(&start), "{start}");
                }
            }
        }
    }
}

#[test]
fn every_agent_loses_to_the_adversary_when_the_start_is_lost() {
    for setup in small_setups().filter(|&setup| !WinningAgent::new(setup).can_win()) {
        let game = play_out(&mut WinningAgent::new(setup), &mut Adversary);
        assert!(matches!(game.end, Status::Lost { .. }), "{setup:?}");
        for seed in 0..5 {
            let game = play_out(&mut RandomAgent::new(setup, seed), &mut Adversary);
            assert!(
                matches!(game.end, Status::Lost { .. }),
                "{setup:?}, seed {seed}"
            );
            assert!(
                matches!(game.statement, Statement::Guess { .. }),
                "{setup:?}"
            );
        }
    }
}

#[test]
fn the_random_agent_plays_legal_drops_and_is_right_when_certain() {
    for seed in 0..200 {
        let setup = setup(30, 6, 3);
        let mut oracle = Oracle::random(setup, seed);
        let game = play_out(&mut RandomAgent::new(setup, seed), &mut oracle);
        match game.statement {
            Statement::Certain(strength) => assert_eq!(strength, oracle.strength()),
            Statement::Guess { guess, low, high } => {
                assert!((low..=high).contains(&oracle.strength()));
                assert!((low..=high).contains(&guess));
            }
        }
    }
}

#[test]
fn the_oracle_keeps_its_strength_within_the_tower_and_refuses_bad_drops() {
    let setup = setup(10, 3, 2);
    assert_eq!(
        Oracle::new(setup, 11).err(),
        Some(BricksError::StrengthOutOfRange {
            strength: 11,
            height: 10
        })
    );
    let mut oracle = Oracle::new(setup, 10).unwrap();
    let start = State::start(setup);
    assert_eq!(oracle.answer(&start, 10), Ok(Answer::Safe));
    assert!(oracle.answer(&start, 11).is_err());
    assert!(Adversary.answer(&start, 0).is_err());
    assert!((0..50).all(|seed| Oracle::random(setup, seed).strength() <= 10));
}
