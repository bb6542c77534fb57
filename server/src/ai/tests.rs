//! The AI seats' planners: kept and spare engines, and what a seat tells its engine.

use super::*;
use parlor_engines::cave::SearchSummary;

/// Plays the first legal move and counts its searches.
struct CountingEngine {
    searches: u64,
}

impl CaveEngine for CountingEngine {
    fn name(&self) -> String {
        "counting".into()
    }

    fn choose_move(&mut self, position: &Position, _budget: Duration) -> Option<Square> {
        self.searches += 1;
        position.legal_squares().next()
    }

    fn last_search(&self) -> SearchSummary {
        SearchSummary {
            depth: 0,
            nodes: self.searches,
            search_time: None,
        }
    }
}

/// A seat's planner playing with a counting engine, kept under `quota`.
fn counting_planner(quota: &'static EngineQuota) -> Planner {
    let mut planner = Planner::with_quota(AiKind::Strong, quota);
    planner.cave = quota.take().map(|slot| KeptEngine {
        engine: Box::new(CountingEngine { searches: 0 }),
        _slot: slot,
    });
    planner
}

fn play_cave_moves(planner: &mut Planner, count: usize) {
    let mut position = Position::new();
    for _ in 0..count {
        let plan = planner.plan(&GameState::Cave(position), 0, Duration::from_millis(1));
        let [GameMove::Cave(square)] = plan[..] else {
            panic!("one cave move, not {plan:?}");
        };
        position = position.play(square).unwrap();
    }
}

#[test]
fn a_cave_seat_keeps_its_engine_from_move_to_move() {
    static QUOTA: EngineQuota = EngineQuota::new(1);
    let mut planner = counting_planner(&QUOTA);
    play_cave_moves(&mut planner, 3);
    let kept = planner.cave.as_ref().expect("kept");
    assert_eq!(
        kept.engine.last_search().nodes,
        3,
        "one engine made all three moves"
    );
}

/// The names of this thread's spare engines, with where each lives.
fn spare_engines() -> Vec<(&'static str, usize)> {
    SPARE_ENGINES.with_borrow(|spares| {
        let address =
            |engine: &dyn CaveEngine| (engine as *const dyn CaveEngine).cast::<u8>() as usize;
        spares
            .iter()
            .map(|(name, engine)| (*name, address(engine.as_ref())))
            .collect()
    })
}

#[test]
fn past_the_quota_seats_share_the_threads_spare_engine_until_a_place_frees() {
    static QUOTA: EngineQuota = EngineQuota::new(1);
    let holder = counting_planner(&QUOTA);
    assert!(holder.cave.is_some());
    // A thread of its own, so that no other test's spares are seen.
    let (mut second, spares_after_each_move) = std::thread::spawn(|| {
        let mut second = Planner::with_quota(AiKind::Easy, &QUOTA);
        let mut third = Planner::with_quota(AiKind::Easy, &QUOTA);
        let mut standard = Planner::with_quota(AiKind::Standard, &QUOTA);
        let mut strong = Planner::with_quota(AiKind::Strong, &QUOTA);
        let mut seen = Vec::new();
        for planner in [&mut second, &mut third, &mut standard, &mut strong] {
            play_cave_moves(planner, 2);
            assert!(planner.cave.is_none(), "the quota is full: not kept");
            seen.push(spare_engines());
        }
        (second, seen)
    })
    .join()
    .unwrap();
    let easy = *spares_after_each_move[0]
        .first()
        .expect("a seat past the quota plays the thread's spare engine");
    assert_eq!(
        spares_after_each_move[0],
        [easy],
        "one engine for two moves"
    );
    assert_eq!(spares_after_each_move[1], [easy], "and for another seat");
    let strong = *spares_after_each_move[2].last().expect("built");
    assert_eq!(strong.0, "strong", "Standard plays the strong engine");
    assert_eq!(spares_after_each_move[3], [easy, strong]);
    drop(holder);
    play_cave_moves(&mut second, 1);
    assert!(second.cave.is_some(), "the place given back is taken");
    assert_eq!(QUOTA.kept.load(Ordering::SeqCst), 1);
    drop(second);
    assert_eq!(
        QUOTA.kept.load(Ordering::SeqCst),
        0,
        "every place given back"
    );
}

#[test]
fn a_cave_seat_builds_the_engine_of_its_kind_on_its_first_move() {
    static QUOTA: EngineQuota = EngineQuota::new(1);
    let mut planner = Planner::with_quota(AiKind::Classic, &QUOTA);
    assert!(planner.cave.is_none());
    let plan = planner.plan(
        &GameState::Cave(Position::new()),
        0,
        Duration::from_millis(50),
    );
    assert_eq!(plan.len(), 1);
    let kept = planner.cave.as_ref().expect("kept");
    assert_eq!(kept.engine.name(), cave_engine(AiKind::Classic).name());
}

#[test]
fn an_ai_unfit_for_magnetic_cave_is_named_with_the_ones_that_fit() {
    let refused = settle_ai_seat(&GameSetup::Cave, 1, AiKind::Adversary, 0).unwrap_err();
    assert_eq!(
        refused,
        "Adversary does not play Magnetic Cave; use Standard, Strong, Normal, Easy or Classic"
    );
}
