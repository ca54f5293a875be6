//! Only the board's own page may drive it. Any page the person visits could otherwise post to
//! the loopback (a form, or a `fetch` that needs no permission), or have its own name resolve
//! to 127.0.0.1 (DNS rebinding) and read the answers too. So every request passes three checks
//! before it reaches a route, as local servers such as Jupyter do (and no page may show the
//! board in a frame, where the person's clicks would carry its own Host and Origin:
//! [`crate::page::unframed`]):
//!
//! - **Host** names this server as the connection reached it ([`Reached`]): the address
//!   reached, where that is the `--host` one (with a wildcard `--host`, `0.0.0.0` or `::`, any
//!   address the server is reached at), or over the loopback a loopback name (`localhost`,
//!   `127.0.0.1`, `[::1]`); with no port or the port it listens on. A rebinding page's requests
//!   carry the page's own name, and an address the connection did not reach is not this
//!   server's; 403 otherwise.
//! - **Origin**, on a request that changes something (any method but GET, HEAD, OPTIONS,
//!   TRACE), is the page at the very host the request names and the port it listens on
//!   (`http://`): a page served from another address at the same port is another site's. A
//!   request without one (curl, a script) passes: browsers send it with every cross-site
//!   request that changes something. 403 otherwise.
//! - **Content-Type** of a request that changes something and sends a body, or names a type,
//!   is `application/json`: another site's page may send a form or text without asking, but
//!   not JSON. The upload takes a file of any type, and is left to the first two checks. 415
//!   otherwise.

use crate::ApiError;
use axum::extract::connect_info::Connected;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, Uri};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::serve::IncomingStream;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::sync::Arc;
use tokio::net::TcpListener;
use twixt_referee::turn::shorten;

/// Who may drive the board: the address it was told to listen on, and its port.
#[derive(Clone, Debug)]
pub struct Guard {
    /// The `--host` address (a wildcard: whichever address a connection reached).
    host: IpAddr,
    /// The port it listens on.
    port: u16,
}

/// The address of this server a connection reached (its local address; an IPv4 one as such,
/// not mapped into IPv6): the one address its requests may name besides the loopback's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reached(pub IpAddr);

impl Connected<IncomingStream<'_, TcpListener>> for Reached {
    /// The connection's local address; the unspecified address, which no request may name,
    /// when the system cannot tell it.
    fn connect_info(stream: IncomingStream<'_, TcpListener>) -> Reached {
        let local = stream.io().local_addr();
        Reached(local.map_or(Ipv4Addr::UNSPECIFIED.into(), |a| a.ip().to_canonical()))
    }
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

/// Whether `name` is a name of the loopback that no one can make lead elsewhere.
fn loopback_name(name: &str) -> bool {
    let loopback = [Ipv4Addr::LOCALHOST.into(), Ipv6Addr::LOCALHOST.into()];
    name.eq_ignore_ascii_case("localhost") || address(name).is_some_and(|a| loopback.contains(&a))
}

/// Whether two host names name the same host (addresses as addresses: `[0::1]` is `[::1]`).
fn same_host(a: &str, b: &str) -> bool {
    match (address(a), address(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a.eq_ignore_ascii_case(b),
    }
}

fn text(value: &HeaderValue) -> String {
    shorten(&String::from_utf8_lossy(value.as_bytes()))
}

impl Guard {
    /// The guard of a server listening on `host` (the `--host` address) at `port`.
    pub fn new(host: IpAddr, port: u16) -> Guard {
        Guard { host, port }
    }

    /// Whether `reached` is an address it was told to listen on: the `--host` one, or any
    /// with a wildcard.
    fn listens_at(&self, reached: IpAddr) -> bool {
        !reached.is_unspecified() && (self.host.is_unspecified() || reached == self.host)
    }

    /// Where to open the page, for the reasons: at the address reached, where it listens, else
    /// at the `--host` one or the loopback's.
    fn home(&self, reached: IpAddr) -> String {
        let shown = if self.listens_at(reached) {
            reached
        } else if self.host.is_unspecified() || self.host.is_loopback() {
            Ipv4Addr::LOCALHOST.into()
        } else {
            self.host
        };
        format!("http://{}/", SocketAddr::new(shown, self.port))
    }

    /// Whether a request over a connection that reached `reached` may name `authority` as its
    /// host: a name it answers to there, with no port or the port it listens on.
    fn answers_to(&self, reached: IpAddr, authority: &str) -> bool {
        let Some((name, port)) = split(authority) else {
            return false;
        };
        let port_ok = port.is_none_or(|p| p == self.port.to_string());
        let name_ok = (reached.is_loopback() && loopback_name(name))
            || (self.listens_at(reached) && address(name) == Some(reached));
        port_ok && name_ok
    }

    /// Why a request over a connection that reached `reached` is refused, if it is: the first
    /// of the three checks it fails.
    pub fn refusal(
        &self,
        reached: IpAddr,
        method: &Method,
        uri: &Uri,
        headers: &HeaderMap,
    ) -> Option<ApiError> {
        let hosts = match self.hosts(reached, uri, headers) {
            Ok(hosts) => hosts,
            Err(refused) => return Some(refused),
        };
        self.origin_refusal(reached, method, headers, &hosts)
            .or_else(|| type_refusal(method, uri, headers))
    }

    /// Every host the request names (its `Host`, and the address of a request written in
    /// full), each one it answers to at `reached`; or the 403 that says why not, or that it
    /// names none.
    fn hosts<'r>(
        &self,
        reached: IpAddr,
        uri: &'r Uri,
        headers: &'r HeaderMap,
    ) -> Result<Vec<&'r str>, ApiError> {
        let refuse = |host: String| {
            ApiError::forbidden(format!(
                "the host {host:?} is not this board's address: open it at {} (it answers \
                 only the address it was reached at, so that another site's name cannot be \
                 made to lead here)",
                self.home(reached)
            ))
        };
        let mut named = Vec::new();
        for value in headers.get_all(header::HOST) {
            named.push(value.to_str().map_err(|_| refuse(text(value)))?);
        }
        named.extend(uri.authority().map(|a| a.as_str()));
        if named.is_empty() {
            return Err(ApiError::forbidden(format!(
                "the request names no host: open the board at {}",
                self.home(reached)
            )));
        }
        match named.iter().find(|h| !self.answers_to(reached, h)) {
            Some(h) => Err(refuse(shorten(h))),
            None => Ok(named),
        }
    }

    /// Whether `origin` is the page at every host of `hosts` and the port it listens on (its
    /// page's origin omits the port only where it is 80).
    fn own_origin(&self, origin: &str, hosts: &[&str]) -> bool {
        let Some((name, port)) = origin.strip_prefix("http://").and_then(split) else {
            return false;
        };
        let port_ok = match port {
            Some(p) => p == self.port.to_string(),
            None => self.port == 80,
        };
        let named = |host: &str| split(host).is_some_and(|(n, _)| same_host(n, name));
        port_ok && hosts.iter().all(|h| named(h))
    }

    /// 403 when a request that changes something comes from a page other than this server's
    /// at the host the request names.
    fn origin_refusal(
        &self,
        reached: IpAddr,
        method: &Method,
        headers: &HeaderMap,
        hosts: &[&str],
    ) -> Option<ApiError> {
        if method.is_safe() {
            return None;
        }
        let foreign = headers
            .get_all(header::ORIGIN)
            .iter()
            .find(|o| !o.to_str().is_ok_and(|o| self.own_origin(o, hosts)))?;
        Some(ApiError::forbidden(format!(
            "a page of another site ({}) may not change the board: use its own page at {}",
            text(foreign),
            self.home(reached)
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

/// The middleware: a refused request is answered with its reason and goes no further. A
/// server that does not say which address a connection reached ([`Reached`]) is refused every
/// host name.
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let reached = request.extensions().get::<ConnectInfo<Reached>>();
    let reached = reached.map_or(Ipv4Addr::UNSPECIFIED.into(), |c| c.0 .0);
    match guard.refusal(reached, request.method(), request.uri(), request.headers()) {
        Some(refused) => refused.into_response(),
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status a request over a connection that reached `reached` gets: 0 when it passes.
    fn status(
        guard: &Guard,
        reached: &str,
        method: &str,
        uri: &str,
        headers: &[(&str, &str)],
    ) -> u16 {
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
            .refusal(reached.parse().unwrap(), &method, &uri, &map)
            .map_or(0, |e| e.status.as_u16())
    }

    /// The status of `GET /` naming `host` over a connection that reached `reached`.
    fn get(guard: &Guard, reached: &str, host: &str) -> u16 {
        status(guard, reached, "GET", "/", &[("host", host)])
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
            assert_eq!(get(&g, "127.0.0.1", host), 0, "{host}");
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
            assert_eq!(get(&g, "127.0.0.1", host), 403, "{host}");
        }
        assert_eq!(status(&g, "127.0.0.1", "GET", "/", &[]), 403, "no host");
        let two = [("host", "127.0.0.1:8765"), ("host", "evil.example")];
        assert_eq!(status(&g, "127.0.0.1", "GET", "/", &two), 403);
        let full = "http://evil.example/api/boards";
        let host = [("host", "localhost")];
        assert_eq!(status(&g, "127.0.0.1", "GET", full, &host), 403);
        let reason = g
            .refusal(
                Ipv4Addr::LOCALHOST.into(),
                &Method::GET,
                &"/".parse().unwrap(),
                &HeaderMap::new(),
            )
            .unwrap()
            .message;
        assert!(reason.contains("http://127.0.0.1:8765/"), "{reason}");
    }

    #[test]
    fn the_host_address_passes_and_with_a_wildcard_only_the_address_reached() {
        let g = Guard::new("192.168.1.5".parse().unwrap(), 80);
        assert_eq!(get(&g, "192.168.1.5", "192.168.1.5"), 0);
        for host in ["192.168.1.6", "localhost", "127.0.0.1"] {
            assert_eq!(
                get(&g, "192.168.1.5", host),
                403,
                "{host}: not the loopback"
            );
        }
        let any = Guard::new("::".parse().unwrap(), 8765);
        assert_eq!(get(&any, "10.0.0.7", "10.0.0.7:8765"), 0);
        assert_eq!(get(&any, "fe80::1", "[fe80::1]:8765"), 0);
        for host in ["10.0.0.8:8765", "localhost:8765", "box.lan:8765"] {
            assert_eq!(get(&any, "10.0.0.7", host), 403, "{host}");
        }
        for host in ["127.0.0.2:8765", "localhost:8765", "[::1]:8765"] {
            assert_eq!(get(&any, "127.0.0.2", host), 0, "{host}");
        }
        for host in ["127.0.0.3:8765", "10.1.2.3:8765", "0.0.0.0:8765"] {
            assert_eq!(get(&any, "127.0.0.2", host), 403, "{host}");
        }
        assert_eq!(get(&any, "0.0.0.0", "localhost"), 403, "not known");
        let reason = any
            .refusal(
                "127.0.0.2".parse().unwrap(),
                &Method::GET,
                &"/".parse().unwrap(),
                &HeaderMap::new(),
            )
            .unwrap()
            .message;
        assert!(
            reason.contains("open the board at http://127.0.0.2:8765/"),
            "{reason}"
        );
    }

    #[test]
    fn a_change_must_come_from_the_page_at_the_host_named_or_from_no_page() {
        let g = Guard::new("127.0.0.1".parse().unwrap(), 8765);
        let post = |host: &str, origin: &str| {
            let h = [("host", host), ("origin", origin)];
            status(&g, "127.0.0.1", "POST", "/api/boards", &h)
        };
        assert_eq!(post("127.0.0.1:8765", "http://127.0.0.1:8765"), 0);
        assert_eq!(post("localhost:8765", "http://localhost:8765"), 0);
        assert_eq!(post("[::1]:8765", "http://[0::1]:8765"), 0);
        for origin in [
            "http://localhost:8765",
            "http://evil.example",
            "http://127.0.0.1",
            "http://127.0.0.1:8766",
            "https://127.0.0.1:8765",
            "null",
        ] {
            assert_eq!(post("127.0.0.1:8765", origin), 403, "{origin}");
        }
        let get = [
            ("host", "127.0.0.1:8765"),
            ("origin", "http://evil.example"),
        ];
        assert_eq!(
            status(&g, "127.0.0.1", "GET", "/api/boards/x", &get),
            0,
            "reading"
        );
        let host = [("host", "localhost")];
        assert_eq!(status(&g, "127.0.0.1", "POST", "/api/boards", &host), 0);

        let any = Guard::new("0.0.0.0".parse().unwrap(), 8765);
        let post = |origin: &str| {
            let h = [("host", "127.0.0.2:8765"), ("origin", origin)];
            status(&any, "127.0.0.2", "POST", "/api/boards", &h)
        };
        assert_eq!(post("http://127.0.0.2:8765"), 0);
        for origin in ["http://127.0.0.3:8765", "http://10.1.2.3:8765"] {
            assert_eq!(post(origin), 403, "{origin}: another machine's page");
        }
        let on_80 = Guard::new("192.168.1.5".parse().unwrap(), 80);
        let h = [("host", "192.168.1.5"), ("origin", "http://192.168.1.5")];
        assert_eq!(status(&on_80, "192.168.1.5", "POST", "/api/boards", &h), 0);
    }

    #[test]
    fn a_body_or_a_type_other_than_json_is_refused_but_for_the_upload() {
        let g = Guard::new("127.0.0.1".parse().unwrap(), 8765);
        let host = ("host", "127.0.0.1:8765");
        let post = |path: &str, more: &[(&str, &str)]| {
            let headers: Vec<_> = [host].iter().chain(more).copied().collect();
            status(&g, "127.0.0.1", "POST", path, &headers)
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
        assert_eq!(status(&g, "127.0.0.1", "GET", "/api/boards/x", &get), 0);
    }
}
