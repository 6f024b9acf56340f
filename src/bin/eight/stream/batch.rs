//! Jobs answered in order, runs of them at once where a table can.

use std::sync::Arc;

use crate::stream::render::{self, Job, Scratch, Style};
use crate::stream::work::Done;
use eight::Solver;

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

/// The most jobs answered at once.
const RUN: usize = 4096;

/// Answers `jobs` in order, appending to `done`.
pub(super) fn answer_into(
    jobs: &[Job],
    solvers: &[Arc<Solver>],
    style: Style,
    scratch: &mut Scratch,
    done: &mut Done,
) {
    let mut rest = jobs;
    // The jobs of a run tried at once and not answered are answered one by
    // one: runs are tried again only once the jobs left are this few.
    let mut within = usize::MAX;
    while !rest.is_empty() {
        // A run of jobs on one table, toward one goal or (cases of
        // `--pairs`) each toward its own, is answered at once.
        let first = &rest[0];
        let joins = |job: &Job| {
            job.start.is_ok()
                && job.goal.is_ok()
                && job.judge.is_none()
                && job.case.is_some() == first.case.is_some()
                && job.solver == first.solver
                && (job.case.is_some() || job.goal.as_ref().ok() == first.goal.as_ref().ok())
        };
        let run = match rest.len() <= within && joins(first) {
            true => rest.iter().take(RUN).take_while(|job| joins(job)).count(),
            false => 0,
        };
        if run >= 2 {
            within = rest.len() - run;
            match render::answer_run(solvers, style, &rest[..run], scratch, &mut done.out) {
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
