//! The profile: every provider-specific name the module uses, in one place.
//!
//! No other module spells a wallet's scheme, bridge global, event, method,
//! user-agent token or address; they all read them from a [`Profile`]. The
//! defaults use the service document's neutral names; a page sets the real
//! ones with `options.profile`, deep-merged over [`Profile::default`].

use crate::error::{bad_option as bad, cat, words, PayError, Result};
use crate::json::json_obj;
use crate::json::Json;
use crate::payment::Channel;
use crate::prelude::*;
use crate::safe_url::clip;
use crate::status::Status;

mod check;
mod defaults;
use check::{valid, Kind};
pub use defaults::Field;
use defaults::{FIELDS, G, GROUPS};

/// A page's profile: its strings, one for each entry of the table the
/// defaults, the merge and `defaultProfile()` share (`defaults::FIELDS`),
/// read by their [`Field`] names; and its lists, each merged its own way.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    strings: [String; FIELDS.len()],
    /// wallet1's trade-pay result codes and what they mean.
    pub result_codes: Vec<(String, Status)>,
    /// User-agent tokens that mean a phone or tablet.
    pub mobile_tokens: Vec<String>,
    /// Other names for the channels: `alias -> channel`.
    pub channel_aliases: Vec<(String, Channel)>,
}

fn join(prefix: &str, key: &str) -> String {
    cat!(prefix, ".", key)
}

fn set_str(slot: &mut String, v: &Json, kind: Kind, field: &str, loopback: bool) -> Result<()> {
    match v {
        Json::Str(s) => {
            valid(kind, s, loopback).map_err(|why| bad(field, why))?;
            *slot = own(s);
            Ok(())
        }
        other => Err(bad(field, &words!("must be a string, not ", other.kind()))),
    }
}

fn members<'a>(v: &'a Json, field: &str) -> Result<&'a [(String, Json)]> {
    v.as_obj().ok_or_else(|| bad(field, &words!("must be an object, not ", v.kind())))
}

fn unknown(field: &str) -> PayError {
    bad(field, "is not a profile field (check its spelling against defaultProfile())")
}

/// Removes `key` from a list of names and values whose names are unique
/// (each merge removes the one it replaces): the one match removed, rather
/// than `retain`'s walk of them all. One body for the result codes and the
/// channel aliases.
#[inline(never)]
fn forget<T>(list: &mut Vec<(String, T)>, key: &str) {
    if let Some(i) = list.iter().position(|(k, _)| k == key) {
        list.remove(i);
    }
}

/// Sets `key` to `value` in such a list: the old entry forgotten, the new
/// one put last.
#[inline(never)]
fn put<T>(list: &mut Vec<(String, T)>, key: &str, value: T) {
    forget(list, key);
    list.push((own(key), value));
}

impl Profile {
    /// `Profile::default()` with `patch` (a partial profile) merged over it.
    pub fn from_patch(patch: Option<&Json>) -> Result<Profile> {
        let mut p = Profile::default();
        if let Some(v) = patch {
            p.merge(v, "profile")?;
        }
        Ok(p)
    }

    /// Deep-merges a partial profile. Absent and `null` members keep their
    /// value; unknown members are refused so that a misspelt name does not
    /// silently fall back to a default.
    pub fn merge(&mut self, patch: &Json, at: &str) -> Result<()> {
        self.merge_with(patch, at, false)
    }

    /// [`Profile::merge`]; with `insecure_loopback` the provider addresses
    /// may also be `http://127.0.0.1` or `http://localhost` (the option of
    /// the same name, for the local sandbox's authorization pages).
    pub fn merge_with(&mut self, patch: &Json, at: &str, insecure_loopback: bool) -> Result<()> {
        if patch.is_null() {
            return Ok(());
        }
        for (group, g) in members(patch, at)? {
            if g.is_null() {
                continue;
            }
            let gf = join(at, group);
            let Some(gi) = index_of(&GROUPS, group) else {
                return Err(unknown(&gf));
            };
            if gi == G::MobileTokens as usize {
                let Json::Arr(items) = g else {
                    return Err(bad(&gf, "must be an array of strings"));
                };
                // A page's list replaces the default one.
                self.mobile_tokens.clear();
                for it in items.iter() {
                    let mut s = String::new();
                    set_str(&mut s, it, Kind::Token, &gf, false)?;
                    self.mobile_tokens.push(s);
                }
            } else if gi == G::ChannelAliases as usize {
                self.merge_aliases(g, &gf)?;
            } else {
                for (k, v) in members(g, &gf)? {
                    if v.is_null() {
                        continue;
                    }
                    let f = join(&gf, k);
                    if gi == G::Wallet1 as usize && k == "resultCodes" {
                        self.merge_result_codes(v, &f)?;
                    } else if let Some(i) = FIELDS.iter().position(|(gr, key, ..)| *gr as usize == gi && key == k) {
                        set_str(&mut self.strings[i], v, FIELDS[i].2, &f, insecure_loopback)?;
                    } else {
                        return Err(unknown(&f));
                    }
                }
            }
        }
        Ok(())
    }

    /// The string of the profile `f` names.
    pub fn get(&self, f: Field) -> &str {
        &self.strings[f as usize]
    }

    fn merge_result_codes(&mut self, v: &Json, f: &str) -> Result<()> {
        let codes = &mut self.result_codes;
        for (code, status) in members(v, f)? {
            let f2 = join(f, code);
            if code.is_empty() || code.len() > 32 {
                return Err(bad(&f2, "must be a result code of 1 to 32 characters"));
            }
            if status.is_null() {
                forget(codes, code);
                continue;
            }
            let st = status
                .as_str()
                .and_then(Status::from_wallet_name)
                .ok_or_else(|| bad(&f2, "must be \"succeeded\", \"pending\", \"cancelled\" or \"failed\""))?;
            put(codes, code, st);
        }
        Ok(())
    }

    fn merge_aliases(&mut self, v: &Json, f: &str) -> Result<()> {
        for (alias, target) in members(v, f)? {
            let f2 = join(f, alias);
            if target.is_null() {
                forget(&mut self.channel_aliases, alias);
                continue;
            }
            let name = target.as_str().ok_or_else(|| bad(&f2, "must name a channel as a string"))?;
            let ch = Channel::from_name(name)
                .ok_or_else(|| bad(&f2, &words!("names ", clip(name), ", which is not a channel of this module")))?;
            if alias.is_empty() || alias.len() > 64 {
                return Err(bad(&f2, "must be an alias of 1 to 64 characters"));
            }
            if Channel::from_name(alias).is_some() {
                return Err(bad(&f2, "would rename a channel of this module"));
            }
            put(&mut self.channel_aliases, alias, ch);
        }
        Ok(())
    }

    /// The channel a `pay_channel` value names, through the aliases.
    pub fn resolve_channel(&self, name: &str) -> Option<Channel> {
        Channel::from_name(name).or_else(|| self.channel_aliases.iter().find(|(a, _)| a == name).map(|(_, c)| *c))
    }

    /// The status a wallet1 trade-pay result code stands for (unknown codes
    /// are failures).
    pub fn wallet1_status(&self, code: &str) -> Status {
        self.wallet1_code(code).unwrap_or(Status::Failed)
    }

    /// The status the profile's table lists for a wallet1 result code.
    pub fn wallet1_code(&self, code: &str) -> Option<Status> {
        self.result_codes.iter().find(|(c, _)| c == code).map(|(_, s)| *s)
    }

    /// The profile as JavaScript sees it (`defaultProfile()`).
    pub fn to_json(&self) -> Json {
        let group = |g: G| -> Vec<(String, Json)> {
            let mut m = Vec::new();
            for (s, &(gr, key, ..)) in self.strings.iter().zip(FIELDS.iter()) {
                if gr == g {
                    Json::put(&mut m, key, Json::Str(s.clone()));
                }
            }
            m
        };
        let mut w1 = group(G::Wallet1);
        let codes = self.result_codes.iter().map(|(c, st)| (c.clone(), Json::str(st.as_str()))).collect();
        Json::put(&mut w1, "resultCodes", Json::Obj(crate::json::list(codes)));
        let w1 = Json::Obj(crate::json::list(w1));
        let w2 = Json::Obj(crate::json::list(group(G::Wallet2)));
        let card = Json::Obj(crate::json::list(group(G::Cardnet)));
        let tokens = Json::Arr(crate::json::list(self.mobile_tokens.iter().map(|t| Json::Str(t.clone())).collect()));
        let aliases = Json::Obj(crate::json::list(self.channel_aliases.iter().map(|(a, c)| (a.clone(), Json::str(c.name()))).collect()));
        json_obj! {
            "wallet1" => w1,
            "wallet2" => w2,
            "cardnet" => card,
            "mobileTokens" => tokens,
            "channelAliases" => aliases,
        }
    }
}

#[cfg(test)]
mod tests;
