//! The compact print: the tokens of the bundle with only the whitespace that keeps two
//! neighbours from lexing as one token. Lines are broken where a separator is needed anyway,
//! once they pass [`LINE`] characters, so a compiler's message still points into a line of
//! readable length at no cost.

use proc_macro2::{Delimiter, Spacing, TokenStream, TokenTree};

/// The length after which a needed separator is a newline rather than a space.
const LINE: usize = 120;

/// Two punctuation characters that would lex as one token (or open a comment) if written
/// together: the first two characters of every multi-character operator.
const GLUED: [&str; 23] = [
    "::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "^=", "&=",
    "|=", "<<", ">>", "..", "<-", "//", "/*",
];

/// What the last written token was, as far as the next one's spacing cares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// The start, or a delimiter: nothing can glue to it.
    Open,
    /// An identifier or keyword.
    Word,
    /// A literal.
    Literal,
    /// A punctuation character, and whether the next punctuation is joined to it.
    Punct(char, Spacing),
}

/// The printer: the text so far and the kind of its last token.
struct Printer {
    out: String,
    line_start: usize,
    last: Last,
}

/// `tokens` printed compactly.
pub fn print(tokens: TokenStream) -> String {
    let mut printer = Printer {
        out: String::new(),
        line_start: 0,
        last: Last::Open,
    };
    printer.stream(tokens);
    printer.out.push('\n');
    printer.out
}

impl Printer {
    fn stream(&mut self, tokens: TokenStream) {
        for token in tokens {
            self.token(token);
        }
    }

    fn token(&mut self, token: TokenTree) {
        match token {
            TokenTree::Group(g) => {
                let (open, close) = match g.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::Brace => ("{", "}"),
                    // An invisible group (a macro's `$e`) has no delimiter to write: its tokens
                    // are spaced against their neighbours as if it were not there.
                    Delimiter::None => return self.stream(g.stream()),
                };
                self.write(open, Last::Open, false);
                self.stream(g.stream());
                self.write(close, Last::Open, false);
                // A brace that ends an item is a cheap place for a line to end.
                if close == "}" && self.out.len() - self.line_start > LINE {
                    self.newline();
                }
            }
            TokenTree::Ident(i) => {
                let needs = matches!(self.last, Last::Word | Last::Literal);
                self.write(&i.to_string(), Last::Word, needs);
            }
            TokenTree::Literal(l) => {
                let text = unfold(l.to_string());
                // A word before a literal would make a prefix (b"..", r#..); a literal before
                // another would run together, and before a word it would become its suffix.
                let needs = matches!(self.last, Last::Word | Last::Literal);
                self.write(&text, Last::Literal, needs);
            }
            TokenTree::Punct(p) => {
                let c = p.as_char();
                let needs = match self.last {
                    // A word before `#` or `'` is a reserved prefix (edition 2021).
                    Last::Word => c == '#' || c == '\'',
                    Last::Punct(prev, Spacing::Alone) => glues(prev, c),
                    _ => false,
                };
                self.write(
                    c.encode_utf8(&mut [0; 4]),
                    Last::Punct(c, p.spacing()),
                    needs,
                );
            }
        }
    }

    /// Writes `text` after a separator if `separate`; the separator is a newline when the
    /// line is long already.
    fn write(&mut self, text: &str, last: Last, separate: bool) {
        if separate {
            if self.out.len() - self.line_start > LINE {
                self.newline();
            } else {
                self.out.push(' ');
            }
        }
        self.out.push_str(text);
        if text.contains('\n') {
            self.line_start = self.out.rfind('\n').map_or(0, |i| i + 1);
        }
        self.last = last;
    }

    fn newline(&mut self) {
        self.out.push('\n');
        self.line_start = self.out.len();
    }
}

/// A string literal continued over lines (`"a \` newline, spaces, `b"`) written on one line
/// with the same value; any other literal as it is.
fn unfold(text: String) -> String {
    if !text.starts_with('"') || !text.contains("\\\n") {
        return text;
    }
    match syn::parse_str::<syn::LitStr>(&text) {
        Ok(lit) => proc_macro2::Literal::string(&lit.value()).to_string(),
        Err(_) => text,
    }
}

/// Whether punctuation `a` written alone before `b` would join it into another token.
fn glues(a: char, b: char) -> bool {
    let pair: String = [a, b].iter().collect();
    GLUED.contains(&pair.as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compact(source: &str) -> String {
        print(source.parse().unwrap())
    }

    #[test]
    fn only_the_needed_spaces_are_kept() {
        assert_eq!(
            compact("fn f ( x : u8 ) -> u8 { x + 1 }"),
            "fn f(x:u8)->u8{x+1}\n"
        );
        assert_eq!(compact("let a = - - 1 ;"), "let a=--1;\n");
        assert_eq!(compact("a & & b"), "a& &b\n");
        assert_eq!(compact("a < - b"), "a< -b\n");
        assert_eq!(compact("x = 1 as u8"), "x=1 as u8\n");
        assert_eq!(compact("a / / b"), "a/ /b\n");
        assert_eq!(
            compact("fn f<'a>(x: &'a u8) -> &'a u8"),
            "fn f<'a>(x:&'a u8)->&'a u8\n"
        );
        assert_eq!(compact("break 'outer ;"), "break 'outer;\n");
        assert_eq!(compact("r # [a]"), "r #[a]\n");
        assert_eq!(compact("x . 0 . 1"), "x.0.1\n");
        assert_eq!(compact("0 .. n"), "0..n\n");
        assert_eq!(compact("a ..= b"), "a..=b\n");
        assert_eq!(compact("a ..=b"), "a..=b\n");
        assert_eq!(compact("b \"x\""), "b \"x\"\n");
        assert_eq!(compact("f(\"a \\\n     b\")"), "f(\"a b\")\n");
    }

    /// Every token in order, with its kind, punctuation joined as rustc's lexer joins it
    /// (`&` then `&` written together is `&&`): two tokens run together show as one.
    fn flat(tokens: TokenStream, out: &mut Vec<String>) {
        let mut joined = false;
        for token in tokens {
            let was_joined = std::mem::replace(&mut joined, false);
            match token {
                TokenTree::Group(g) => {
                    out.push(format!("open {:?}", g.delimiter()));
                    flat(g.stream(), out);
                    out.push("close".to_owned());
                }
                TokenTree::Ident(i) => out.push(format!("word {i}")),
                TokenTree::Literal(l) => out.push(format!("literal {l}")),
                TokenTree::Punct(p) => {
                    let c = p.as_char();
                    match out.last_mut() {
                        Some(last) if was_joined && last.starts_with("punct ") => {
                            let op = format!("{}{c}", &last["punct ".len()..]);
                            let prev = last.chars().last().unwrap();
                            let three = ["..=", "...", "<<=", ">>="].contains(&op.as_str());
                            if op.len() == 2 && glues(prev, c) || three {
                                last.push(c);
                            } else {
                                out.push(format!("punct {c}"));
                            }
                        }
                        _ => out.push(format!("punct {c}")),
                    }
                    joined = p.spacing() == Spacing::Joint;
                }
            }
        }
    }
    fn tokens(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        flat(text.parse().unwrap(), &mut out);
        out
    }

    #[test]
    fn the_compact_text_lexes_to_the_same_tokens() {
        let source = "impl < T : Clone > S < T > { pub fn g < 'a > ( & 'a self , v : & [ T ] ) \
                      -> Option < & T > { let s = \"a  b\" ; let b = b 'x' ; let n = 1 as u8 ; \
                      if v . len ( ) >= 2 && ! v . is_empty ( ) { v . get ( 1 ) } else { r # \
                      [ x ] ; None } } }";
        let once = compact(source);
        assert_eq!(tokens(&once), tokens(source));
        assert_eq!(compact(&once), once);
    }

    #[test]
    fn an_invisible_group_is_spaced_as_its_tokens() {
        use proc_macro2::{Group, Ident, Literal, Punct, Span};
        let word = |w: &str| TokenTree::Ident(Ident::new(w, Span::call_site()));
        let alone = |c: char| TokenTree::Punct(Punct::new(c, Spacing::Alone));
        let none = |inner: Vec<TokenTree>| {
            TokenTree::Group(Group::new(Delimiter::None, inner.into_iter().collect()))
        };
        let cases = [
            (vec![word("a"), none(vec![word("b")]), word("c")], "a b c\n"),
            (
                vec![
                    word("return"),
                    none(vec![TokenTree::Literal(Literal::u8_unsuffixed(1))]),
                ],
                "return 1\n",
            ),
            (
                vec![none(vec![word("x"), alone('<')]), alone('-')],
                "x< -\n",
            ),
            (vec![word("a"), none(vec![]), word("b")], "a b\n"),
            (vec![word("a"), none(vec![alone('+')]), word("b")], "a+b\n"),
        ];
        for (tokens, printed) in cases {
            assert_eq!(print(tokens.into_iter().collect()), printed);
        }
    }

    #[test]
    fn long_lines_break_where_a_separator_was_needed() {
        let source = "let x = 1 ; ".repeat(40);
        let text = compact(&source);
        assert!(text.lines().count() > 1, "{text}");
        assert!(text.lines().all(|l| l.len() <= LINE + 20), "{text}");
        assert_eq!(text.replace('\n', " ").trim(), "let x=1;".repeat(40));
        assert_eq!(tokens(&text), tokens(&source));
    }
}
