//! Runs of boards on one table answered at once by the library's typed
//! batch, and their lines written from its answers: the plain form and
//! `--length` straight from parsed boards, `--pairs` cases, and any run of
//! jobs toward one goal.

use std::sync::Arc;

use eight::{Answer, Board, SolveError, Solver};

use super::{Job, Outcome, Scratch, Style, write};

/// Answers `starts`, boards toward `goal` walked in the table of `solver`,
/// in the plain form or with `--length`, a line each into `out`, in runs of
/// [`PLAIN_RUN`] at once ([`Solver::solve_many_into`],
/// [`Solver::lengths_many_into`]). Returns how many it answered: all, or
/// fewer where that does not apply (searches, or a board the batch
/// refuses: the rest are then answered on their own, and told there).
///
/// # Errors
///
/// Fails if the data is wrong.
pub(crate) fn answer_plain_run(
    solver: &Solver,
    style: Style,
    starts: &[Board],
    goal: &Board,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> anyhow::Result<usize> {
    if solver.searches() {
        return Ok(0);
    }
    let mut answered = 0;
    for run in starts.chunks(PLAIN_RUN) {
        let solved = match style.length {
            true => solver.lengths_many_into(run, goal, &mut scratch.lengths),
            false => solver.solve_many_into(run, goal, &mut scratch.answers),
        };
        if let Err(err) = solved {
            return batch_failed(solver, err).map(|_| answered);
        }
        match style.length {
            true => write_lengths(&scratch.lengths, out),
            false => scratch.answers.write_each(out, b'\n', b"unsolvable\n"),
        }
        answered += run.len();
    }
    Ok(answered)
}

/// The most boards of a plain run answered at once: their answers stay in
/// the caches until they are written.
const PLAIN_RUN: usize = 4096;

/// Appends each of `lengths` as `--length` writes it: the number, or
/// `unsolvable`, a line each.
fn write_lengths(lengths: &[Option<u16>], out: &mut Vec<u8>) {
    let mut itoa = itoa::Buffer::new();
    for &length in lengths {
        match length {
            // One or two digits and the newline, as one word of known
            // length: no number formatted, no copy of variable length.
            Some(moves @ 0..10) => out.extend_from_slice(&[b'0' + moves as u8, b'\n']),
            Some(moves @ 10..100) => out.extend_from_slice(&[
                b'0' + (moves / 10) as u8,
                b'0' + (moves % 10) as u8,
                b'\n',
            ]),
            Some(moves) => {
                out.extend_from_slice(itoa.format(moves).as_bytes());
                out.push(b'\n');
            }
            None => out.extend_from_slice(b"unsolvable\n"),
        }
    }
}

/// What a batch's error comes to: the end of the run if the data is wrong,
/// else `false`, its boards to be answered one by one.
fn batch_failed(solver: &Solver, err: SolveError) -> anyhow::Result<bool> {
    match err.is_data_error() {
        true => Err(crate::stream::failed(solver, err)),
        false => Ok(false),
    }
}

/// Solves a run of jobs that all walk one table, toward one goal or (the
/// cases of `--pairs`) each toward its own, all at once
/// ([`Solver::solve_many`], [`Solver::solve_pairs`]), and appends their
/// answers to `out`. Returns `false` if it did not (the jobs are then to be
/// answered one by one).
///
/// # Errors
///
/// Fails if the data is wrong.
pub(crate) fn answer_run(
    solvers: &[Arc<Solver>],
    style: Style,
    jobs: &[Job],
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> anyhow::Result<bool> {
    let solver = &solvers[jobs[0].solver];
    if solver.searches() {
        return Ok(false);
    }
    scratch.starts.clear();
    scratch.goals.clear();
    for job in jobs {
        let (Ok(start), Ok(goal)) = (&job.start, &job.goal) else {
            return Ok(false);
        };
        scratch.starts.push(*start);
        scratch.goals.push(*goal);
    }
    let (starts, goals, answers) = (&scratch.starts, &scratch.goals, &mut scratch.answers);
    let answered = match jobs[0].case {
        Some(_) => solver.solve_pairs_into(starts, goals, answers),
        None => solver.solve_many_into(starts, &goals[0], answers),
    };
    if let Err(err) = answered {
        return batch_failed(solver, err);
    }
    let mut letters = Vec::new();
    for (k, (job, answer)) in jobs.iter().zip(answers.iter()).enumerate() {
        match (style.is_plain(), job.case) {
            (true, Some(case)) => write_plain_case(&CaseLabel::new(case), answer, out),
            _ => {
                letters.clear();
                let moves = answer.write_letters(&mut letters).then_some(&letters[..]);
                let outcome = Outcome::Solved {
                    start: &starts[k],
                    goal: &goals[k],
                    moves,
                };
                write(style, job, outcome, out);
            }
        }
    }
    Ok(true)
}

/// Solves `--pairs` cases numbered from `first`, each start toward the goal
/// beside it, all on the table of `solver` ([`Solver::solve_pairs`]), and
/// appends their plain answers to `out`: the hot form, with no job made.
/// Returns `false` if it did not (nothing is written then).
///
/// # Errors
///
/// Fails if the data is wrong.
pub(crate) fn answer_plain_cases(
    solver: &Solver,
    starts: &[Board],
    goals: &[Board],
    first: u64,
    scratch: &mut Scratch,
    out: &mut Vec<u8>,
) -> anyhow::Result<bool> {
    if solver.searches() {
        return Ok(false);
    }
    if let Err(err) = solver.solve_pairs_into(starts, goals, &mut scratch.answers) {
        return batch_failed(solver, err);
    }
    let mut label = CaseLabel::new(first);
    for answer in scratch.answers.iter() {
        write_plain_case(&label, answer, out);
        label.advance();
    }
    Ok(true)
}

/// Appends the plain answer of the case of `label`: `Case k: d`, then its
/// moves' blank letters.
fn write_plain_case(label: &CaseLabel, answer: Answer<'_>, out: &mut Vec<u8>) {
    label.write(out);
    match answer.length() {
        Some(length) => {
            match length {
                0..10 => out.push(b'0' + length as u8),
                10..100 => {
                    out.extend_from_slice(&[b'0' + (length / 10) as u8, b'0' + (length % 10) as u8])
                }
                _ => out.extend_from_slice(itoa::Buffer::new().format(length).as_bytes()),
            }
            out.push(b'\n');
            answer.write_letters(out);
        }
        None => out.extend_from_slice(b"unsolvable\n"),
    }
    out.push(b'\n');
}

/// `Case k: `, kept as text and counted up in place from one case to the
/// next: the label goes out as one word, with no number formatted and no
/// copy of variable length (a call, and 7% of the samples of `--pairs`).
pub(super) struct CaseLabel {
    text: [u8; 32],
    len: usize,
}

impl CaseLabel {
    pub(super) fn new(case: u64) -> CaseLabel {
        let mut text = [0; 32];
        let mut itoa = itoa::Buffer::new();
        let digits = itoa.format(case).as_bytes();
        let len = 5 + digits.len() + 2;
        text[..5].copy_from_slice(b"Case ");
        text[5..len - 2].copy_from_slice(digits);
        text[len - 2..len].copy_from_slice(b": ");
        CaseLabel { text, len }
    }

    /// The label of the next case.
    fn advance(&mut self) {
        let digits = 5..self.len - 2;
        for at in digits.clone().rev() {
            if self.text[at] != b'9' {
                self.text[at] += 1;
                return;
            }
            self.text[at] = b'0';
        }
        // All nines: one digit more, a 1 before the zeros.
        self.text
            .copy_within(digits.start..self.len, digits.start + 1);
        self.text[digits.start] = b'1';
        self.len += 1;
    }

    pub(super) fn write(&self, out: &mut Vec<u8>) {
        let start = out.len();
        out.extend_from_slice(&self.text);
        out.truncate(start + self.len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A label counted up in place reads as the case's number formatted,
    /// across every carry into a new digit.
    #[test]
    fn case_labels_count_up_as_numbers_do() {
        for first in [0, 1, 7, 95, 9_990, 99_999_990, u64::MAX - 20] {
            let mut label = CaseLabel::new(first);
            for case in first..first.saturating_add(20).max(first + 1) {
                let mut out = b"before ".to_vec();
                label.write(&mut out);
                assert_eq!(out, format!("before Case {case}: ").as_bytes());
                label.advance();
            }
        }
    }
}
