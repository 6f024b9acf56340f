//! Criterion benches for the hot paths: parsing, ranking, and the walk.
//!
//! Run with `cargo bench --bench hot`.

use std::hint::black_box;

#[path = "../tests/common/mod.rs"]
mod common;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use eight::{Board, Layout, Parser, Shape, Solver};

const BOARDS: usize = 10_000;

fn random_boards(n: usize) -> Vec<Board> {
    let mut rng = common::Rng(8);
    (0..n)
        .map(|_| Board::from_cells(Shape::EIGHT, &rng.board(9)).unwrap())
        .collect()
}

fn benches(c: &mut Criterion) {
    let boards = random_boards(BOARDS);
    let text: String = boards.iter().map(|b| format!("{b}\n")).collect();
    let table = Solver::builtin(Shape::EIGHT).unwrap();
    let goal = Board::goal(Shape::EIGHT);
    let solvable: Vec<Board> = boards
        .iter()
        .copied()
        .filter(|b| b.solvable_to(&goal))
        .collect();

    let mut group = c.benchmark_group("per board");
    group.throughput(Throughput::Elements(BOARDS as u64));
    group.bench_function("parse", |b| {
        b.iter(|| {
            let mut parser = Parser::new(Layout::Auto);
            let mut count = 0usize;
            parser.feed(black_box(text.as_bytes()), &mut |item| {
                count += item.result.is_ok() as usize
            });
            parser.finish(&mut |_| {});
            count
        })
    });
    group.bench_function("rank", |b| {
        b.iter(|| {
            boards
                .iter()
                .map(|board| black_box(board).rank())
                .sum::<u64>()
        })
    });
    group.finish();

    let mut group = c.benchmark_group("per solvable board");
    group.throughput(Throughput::Elements(solvable.len() as u64));
    group.bench_function("solve", |b| {
        b.iter(|| {
            solvable
                .iter()
                .map(|board| {
                    table
                        .solve(black_box(board))
                        .unwrap()
                        .moves()
                        .unwrap()
                        .len()
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(hot, benches);
criterion_main!(hot);
