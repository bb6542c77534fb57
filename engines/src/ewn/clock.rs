//! A search's deadline, looked at every so many units of work rather than at each: reading
//! the time costs more than a position.

use std::time::Instant;

pub struct Clock {
    deadline: Option<Instant>,
    /// Units of work between looks at the time.
    every: u64,
    ticks: u64,
    out_of_time: bool,
}

impl Clock {
    pub fn new(deadline: Option<Instant>, every: u64) -> Clock {
        Clock {
            deadline,
            every,
            ticks: 0,
            out_of_time: false,
        }
    }

    /// Counts a unit of work, looking at the time before the first and every `every` after;
    /// `false` once the deadline has passed.
    pub fn tick(&mut self) -> bool {
        if self.ticks.is_multiple_of(self.every)
            && self
                .deadline
                .is_some_and(|deadline| Instant::now() >= deadline)
        {
            self.out_of_time = true;
        }
        self.ticks += 1;
        !self.out_of_time
    }

    /// The units of work counted.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    pub fn out_of_time(&self) -> bool {
        self.out_of_time
    }
}
