//! The interleaved sampler.
//!
//! Every (primitive, case) is a group of cells, one per implementation, each with its
//! own warm buffers. A calibration pass finds, per cell, how many calls fill one
//! sample. Then each round visits every group and times every implementation once,
//! the order of the implementations rotated by one from round to round (A B C, B C A,
//! C A B, …), so slow drifts of the machine (other load, clock speed) fall on all of
//! them alike. Each sample starts with one untimed call to bring the cell's buffers
//! back into cache. The reported figure is the median over the rounds.
//!
//! The progress bar counts milliseconds: its position is the time elapsed, its length
//! that plus the time predicted to remain, so its percentage and its ETA agree. The
//! prediction comes from the plan, not from the rate of the first ticks. Until every
//! cell has run once (the output check) there is none (the ETA shows `?`); then a
//! sample is taken to last the planned length, or that first call and its warming one
//! where they take longer; once a cell is calibrated, its sample is timed once as the
//! rounds will take it (one extra sample per cell, which also warms it); once a round
//! is over, a round takes the mean of the rounds so far. The rounds in all are the
//! plan's, cut where the deadline will stop them.

use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use super::registry::{Case, Primitive, Role, Runner};
use super::sizes;

/// How long to measure.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Rounds; each gives every cell one sample.
    pub rounds: usize,
    /// The target length of one sample (calls are batched to fill it).
    pub sample: Duration,
    /// Stop early, once at least `min_rounds` are done, when the rounds have taken this
    /// long (samples run long on a busy machine); `None` runs every round.
    pub deadline: Option<Duration>,
    /// Rounds always run, deadline or not.
    pub min_rounds: usize,
}

impl Plan {
    /// Samples of `sample`, and as many rounds (at least `min_rounds`) as make `cells`
    /// cells take about `budget` in all, stopping at `budget` if samples run long. Short samples and many rounds suit a shared
    /// machine: a sample that another process interrupts is an outlier the median
    /// drops, where long samples would all be interrupted a little.
    pub fn for_budget(budget: Duration, sample: Duration, cells: usize, min_rounds: usize) -> Plan {
        let per_round = sample.as_secs_f64() * cells.max(1) as f64;
        let fit = (budget.as_secs_f64() / per_round.max(1e-9)) as usize;
        Plan {
            rounds: fit.max(min_rounds),
            sample,
            deadline: Some(budget),
            min_rounds,
        }
    }
}

/// The median rate of one implementation at one case.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// The primitive's name.
    pub primitive: &'static str,
    /// The implementation's name.
    pub implementation: String,
    /// Ours or a peer's.
    pub role: Role,
    /// What was measured.
    pub case: Case,
    /// Median over the rounds, in 10^6 bytes per second.
    pub mb_per_s: f64,
}

/// What [`run`] measured.
#[derive(Clone, Debug)]
pub struct Results {
    /// One per implementation and case, grouped by primitive and case, in order.
    pub measurements: Vec<Measurement>,
    /// Rounds run (fewer than planned when the deadline came first).
    pub rounds: usize,
    /// The mean length of the timed samples.
    pub mean_sample: Duration,
}

/// The number of cells (implementation × case) in `primitives`.
pub fn cells(primitives: &[Primitive]) -> usize {
    primitives
        .iter()
        .map(|p| p.cases.len() * p.implementations.len())
        .sum()
}

/// The progress bar in milliseconds (see the module docs).
struct Clock<'a> {
    bar: &'a ProgressBar,
    start: Instant,
}

impl Clock<'_> {
    /// Shows the time elapsed, and `remaining` more to come.
    fn show(&self, remaining: Duration) {
        let ms = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        let elapsed = self.start.elapsed();
        self.bar
            .set_length(ms(elapsed).saturating_add(ms(remaining)));
        self.bar.set_position(ms(elapsed));
    }
}

/// The rounds a run of `plan` will take in all, predicted when `started` rounds have
/// begun and will be over `end` after the first round began, each further round
/// taking `round`. A round begins while fewer than `plan.rounds` are done and either
/// fewer than `plan.min_rounds` or the deadline has not passed (as in [`run`]).
fn predicted_rounds(plan: &Plan, started: usize, end: Duration, round: Duration) -> usize {
    let Some(deadline) = plan.deadline else {
        return plan.rounds.max(started);
    };
    let round = round.max(Duration::from_nanos(1));
    let floor = plan.min_rounds.clamp(started, plan.rounds.max(started));
    let end = end.saturating_add(times(round, floor - started));
    let extra = if end < deadline {
        (deadline - end).as_secs_f64() / round.as_secs_f64()
    } else {
        0.0
    };
    (floor + extra.ceil() as usize).min(plan.rounds.max(floor))
}

/// `d` times `n`, saturating.
fn times(d: Duration, n: usize) -> Duration {
    d.saturating_mul(u32::try_from(n).unwrap_or(u32::MAX))
}

struct Cell {
    runner: Box<dyn Runner>,
    /// Calls per sample.
    calls: u64,
    /// How long the first call took (cold buffers).
    first: Duration,
    /// The predicted length of one sample (its calls and the warming one).
    estimate: Duration,
    /// Bytes per second, one per round.
    rates: Vec<f64>,
}

struct Group {
    primitive: usize,
    case: Case,
    cells: Vec<Cell>,
}

/// Measures every implementation of every primitive at every case, interleaved;
/// Refuses (before timing anything) if the implementations of a case disagree on the
/// output of their first call.
pub fn run(
    primitives: &[Primitive],
    plan: Plan,
    progress: &ProgressBar,
) -> Result<Results, String> {
    let clock = Clock {
        bar: progress,
        start: Instant::now(),
    };
    // Calibration and rounds still to come, predicted: `calibration` left to
    // calibrate, then rounds of `round` each.
    let ahead = |calibration: Duration, round: Duration| {
        let rounds = predicted_rounds(&plan, 0, Duration::ZERO, round);
        calibration.saturating_add(times(round, rounds))
    };
    // Before every implementation has run once, nothing is predicted: the bar has no
    // length yet (its ETA reads `?`); a 400 MB copy's first call alone can take seconds.
    progress.set_message("preparing buffers and checking outputs");
    let mut groups = prepare(primitives)?;

    // Each cell has run once: a sample is at least that call and its warming one,
    // and calibrating takes half a sample (a doubling series up to an eighth of one,
    // then two batches of that size) or four calls, then one whole sample.
    let guess_sample = |cell: &Cell| plan.sample.max(cell.first * 2);
    let guess_calibration =
        |cell: &Cell| (plan.sample / 2).max(cell.first * 4) + guess_sample(cell);
    let all = || groups.iter().flat_map(|g| &g.cells);
    let mut calibration_left: Duration = all().map(guess_calibration).sum();
    let mut round_estimate: Duration = all().map(guess_sample).sum();
    let mut guessed = Duration::ZERO;
    let calibration = Instant::now();
    clock.show(ahead(calibration_left, round_estimate));
    for group in &mut groups {
        progress.set_message(format!(
            "calibrating {} {}",
            primitives[group.primitive].name,
            sizes::label(group.case.size)
        ));
        for cell in &mut group.cells {
            cell.calls = calibrate(cell.runner.as_mut(), plan.sample);
            // The predicted sample: one sample as the rounds will take it.
            let started = Instant::now();
            sample(cell.runner.as_mut(), cell.calls);
            cell.estimate = started.elapsed();
            round_estimate = round_estimate.saturating_sub(guess_sample(cell)) + cell.estimate;
            // The rest of calibration at the pace of the cells calibrated so far.
            let guess = guess_calibration(cell);
            guessed += guess;
            calibration_left = calibration_left.saturating_sub(guess);
            let pace = calibration.elapsed().as_secs_f64() / guessed.as_secs_f64().max(1e-9);
            clock.show(ahead(calibration_left.mul_f64(pace), round_estimate));
        }
    }

    let mut timed = Duration::ZERO;
    let mut samples: u32 = 0;
    let mut rounds = 0;
    let start = Instant::now();
    // The predicted length of a round: calibrated until one is over, then measured.
    let mut round_length = round_estimate.max(Duration::from_micros(1));
    while rounds < plan.rounds {
        if let Some(deadline) = plan.deadline
            && rounds >= plan.min_rounds
            && start.elapsed() >= deadline
        {
            break;
        }
        let round = rounds;
        rounds += 1;
        let mut done_in_round = Duration::ZERO;
        for group in &mut groups {
            let n = group.cells.len();
            // Rotated by one each round, and backwards every other cycle of n rounds,
            // so no implementation always follows the same one.
            let backwards = (round / n) % 2 == 1;
            for k in 0..n {
                let k = if backwards { n - 1 - k } else { k };
                let cell = &mut group.cells[(k + round) % n];
                let elapsed = sample(cell.runner.as_mut(), cell.calls);
                timed += elapsed;
                samples = samples.saturating_add(1);
                let bytes = group.case.size as f64 * cell.calls as f64;
                cell.rates.push(bytes / elapsed.as_secs_f64().max(1e-9));
                // What is left of this round, at this round's predicted pace.
                done_in_round += cell.estimate;
                let left_of_round = round_length.mul_f64(
                    1.0 - (done_in_round.as_secs_f64() / round_estimate.as_secs_f64().max(1e-9))
                        .min(1.0),
                );
                let total =
                    predicted_rounds(&plan, rounds, start.elapsed() + left_of_round, round_length);
                progress.set_message(format!("round {rounds}/{total}"));
                clock.show(left_of_round.saturating_add(times(round_length, total - rounds)));
            }
        }
        round_length = (start.elapsed() / rounds as u32).max(Duration::from_micros(1));
    }
    progress.set_message(format!("round {rounds}/{rounds}"));

    let mut out = Vec::new();
    for group in groups {
        let primitive = &primitives[group.primitive];
        for (cell, imp) in group.cells.into_iter().zip(&primitive.implementations) {
            out.push(Measurement {
                primitive: primitive.name,
                implementation: imp.name(),
                role: imp.role(),
                case: group.case,
                mb_per_s: median(cell.rates) / 1e6,
            });
        }
    }
    Ok(Results {
        measurements: out,
        rounds,
        mean_sample: timed / samples.max(1),
    })
}

/// A cell per implementation and case, each run once and checked against the first.
fn prepare(primitives: &[Primitive]) -> Result<Vec<Group>, String> {
    let mut groups = Vec::new();
    for (index, primitive) in primitives.iter().enumerate() {
        for &case in &primitive.cases {
            let mut cells: Vec<Cell> = primitive
                .implementations
                .iter()
                .map(|imp| Cell {
                    runner: imp.prepare(case),
                    calls: 1,
                    first: Duration::ZERO,
                    estimate: Duration::ZERO,
                    rates: Vec::new(),
                })
                .collect();
            for cell in &mut cells {
                let started = Instant::now();
                cell.runner.run();
                cell.first = started.elapsed();
            }
            if let Some((first, rest)) = cells.split_first() {
                for (cell, imp) in rest.iter().zip(&primitive.implementations[1..]) {
                    if cell.runner.output() != first.runner.output() {
                        return Err(format!(
                            "{} at size {} offset {}: {} disagrees with {}; not timing it",
                            primitive.name,
                            case.size,
                            case.offset,
                            imp.name(),
                            primitive.implementations[0].name()
                        ));
                    }
                }
            }
            groups.push(Group {
                primitive: index,
                case,
                cells,
            });
        }
    }
    Ok(groups)
}

/// Calls per sample: doubles a batch until it takes at least an eighth of a sample,
/// times that batch twice more, and scales the fastest of the three to a whole sample
/// (the fastest, so a preemption during calibration does not shorten every sample).
fn calibrate(runner: &mut dyn Runner, target: Duration) -> u64 {
    let mut calls: u64 = 1;
    loop {
        let elapsed = sample(runner, calls);
        if elapsed >= target / 8 || calls >= 1 << 40 {
            let best = elapsed
                .min(sample(runner, calls))
                .min(sample(runner, calls));
            let per_call = best.as_secs_f64() / calls as f64;
            let wanted = target.as_secs_f64() / per_call.max(1e-12);
            return (wanted.ceil() as u64).clamp(1, 1 << 40);
        }
        calls *= 2;
    }
}

/// One untimed call to warm the buffers, then `calls` timed calls.
fn sample(runner: &mut dyn Runner, calls: u64) -> Duration {
    runner.run();
    let start = Instant::now();
    for _ in 0..calls {
        runner.run();
    }
    start.elapsed()
}

/// The median (the mean of the middle two for an even count); 0 for none.
fn median(mut values: Vec<f64>) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let mid = values.len() / 2;
    if values.len() % 2 == 1 {
        values[mid]
    } else {
        (values[mid - 1] + values[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::super::registry::Implementation;
    use super::*;

    /// Writes `fill` over a `size`-byte buffer per call.
    struct Fill(u8);
    struct FillRunner(Vec<u8>, u8);

    impl Implementation for Fill {
        fn name(&self) -> String {
            format!("fill-{}", self.0)
        }
        fn role(&self) -> Role {
            Role::Peer
        }
        fn prepare(&self, case: Case) -> Box<dyn Runner> {
            Box::new(FillRunner(vec![0; case.size], self.0))
        }
    }

    impl Runner for FillRunner {
        fn run(&mut self) {
            self.0.fill(self.1);
            std::hint::black_box(&mut self.0);
        }
        fn output(&self) -> &[u8] {
            &self.0
        }
    }

    fn primitive(fills: &[u8]) -> Primitive {
        Primitive {
            name: "fill",
            cases: vec![
                Case {
                    size: 64,
                    offset: 0,
                },
                Case {
                    size: 100,
                    offset: 3,
                },
            ],
            implementations: fills
                .iter()
                .map(|&f| Box::new(Fill(f)) as Box<dyn Implementation>)
                .collect(),
        }
    }

    #[test]
    fn every_cell_is_measured_in_order() {
        let plan = Plan {
            rounds: 3,
            sample: Duration::from_micros(100),
            deadline: None,
            min_rounds: 3,
        };
        let results = run(&[primitive(&[1, 1])], plan, &ProgressBar::hidden())
            .unwrap()
            .measurements;
        let got: Vec<_> = results
            .iter()
            .map(|m| (m.implementation.as_str(), m.case.size, m.case.offset))
            .collect();
        assert_eq!(
            got,
            [
                ("fill-1", 64, 0),
                ("fill-1", 64, 0),
                ("fill-1", 100, 3),
                ("fill-1", 100, 3)
            ]
        );
        assert!(results.iter().all(|m| m.mb_per_s > 0.0));
    }

    #[test]
    fn implementations_that_disagree_are_not_timed() {
        let plan = Plan {
            rounds: 3,
            sample: Duration::from_micros(100),
            deadline: None,
            min_rounds: 3,
        };
        let err = run(&[primitive(&[1, 2])], plan, &ProgressBar::hidden()).unwrap_err();
        assert!(err.contains("fill-2 disagrees with fill-1"), "{err}");
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(vec![3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(vec![]), 0.0);
    }

    #[test]
    fn the_predicted_rounds_stop_where_the_run_will() {
        let ms = Duration::from_millis;
        let plan = Plan {
            rounds: 100,
            sample: ms(2),
            deadline: Some(ms(1000)),
            min_rounds: 15,
        };
        // Rounds of 50 ms: the 20th ends at the deadline, when no other begins.
        assert_eq!(predicted_rounds(&plan, 0, ms(0), ms(50)), 20);
        // Rounds of 40 ms: the deadline passes during the 25th, 25 in all.
        assert_eq!(predicted_rounds(&plan, 0, ms(0), ms(40)), 25);
        // Slow rounds: the floor of 15 runs whatever the deadline.
        assert_eq!(predicted_rounds(&plan, 3, ms(900), ms(500)), 15);
        // Past the floor and the deadline: the round under way is the last.
        assert_eq!(predicted_rounds(&plan, 17, ms(1100), ms(60)), 17);
        // Fast rounds: never more than planned.
        assert_eq!(predicted_rounds(&plan, 0, ms(0), ms(1)), 100);
        // No deadline: every planned round.
        let all = Plan {
            deadline: None,
            ..plan
        };
        assert_eq!(predicted_rounds(&all, 0, ms(0), ms(500)), 100);
    }

    #[test]
    fn budget_sets_the_rounds_with_a_floor() {
        let ms = Duration::from_millis;
        assert_eq!(Plan::for_budget(ms(1000), ms(2), 10, 15).rounds, 50);
        assert_eq!(Plan::for_budget(ms(1000), ms(2), 1000, 15).rounds, 15);
        assert_eq!(Plan::for_budget(ms(1000), ms(2), 0, 1).rounds, 500);
    }
}
