//! Batches of work to the workers and their answers back, written in
//! input order.

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};

use crate::stream::batch::answer_batch;
use crate::stream::chunk::{answer_chunk, answer_run, board_lines, clean_cut};
use crate::stream::input::{IO_BUFFER, LOOK_EVERY};
use crate::stream::pairs::{PAIRS_CHUNK, answer_pairs_chunk};
use crate::stream::render::{Job, Scratch, Style};
use crate::stream::report::Reporter;
use crate::stream::work::{Ahead, Chunk, Done, PairsAt, Reading, Run, Work};
use crate::stream::{Config, Host, check};
use eight::Solver;
use eight::Solvers;
use eight::progress::Deepening;
use eight::{Board, Layout};

/// Jobs sent to a worker at once; a search takes long enough to go alone.
pub(super) const TABLE_BATCH: usize = 4096;

/// Boards parsed already sent to a worker at once: about as many as a
/// chunk of text input holds.
pub(super) const RUN_BOARDS: usize = 1 << 14;

/// Batches kept queued or in work per worker.
pub(super) const IN_FLIGHT: usize = 2;

/// A numbered batch of work, and the solvers it may name.
pub(super) type Batch = (u64, Work, Arc<Vec<Arc<Solver>>>);

/// Worker threads, one per core, sharing one queue of numbered batches.
pub(super) struct Workers {
    pub(super) batches: SyncSender<Batch>,
    pub(super) answers: Receiver<(u64, Done)>,
    pub(super) count: usize,
    pub(super) searching: Searching,
}

/// Each worker's search under way, if any: the number of its batch, and
/// how far it has come.
pub(super) type Searching = Arc<Mutex<Vec<Option<(u64, Deepening)>>>>;

/// Batches jobs, answers them here or on the workers, and writes the
/// answers in input order.
pub(super) struct Pipeline<'a> {
    pub(super) style: Style,
    pub(super) reading: Reading,
    /// The solvers loaded so far, and how to load more.
    pub(super) solvers: &'a mut Solvers,
    /// The solvers as the workers see them.
    pub(super) shared: Arc<Vec<Arc<Solver>>>,
    pub(super) batch: Vec<Job>,
    /// Jobs per batch: fewer when they search.
    pub(super) batch_size: usize,
    pub(super) workers: Option<Workers>,
    /// Batches sent to the workers, and written.
    pub(super) sent: u64,
    pub(super) written: u64,
    /// Answers that came back before those of earlier batches, in the order
    /// they came.
    pub(super) waiting: BTreeMap<u64, VecDeque<Done>>,
    /// The first input line of each batch sent and not yet written.
    pub(super) lines: BTreeMap<u64, u64>,
    pub(super) scratch: Scratch,
    pub(super) out: io::BufWriter<Box<dyn Write + 'a>>,
    pub(super) reporter: Reporter<'a>,
    pub(super) host: &'static dyn Host,
    /// Some board was found invalid while answering.
    pub(super) invalid: bool,
    /// Some good board was left unanswered for want of data.
    pub(super) unanswered: bool,
    /// A failure met while taking items, reported by `check`.
    pub(super) failure: Option<anyhow::Error>,
    /// With `--pairs` in chunks: the lines of the chunks sent, the boards
    /// less the lines as of the last chunk written, and where the next
    /// chunk to write truly starts.
    pub(super) pairs_lines: u64,
    pub(super) pairs_offset: i64,
    pub(super) pairs_read: PairsAt,
}

impl<'a> Pipeline<'a> {
    pub(super) fn new(
        config: &Config,
        solvers: &'a mut Solvers,
        output: Box<dyn Write + 'a>,
        reporter: Reporter<'a>,
        host: &'static dyn Host,
    ) -> Pipeline<'a> {
        let shared = Arc::new(solvers.loaded().to_vec());
        // Searched boards go one to a batch, so that their answers stream:
        // known now if the boards' goal is, else once a board's goal is met
        // ([`Pipeline::find`]). Solvers loaded for earlier runs and not
        // asked by this one change nothing.
        let goal = match (config.goal, config.layout) {
            (Some(goal), _) => Some(goal),
            (None, Layout::Fixed(shape)) => Some(Board::goal(shape)),
            (None, Layout::Auto) => None,
        };
        let searches = goal.is_some_and(|goal| {
            (shared.iter())
                .find(|solver| solver.serves(&goal))
                .is_some_and(|solver| solver.searches())
        });
        let batch_size = match searches {
            true => 1,
            false => TABLE_BATCH,
        };
        Pipeline {
            style: config.style,
            reading: Reading {
                layout: config.layout,
                goal: config.goal,
            },
            solvers,
            shared,
            batch: Vec::with_capacity(TABLE_BATCH),
            batch_size,
            workers: None,
            sent: 0,
            written: 0,
            waiting: BTreeMap::new(),
            lines: BTreeMap::new(),
            scratch: Scratch::default(),
            out: io::BufWriter::with_capacity(IO_BUFFER, output),
            reporter,
            host,
            invalid: false,
            unanswered: false,
            failure: None,
            pairs_lines: 0,
            pairs_offset: 0,
            pairs_read: PairsAt::default(),
        }
    }

    /// The index of the solver for `goal`, loading it (and sharing it with
    /// the workers) if need be.
    ///
    /// # Errors
    ///
    /// Fails with [`Unavailable`] if the solver cannot be had (its data is
    /// missing or refused), else if the answers so far cannot be written.
    pub(super) fn find(&mut self, goal: &Board) -> Result<usize> {
        let index = match self.loaded(goal) {
            Some(index) => index,
            // Loading may take long (a proof): the answers so far are
            // flushed, and a signal meanwhile ends the program at once.
            None => {
                self.flush()?;
                let mut found = None;
                let solvers = &mut self.solvers;
                self.host.at_once(&mut || found = Some(solvers.get(goal)));
                let solver = found
                    .expect("at_once runs its work")
                    .map_err(|err| anyhow::Error::new(Unavailable(err)))?;
                let mut shared = self.shared.to_vec();
                shared.push(solver);
                self.shared = Arc::new(shared);
                self.shared.len() - 1
            }
        };
        if self.shared[index].searches() {
            self.batch_size = 1;
        }
        Ok(index)
    }

    /// The index of the solver shared with the workers that serves
    /// `goal`, if one does.
    pub(super) fn loaded(&self, goal: &Board) -> Option<usize> {
        self.shared.iter().position(|solver| solver.serves(goal))
    }

    /// Adds a job to the batch, and sends the batch once it is full. A
    /// searched board goes to a worker alone, so that its answer streams;
    /// boards walked in tables go in full batches whatever else the input
    /// holds (after one 4x4 board, a million 3x3 boards one to a batch took
    /// 3.3 s instead of 0.15 s).
    pub(super) fn push(&mut self, job: Job) {
        let alone = self.batch_size == 1
            && self
                .shared
                .get(job.solver)
                .is_some_and(|solver| solver.searches());
        if alone && !self.batch.is_empty() {
            self.send_pending();
        }
        self.batch.push(job);
        if alone || self.batch.len() >= TABLE_BATCH {
            self.send_pending();
        }
    }

    /// Sends the batch, unless a failure is waiting to be told.
    fn send_pending(&mut self) {
        if self.failure.is_none()
            && let Err(err) = self.send_batch()
        {
            self.failure = Some(err);
        }
    }

    /// Returns the first failure met while taking items, or the signal
    /// that asks the run to stop.
    pub(super) fn check(&mut self) -> Result<()> {
        self.failure.take().map_or(Ok(()), Err)?;
        self.stop_check()
    }

    /// Fails with the host's signal if it asks the run to stop, or as
    /// stopped by SIGINT if the solvers' [`Stop`](eight::Stop) is asked
    /// for.
    fn stop_check(&self) -> Result<()> {
        check(self.host)?;
        match self.solvers.stop().is_some_and(eight::Stop::is_stopped) {
            true => Err(super::Stopped(super::SIGINT).into()),
            false => Ok(()),
        }
    }

    /// Queues `boards`, of one shape from line `line` on, for the workers,
    /// to be answered toward `goal` by the table walker `solver` in runs of
    /// [`RUN_BOARDS`], after the jobs before them.
    pub(super) fn send_run(
        &mut self,
        line: u64,
        boards: &[Board],
        goal: Board,
        solver: usize,
    ) -> Result<()> {
        if !self.batch.is_empty() {
            self.send_batch()?;
        }
        for (line, run) in (line..).step_by(RUN_BOARDS).zip(boards.chunks(RUN_BOARDS)) {
            self.send_work(Work::Run(Run {
                line,
                boards: run.to_vec(),
                goal,
                solver,
            }))?;
        }
        Ok(())
    }

    /// Queues the batch of jobs for the workers.
    pub(super) fn send_batch(&mut self) -> Result<()> {
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(TABLE_BATCH));
        self.send_work(Work::Jobs(batch))
    }

    /// Sends the part of `carry` that ends cleanly as a chunk, keeping the
    /// rest; `line` is the first line of `carry`, and then of what is kept.
    /// `--pairs` input, more work a byte, goes in chunks of at most
    /// [`PAIRS_CHUNK`] bytes, each ending where it can after an even number
    /// of boards, as presumed, so that the next is presumed to start with a
    /// case.
    pub(super) fn send_clean(
        &mut self,
        carry: &mut Vec<u8>,
        line: &mut u64,
        layout: Layout,
        pairs: bool,
    ) -> Result<()> {
        if !pairs {
            let Some(cut) = clean_cut(carry, layout) else {
                return Ok(());
            };
            let rest = carry.split_off(cut);
            let bytes = std::mem::replace(carry, rest);
            let first = *line;
            *line += memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let chunk = self.chunk(bytes, first, false);
            return self.send_work(Work::Chunk(chunk));
        }
        // Chunks copied out one after another; what is left moved once.
        let mut start = 0;
        let sent = loop {
            let window = &carry[start..carry.len().min(start + PAIRS_CHUNK)];
            let Some(mut cut) = clean_cut(window, layout).map(|cut| start + cut) else {
                break Ok(());
            };
            if (self.presumed_boards() + board_lines(&carry[start..cut])) % 2 == 1 {
                // One line less, if the line before it is no grid row.
                if let Some(earlier) =
                    clean_cut(&carry[start..cut - 1], layout).map(|earlier| start + earlier)
                    && memchr::memchr_iter(b'\n', &carry[earlier..cut]).count() == 1
                {
                    cut = earlier;
                }
            }
            let bytes = carry[start..cut].to_vec();
            start = cut;
            let first = *line;
            *line += memchr::memchr_iter(b'\n', &bytes).count() as u64;
            let chunk = self.chunk(bytes, first, true);
            if let Err(err) = self.send_work(Work::Chunk(chunk)) {
                break Err(err);
            }
            if carry.len() - start < PAIRS_CHUNK {
                break Ok(());
            }
        };
        carry.drain(..start);
        sent
    }

    /// The boards before the next chunk of `--pairs` input, as presumed.
    pub(super) fn presumed_boards(&self) -> u64 {
        self.pairs_lines.saturating_add_signed(self.pairs_offset)
    }

    /// A chunk of `bytes` from `line` on, not the last; with `--pairs`,
    /// presumed to start where [`PairsAt`] says.
    pub(super) fn chunk(&mut self, bytes: Vec<u8>, line: u64, pairs: bool) -> Chunk {
        let at = pairs.then(|| {
            let boards = self.presumed_boards();
            self.pairs_lines += board_lines(&bytes);
            PairsAt {
                boards,
                pending: None,
                lines: self.pairs_lines,
            }
        });
        Chunk {
            bytes,
            line,
            last: false,
            pairs: at,
        }
    }

    /// Queues work for the workers, starting them if need be and writing
    /// the oldest answers first if enough are in flight.
    pub(super) fn send_work(&mut self, work: Work) -> Result<()> {
        if self.workers.is_none() {
            self.workers = Some(self.spawn_workers());
        }
        let count = self.workers.as_ref().map_or(1, |workers| workers.count);
        let in_flight = IN_FLIGHT * if self.batch_size == 1 { 4 } else { 1 };
        while self.sent - self.written >= (in_flight * count) as u64 {
            self.write_next()?;
        }
        let line = match &work {
            Work::Jobs(jobs) => jobs.first().map_or(0, |job| job.line),
            Work::Chunk(chunk) => chunk.line,
            Work::Run(run) => run.line,
        };
        self.lines.insert(self.sent, line);
        let workers = self.workers.as_ref().expect("the workers are started");
        workers
            .batches
            .send((self.sent, work, Arc::clone(&self.shared)))
            .map_err(|_| anyhow!("a worker thread stopped"))?;
        self.sent += 1;
        Ok(())
    }

    /// One worker per core; each takes the next batch from the shared queue,
    /// so a long job holds up only its own worker.
    pub(super) fn spawn_workers(&self) -> Workers {
        let count = thread::available_parallelism().map_or(1, |n| n.get());
        let (batches, queue) = mpsc::sync_channel::<Batch>(IN_FLIGHT * 4 * count);
        let queue = Arc::new(Mutex::new(queue));
        let (done, answers) = mpsc::channel();
        let searching: Searching = Arc::new(Mutex::new(vec![None; count]));
        for worker in 0..count {
            let (queue, done) = (Arc::clone(&queue), done.clone());
            let (style, reading, host) = (self.style, self.reading, self.host);
            let searching = Arc::clone(&searching);
            self.host.spawn(Box::new(move || {
                let mut scratch = Scratch::default();
                // The batch answered, for the searches' word.
                let batch = std::rc::Rc::new(std::cell::Cell::new(0));
                let report = {
                    let batch = std::rc::Rc::clone(&batch);
                    move |deepening: &Deepening| {
                        if let Ok(mut searching) = searching.lock() {
                            searching[worker] =
                                (!deepening.done).then_some((batch.get(), *deepening));
                        }
                        host.searching(deepening);
                    }
                };
                eight::progress::with(report, || {
                    loop {
                        let next = queue.lock().map(|queue| queue.recv());
                        let Ok(Ok((number, work, solvers))) = next else {
                            return;
                        };
                        batch.set(number);
                        let answered = match work {
                            Work::Jobs(jobs) => answer_batch(&jobs, &solvers, style, &mut scratch),
                            Work::Run(run) => {
                                let mut done = Done {
                                    out: Vec::with_capacity(run.boards.len() * 24),
                                    ..Done::default()
                                };
                                let (goal, solver) = (run.goal, run.solver);
                                answer_run(
                                    &run.boards,
                                    goal,
                                    solver,
                                    &solvers,
                                    style,
                                    &mut scratch,
                                    &mut done,
                                );
                                done
                            }
                            Work::Chunk(chunk) if chunk.pairs.is_some() => {
                                answer_pairs_chunk(chunk, reading, &solvers, style, &mut scratch)
                            }
                            Work::Chunk(chunk) => {
                                let ahead = Ahead {
                                    number,
                                    answers: done.clone(),
                                };
                                answer_chunk(
                                    chunk,
                                    reading,
                                    &solvers,
                                    style,
                                    &mut scratch,
                                    Some(ahead),
                                )
                            }
                        };
                        if done.send((number, answered)).is_err() {
                            return;
                        }
                    }
                });
            }));
        }
        Workers {
            batches,
            answers,
            count,
            searching,
        }
    }

    /// Writes the answers of the oldest batch not yet written. A chunk that
    /// met a goal with no solver loaded goes back to the workers, under the
    /// same number, once it is; so does a chunk of `--pairs` input presumed
    /// to start elsewhere than it does ([`PairsAt`]).
    pub(super) fn write_next(&mut self) -> Result<()> {
        let done = loop {
            let mut done = self.next_answers()?;
            if done.part {
                self.write(done)?;
                continue;
            }
            let chunk = match (done.retry.take(), done.pairs.take()) {
                (Some((chunk, goal)), _) => match self.find(&goal) {
                    // The answers before the board of that goal go out, and
                    // the chunk from that board on goes back.
                    Ok(_) if chunk.pairs.is_none() => {
                        self.write(done)?;
                        chunk
                    }
                    Ok(_) => chunk,
                    // Presumed to start elsewhere: again, from where it
                    // does, to come back for the goal with the right cases.
                    Err(_)
                        if chunk
                            .pairs
                            .as_ref()
                            .is_some_and(|at| !self.starts_right(at)) =>
                    {
                        self.truly_placed(chunk)
                    }
                    // The answers before the board that needs the solver
                    // go out first.
                    Err(err) => {
                        done.fatal = Some(err);
                        break done;
                    }
                },
                (None, Some(read)) => {
                    let read_as = &read.at;
                    if self.starts_right(read_as) {
                        let truly = &self.pairs_read;
                        let boards = truly.boards + read.boards;
                        self.pairs_offset = boards as i64 - read_as.lines as i64;
                        self.pairs_read = PairsAt {
                            boards,
                            pending: read.pending,
                            lines: read_as.lines,
                        };
                        break done;
                    }
                    // Presumed to start elsewhere: again, from where it does.
                    self.truly_placed(Chunk {
                        pairs: Some(read.at),
                        ..read.chunk
                    })
                }
                (None, None) => break done,
            };
            let workers = self.workers.as_ref().expect("batches were sent");
            workers
                .batches
                .send((self.written, Work::Chunk(chunk), Arc::clone(&self.shared)))
                .map_err(|_| anyhow!("a worker thread stopped"))?;
        };
        self.lines.remove(&self.written);
        self.written += 1;
        self.write(done)
    }

    /// The next answers of the oldest batch not yet written: kept from
    /// before, or the next to come. Whatever is written so far is flushed
    /// before waiting, so that slow answers are seen as they come.
    pub(super) fn next_answers(&mut self) -> Result<Done> {
        if let Some(queue) = self.waiting.get_mut(&self.written)
            && let Some(done) = queue.pop_front()
        {
            if queue.is_empty() {
                self.waiting.remove(&self.written);
            }
            return Ok(done);
        }
        let mut flushed = false;
        loop {
            let workers = self.workers.as_ref().expect("batches were sent");
            let (number, done) = match workers.answers.try_recv() {
                Ok(answers) => answers,
                Err(TryRecvError::Empty) if !flushed => {
                    self.flush()?;
                    flushed = true;
                    continue;
                }
                Err(_) => self.await_answers()?,
            };
            if number == self.written {
                return Ok(done);
            }
            self.waiting.entry(number).or_default().push_back(done);
        }
    }

    /// Waits for the next answers to come, the wait shown on stderr once it
    /// is long, if stderr is a terminal.
    pub(super) fn await_answers(&mut self) -> Result<(u64, Done)> {
        let workers = self.workers.as_ref().expect("batches were sent");
        let started = Instant::now();
        let mut shown = 0;
        let answers = loop {
            if let Err(stopped) = self.stop_check() {
                if shown > 0 {
                    self.reporter.show("");
                }
                return Err(stopped);
            }
            match workers.answers.recv_timeout(LOOK_EVERY) {
                Ok(answers) => break answers,
                Err(RecvTimeoutError::Disconnected) => bail!("a worker thread stopped"),
                Err(RecvTimeoutError::Timeout) => {}
            }
            let seconds = started.elapsed().as_secs();
            if self.reporter.terminal && seconds > shown {
                shown = seconds;
                let line = self.lines.get(&self.written).copied().unwrap_or(0);
                let searched = workers.searching.lock().ok().and_then(|searching| {
                    searching
                        .iter()
                        .flatten()
                        .find(|(batch, _)| *batch == self.written)
                        .map(|(_, deepening)| {
                            format!(
                                "searching {} moves or more after {} positions",
                                deepening.bound, deepening.nodes
                            )
                        })
                });
                let searched = searched.map_or(String::new(), |text| format!(", {text}"));
                self.reporter.show(&format!(
                    "eight: answering from line {line}: {seconds} s{searched}"
                ));
            }
        };
        if shown > 0 {
            self.reporter.show("");
        }
        Ok(answers)
    }

    /// Whether a chunk of `--pairs` input presumed to start `at` starts
    /// there.
    pub(super) fn starts_right(&self, at: &PairsAt) -> bool {
        let truly = &self.pairs_read;
        at.boards == truly.boards && at.pending.is_some() == truly.pending.is_some()
    }

    /// A chunk of `--pairs` input, placed where it truly starts.
    pub(super) fn truly_placed(&self, chunk: Chunk) -> Chunk {
        let lines = chunk.pairs.as_ref().map_or(0, |at| at.lines);
        Chunk {
            pairs: Some(PairsAt {
                lines,
                ..self.pairs_read.clone()
            }),
            ..chunk
        }
    }

    /// Writes a batch's answers and reports its messages; then its failure,
    /// if it met one after those answers.
    pub(super) fn write(&mut self, done: Done) -> Result<()> {
        // A data file changed while the answers were made (or before): none
        // of them can be trusted.
        if let Some(path) = self.shared.iter().find_map(|solver| solver.changed()) {
            return Err(anyhow!(
                "{} was changed or cut short while being read; the answers from then on were \
                 dropped: run again once it is complete",
                path.display()
            ));
        }
        self.reporter.extend(&done.errors);
        self.invalid |= done.invalid;
        self.unanswered |= done.unanswered;
        if done.out.len() < IO_BUFFER / 4 {
            self.out
                .write_all(&done.out)
                .context("cannot write stdout")?;
        } else {
            // Large answers go out as they are, not copied into the buffer
            // first: a chunk's answers mostly fit it, so were copied.
            self.out.flush().context("cannot write stdout")?;
            self.out
                .get_mut()
                .write_all(&done.out)
                .context("cannot write stdout")?;
        }
        done.fatal.map_or(Ok(()), Err)?;
        self.stop_check()
    }

    /// Answers every job so far, writes the answers and flushes them.
    pub(super) fn drain(&mut self) -> Result<()> {
        self.check()?;
        if self.sent == self.written && self.batch_size > 1 {
            // Little input: answer it here rather than wake the workers
            // (searches go to the workers, so that their answers stream).
            let done = answer_batch(&self.batch, &self.shared, self.style, &mut self.scratch);
            self.batch.clear();
            self.write(done)?;
        } else if !self.batch.is_empty() {
            self.send_batch()?;
        }
        while self.written < self.sent {
            self.write_next()?;
        }
        self.flush()
    }

    /// Writes out the messages and answers written so far.
    pub(super) fn flush(&mut self) -> Result<()> {
        self.reporter.flush();
        self.out.flush().context("cannot write stdout")
    }
}

/// A solver that cannot be had: its data is missing or refused. The boards
/// that need it are left `unanswered`; the run goes on. (A `DataError`
/// says its causes in its own message.)
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub(crate) struct Unavailable(pub(crate) Arc<eight::DataError>);
