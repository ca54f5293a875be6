//! One full search's record: its value, and what it made of each root move.
//!
//! ```text
//! version 3:
//!   value      f32      the search's value of its move for the mover, in [0, 1]
//!   root       19 bytes the root's moves: bit c (low bit of byte 0 first) for the peg on
//!                       cell c, bit 144 for SWAP
//!   visited    u8       how many of them the search visited; for each, in cell order (SWAP
//!                       last): move u8, visits as LEB128 (7 bits a byte, low first), its
//!                       value for the player who makes it, u8 of value · 255
//! version 2:
//!   value      f32
//!   children   u8       how many root moves follow; each: move u8, visits as LEB128
//! ```
//! Version 3 names the unvisited root moves by a bit each: at 3,200 iterations more than
//! half of a root's moves get no visit, and their values would say nothing.

use super::cursor::Cursor;
use super::{move_byte, put_varint};
use anyhow::{anyhow, ensure, Result};
use twixt::search::RootMove;
use twixt::{Cell, Move, Position};

/// Bytes of the root's move set.
const ROOT_BYTES: usize = 19;
/// The bit of SWAP in the root's move set.
const SWAP_BIT: usize = 144;
/// A root move's value is kept in 8 bits: `round(value · VALUE_SCALE)`.
const VALUE_SCALE: f32 = 255.0;

/// A value in [0, 1] as a file keeps it (NaN as 0).
pub(crate) fn value_byte(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * VALUE_SCALE).round() as u8
}

/// The value a file's byte stands for.
pub(crate) fn byte_value(b: u8) -> f32 {
    f32::from(b) / VALUE_SCALE
}

/// What the search said of one position.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The value of the chosen move for the player who made it, in [0, 1].
    pub value: f32,
    /// Every root move and the visits the search gave it, pegs in cell order and SWAP last.
    pub visits: Vec<(Move, u32)>,
    /// Each root move's value for the player who makes it, in the order of `visits`, on a
    /// grid of 1/255: `None` for a move the search did not visit, and for every move in a
    /// file of version 2, which kept no values.
    pub values: Vec<Option<f32>>,
}

/// A root move's bit in the root's move set.
fn bit(mv: Move) -> usize {
    match mv {
        Move::Peg(c) => c.index(),
        Move::Swap => SWAP_BIT,
    }
}

impl Search {
    /// The record of a search whose root moves were `root` and whose move had `value`, as a
    /// file keeps it: the moves in cell order, the values of the visited ones on their grid.
    pub fn of_root(value: f32, root: &[RootMove]) -> Search {
        let mut root = root.to_vec();
        root.sort_by_key(|m| bit(m.mv));
        let grid = |v: f32| (v.clamp(0.0, 1.0) * VALUE_SCALE).round() / VALUE_SCALE;
        Search {
            value,
            visits: root.iter().map(|m| (m.mv, m.visits)).collect(),
            values: root
                .iter()
                .map(|m| (m.visits > 0).then(|| grid(m.value)))
                .collect(),
        }
    }

    /// Appends the record in the format of version 3.
    pub(super) fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.value.to_le_bytes());
        let mut set = [0u8; ROOT_BYTES];
        for &(mv, _) in &self.visits {
            set[bit(mv) / 8] |= 1 << (bit(mv) % 8);
        }
        out.extend_from_slice(&set);
        let visited: Vec<usize> = (0..self.visits.len())
            .filter(|&k| self.visits[k].1 > 0)
            .collect();
        out.push(visited.len() as u8);
        for k in visited {
            let (mv, n) = self.visits[k];
            out.push(move_byte(mv));
            put_varint(out, n);
            let v = self.values[k].expect("a visited root move has its value");
            out.push(value_byte(v));
        }
    }

    /// Reads a record of `version` at ply `ply`, whose position is `pos`: every root move
    /// must be legal there, and the visited ones listed once each, in order.
    pub(super) fn get(c: &mut Cursor, pos: &Position, ply: usize, version: u16) -> Result<Search> {
        let at = c.offset();
        let value = f32::from_le_bytes(c.take(4)?.try_into()?);
        ensure!(
            (0.0..=1.0).contains(&value),
            "offset {at}: ply {ply}: the search's value {value} is not in [0, 1]"
        );
        let legal = |at: u64, mv: Move| {
            pos.check(mv)
                .map_err(|e| anyhow!("offset {at}: ply {ply}: root move {mv} is illegal: {e}"))
        };
        if version < 3 {
            let children = c.byte()? as usize;
            let mut visits = Vec::with_capacity(children);
            for _ in 0..children {
                let at = c.offset();
                let mv = c.mv()?;
                legal(at, mv)?;
                visits.push((mv, c.varint()?));
            }
            let values = vec![None; visits.len()];
            return Ok(Search {
                value,
                visits,
                values,
            });
        }
        let set_at = c.offset();
        let set = c.take(ROOT_BYTES)?.to_vec();
        let mut visits = Vec::new();
        for b in (0..ROOT_BYTES * 8).filter(|&b| set[b / 8] >> (b % 8) & 1 == 1) {
            let mv = match b {
                SWAP_BIT => Move::Swap,
                _ => Cell::from_index(b)
                    .map(Move::Peg)
                    .ok_or_else(|| anyhow!("offset {set_at}: bit {b} of the root is no move"))?,
            };
            legal(set_at, mv)?;
            visits.push((mv, 0));
        }
        let mut values = vec![None; visits.len()];
        let (mut next, count) = (0, c.byte()?);
        for _ in 0..count {
            let at = c.offset();
            let mv = c.mv()?;
            let k = (next..visits.len())
                .find(|&k| visits[k].0 == mv)
                .ok_or_else(|| {
                    anyhow!(
                        "offset {at}: ply {ply}: {mv} is listed out of order or is no root move"
                    )
                })?;
            let n = c.varint()?;
            ensure!(
                n > 0,
                "offset {at}: ply {ply}: {mv} is listed with no visit"
            );
            visits[k].1 = n;
            values[k] = Some(byte_value(c.byte()?));
            next = k + 1;
        }
        Ok(Search {
            value,
            visits,
            values,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(bytes: &[u8], pos: &Position) -> Result<Search> {
        let mut c = Cursor {
            bytes,
            at: 0,
            base: 1000,
        };
        Search::get(&mut c, pos, 3, 3)
    }

    fn error(bytes: &[u8], pos: &Position) -> String {
        format!("{:#}", read(bytes, pos).unwrap_err())
    }

    #[test]
    fn a_record_round_trips_and_its_damage_is_named() {
        let pos = Position::after("F6").unwrap();
        let root: Vec<RootMove> = pos
            .legal_moves()
            .into_iter()
            .rev()
            .enumerate()
            .map(|(k, mv)| RootMove {
                mv,
                visits: [0, 3, 100][k % 3],
                value: k as f32 / 200.0,
            })
            .collect();
        let search = Search::of_root(0.75, &root);
        assert_eq!(search.visits.last().unwrap().0, Move::Swap, "SWAP last");
        let mut bytes = Vec::new();
        search.put(&mut bytes);
        assert_eq!(read(&bytes, &pos).unwrap(), search);
        // The value, the root's set and the count of visited moves come first; then each
        // visited move in three bytes (its move, visits below 128, its value).
        let first = 4 + ROOT_BYTES + 1;
        let mut swapped = bytes.clone();
        swapped.swap(first, first + 3);
        assert!(error(&swapped, &pos).contains("listed out of order"));
        let mut unvisited = bytes.clone();
        unvisited[first + 1] = 0;
        assert!(error(&unvisited, &pos).contains("with no visit"));
        let mut corner = bytes.clone();
        corner[4] |= 1;
        assert!(error(&corner, &pos).contains("offset 1004: bit 0 of the root is no move"));
        let mut filled = bytes.clone();
        let f6 = "F6".parse::<Cell>().unwrap().index();
        filled[4 + f6 / 8] |= 1 << (f6 % 8);
        assert!(error(&filled, &pos).contains("root move F6 is illegal"));
        let mut nan = bytes.clone();
        nan[..4].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(error(&nan, &pos).contains("is not in [0, 1]"));
        assert!(error(&bytes[..bytes.len() - 1], &pos).contains("ends early"));
    }
}
