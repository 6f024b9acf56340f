//! From stdin to stdout: parse, batch, solve on every core, write in order.
//!
//! A reader thread hands stdin over in blocks. The main thread parses them
//! into jobs and reports bad boards. Full batches of jobs go to worker
//! threads, started on the first full batch, round-robin, and their answers
//! are written in the order the batches were sent. Whenever the next block of
//! input is not there yet (the input waits), every job so far is answered,
//! written and flushed; a small input is answered on the main thread alone,
//! so one board costs no thread start-up but the reader's.

use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{self, Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread;

use anyhow::{Context, Result, anyhow};
use eight::{Board, Item, Parser, TableError};

use crate::render::{self, Engine, Job, Scratch, Style};

/// How much input is read, and output buffered, at a time.
const IO_BUFFER: usize = 64 * 1024;

/// Blocks of input read ahead of the parser.
const READ_AHEAD: usize = 4;

/// Answers everything on stdin; returns the exit code.
pub fn run<D>(
    engine: Arc<Engine<D>>,
    goal: Board,
    style: Style,
    pairs: bool,
    head: Vec<u8>,
) -> Result<ExitCode>
where
    D: AsRef<[u8]> + Send + Sync + 'static,
{
    let mut parser = match pairs {
        true => Parser::with_count(engine.shape()),
        false => Parser::new(engine.shape()),
    };
    let mut session = Session {
        pipeline: Pipeline::new(engine, style),
        goal,
        pairs: pairs.then(Pairs::default),
        invalid: false,
    };
    // What `main` read to tell the boards' shape comes first.
    parser.feed(&head, &mut |item| session.take(item));
    session.pipeline.check()?;
    let mut input = Input::Direct(io::stdin().lock());
    // Before the input waits, hand over every answer so far.
    while let Some(block) = input.next(|| session.pipeline.drain())? {
        parser.feed(&block, &mut |item| session.take(item));
        session.pipeline.check()?;
    }
    parser.finish(&mut |item| session.take(item));
    session.finish()
}

/// Stdin, read in blocks: on this thread while it comes in small pieces
/// (typed, or one board), then, from the first full block on, on a thread of
/// its own so that reading overlaps solving and a wait can be seen coming.
enum Input {
    Direct(io::StdinLock<'static>),
    Background(Receiver<io::Result<Vec<u8>>>),
}

impl Input {
    /// The next block of input, or `None` at its end. `before_wait` runs
    /// first whenever the next block is not there yet.
    fn next(&mut self, before_wait: impl FnOnce() -> Result<()>) -> Result<Option<Vec<u8>>> {
        match self {
            Input::Direct(stdin) => {
                before_wait()?;
                let block = read_block(stdin, IO_BUFFER).context("cannot read stdin")?;
                if block.len() == IO_BUFFER {
                    *self = Input::Background(read_in_background());
                }
                Ok((!block.is_empty()).then_some(block))
            }
            Input::Background(blocks) => {
                let block = match blocks.try_recv() {
                    Ok(block) => block,
                    Err(TryRecvError::Empty) => {
                        before_wait()?;
                        match blocks.recv() {
                            Ok(block) => block,
                            Err(_) => return Ok(None),
                        }
                    }
                    Err(TryRecvError::Disconnected) => return Ok(None),
                };
                block.map(Some).context("cannot read stdin")
            }
        }
    }
}

/// One read of at most `size` bytes, tried again if a signal interrupts it;
/// an empty block at end of input.
pub fn read_block(input: &mut impl Read, size: usize) -> io::Result<Vec<u8>> {
    let mut block = vec![0u8; size];
    loop {
        match input.read(&mut block) {
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
            Ok(read) => {
                block.truncate(read);
                return Ok(block);
            }
        }
    }
}

/// Reads stdin on a thread of its own, in blocks, until end of input or an
/// error. The thread is not joined: at exit it may still wait for input.
fn read_in_background() -> Receiver<io::Result<Vec<u8>>> {
    let (send, receive) = mpsc::sync_channel(READ_AHEAD);
    thread::spawn(move || {
        let mut stdin = io::stdin().lock();
        loop {
            match read_block(&mut stdin, IO_BUFFER) {
                Ok(block) if block.is_empty() => return,
                Ok(block) => {
                    if send.send(Ok(block)).is_err() {
                        return;
                    }
                }
                Err(err) => {
                    let _ = send.send(Err(err));
                    return;
                }
            }
        }
    });
    receive
}

/// The state of `--pairs` input.
#[derive(Debug, Default)]
struct Pairs {
    /// The line of the count, and the count if it was readable.
    announced: Option<(u64, Option<u64>)>,
    /// Cases so far.
    cases: u64,
    /// A start board (or why it is invalid) waiting for its target, and its line.
    start: Option<(u64, Result<Board, String>)>,
}

/// Turns parsed items into jobs, reporting what is wrong on stderr.
struct Session<D> {
    pipeline: Pipeline<D>,
    goal: Board,
    pairs: Option<Pairs>,
    /// Some board was invalid.
    invalid: bool,
}

impl<D: AsRef<[u8]> + Send + Sync + 'static> Session<D> {
    fn take(&mut self, item: Item) {
        let (line, board) = match item {
            Item::Count { line, result } => {
                let count = result.map_err(|err| self.report(line, &err)).ok();
                self.pairs_mut().announced = Some((line, count));
                return;
            }
            Item::Board { line, result } => (line, result.map_err(|err| self.report(line, &err))),
        };
        let Some(pairs) = &mut self.pairs else {
            let goal = Ok(self.goal);
            self.pipeline.push(Job {
                line,
                case: None,
                start: board,
                goal,
            });
            return;
        };
        match pairs.start.take() {
            None => pairs.start = Some((line, board)),
            Some((start_line, start)) => {
                pairs.cases += 1;
                let case = Some(pairs.cases);
                self.pipeline.push(Job {
                    line: start_line,
                    case,
                    start,
                    goal: board,
                });
            }
        }
    }

    fn pairs_mut(&mut self) -> &mut Pairs {
        self.pairs
            .as_mut()
            .expect("count lines come only with --pairs")
    }

    /// Reports a bad board on stderr, and returns the message.
    fn report(&mut self, line: u64, err: &dyn std::fmt::Display) -> String {
        eprintln!("eight: <stdin>:{line}: {err}");
        self.invalid = true;
        err.to_string()
    }

    /// Reports what the end of input leaves unfinished, writes every answer,
    /// and picks the exit code.
    fn finish(mut self) -> Result<ExitCode> {
        if let Some(pairs) = self.pairs.take() {
            let mut cases = pairs.cases;
            if let Some((line, _)) = pairs.start {
                cases += 1;
                let message = self.report(line, &"this case has a start board but no target board");
                self.pipeline.push(Job {
                    line,
                    case: Some(cases),
                    start: Err(message.clone()),
                    goal: Err(message),
                });
            }
            match pairs.announced {
                None => {
                    self.report(
                        1,
                        &"no input: expected the number of cases, then pairs of boards",
                    );
                }
                Some((line, Some(count))) if count != cases => {
                    self.report(
                        line,
                        &format!("the input announces {count} cases but holds {cases}"),
                    );
                }
                Some(_) => {}
            }
        }
        self.pipeline.drain()?;
        Ok(match self.invalid {
            true => ExitCode::from(1),
            false => ExitCode::SUCCESS,
        })
    }
}

/// Worker threads, one per core, sharing one queue of numbered batches.
struct Workers {
    batches: SyncSender<(u64, Vec<Job>)>,
    answers: Receiver<(u64, Result<Vec<u8>, TableError>)>,
    count: usize,
}

/// Batches jobs, solves them here or on the workers, and writes the answers
/// in input order.
struct Pipeline<D> {
    engine: Arc<Engine<D>>,
    style: Style,
    batch: Vec<Job>,
    workers: Option<Workers>,
    /// Batches sent to the workers, and written.
    sent: u64,
    written: u64,
    /// Answers that came back before those of earlier batches.
    waiting: BTreeMap<u64, Result<Vec<u8>, TableError>>,
    scratch: Scratch,
    answers: Vec<u8>,
    out: io::BufWriter<io::StdoutLock<'static>>,
    /// A failure met while taking items, reported by `check`.
    failure: Option<anyhow::Error>,
}

impl<D: AsRef<[u8]> + Send + Sync + 'static> Pipeline<D> {
    fn new(engine: Arc<Engine<D>>, style: Style) -> Pipeline<D> {
        Pipeline {
            batch: Vec::with_capacity(engine.batch()),
            engine,
            style,
            workers: None,
            sent: 0,
            written: 0,
            waiting: BTreeMap::new(),
            scratch: Scratch::default(),
            answers: Vec::new(),
            out: io::BufWriter::with_capacity(IO_BUFFER, io::stdout().lock()),
            failure: None,
        }
    }

    fn push(&mut self, job: Job) {
        self.batch.push(job);
        if self.batch.len() >= self.engine.batch() && self.failure.is_none() {
            if let Err(err) = self.send_batch() {
                self.failure = Some(err);
            }
        }
    }

    /// Returns the first failure met while taking items.
    fn check(&mut self) -> Result<()> {
        self.failure.take().map_or(Ok(()), Err)
    }

    /// Queues the batch for the workers, starting them if need be and
    /// writing the oldest answers first if enough are in flight.
    fn send_batch(&mut self) -> Result<()> {
        if self.workers.is_none() {
            self.workers = Some(self.spawn_workers());
        }
        let count = self.workers.as_ref().map_or(1, |workers| workers.count);
        while self.sent - self.written >= (self.engine.in_flight() * count) as u64 {
            self.write_next()?;
        }
        let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(self.engine.batch()));
        let workers = self.workers.as_ref().expect("the workers are started");
        workers
            .batches
            .send((self.sent, batch))
            .map_err(|_| anyhow!("a worker thread stopped"))?;
        self.sent += 1;
        Ok(())
    }

    /// One worker per core; each takes the next batch from the shared queue,
    /// so a long job holds up only its own worker.
    fn spawn_workers(&self) -> Workers {
        let count = thread::available_parallelism().map_or(1, |n| n.get());
        let (batches, queue) =
            mpsc::sync_channel::<(u64, Vec<Job>)>(self.engine.in_flight() * count);
        let queue = Arc::new(Mutex::new(queue));
        let (done, answers) = mpsc::channel();
        for _ in 0..count {
            let (queue, done) = (Arc::clone(&queue), done.clone());
            let engine = Arc::clone(&self.engine);
            let style = self.style;
            thread::spawn(move || {
                let mut scratch = Scratch::default();
                loop {
                    let next = queue.lock().map(|queue| queue.recv());
                    let Ok(Ok((number, batch))) = next else {
                        return;
                    };
                    let mut out = Vec::with_capacity(batch.len() * 32);
                    let answered = batch.iter().try_for_each(|job| {
                        render::answer(&engine, style, job, &mut scratch, &mut out)
                    });
                    if done.send((number, answered.map(|()| out))).is_err() {
                        return;
                    }
                }
            });
        }
        Workers {
            batches,
            answers,
            count,
        }
    }

    /// Writes the answers of the oldest batch not yet written.
    fn write_next(&mut self) -> Result<()> {
        let answers = loop {
            if let Some(answers) = self.waiting.remove(&self.written) {
                break answers;
            }
            let workers = self.workers.as_ref().expect("batches were sent");
            let (number, answers) = workers
                .answers
                .recv()
                .map_err(|_| anyhow!("a worker thread stopped"))?;
            self.waiting.insert(number, answers);
        };
        self.written += 1;
        let answers = answers.context("the table")?;
        self.out.write_all(&answers).context("cannot write stdout")
    }

    /// Answers every job so far, writes the answers and flushes them.
    fn drain(&mut self) -> Result<()> {
        self.check()?;
        if self.sent == self.written {
            // Little input: answer it here rather than wake the workers.
            self.answers.clear();
            for job in &self.batch {
                render::answer(
                    &self.engine,
                    self.style,
                    job,
                    &mut self.scratch,
                    &mut self.answers,
                )
                .context("the table")?;
            }
            self.batch.clear();
            self.out
                .write_all(&self.answers)
                .context("cannot write stdout")?;
        } else if !self.batch.is_empty() {
            self.send_batch()?;
        }
        while self.written < self.sent {
            self.write_next()?;
        }
        self.out.flush().context("cannot write stdout")
    }
}
