//! The tree of a game's moves: every move played from a position is kept, the first is the
//! main line's, the others are its variations; and the text that writes a tree and reads it
//! back (docs/BOARD.md, "Variations"): moves separated by spaces, a variation in parentheses
//! after the move it replaces, as PGN writes them.
//!
//! A node is named by its path: the index of the move chosen among its siblings at every ply
//! from the start (the main line's moves are all zeros).

use crate::game::{node_name, Fault, Played};
use serde::Serialize;
use twixt::position::Move;
use twixt_referee::turn::shorten;
use twixt_reference::RefGame;

/// The most moves a tree holds (the main line and every variation): bounds a board's memory
/// and the depth the text nests to.
pub const MAX_NODES: usize = 2000;

/// A position of the tree: the moves played from it (the first is the main line's), or the
/// fault that ended the game there.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Branch {
    /// How the game ended here when the bot failed to move (none has followed it).
    pub fault: Option<Fault>,
    /// The moves played from here, the main line's first.
    pub next: Vec<Node>,
}

/// A move of the tree and the position after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The move.
    pub played: Played,
    /// The position after it.
    pub after: Branch,
}

impl Node {
    /// A move with nothing after it yet.
    pub fn leaf(played: Played) -> Node {
        Node {
            played,
            after: Branch::default(),
        }
    }
}

impl Branch {
    /// The branch at the end of `path` from here, if every step is a move of the tree.
    pub fn at(&self, path: &[usize]) -> Option<&Branch> {
        path.iter()
            .try_fold(self, |b, &i| b.next.get(i).map(|n| &n.after))
    }

    /// The branch at the end of `path`, to change it.
    pub fn at_mut(&mut self, path: &[usize]) -> Option<&mut Branch> {
        path.iter()
            .try_fold(self, |b, &i| b.next.get_mut(i).map(|n| &mut n.after))
    }

    /// The moves along `path` (which must be in the tree).
    pub fn moves_along(&self, path: &[usize]) -> Vec<Played> {
        let mut b = self;
        let mut moves = Vec::with_capacity(path.len());
        for &i in path {
            moves.push(b.next[i].played.clone());
            b = &b.next[i].after;
        }
        moves
    }

    /// `path` followed along the main moves to the end of its line.
    pub fn extended(&self, mut path: Vec<usize>) -> Vec<usize> {
        let mut b = self.at(&path).expect("the path is in the tree");
        while let Some(n) = b.next.first() {
            path.push(0);
            b = &n.after;
        }
        path
    }

    /// How many moves the tree holds.
    pub fn size(&self) -> usize {
        self.next.iter().map(|n| 1 + n.after.size()).sum()
    }

    /// The tree as text: the main line, each variation in parentheses after the move it
    /// replaces.
    pub fn write(&self) -> String {
        let mut words = Vec::new();
        self.write_into(&mut words);
        let mut text = String::new();
        for (i, w) in words.iter().enumerate() {
            let glued = i == 0 || w == ")" || words[i - 1] == "(";
            if !glued {
                text.push(' ');
            }
            text.push_str(w);
        }
        text
    }

    fn write_into(&self, words: &mut Vec<String>) {
        let Some((main, others)) = self.next.split_first() else {
            return;
        };
        words.push(main.played.mv.to_string());
        for v in others {
            words.push("(".into());
            words.push(v.played.mv.to_string());
            v.after.write_into(words);
            words.push(")".into());
        }
        main.after.write_into(words);
    }
}

/// An entry of the move list as the page draws it: the tree in the order its text is written.
#[derive(Debug, PartialEq, Serialize)]
#[serde(tag = "t")]
pub enum Entry {
    /// A move.
    #[serde(rename = "move")]
    Move {
        mv: String,
        /// Its player (a swap is player 1's).
        player: u8,
        /// Its ply, from 1.
        ply: usize,
        /// Its path (`0.1.0`): what the routes that go to, promote or delete a node take.
        node: String,
        /// Whether it is on the main line.
        main: bool,
        ms: Option<u64>,
        msg: Option<String>,
    },
    /// A variation starts: the moves up to its `)` replace the move before it.
    #[serde(rename = "(")]
    Open,
    /// The variation ends.
    #[serde(rename = ")")]
    Close,
}

/// The tree as the page draws it: its move list, the move shown, the line shown, and where up
/// and down go.
#[derive(Debug, Serialize)]
pub struct TreeView {
    /// The move list.
    pub tree: Vec<Entry>,
    /// The move shown (`0.1`; the start: empty).
    pub node: String,
    /// The line shown, to its end (`0.1.0.0`).
    pub line_node: String,
    /// The move shown's sibling before it, or that of the nearest move before it that has
    /// siblings: where up goes.
    pub up: Option<Vec<usize>>,
    /// The sibling after it: where down goes.
    pub down: Option<Vec<usize>>,
}

impl TreeView {
    /// The view of `root` shown at ply `ply` of `line`.
    pub fn of(root: &Branch, line: &[usize], ply: usize) -> TreeView {
        let (up, down) = siblings(root, line, ply);
        TreeView {
            tree: root.entries(),
            node: node_name(&line[..ply]),
            line_node: node_name(line),
            up,
            down,
        }
    }
}

/// The siblings before and after the move at ply `ply` of `line`, or those of the nearest move
/// before it that has any.
fn siblings(root: &Branch, line: &[usize], ply: usize) -> (Option<Vec<usize>>, Option<Vec<usize>>) {
    for d in (0..ply).rev() {
        let count = root.at(&line[..d]).map_or(0, |b| b.next.len());
        if count > 1 {
            let at = |i: usize| {
                let mut p = line[..d].to_vec();
                p.push(i);
                p
            };
            let i = line[d];
            return (
                (i > 0).then(|| at(i - 1)),
                (i + 1 < count).then(|| at(i + 1)),
            );
        }
    }
    (None, None)
}

impl Branch {
    /// The move list: the tree as [`Branch::write`] writes it, each move with its path.
    pub fn entries(&self) -> Vec<Entry> {
        let mut out = Vec::new();
        self.entries_into(&mut Vec::new(), true, &mut out);
        out
    }

    fn entries_into(&self, path: &mut Vec<usize>, main: bool, out: &mut Vec<Entry>) {
        let Some(first) = self.next.first() else {
            return;
        };
        Self::entry(first, path, 0, main, out);
        for (i, v) in self.next.iter().enumerate().skip(1) {
            out.push(Entry::Open);
            Self::entry(v, path, i, false, out);
            path.push(i);
            v.after.entries_into(path, false, out);
            path.pop();
            out.push(Entry::Close);
        }
        path.push(0);
        first.after.entries_into(path, main, out);
        path.pop();
    }

    fn entry(node: &Node, path: &mut Vec<usize>, i: usize, main: bool, out: &mut Vec<Entry>) {
        path.push(i);
        out.push(Entry::Move {
            mv: node.played.mv.to_string(),
            player: ((path.len() + 1) % 2) as u8,
            ply: path.len(),
            node: node_name(path),
            main,
            ms: node.played.ms,
            msg: node.played.msg.clone(),
        });
        path.pop();
    }
}

/// Reads a tree written by [`Branch::write`]; the error names the word (from 1) that is not a
/// move, a move the rules refuse, or a parenthesis out of place.
pub fn read(text: &str) -> Result<Branch, String> {
    let mut reader = Reader::default();
    let words = text.split(|c: char| c.is_whitespace() || c == ',');
    let words = words.flat_map(split_parentheses).filter(|w| !w.is_empty());
    for (i, word) in words.enumerate() {
        let at = format!("word {} {:?}", i + 1, shorten(word));
        match word {
            "(" => reader.open(&at)?,
            ")" => reader.close(&at)?,
            _ => reader.take(word, &at)?,
        }
    }
    if let Some((_, opened)) = reader.open.last() {
        return Err(format!("the variation opened at {opened} is not closed"));
    }
    if reader.root.next.is_empty() {
        return Err("no move in the text".into());
    }
    Ok(reader.root)
}

/// `word` with its parentheses as words of their own: `(E5` is `(` and `E5`.
fn split_parentheses(word: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, c) in word.char_indices() {
        if c == '(' || c == ')' {
            parts.push(&word[start..i]);
            parts.push(&word[i..i + 1]);
            start = i + 1;
        }
    }
    parts.push(&word[start..]);
    parts
}

/// What [`read`] has read so far.
#[derive(Default)]
struct Reader {
    root: Branch,
    /// The path of the last move read.
    path: Vec<usize>,
    /// The variations open: the path to return to at their `)`, and where each was opened.
    open: Vec<(Vec<usize>, String)>,
    /// Whether the last word was `(`: a variation must start with a move.
    fresh: bool,
    size: usize,
}

impl Reader {
    fn open(&mut self, at: &str) -> Result<(), String> {
        if self.path.is_empty() || self.fresh {
            return Err(format!(
                "{at}: a variation must follow the move it replaces"
            ));
        }
        self.open.push((self.path.clone(), at.to_string()));
        self.path.pop();
        self.fresh = true;
        Ok(())
    }

    fn close(&mut self, at: &str) -> Result<(), String> {
        if self.fresh {
            return Err(format!("{at}: a variation holds one move at least"));
        }
        let (path, _) = self
            .open
            .pop()
            .ok_or_else(|| format!("{at} closes no variation"))?;
        self.path = path;
        Ok(())
    }

    fn take(&mut self, word: &str, at: &str) -> Result<(), String> {
        let mv: Move = word
            .parse()
            .map_err(|e| format!("{at} is not a move: {e}"))?;
        let before: Vec<Move> = self
            .root
            .moves_along(&self.path)
            .iter()
            .map(|p| p.mv)
            .collect();
        let game = RefGame::from_moves(&before).expect("the moves were checked when read");
        game.check(mv)
            .map_err(|e| format!("{at}: {mv} is not legal here: {e}"))?;
        self.size += 1;
        if self.size > MAX_NODES {
            return Err(format!("{at}: more than {MAX_NODES} moves in the tree"));
        }
        let branch = self
            .root
            .at_mut(&self.path)
            .expect("the path is in the tree");
        if branch.next.iter().any(|n| n.played.mv == mv) {
            return Err(format!("{at}: {mv} is already a move of this position"));
        }
        branch.next.push(Node::leaf(Played::plain(mv)));
        self.path.push(branch.next.len() - 1);
        self.fresh = false;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variation_follows_the_move_it_replaces_and_reads_back() {
        let text = "E5 SWAP (F7 G9 (C5)) D4 C3";
        let tree = read(text).unwrap();
        assert_eq!(tree.write(), text);
        assert_eq!(tree.size(), 7);
        let f7 = &tree.next[0].after.next[1];
        assert_eq!(f7.played.mv.to_string(), "F7");
        assert_eq!(tree.extended(vec![0, 1]), vec![0, 1, 0]);
        assert_eq!(read("E5,F7( G9 )").unwrap().write(), "E5 F7 (G9)");
        let listed: Vec<String> = tree
            .entries()
            .iter()
            .map(|e| match e {
                Entry::Move { mv, node, main, .. } => format!("{mv}:{node}:{}", *main as u8),
                Entry::Open => "(".into(),
                Entry::Close => ")".into(),
            })
            .collect();
        let expected =
            "E5:0:1 SWAP:0.0:1 ( F7:0.1:0 G9:0.1.0:0 ( C5:0.1.1:0 ) ) D4:0.0.0:1 C3:0.0.0.0:1";
        assert_eq!(listed.join(" "), expected);
    }

    #[test]
    fn bad_text_is_refused_with_the_word_named() {
        let cases = [
            ("(E5)", "word 1 \"(\": a variation must follow"),
            (
                "E5 (F7",
                "the variation opened at word 2 \"(\" is not closed",
            ),
            ("E5 )", "word 2 \")\" closes no variation"),
            ("E5 ()", "word 3 \")\": a variation holds one move at least"),
            ("E5 F7 Z9", "word 3 \"Z9\" is not a move"),
            ("E5 E5", "word 2 \"E5\": E5 is not legal here"),
            ("E5 (E5)", "word 3 \"E5\": E5 is already a move"),
            ("E5 ((F7))", "word 3 \"(\": a variation must follow"),
            ("", "no move in the text"),
        ];
        for (text, why) in cases {
            let err = read(text).unwrap_err();
            assert!(err.starts_with(why), "{text:?}: {err}");
        }
    }
}

#[cfg(test)]
mod round_trip {
    use super::*;
    use crate::game::{Game, Players};
    use proptest::prelude::*;

    /// A game whose tree grew by `steps`: each goes to a ply of the line shown and plays one of
    /// the legal moves there.
    fn grown(steps: &[(usize, usize)]) -> Game {
        let mut game = Game::default();
        for &(ply, pick) in steps {
            game.goto(ply % (game.len() + 1)).unwrap();
            let legal = game.reference().legal_moves();
            if !legal.is_empty() {
                game.play(Played::plain(legal[pick % legal.len()])).unwrap();
            }
        }
        game
    }

    proptest! {
        #[test]
        fn what_is_written_reads_back_as_the_same_tree(
            steps in proptest::collection::vec((0usize..40, 0usize..200), 1..60)
        ) {
            let game = grown(&steps);
            let text = game.text();
            let back = read(&text).unwrap();
            prop_assert_eq!(&back, game.tree());
            prop_assert_eq!(back.write(), text);
            let opened = Game::of_tree(back, Players::default());
            prop_assert_eq!(opened.tree().size(), game.tree().size());
        }
    }
}
