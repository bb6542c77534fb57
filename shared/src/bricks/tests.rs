//! Tests of the Dropping Bricks rules: drops, answers and limits. The agents', answerers',
//! closed form's and backward induction's are `parlor_engines::bricks`'s.

use super::*;

fn setup(height: u64, drops: u64, bricks: u32) -> Setup {
    Setup::new(height, drops, bricks).unwrap()
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
