//! Tests of the crate's inner parts, beside the code: the file format and
//! its refusals, the proofs, the tables' fast paths against the plain walk,
//! checked against the plain searches the integration tests use too.

#[path = "../tests/common/mod.rs"]
mod common;

mod cut;
mod exhaustive;
mod fifteen;
mod files;
mod folder;
mod mtm;
mod near;
mod props;
mod search;
mod told;
mod walls;
