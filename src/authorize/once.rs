//! A callback is used once per tab: what `takeAuthCallback` and
//! `cardnetPay` remember, and the address a page keeps once the callback's
//! parameters are gone from it.
//!
//! Authorization codes are one-time: the provider refuses a used one, and a
//! merchant that orders before asking the provider would order twice when
//! the customer comes Back to the callback page or reloads it. So the page
//! that takes a callback removes its parameters from the address bar (the
//! edge calls `history.replaceState` with [`without_callback`]) and writes
//! two entries into the tab's record ([`Record`], kept by the edge in
//! `sessionStorage`): the code's [`fingerprint`], and the address as it now
//! reads ([`page_entry`]), so that the same code, or a reload of the
//! cleaned address, is `auth_used` at once.
//!
//! Pure: the edge reads and writes the storage and the history.

use super::callback::AuthCallback;
use super::Provider;
use crate::error::{cat, Code, PayError};
use crate::prelude::*;

/// The parameters each provider's callback adds to the redirect address.
/// `state` is the page's own one-time value, sent back by every provider.
pub fn callback_keys(provider: Provider) -> &'static [&'static str] {
    match provider {
        Provider::Wallet1 => &["auth_code", "app_id", "scope", "source", "state"],
        Provider::Wallet2 => &["code", "state"],
        Provider::Cardnet => &["respCode", "userAuthCode", "state"],
    }
}

/// The field a used callback is blamed on: the provider's code.
pub fn code_field(provider: Provider) -> &'static str {
    match provider {
        Provider::Wallet1 => "auth_code",
        Provider::Wallet2 => "code",
        Provider::Cardnet => "userAuthCode",
    }
}

/// The `auth_used` error for a callback of `provider`.
pub fn used(provider: Provider) -> PayError {
    let field = code_field(provider);
    PayError::field(
        Code::AuthUsed,
        field,
        cat!(
            field,
            " of this ",
            provider.as_str(),
            " callback was already used in this tab (Back, reload or Forward to the callback page); it is not sent again: start over"
        ),
    )
}

/// `url` without the parameters of `provider`'s callback, in the query and
/// in the fragment's query (hash-routed pages); every other parameter is
/// kept as written, and a query left empty goes with its `?`.
pub fn without_callback(url: &str, provider: Provider) -> String {
    let keys = callback_keys(provider);
    let (head, frag) = match url.split_once('#') {
        Some((h, f)) => (h, Some(f)),
        None => (url, None),
    };
    let mut out = strip_query(head, keys);
    if let Some(f) = frag {
        out.push('#');
        out.push_str(&strip_query(f, keys));
    }
    out
}

/// `s` (`path?query`) with the pairs whose key is one of `keys` removed.
fn strip_query(s: &str, keys: &[&str]) -> String {
    let Some((path, query)) = s.split_once('?') else { return s.to_string() };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|pair| {
            let key = pair.split_once('=').map_or(*pair, |(k, _)| k);
            !pair.is_empty() && !keys.iter().any(|k| key_is(key, k))
        })
        .collect();
    let mut out = String::from(path);
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&kept.join("&"));
    }
    out
}

/// Whether the raw key `raw` reads as `key`, decoded as the callback
/// reader decodes it.
pub fn key_is(raw: &str, key: &str) -> bool {
    super::callback::decode(raw, true).as_deref() == Some(key)
}

/// The record entry of a taken callback's code: the provider and a 64-bit
/// FNV-1a digest of the code (the code itself is not stored).
pub fn fingerprint(cb: &AuthCallback) -> Option<String> {
    let code = cb.code.as_deref().or(cb.user_auth_code.as_deref())?;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in code.as_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    let mut out = cat!("code ", cb.provider.as_str(), " ");
    for i in (0..16).rev() {
        out.push(char::from_digit(((h >> (i * 4)) & 0xf) as u32, 16).unwrap_or('0'));
    }
    Some(out)
}

/// The record entry of the address a page keeps after taking a callback
/// of `provider` (a reload or a Back lands there).
pub fn page_entry(provider: Provider, cleaned_url: &str) -> String {
    cat!("page ", provider.as_str(), " ", cleaned_url)
}

/// The provider of the callback a cleaned address `url` was taken from,
/// when the record holds it.
pub fn page_taken(record: &Record, url: &str) -> Option<Provider> {
    [Provider::Wallet1, Provider::Wallet2, Provider::Cardnet].into_iter().find(|p| record.has(&page_entry(*p, url)))
}

/// The tab's record of taken callbacks: one entry a line, the newest
/// last, at most [`Record::MAX`] entries.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    entries: Vec<String>,
}

impl Record {
    /// Entries kept; the oldest go first.
    pub const MAX: usize = 64;
    /// The `sessionStorage` key the edge keeps the record under.
    pub const STORAGE_KEY: &'static str = "paybridge.usedCallbacks";

    /// Reads the stored text (anything unreadable is an empty record).
    pub fn parse(text: Option<&str>) -> Record {
        let entries = text.map(|t| t.split('\n').filter(|l| !l.is_empty()).map(str::to_string).collect()).unwrap_or_default();
        Record { entries }
    }

    pub fn has(&self, entry: &str) -> bool {
        self.entries.iter().any(|e| e == entry)
    }

    /// Adds `entry` (once), dropping the oldest beyond [`Record::MAX`].
    pub fn add(&mut self, entry: String) {
        if self.has(&entry) || entry.contains('\n') {
            return;
        }
        self.entries.push(entry);
        if self.entries.len() > Self::MAX {
            let extra = self.entries.len() - Self::MAX;
            self.entries.drain(..extra);
        }
    }

    /// The text to store.
    pub fn text(&self) -> String {
        self.entries.join("\n")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::authorize::parse_auth_callback;

    #[test]
    fn removes_only_the_callback_parameters() {
        let u = "https://m.example/cb?order=42&respCode=00&userAuthCode=abc&state=s1&x=1#top";
        assert_eq!(without_callback(u, Provider::Cardnet), "https://m.example/cb?order=42&x=1#top");
        assert_eq!(without_callback("https://m.example/cb?code=c&state=s", Provider::Wallet2), "https://m.example/cb");
        assert_eq!(without_callback("https://m.example/#/pay?code=c&state=s&o=1", Provider::Wallet2), "https://m.example/#/pay?o=1");
        // A percent-encoded key is the key; another provider's keys stay.
        assert_eq!(without_callback("https://m.example/cb?%63ode=c&auth_code=a", Provider::Wallet2), "https://m.example/cb?auth_code=a");
        // wallet1's app_id and scope go only with a wallet1 callback.
        assert_eq!(without_callback("https://m.example/cb?app_id=1&code=c", Provider::Wallet2), "https://m.example/cb?app_id=1");
        assert_eq!(without_callback("/cb?auth_code=a&app_id=1&scope=auth_base&state=s", Provider::Wallet1), "/cb");
    }

    #[test]
    fn fingerprints_the_code_not_the_state() {
        let a = parse_auth_callback("https://m.example/cb?respCode=00&userAuthCode=abc&state=s1", None, 0.0).unwrap();
        let b = parse_auth_callback("https://m.example/cb?respCode=00&userAuthCode=abc&state=s2", None, 5.0).unwrap();
        let c = parse_auth_callback("https://m.example/cb?respCode=00&userAuthCode=abd", None, 0.0).unwrap();
        let fa = fingerprint(&a).unwrap();
        assert_eq!(Some(fa.clone()), fingerprint(&b));
        assert_ne!(Some(fa.clone()), fingerprint(&c));
        assert!(fa.starts_with("code cardnet ") && !fa.contains("abc"), "{fa}");
    }

    #[test]
    fn record_round_trip_and_bound() {
        let mut r = Record::parse(None);
        r.add("code wallet2 1".into());
        r.add(page_entry(Provider::Wallet2, "https://m.example/cb"));
        r.add("code wallet2 1".into());
        let again = Record::parse(Some(&r.text()));
        assert_eq!(again, r);
        assert_eq!(page_taken(&again, "https://m.example/cb"), Some(Provider::Wallet2));
        assert_eq!(page_taken(&again, "https://m.example/other"), None);
        for i in 0..100 {
            r.add(crate::error::u64_str(i));
        }
        assert_eq!(Record::parse(Some(&r.text())).entries.len(), Record::MAX);
        assert!(!r.has("code wallet2 1"));
        assert!(r.has("99"));
    }

    #[test]
    fn used_names_the_code() {
        let e = used(Provider::Cardnet);
        assert_eq!((e.code, e.field.as_deref()), (Code::AuthUsed, Some("userAuthCode")));
        assert_eq!(used(Provider::Wallet1).field.as_deref(), Some("auth_code"));
    }
}
