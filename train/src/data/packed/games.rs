//! One game in the columns of a packed block, and back (`super`'s module doc has the
//! layout). Both sides replay the game: a search's root moves are written against the
//! position's legal moves.

use super::columns::{unzigzag, zigzag, Columns, Reader, Stream};
use crate::data::search::{byte_value, value_byte};
use crate::data::{byte_move, move_byte, Game, Ply, Search};
use anyhow::{anyhow, bail, ensure, Context, Result};
use std::cmp::Reverse;
use twixt::{Move, Player, Position};

/// `kind`: the root's moves are the position's legal moves.
const LEGAL: u8 = 0;
/// `kind`: a win at once: the move played is the only root move, with one visit, value 1.
const WIN: u8 = 1;
/// `kind`: the root's moves are some of the legal moves, a bit each in `roots`.
const SOME: u8 = 2;
/// `played`: the move played is not a visited root move (its byte is in `moves`).
const UNVISITED: u8 = 255;

/// Writes the number of the game after the one numbered `prev`.
pub(super) fn put_index(c: &mut Columns, index: u32, prev: u32) {
    c.varint(Stream::Index, zigzag(i64::from(index) - i64::from(prev)));
}

/// Reads the number of the game after the one numbered `prev`.
pub(super) fn get_index(r: &mut Reader, prev: u32) -> Result<u32> {
    let step = unzigzag(r.varint(Stream::Index)?);
    let index = i64::from(prev)
        .checked_add(step)
        .and_then(|i| u32::try_from(i).ok());
    index.with_context(|| format!("game {prev} and a step of {step} make no game number"))
}

/// Writes a game (but its index) of a run whose full searches have `iterations`.
pub(super) fn put_game(c: &mut Columns, game: &Game, iterations: u32) -> Result<()> {
    c.push(Stream::Winner, game.winner.map_or(2, |p| p.index() as u8));
    c.push(Stream::Opening, game.opening);
    c.varint(Stream::Plies, game.plies.len() as u64);
    let mut full = vec![0u8; game.plies.len().div_ceil(8)];
    for (i, ply) in game.plies.iter().enumerate() {
        if ply.search.is_some() {
            full[i / 8] |= 1 << (i % 8);
        }
    }
    c.extend(Stream::Full, &full);
    let mut pos = Position::new();
    for (i, ply) in game.plies.iter().enumerate() {
        let known = match &ply.search {
            Some(s) => {
                put_search(c, s, ply.mv, &pos, iterations).with_context(|| format!("ply {i}"))?
            }
            None => false,
        };
        if !known {
            c.push(Stream::Moves, move_byte(ply.mv));
        }
        pos.play(ply.mv)
            .map_err(|e| anyhow!("ply {i}: {} is illegal: {e}", ply.mv))?;
    }
    Ok(())
}

/// Reads a game (but its index) of a run whose full searches have `iterations`.
pub(super) fn get_game(r: &mut Reader, index: u32, iterations: u32) -> Result<Game> {
    let winner = match r.byte(Stream::Winner)? {
        2 => None,
        w => Some(
            Player::from_index(w as usize)
                .with_context(|| format!("winner {w} is not 0, 1 or 2"))?,
        ),
    };
    let opening = r.byte(Stream::Opening)?;
    let n = r.varint(Stream::Plies)?;
    ensure!(
        n <= u64::from(u16::MAX),
        "{n} plies, more than a record holds"
    );
    let mut full = vec![false; n as usize];
    for i in get_bits(r, Stream::Full, n as usize, "full searches")? {
        full[i] = true;
    }
    let mut pos = Position::new();
    let mut plies = Vec::with_capacity(n as usize);
    for (i, &full) in full.iter().enumerate() {
        let (search, known) = if full {
            let (s, mv) = get_search(r, &pos, iterations).with_context(|| format!("ply {i}"))?;
            (Some(s), mv)
        } else {
            (None, None)
        };
        let mv = match known {
            Some(mv) => mv,
            None => get_move(r)?,
        };
        pos.play(mv)
            .map_err(|e| anyhow!("ply {i}: {mv} is illegal: {e}"))?;
        plies.push(Ply { mv, search });
    }
    Ok(Game {
        index,
        winner,
        opening,
        plies,
    })
}

fn get_move(r: &mut Reader) -> Result<Move> {
    let b = r.byte(Stream::Moves)?;
    byte_move(b).with_context(|| format!("{b} is not a move"))
}

/// A win at once as self-play records it: the move played, one visit, value 1.
fn is_win(s: &Search, mv: Move) -> bool {
    s.visits == [(mv, 1)] && s.value.to_bits() == 1f32.to_bits() && s.values == [Some(1.0)]
}

/// Writes a search at `pos` whose move was `mv`; true when `mv` is written with it (in
/// `moves` for a win at once, else as the visited root move `played` names).
fn put_search(
    c: &mut Columns,
    s: &Search,
    mv: Move,
    pos: &Position,
    iterations: u32,
) -> Result<bool> {
    if is_win(s, mv) {
        c.push(Stream::Kind, WIN);
        c.push(Stream::Moves, move_byte(mv));
        return Ok(true);
    }
    let roots: Vec<Move> = s.visits.iter().map(|v| v.0).collect();
    put_roots(c, &roots, &pos.legal_moves())?;
    let visits: Vec<u32> = s.visits.iter().map(|v| v.1).collect();
    let visited: Vec<usize> = (0..roots.len()).filter(|&k| visits[k] > 0).collect();
    let played = visited.iter().position(|&k| roots[k] == mv);
    put_visits(c, &visits, &visited, played, iterations);
    c.extend(Stream::Value, &s.value.to_le_bytes());
    let mut last = value_byte(s.value);
    for k in by_visits(&visits, &visited) {
        let v = value_byte(s.values[k].context("a visited root move without a value")?);
        c.push(Stream::Values, last.wrapping_sub(v));
        last = v;
    }
    Ok(played.is_some())
}

/// Writes which root moves were visited, which of them was played, and their visits.
fn put_visits(
    c: &mut Columns,
    visits: &[u32],
    visited: &[usize],
    played: Option<usize>,
    iterations: u32,
) {
    let mut bits = vec![0u8; visits.len().div_ceil(8)];
    for &k in visited {
        bits[k / 8] |= 1 << (k % 8);
    }
    c.extend(Stream::Visited, &bits);
    c.push(Stream::Played, played.map_or(UNVISITED, |p| p as u8));
    for (j, &k) in visited.iter().enumerate() {
        if Some(j) != played {
            c.varint(Stream::Visits, u64::from(visits[k] - 1));
        }
    }
    if played.is_some() {
        let total: i64 = visited.iter().map(|&k| i64::from(visits[k])).sum();
        c.varint(Stream::Total, zigzag(total - i64::from(iterations)));
    }
}

/// The root's moves: `LEGAL` when they are `legal`, else `SOME` and a bit for each legal move.
fn put_roots(c: &mut Columns, roots: &[Move], legal: &[Move]) -> Result<()> {
    if roots == legal {
        c.push(Stream::Kind, LEGAL);
        return Ok(());
    }
    c.push(Stream::Kind, SOME);
    let mut bits = vec![0u8; legal.len().div_ceil(8)];
    let mut next = roots.iter().peekable();
    for (k, mv) in legal.iter().enumerate() {
        if next.next_if_eq(&mv).is_some() {
            bits[k / 8] |= 1 << (k % 8);
        }
    }
    ensure!(
        next.peek().is_none(),
        "root moves that are not legal moves in their order"
    );
    c.extend(Stream::Roots, &bits);
    Ok(())
}

/// Reads a search at `pos`, and the move played when the search tells it.
fn get_search(r: &mut Reader, pos: &Position, iterations: u32) -> Result<(Search, Option<Move>)> {
    let legal = pos.legal_moves();
    let roots = match r.byte(Stream::Kind)? {
        WIN => return get_win(r),
        LEGAL => legal,
        SOME => get_bits(r, Stream::Roots, legal.len(), "root moves")?
            .into_iter()
            .map(|k| legal[k])
            .collect(),
        k => bail!("root kind {k} is not {LEGAL}, {WIN} or {SOME}"),
    };
    let visited = get_bits(r, Stream::Visited, roots.len(), "visited root moves")?;
    let played = match r.byte(Stream::Played)? {
        UNVISITED => None,
        p if usize::from(p) < visited.len() => Some(usize::from(p)),
        p => bail!(
            "the move played is visited root move {p} of {}",
            visited.len()
        ),
    };
    let value = f32::from_le_bytes(r.take(Stream::Value, 4)?.try_into()?);
    let visits = get_visits(r, &visited, played, roots.len(), iterations)?;
    let mut values = vec![None; roots.len()];
    let mut last = value_byte(value);
    for k in by_visits(&visits, &visited) {
        last = last.wrapping_sub(r.byte(Stream::Values)?);
        values[k] = Some(byte_value(last));
    }
    let mv = played.map(|p| roots[visited[p]]);
    let visits = roots.into_iter().zip(visits).collect();
    Ok((
        Search {
            value,
            visits,
            values,
        },
        mv,
    ))
}

fn get_win(r: &mut Reader) -> Result<(Search, Option<Move>)> {
    let mv = get_move(r)?;
    let search = Search {
        value: 1.0,
        visits: vec![(mv, 1)],
        values: vec![Some(1.0)],
    };
    Ok((search, Some(mv)))
}

/// The set bits of a bitmap of `n` bits (low bit first) in `stream`, which are `what`.
fn get_bits(r: &mut Reader, stream: Stream, n: usize, what: &str) -> Result<Vec<usize>> {
    let bits = r.take(stream, n.div_ceil(8))?;
    let on = |k: usize| bits[k / 8] >> (k % 8) & 1 == 1;
    ensure!(
        (n..bits.len() * 8).all(|k| !on(k)),
        "the bitmap of {what} has bits past its {n}"
    );
    Ok((0..n).filter(|&k| on(k)).collect())
}

/// Every root move's visits: the played one's are what the total leaves.
fn get_visits(
    r: &mut Reader,
    visited: &[usize],
    played: Option<usize>,
    roots: usize,
    iterations: u32,
) -> Result<Vec<u32>> {
    let mut visits = vec![0u32; roots];
    let mut sum = 0i64;
    for (j, &k) in visited.iter().enumerate() {
        if Some(j) != played {
            let n = u32::try_from(r.varint(Stream::Visits)?).ok();
            visits[k] = n
                .and_then(|n| n.checked_add(1))
                .context("a root move's visits run over 32 bits")?;
            sum += i64::from(visits[k]);
        }
    }
    if let Some(p) = played {
        let total = unzigzag(r.varint(Stream::Total)?).checked_add(i64::from(iterations));
        let n = total.and_then(|t| t.checked_sub(sum));
        visits[visited[p]] = n
            .and_then(|n| u32::try_from(n).ok())
            .filter(|&n| n > 0)
            .context("the visits of the move played come to no count of 1 or more")?;
    }
    Ok(visits)
}

/// The visited root moves, most visited first (in cell order among equals): the order in
/// which `values` keeps their values, each as the step down from the one before.
fn by_visits(visits: &[u32], visited: &[usize]) -> Vec<usize> {
    let mut order = visited.to_vec();
    order.sort_by_key(|&k| (Reverse(visits[k]), k));
    order
}
