//! `order_id` and `order_date` for requests whose caller gave none.
//!
//! The core reads no clock and draws no random numbers: the edge passes the
//! current time in milliseconds and sixteen random bytes. Dates are those of
//! the service (China Standard Time, UTC+8), so that `order_date` is the
//! day the service itself sees.

use crate::error::push_u64;
use crate::prelude::*;

/// The service's offset from UTC, in milliseconds (UTC+8).
pub const SERVICE_UTC_OFFSET_MS: u64 = 8 * 3_600_000;

/// 9999-12-31T23:59:59.999 (service time): later times are taken as this
/// one, so that the year keeps four digits.
const MAX_LOCAL_MS: u64 = 253_402_300_799_999;

/// A broken-down local time of the service.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stamp {
    pub year: u32,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    pub milli: u32,
}

/// The service's local time at `now_ms` (milliseconds since 1970, UTC). A
/// time that is not finite or before 1970 counts as 1970-01-01T00:00Z.
pub fn stamp(now_ms: f64) -> Stamp {
    let ms = if now_ms.is_finite() && now_ms > 0.0 {
        // `as` saturates: 1e300 becomes u64::MAX.
        now_ms as u64
    } else {
        0
    };
    let local = ms.saturating_add(SERVICE_UTC_OFFSET_MS).min(MAX_LOCAL_MS);
    let days = local / 86_400_000;
    let in_day = local % 86_400_000;
    let (year, month, day) = civil_from_days(days);
    Stamp {
        year,
        month,
        day,
        hour: (in_day / 3_600_000) as u32,
        minute: (in_day / 60_000 % 60) as u32,
        second: (in_day / 1000 % 60) as u32,
        milli: (in_day % 1000) as u32,
    }
}

/// Year, month, day of a count of days since 1970-01-01 (H. Hinnant's
/// algorithm, for days on or after the epoch).
fn civil_from_days(days: u64) -> (u32, u32, u32) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + u64::from(month <= 2);
    (year as u32, month as u32, day as u32)
}

fn push_padded(out: &mut String, n: u32, width: usize) {
    let mut s = String::new();
    push_u64(&mut s, n as u64);
    for _ in s.len()..width {
        out.push('0');
    }
    out.push_str(&s);
}

/// `YYYYMMDD` of the service's day at `now_ms`.
pub fn order_date(now_ms: f64) -> String {
    let t = stamp(now_ms);
    let mut out = String::new();
    push_padded(&mut out, t.year, 4);
    push_padded(&mut out, t.month, 2);
    push_padded(&mut out, t.day, 2);
    out
}

/// A new order number: the service's local time to the millisecond
/// (`YYYYMMDDhhmmssSSS`, 17 digits) then 16 lowercase hex digits from the
/// first eight random bytes, 33 characters in all. Only digits and letters,
/// so it reads the same in a form, a URL and a log.
pub fn order_id(now_ms: f64, random: &[u8; 16]) -> String {
    let t = stamp(now_ms);
    let mut out = String::new();
    push_padded(&mut out, t.year, 4);
    push_padded(&mut out, t.month, 2);
    push_padded(&mut out, t.day, 2);
    push_padded(&mut out, t.hour, 2);
    push_padded(&mut out, t.minute, 2);
    push_padded(&mut out, t.second, 2);
    push_padded(&mut out, t.milli, 3);
    crate::encode::push_hex(&mut out, &random[..8]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::checks::valid_yyyymmdd;

    #[test]
    fn dates_in_service_time() {
        // 2024-02-29T15:59:59.999Z is still the 29th at UTC+8 ...
        assert_eq!(order_date(1_709_222_399_999.0), "20240229");
        // ... and 16:00Z is already March 1st.
        assert_eq!(order_date(1_709_222_400_000.0), "20240301");
        assert_eq!(order_date(0.0), "19700101");
        assert_eq!(order_date(f64::NAN), "19700101");
        assert_eq!(order_date(-5.0), "19700101");
        assert_eq!(order_date(1e300), "99991231");
    }

    #[test]
    fn stamp_fields() {
        // 2023-12-31T16:30:05.042Z = 2024-01-01 00:30:05.042 at UTC+8.
        let t = stamp(1_704_040_205_042.0);
        assert_eq!((t.year, t.month, t.day, t.hour, t.minute, t.second, t.milli), (2024, 1, 1, 0, 30, 5, 42));
    }

    #[test]
    fn order_ids() {
        let mut r = [0u8; 16];
        r[0] = 0xab;
        r[7] = 0x01;
        r[8] = 0xff; // not used
        let id = order_id(1_704_040_205_042.0, &r);
        assert_eq!(id, "20240101003005042ab00000000000001");
        assert_eq!(id.len(), 33);
        let other = order_id(1_704_040_205_042.0, &[1; 16]);
        assert_ne!(id, other);
    }

    #[test]
    fn every_day_is_a_valid_date() {
        // One day at a time over 1970-2100 agrees with the calendar check.
        let mut prev = String::new();
        let mut ms = 0.0;
        while ms < 4_102_444_800_000.0 {
            let d = order_date(ms);
            assert!(valid_yyyymmdd(&d), "{d}");
            assert!(d > prev, "{d} after {prev}");
            prev = d;
            ms += 86_400_000.0;
        }
    }
}
