/// A tuning constant.
pub const BONUS: u8 = 1;
