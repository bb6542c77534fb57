//! The table builders' threads: scoped, their results in order, and a worker's panic passed on
//! to the caller.

use std::sync::Mutex;

/// `work` on each of `parts`, one thread each.
pub(crate) fn parallel<P: Send, R: Send>(
    parts: impl IntoIterator<Item = P>,
    work: impl Fn(P) -> R + Sync,
) -> Vec<R> {
    std::thread::scope(|scope| {
        let work = &work;
        let handles: Vec<_> = (parts.into_iter())
            .map(|part| scope.spawn(move || work(part)))
            .collect();
        (handles.into_iter())
            .map(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// `work` done on every item, on every core, the results in the items' order. Items are taken
/// from a queue, so uneven work (a group of four pieces beside groups of five) keeps every core
/// busy: fitting the groups and building the tables of six partitions of the 5x6 sample take a
/// minute and a half on one core.
pub(crate) fn on_every_core<T: Send, U: Send>(
    items: Vec<T>,
    work: impl Fn(T) -> U + Sync,
) -> Vec<U> {
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let queue = Mutex::new(items.into_iter().enumerate());
    let next = || {
        (queue.lock())
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .next()
    };
    let mut done: Vec<(usize, U)> = parallel(0..threads, |_| {
        std::iter::from_fn(next)
            .map(|(at, item)| (at, work(item)))
            .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    done.sort_unstable_by_key(|&(at, _)| at);
    done.into_iter().map(|(_, result)| result).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn work_on_every_core_comes_back_in_the_items_order() {
        let items: Vec<u64> = (0..200).collect();
        // Uneven work, so that the threads finish out of order.
        let squares = super::on_every_core(items.clone(), |n| {
            std::thread::sleep(std::time::Duration::from_micros((n * 37) % 200));
            n * n
        });
        assert_eq!(squares, items.iter().map(|n| n * n).collect::<Vec<_>>());
    }
}
