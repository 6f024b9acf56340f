//! Jobs answered in order, runs of them at once where a table can.

use std::sync::Arc;

use crate::solver::Solver;
use crate::stream::render::{self, Job, Scratch, Style};
use crate::stream::work::Done;
use crate::table::GROUP;

/// Answers `jobs` in order.
pub(super) fn answer_batch(
    jobs: &[Job],
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
) -> Done {
    let mut done = Done {
        out: Vec::with_capacity(jobs.len() * 32),
        ..Done::default()
    };
    answer_into(jobs, solvers, style, scratch, &mut done);
    done
}

/// Answers a run of jobs at once, or says it did not ([`render::answer_pairs`],
/// [`render::answer_group`]).
pub(super) type RunAnswer =
    fn(&[Arc<Solver>], Style, &[Job], &mut Scratch, &mut Vec<u8>) -> anyhow::Result<bool>;

/// The most `--pairs` cases walked at once.
pub(super) const PAIRS_RUN: usize = 256;

/// Answers `jobs` in order, appending to `done`.
pub(super) fn answer_into(
    jobs: &[Job],
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    done: &mut Done,
) {
    let lines = style.lines();
    let mut rest = jobs;
    // The jobs of a run the derived answers were asked for and could not
    // answer are not asked for again, one shorter run after another (each
    // ask counts its boards toward deriving them): asked for only once the
    // jobs left are this few.
    let mut ask_within = usize::MAX;
    // Likewise, the jobs of a run of `--pairs` cases tried at once and not
    // answered are answered one by one.
    let mut pairs_within = usize::MAX;
    while !rest.is_empty() {
        // A run of plain jobs toward one goal is answered at once, from a
        // table's derived answers.
        let same = |job: &Job| {
            job.start.is_ok()
                && job.judge.is_none()
                && job.case.is_none()
                && job.solver == rest[0].solver
                && job.goal.as_ref().ok() == rest[0].goal.as_ref().ok()
        };
        if let Some(lines) = lines
            && rest.len() <= ask_within
            && same(&rest[0])
        {
            let run = rest.iter().take_while(|job| same(job)).count();
            ask_within = rest.len() - run;
            if run >= 8 {
                scratch.starts.clear();
                scratch
                    .starts
                    .extend(rest[..run].iter().filter_map(|job| job.start.as_ref().ok()));
                let goal = match &rest[0].goal {
                    Ok(goal) => goal,
                    Err(_) => unreachable!("a run's jobs have goals"),
                };
                match solvers[rest[0].solver].write_answers(
                    &scratch.starts,
                    goal,
                    lines,
                    &mut done.out,
                ) {
                    Ok(true) => {
                        rest = &rest[run..];
                        continue;
                    }
                    Ok(false) => {}
                    Err(err) if err.is_data_error() => {
                        done.fatal = Some(super::failed(&solvers[rest[0].solver], err));
                        break;
                    }
                    Err(_) => {}
                }
            }
        }
        // A run of `--pairs` cases on one table walks interleaved.
        let mut pairs = 0;
        if rest[0].case.is_some() && rest.len() <= pairs_within {
            pairs = rest
                .iter()
                .take(PAIRS_RUN)
                .take_while(|job| {
                    job.start.is_ok()
                        && job.goal.is_ok()
                        && job.judge.is_none()
                        && job.solver == rest[0].solver
                })
                .count();
            pairs_within = rest.len() - pairs;
        }
        // A run of jobs toward one goal walks a large table as one group.
        let grouped = rest[0].start.is_ok()
            && rest[0].goal.is_ok()
            && rest[0].judge.is_none()
            && solvers[rest[0].solver]
                .table()
                .is_some_and(|t| t.groups_pay());
        let group = rest
            .iter()
            .take(if grouped && pairs < 2 { GROUP } else { 0 })
            .take_while(|job| {
                job.start.is_ok()
                    && job.goal.is_ok()
                    && job.solver == rest[0].solver
                    && job.goal.as_ref().ok() == rest[0].goal.as_ref().ok()
            })
            .count();
        let (run, answer_run): (usize, RunAnswer) = match pairs >= 2 {
            true => (pairs, render::answer_pairs),
            false => (group, render::answer_group),
        };
        if run >= 2 {
            match answer_run(solvers, style, &rest[..run], scratch, &mut done.out) {
                Ok(true) => {
                    rest = &rest[run..];
                    continue;
                }
                Ok(false) => {}
                Err(err) => {
                    done.fatal = Some(err);
                    break;
                }
            }
        }
        match render::answer(
            solvers,
            style,
            &rest[0],
            scratch,
            &mut done.out,
            &mut done.errors,
        ) {
            Ok(mark)
                if rest[0].start.is_ok()
                    && rest[0].goal.is_ok()
                    && solvers.get(rest[0].solver).is_some_and(|s| s.searches()) =>
            {
                done.note(mark);
                done.send_ahead();
            }
            Ok(mark) => done.note(mark),
            Err(err) => {
                done.fatal = Some(err);
                break;
            }
        }
        rest = &rest[1..];
    }
}
