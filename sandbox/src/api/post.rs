//! Where a notification may go, and the plain HTTP/1.1 POST that takes it
//! there.
//!
//! The sandbox notifies loopback addresses only (`127.0.0.0/8`, `[::1]`,
//! `localhost`) over plain `http://`: the merchant under test runs on the
//! same machine, and a sandbox reachable by any page of the browser should
//! not post to other hosts on its behalf. Any `mer_bg_url` the service
//! accepts is accepted (`10201`, and the result is ready after the delay);
//! one elsewhere is recorded as not sent, with the reason.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use url::{Host, Position, Url};

use crate::http::redirect_target;
use paybridge::verify::request::FORM_CONTENT_TYPE;

/// A checked notification address.
#[derive(Clone, Debug)]
pub struct Target {
    pub url: Url,
    pub addr: SocketAddr,
}

/// Checks `mer_bg_url`; the message says what the sandbox needs.
pub fn target(text: &str) -> Result<Target, String> {
    const NEED: &str = "the sandbox notifies over plain http:// to a loopback address (127.0.0.1, localhost or [::1])";
    let url = redirect_target("mer_bg_url", text).map_err(|p| p.message)?;
    if url.scheme() != "http" {
        return Err(format!("mer_bg_url uses {}://: {NEED}", url.scheme()));
    }
    let ip = match url.host() {
        Some(Host::Ipv4(a)) if a.is_loopback() => IpAddr::V4(a),
        Some(Host::Ipv6(a)) if a.is_loopback() => IpAddr::V6(a),
        Some(Host::Domain(d)) if d.eq_ignore_ascii_case("localhost") => IpAddr::V4(Ipv4Addr::LOCALHOST),
        _ => return Err(format!("mer_bg_url names {}: {NEED}", url.host_str().unwrap_or("no host"))),
    };
    let port = url.port_or_known_default().unwrap_or(80);
    Ok(Target { addr: SocketAddr::new(ip, port), url })
}

/// POSTs `body` (form-encoded) to `t` and returns the HTTP status of the
/// answer; an error text when there was none within `timeout`.
pub async fn post_form(t: &Target, body: &str, timeout: Duration) -> Result<u16, String> {
    match tokio::time::timeout(timeout, exchange(t, body)).await {
        Ok(r) => r,
        Err(_) => Err(format!("no answer within {} ms", timeout.as_millis())),
    }
}

async fn exchange(t: &Target, body: &str) -> Result<u16, String> {
    let mut stream = TcpStream::connect(t.addr).await.map_err(|e| format!("connect: {e}"))?;
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: {FORM_CONTENT_TYPE}\r\nContent-Length: {len}\r\n\
         Connection: close\r\nUser-Agent: paybridge-sandbox\r\n\r\n",
        path = &t.url[Position::BeforePath..Position::AfterQuery],
        host = &t.url[Position::BeforeHost..Position::AfterPort],
        len = body.len(),
    );
    stream.write_all(head.as_bytes()).await.map_err(|e| format!("send: {e}"))?;
    stream.write_all(body.as_bytes()).await.map_err(|e| format!("send: {e}"))?;
    // Only the status line is read; the connection closes after it.
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    while !got.windows(2).any(|w| w == b"\r\n") {
        if got.len() > 8192 {
            return Err("the status line is longer than 8 KiB".into());
        }
        match stream.read(&mut buf).await {
            Ok(0) => return Err("the connection closed before a status line".into()),
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) => return Err(format!("receive: {e}")),
        }
    }
    status_of(&got).ok_or_else(|| format!("not an HTTP answer: {:?}", String::from_utf8_lossy(&got[..got.len().min(80)])))
}

/// The status code of `HTTP/1.x NNN ...`.
fn status_of(head: &[u8]) -> Option<u16> {
    let line = head.split(|&b| b == b'\r').next()?;
    let line = std::str::from_utf8(line).ok()?;
    let mut parts = line.split(' ');
    if !parts.next()?.starts_with("HTTP/1.") {
        return None;
    }
    let code = parts.next()?;
    if code.len() != 3 {
        return None;
    }
    code.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_http_only() {
        let t = target("http://127.0.0.1:9123/merchant/notify?x=1").unwrap();
        assert_eq!(t.addr, "127.0.0.1:9123".parse().unwrap());
        assert_eq!(&t.url[Position::BeforePath..Position::AfterQuery], "/merchant/notify?x=1");
        assert_eq!(target("http://localhost/cb").unwrap().addr, "127.0.0.1:80".parse().unwrap());
        assert_eq!(target("http://[::1]:8/cb").unwrap().addr, "[::1]:8".parse().unwrap());
        assert_eq!(target("http://127.8.0.1:8/").unwrap().addr.port(), 8);
        for bad in ["https://127.0.0.1/cb", "http://example.com/cb", "http://10.0.0.1/", "http://u:p@127.0.0.1/", "ftp://127.0.0.1/", "cb"]
        {
            let e = target(bad).unwrap_err();
            assert!(e.starts_with("mer_bg_url "), "{bad}: {e}");
        }
    }

    #[test]
    fn status_lines() {
        assert_eq!(status_of(b"HTTP/1.1 200 OK\r\n"), Some(200));
        assert_eq!(status_of(b"HTTP/1.0 500 Internal Server Error\r\nx"), Some(500));
        assert_eq!(status_of(b"HTTP/1.1 204\r\n"), Some(204));
        assert_eq!(status_of(b"SSH-2.0-x\r\n"), None);
        assert_eq!(status_of(b"HTTP/1.1 20 OK\r\n"), None);
    }
}
