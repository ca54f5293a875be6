//! The referee and arena behind `twixt-referee`: bots as processes under CodinGame's clocks,
//! games judged by the reference rules (`twixt-reference`, never the engine's fast board),
//! matches in seat-swapped pairs and the statistics that say which engine is stronger.
//! Host-only: it never ships to CodinGame.
//!
//! [`engines`] are the two commands and their [`clocks`], whatever their seats; [`process`]
//! runs one bot (and [`signals`] kills them all on Ctrl-C); [`turn`] writes its input and
//! reads its answer; [`game`] plays one game; [`record`], [`render`] and [`svg`] keep and
//! show it, and [`report`] makes pages to look at games in. [`matches`](mod@matches) runs a
//! match from [`openings`], counting in [`tally`] and judging with [`stats`] and [`sprt`];
//! [`shard`] merges the slices of a match played on many machines; [`tune`] runs SPSA over a
//! bot's parameters; [`losses`] finds where a bot's lost games turned; [`table`] makes
//! `docs/STRENGTH.md` from the index of matches and their records; [`brutaltester`] speaks
//! cg-brutaltester's referee contract. [`build`] compiles any commit's bot as CodinGame does,
//! and [`ab_test`] plays two commits' bots in a match.

pub mod ab_test;
pub mod brutaltester;
pub mod build;
pub mod clocks;
pub mod engines;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod game;
pub mod losses;
pub mod matches;
pub mod openings;
pub mod process;
pub mod record;
pub mod render;
pub mod report;
pub mod shard;
pub mod signals;
pub mod sprt;
pub mod stats;
pub mod svg;
pub mod table;
pub mod tally;
pub mod tune;
pub mod turn;
