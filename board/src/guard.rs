//! Only the board's own page may drive it. Any page the person visits could otherwise post to
//! the loopback (a form, or a `fetch` that needs no permission), or have its own name resolve
//! to 127.0.0.1 (DNS rebinding) and read the answers too. So every request passes three checks
//! before it reaches a route, as local servers such as Jupyter do:
//!
//! - **Host** names this server: `localhost`, `127.0.0.1`, `[::1]` or the `--host` address,
//!   with no port or the port it listens on. A rebinding page's requests carry the page's own
//!   name; 403 otherwise. With a wildcard `--host` (`0.0.0.0`, `::`) the server cannot know
//!   which of its addresses was used, so any address written as digits is let through: such a
//!   name cannot be rebound.
//! - **Origin**, on a request that changes something (any method but GET, HEAD, OPTIONS,
//!   TRACE), is the page's own (`http://`, an allowed name, the port). A request without one
//!   (curl, a script) passes: browsers send it with every cross-site request that changes
//!   something. 403 otherwise.
//! - **Content-Type** of a request that changes something and sends a body, or names a type,
//!   is `application/json`: another site's page may send a form or text without asking, but
//!   not JSON. The upload takes a file of any type, and is left to the first two checks. 415
//!   otherwise.

use crate::ApiError;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::sync::Arc;
use twixt_referee::turn::shorten;

/// Who may drive the board: its addresses and its port.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The addresses it answers to: the loopback's and the `--host` one.
    addresses: Vec<IpAddr>,
    /// Whether any address written as digits passes (a wildcard `--host`).
    any_address: bool,
    /// The port it listens on.
    port: u16,
    /// Where to open the page, for the reasons.
    home: String,
}

/// The host name of an authority (`name`, `1.2.3.4`, `[::1]`) and its port, if it has one.
fn split(authority: &str) -> Option<(&str, Option<&str>)> {
    let (name, rest) = if authority.starts_with('[') {
        authority.split_at(authority.find(']')? + 1)
    } else {
        authority.split_at(authority.find(':').unwrap_or(authority.len()))
    };
    match rest {
        "" => Some((name, None)),
        _ => Some((name, Some(rest.strip_prefix(':')?))),
    }
}

/// The address a host name writes in digits, if it does (`1.2.3.4`, `[::1]`).
fn address(name: &str) -> Option<IpAddr> {
    if let Some(v6) = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')) {
        return v6.parse::<Ipv6Addr>().ok().map(IpAddr::V6);
    }
    name.parse::<Ipv4Addr>().ok().map(IpAddr::V4)
}

fn text(value: &HeaderValue) -> String {
    shorten(&String::from_utf8_lossy(value.as_bytes()))
}

impl Guard {
    /// The guard of a server listening on `host` (the `--host` address) at `port`.
    pub fn new(host: IpAddr, port: u16) -> Guard {
        let loopback = [
            IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(Ipv6Addr::LOCALHOST),
        ];
        let shown = if host.is_unspecified() || host.is_loopback() {
            "127.0.0.1".to_string()
        } else {
            match host {
                IpAddr::V4(a) => a.to_string(),
                IpAddr::V6(a) => format!("[{a}]"),
            }
        };
        Guard {
            addresses: loopback.into_iter().chain([host]).collect(),
            any_address: host.is_unspecified(),
            port,
            home: format!("http://{shown}:{port}/"),
        }
    }

    /// Whether `authority` names this server: an allowed name, and the port it listens on
    /// (or none, where `port_needed` is false or the port is 80).
    fn names_me(&self, authority: &str, port_needed: bool) -> bool {
        let Some((name, port)) = split(authority) else {
            return false;
        };
        let port_ok = match port {
            Some(p) => p == self.port.to_string(),
            None => !port_needed || self.port == 80,
        };
        let name_ok = name.eq_ignore_ascii_case("localhost")
            || address(name).is_some_and(|a| self.any_address || self.addresses.contains(&a));
        port_ok && name_ok
    }

    /// Why a request is refused, if it is: the first of the three checks it fails.
    pub fn refusal(&self, method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
        self.host_refusal(uri, headers)
            .or_else(|| self.origin_refusal(method, headers))
            .or_else(|| type_refusal(method, uri, headers))
    }

    /// 403 unless every host the request names (its `Host`, and the address of a request
    /// written in full) is this server, and it names one.
    fn host_refusal(&self, uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
        let mut named = false;
        let full = uri.authority().map(|a| HeaderValue::from_str(a.as_str()));
        for host in headers
            .get_all(header::HOST)
            .iter()
            .chain(full.iter().flatten())
        {
            named = true;
            if !host.to_str().is_ok_and(|h| self.names_me(h, false)) {
                return Some(ApiError::forbidden(format!(
                    "the host {:?} is not this board's address: open it at {} (it answers only \
                     its own addresses, so that another site's name cannot be made to lead here)",
                    text(host),
                    self.home
                )));
            }
        }
        (!named).then(|| {
            ApiError::forbidden(format!(
                "the request names no host: open the board at {}",
                self.home
            ))
        })
    }

    /// 403 when a request that changes something comes from another site's page.
    fn origin_refusal(&self, method: &Method, headers: &HeaderMap) -> Option<ApiError> {
        if method.is_safe() {
            return None;
        }
        let foreign = headers.get_all(header::ORIGIN).iter().find(|o| {
            let own = o.to_str().ok().and_then(|o| o.strip_prefix("http://"));
            !own.is_some_and(|a| self.names_me(a, true))
        })?;
        Some(ApiError::forbidden(format!(
            "a page of another site ({}) may not change the board: use its own page at {}",
            text(foreign),
            self.home
        )))
    }
}

/// Whether a request sends a body.
fn has_body(headers: &HeaderMap) -> bool {
    let length = headers.get(header::CONTENT_LENGTH);
    headers.contains_key(header::TRANSFER_ENCODING)
        || length.is_some_and(|n| n.to_str().map_or(true, |n| n.trim() != "0"))
}

/// 415 when a request that changes something sends a body, or names a type, other than JSON
/// (the upload excepted).
fn type_refusal(method: &Method, uri: &Uri, headers: &HeaderMap) -> Option<ApiError> {
    if method.is_safe() || uri.path().ends_with("/upload") {
        return None;
    }
    let given = headers.get(header::CONTENT_TYPE);
    if given.is_none() && !has_body(headers) {
        return None;
    }
    let essence = given.and_then(|t| t.to_str().ok()?.split(';').next());
    if essence.is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json")) {
        return None;
    }
    let named = given.map_or("none".to_string(), |t| format!("{:?}", text(t)));
    Some(ApiError::unsupported(format!(
        "this route takes JSON: send the body with Content-Type: application/json (the type \
         given: {named})"
    )))
}

/// The middleware: a refused request is answered with its reason and goes no further.
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    match guard.refusal(request.method(), request.uri(), request.headers()) {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status a request gets: 0 when it passes.
    fn status(guard: &Guard, method: &str, uri: &str, headers: &[(&str, &str)]) -> u16 {
        let method = Method::from_bytes(method.as_bytes()).unwrap();
        let uri: Uri = uri.parse().unwrap();
        let mut map = HeaderMap::new();
        for (k, v) in headers {
            map.append(
                header::HeaderName::from_bytes(k.as_bytes()).unwrap(),
                HeaderValue::from_str(v).unwrap(),
            );
        }
        guard
            .refusal(&method, &uri, &map)
            .map_or(0, |e| e.status.as_u16())
    }

    #[test]
    fn only_this_servers_names_and_port_pass_as_the_host() {
        let g = Guard::new("127.0.0.1".parse().unwrap(), 8765);
        for host in [
            "127.0.0.1:8765",
            "127.0.0.1",
            "LocalHost:8765",
            "[::1]:8765",
            "[0:0::1]",
        ] {
            assert_eq!(status(&g, "GET", "/", &[("host", host)]), 0, "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8765",
            "127.0.0.1:8766",
            "127.0.0.2:8765",
            "localhost.:8765",
            "127.1:8765",
            "user@127.0.0.1:8765",
            "[::1",
            "",
        ] {
            assert_eq!(status(&g, "GET", "/", &[("host", host)]), 403, "{host}");
        }
        assert_eq!(status(&g, "GET", "/", &[]), 403, "no host");
        let two = [("host", "127.0.0.1:8765"), ("host", "evil.example")];
        assert_eq!(status(&g, "GET", "/", &two), 403);
        let full = "http://evil.example/api/boards";
        assert_eq!(status(&g, "GET", full, &[("host", "localhost")]), 403);
        let reason = g
            .refusal(&Method::GET, &"/".parse().unwrap(), &HeaderMap::new())
            .unwrap()
            .message;
        assert!(reason.contains("http://127.0.0.1:8765/"), "{reason}");
    }

    #[test]
    fn the_host_address_and_a_wildcards_digits_pass_but_names_do_not() {
        let g = Guard::new("192.168.1.5".parse().unwrap(), 80);
        assert_eq!(status(&g, "GET", "/", &[("host", "192.168.1.5")]), 0);
        assert_eq!(status(&g, "GET", "/", &[("host", "192.168.1.6")]), 403);
        let any = Guard::new("::".parse().unwrap(), 8765);
        for host in ["10.0.0.7:8765", "[fe80::1]:8765", "localhost"] {
            assert_eq!(status(&any, "GET", "/", &[("host", host)]), 0, "{host}");
        }
        assert_eq!(status(&any, "GET", "/", &[("host", "box.lan:8765")]), 403);
    }

    #[test]
    fn a_change_must_come_from_the_page_itself_or_from_no_page() {
        let g = Guard::new("127.0.0.1".parse().unwrap(), 8765);
        let post = |origin: &str| {
            let h = [("host", "127.0.0.1:8765"), ("origin", origin)];
            status(&g, "POST", "/api/boards", &h)
        };
        assert_eq!(post("http://127.0.0.1:8765"), 0);
        assert_eq!(post("http://localhost:8765"), 0);
        for origin in [
            "http://evil.example",
            "http://127.0.0.1",
            "http://127.0.0.1:8766",
            "https://127.0.0.1:8765",
            "null",
        ] {
            assert_eq!(post(origin), 403, "{origin}");
        }
        let get = [
            ("host", "127.0.0.1:8765"),
            ("origin", "http://evil.example"),
        ];
        assert_eq!(status(&g, "GET", "/api/boards/x", &get), 0, "reading");
        assert_eq!(
            status(&g, "POST", "/api/boards", &[("host", "localhost")]),
            0
        );
    }

    #[test]
    fn a_body_or_a_type_other_than_json_is_refused_but_for_the_upload() {
        let g = Guard::new("127.0.0.1".parse().unwrap(), 8765);
        let host = ("host", "127.0.0.1:8765");
        let post = |path: &str, more: &[(&str, &str)]| {
            let headers: Vec<_> = [host].iter().chain(more).copied().collect();
            status(&g, "POST", path, &headers)
        };
        let json = ("content-type", "application/json; charset=utf-8");
        let plain = ("content-type", "text/plain");
        let body = ("content-length", "12");
        assert_eq!(post("/api/boards/x/play", &[json, body]), 0);
        assert_eq!(post("/api/boards/x/play", &[plain, body]), 415);
        assert_eq!(post("/api/boards/x/play", &[body]), 415);
        assert_eq!(post("/api/boards", &[plain]), 415);
        assert_eq!(
            post("/api/boards/x/play", &[("transfer-encoding", "chunked")]),
            415
        );
        assert_eq!(post("/api/boards", &[("content-length", "0")]), 0);
        assert_eq!(post("/api/boards/x/upload", &[plain, body]), 0);
        let get = [host, plain, body];
        assert_eq!(status(&g, "GET", "/api/boards/x", &get), 0);
    }
}
