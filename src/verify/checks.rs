//! The small checks the field validators are built from: digit strings, the
//! GB 11643 check digit of an ID-card number, the Luhn check of a card
//! number, `mmyy` expiry dates and `YYYYMMDD` dates.

/// True when `s` is non-empty and only ASCII digits.
pub fn all_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

const ID_WEIGHTS: [u32; 17] = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECK: &[u8; 11] = b"10X98765432";

/// The GB 11643 check character for the first 17 digits of an ID-card
/// number (`'0'..='9'` or `'X'`), or `None` when `first17` is not 17 digits.
pub fn id_check_char(first17: &str) -> Option<char> {
    if first17.len() != 17 || !all_digits(first17) {
        return None;
    }
    let sum: u32 = first17.bytes().zip(ID_WEIGHTS.iter()).map(|(b, w)| (b - b'0') as u32 * w).sum();
    ID_CHECK.get((sum % 11) as usize).map(|&c| c as char)
}

/// What is wrong with an ID-card number, if anything.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdFault {
    /// Not 18 characters.
    Length,
    /// 17 digits then a digit or `X` expected.
    Format,
    /// Characters 7 to 14 are not a date of birth (YYYYMMDD).
    BirthDate,
    /// The 18th character does not match the first 17.
    CheckDigit,
}

/// Checks an 18-character ID-card number (GB 11643); a lowercase `x` is
/// accepted as the check character.
pub fn check_id_number(s: &str) -> Result<(), IdFault> {
    if s.chars().count() != 18 {
        return Err(IdFault::Length);
    }
    // 18 characters, so 18 bytes once we know they are ASCII.
    if !s.is_ascii() {
        return Err(IdFault::Format);
    }
    let (head, last) = s.split_at(17);
    let last = last.as_bytes().first().copied().unwrap_or(b'?');
    if !all_digits(head) || !(last.is_ascii_digit() || last == b'X' || last == b'x') {
        return Err(IdFault::Format);
    }
    if !head.get(6..14).is_some_and(valid_yyyymmdd) {
        return Err(IdFault::BirthDate);
    }
    match id_check_char(head) {
        Some(c) if c as u8 == last.to_ascii_uppercase() => Ok(()),
        _ => Err(IdFault::CheckDigit),
    }
}

/// True when the digits of `s` pass the Luhn check (`s` must be digits).
pub fn luhn_ok(s: &str) -> bool {
    if !all_digits(s) {
        return false;
    }
    let mut sum = 0u32;
    for (i, b) in s.bytes().rev().enumerate() {
        let mut d = (b - b'0') as u32;
        if i % 2 == 1 {
            d *= 2;
            if d > 9 {
                d -= 9;
            }
        }
        sum += d;
    }
    sum % 10 == 0
}

/// True for an expiry written `mmyy` with a month of 01 to 12.
pub fn valid_mmyy(s: &str) -> bool {
    if s.len() != 4 || !all_digits(s) {
        return false;
    }
    let b = s.as_bytes();
    let month = (b[0] - b'0') as u32 * 10 + (b[1] - b'0') as u32;
    (1..=12).contains(&month)
}

/// Days in `month` (1-12) of `year` (Gregorian).
pub fn days_in_month(year: u32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

/// True for eight digits `YYYYMMDD` naming a real calendar day.
pub fn valid_yyyymmdd(s: &str) -> bool {
    if s.len() != 8 || !all_digits(s) {
        return false;
    }
    let n = |r: core::ops::Range<usize>| s.as_bytes()[r].iter().fold(0u32, |acc, b| acc * 10 + (b - b'0') as u32);
    let (y, m, d) = (n(0..4), n(4..6), n(6..8));
    y >= 1 && d >= 1 && d <= days_in_month(y, m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn id_numbers() {
        assert_eq!(check_id_number("11010519491231002X"), Ok(()));
        assert_eq!(check_id_number("11010519491231002x"), Ok(()));
        assert_eq!(id_check_char("11010519491231002"), Some('X'));
        assert_eq!(check_id_number("110105194912310021"), Err(IdFault::CheckDigit));
        assert_eq!(check_id_number("1101051949123100"), Err(IdFault::Length));
        assert_eq!(check_id_number("1101051949123100X2"), Err(IdFault::Format));
        assert_eq!(check_id_number("11010519491231002Y"), Err(IdFault::Format));
        // 18 characters but not 18 bytes: must not be sliced in the middle.
        assert_eq!(check_id_number("1101051949123100张X"), Err(IdFault::Format));
        assert_eq!(id_check_char("1234"), None);
    }

    #[test]
    fn luhn() {
        assert!(luhn_ok("4111111111111111"));
        assert!(luhn_ok("5555555555554444"));
        assert!(!luhn_ok("5555555555554440"));
        assert!(luhn_ok("79927398713"));
        assert!(!luhn_ok("79927398710"));
        assert!(!luhn_ok("4111 1111"));
        assert!(!luhn_ok(""));
    }

    #[test]
    fn expiry_and_dates() {
        assert!(valid_mmyy("0129"));
        assert!(valid_mmyy("1299"));
        assert!(!valid_mmyy("0029"));
        assert!(!valid_mmyy("1329"));
        assert!(!valid_mmyy("129"));
        assert!(!valid_mmyy("12a9"));
        assert!(valid_yyyymmdd("20240229"));
        assert!(!valid_yyyymmdd("20230229"));
        assert!(valid_yyyymmdd("20000229"));
        assert!(!valid_yyyymmdd("19000229"));
        assert!(!valid_yyyymmdd("20241301"));
        assert!(!valid_yyyymmdd("20240100"));
        assert!(!valid_yyyymmdd("2024-1-1"));
        assert!(!valid_yyyymmdd("00000101"));
    }
}
