//! The reference: breadth-first search over whole pictures (the number on every cell), written
//! from the seed's text alone, sharing no code with the solver.

use std::collections::{HashMap, VecDeque};

/// Reads the seed's format (assumed well-formed) and returns the length of a shortest solution,
/// or `None` if the goal cannot be reached.
pub fn shortest(text: &str) -> Option<usize> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let number = |at: usize| -> usize { words[at].parse().unwrap() };
    let (rows, cols) = (number(0), number(1));
    let grid: Vec<usize> = (2..2 + rows * cols).map(number).collect();
    let block_count = number(2 + rows * cols);
    // group[n] = the piece number n belongs to (its block's label, or n itself).
    let mut group: Vec<usize> = (0..=rows * cols).collect();
    for block in 0..block_count {
        let label = number(3 + rows * cols + 2 * block);
        let (height, width) = words[4 + rows * cols + 2 * block].split_once('*').unwrap();
        let (height, width): (usize, usize) = (height.parse().unwrap(), width.parse().unwrap());
        let top = grid.iter().position(|&n| n == label).unwrap();
        for dr in 0..height {
            for dc in 0..width {
                group[grid[top + dr * cols + dc]] = label;
            }
        }
    }
    let count = grid.iter().filter(|&&n| n != 0).count();
    let goal: Vec<usize> = (0..rows * cols)
        .map(|cell| if cell < count { cell + 1 } else { 0 })
        .collect();
    let mut distance: HashMap<Vec<usize>, usize> = HashMap::from([(grid.clone(), 0)]);
    let mut queue = VecDeque::from([grid]);
    while let Some(picture) = queue.pop_front() {
        let here = distance[&picture];
        if picture == goal {
            return Some(here);
        }
        for next in successors(&picture, &group, rows, cols) {
            distance.entry(next.clone()).or_insert_with(|| {
                queue.push_back(next);
                here + 1
            });
        }
    }
    None
}

/// Every picture one step away: each piece (all numbers of one group) shifted by one cell
/// onto blanks or onto its own cells.
fn successors(picture: &[usize], group: &[usize], rows: usize, cols: usize) -> Vec<Vec<usize>> {
    let mut labels: Vec<usize> = picture
        .iter()
        .filter(|&&n| n != 0)
        .map(|&n| group[n])
        .collect();
    labels.sort();
    labels.dedup();
    let mut next = Vec::new();
    for label in labels {
        let cells: Vec<usize> = (0..picture.len())
            .filter(|&c| picture[c] != 0 && group[picture[c]] == label)
            .collect();
        for (dr, dc) in [(0i64, -1i64), (0, 1), (-1, 0), (1, 0)] {
            let moved: Option<Vec<usize>> = cells
                .iter()
                .map(|&cell| {
                    let (row, col) = ((cell / cols) as i64 + dr, (cell % cols) as i64 + dc);
                    let inside = row >= 0 && col >= 0 && row < rows as i64 && col < cols as i64;
                    let target = (row * cols as i64 + col) as usize;
                    (inside && (picture[target] == 0 || group[picture[target]] == label))
                        .then_some(target)
                })
                .collect();
            if let Some(targets) = moved {
                let mut after = picture.to_vec();
                for &cell in &cells {
                    after[cell] = 0;
                }
                for (&from, &to) in cells.iter().zip(&targets) {
                    after[to] = picture[from];
                }
                next.push(after);
            }
        }
    }
    next
}
