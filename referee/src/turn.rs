//! A bot's answer line: the move and the message after it.

use twixt::Move;

/// A bot's answer: the move text (first token) and the message after it, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The first whitespace-separated token, as written.
    pub token: String,
    /// Whatever follows the token, trimmed (CodinGame shows it in the viewer).
    pub message: Option<String>,
}

impl Answer {
    /// Splits an answer line.
    pub fn parse(line: &str) -> Answer {
        let line = line.trim();
        let (token, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        Answer {
            token: token.to_string(),
            message: (!rest.is_empty()).then(|| rest.to_string()),
        }
    }

    /// The move, or why the token is not one.
    pub fn to_move(&self) -> Result<Move, String> {
        if self.token.is_empty() {
            return Err("an empty line".to_string());
        }
        self.token
            .parse::<Move>()
            .map_err(|e| format!("malformed answer {:?}: {e}", shorten(&self.token)))
    }
}

/// A text cut to a length fit for a one-line report.
pub fn shorten(s: &str) -> String {
    const MAX: usize = 40;
    if s.chars().count() <= MAX {
        s.to_string()
    } else {
        let head: String = s.chars().take(MAX).collect();
        format!("{head}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_keep_only_the_first_token_as_the_move() {
        let a = Answer::parse("E5 win 73%\n");
        assert_eq!(a.token, "E5");
        assert_eq!(a.message.as_deref(), Some("win 73%"));
        assert_eq!(a.to_move(), Ok("E5".parse().unwrap()));
        assert!(Answer::parse("").to_move().is_err());
        assert!(Answer::parse("hello").to_move().is_err());
        assert_eq!(Answer::parse(" SWAP ").to_move(), Ok(Move::Swap));
    }
}
