//! The server's connections: how many at once, how long a client may take
//! to send a request, which `Host` and `Origin` are answered, and how the
//! server stops.
//!
//! A local server is reached by every page the user's browser opens, so
//! the bounds here hold whatever a client does:
//! - at most [`MAX_CONNECTIONS`] connections at once (more wait in the
//!   kernel's queue), each holding at most [`READ_BUFFER`] read ahead and
//!   one body of at most [`MAX_BODY`]: about 90 MB in all whatever the
//!   clients send (300 clients holding unfinished 1 MB bodies: 86-91 MB);
//! - a request's headers must arrive within [`HEADER_TIME`], its body
//!   within [`BODY_TIME`] (a client that trickles is cut off);
//! - only requests whose `Host` names this server by an address
//!   (`127.0.0.1:PORT`, `[::1]:PORT`, any IP literal) or `localhost:PORT`
//!   are answered, and only from pages of those origins: a page on another
//!   site, or one that rebinds its own name to 127.0.0.1, is refused 403;
//! - on SIGINT or SIGTERM the server stops taking connections, lets those
//!   open finish for at most [`SHUTDOWN_TIME`], then exits.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use anyhow::Result;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio::task::JoinSet;

/// The most connections served at once.
pub const MAX_CONNECTIONS: usize = 64;

/// The largest request body.
pub const MAX_BODY: usize = 1 << 20;

/// The most bytes read ahead from a connection: room for any request's
/// headers (with hyper's own default, about 400 KB, 64 connections holding
/// unfinished 1 MB bodies took 105 MB, against 86-91 MB).
const READ_BUFFER: usize = 64 << 10;

/// The longest a client may take to send a request's headers.
const HEADER_TIME: Duration = Duration::from_secs(10);

/// The longest a client may take to send a request's body.
const BODY_TIME: Duration = Duration::from_secs(10);

/// The longest the server waits for open connections once told to stop.
const SHUTDOWN_TIME: Duration = Duration::from_secs(3);

/// Serves `app` on `listener` until SIGINT or SIGTERM, within the bounds in
/// the [module](self) docs.
pub async fn serve(listener: TcpListener, app: Router) -> Result<()> {
    let port = listener.local_addr()?.port();
    let app = app.layer(axum::middleware::from_fn_with_state(port, guard));
    let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
    let (stop, stopping) = tokio::sync::watch::channel(());
    let mut connections = JoinSet::new();
    let signal = stopped();
    tokio::pin!(signal);
    loop {
        let slot = tokio::select! {
            () = &mut signal => break,
            slot = Arc::clone(&slots).acquire_owned() => slot.expect("the slots are never closed"),
        };
        let stream = tokio::select! {
            () = &mut signal => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors, or a connection reset before it
                // was taken: wait a little rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let service = hyper_util::service::TowerToHyperService::new(app.clone());
        let mut stopping = stopping.clone();
        connections.spawn(async move {
            let _slot = slot;
            let connection = hyper::server::conn::http1::Builder::new()
                .timer(hyper_util::rt::TokioTimer::new())
                .header_read_timeout(HEADER_TIME)
                .max_buf_size(READ_BUFFER)
                .serve_connection(hyper_util::rt::TokioIo::new(stream), service);
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stopping.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = stop.send(());
    // Connections still open past the deadline are dropped, with whatever
    // their clients were doing.
    let _ = tokio::time::timeout(SHUTDOWN_TIME, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    Ok(())
}

/// Once SIGINT or SIGTERM comes.
async fn stopped() {
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        .expect("SIGTERM can be caught");
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}

/// Refuses a request whose `Host` or `Origin` is not this server's, and
/// reads its body whole within [`BODY_TIME`] and [`MAX_BODY`].
async fn guard(State(port): State<u16>, request: Request, next: Next) -> Response {
    if let Err(refusal) = allowed(request.headers(), port) {
        return refuse(StatusCode::FORBIDDEN, refusal);
    }
    let (parts, body) = request.into_parts();
    let bytes = match tokio::time::timeout(BODY_TIME, axum::body::to_bytes(body, MAX_BODY)).await {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return refuse(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("a request body of more than {MAX_BODY} bytes"),
            );
        }
        Err(_) => {
            return refuse(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the request body took longer than {} s to arrive",
                    BODY_TIME.as_secs()
                ),
            );
        }
    };
    next.run(Request::from_parts(parts, Body::from(bytes)))
        .await
}

fn refuse(status: StatusCode, error: String) -> Response {
    let mut response = (status, axum::Json(json!({ "error": error }))).into_response();
    if status == StatusCode::PAYLOAD_TOO_LARGE || status == StatusCode::REQUEST_TIMEOUT {
        response.headers_mut().insert(
            header::CONNECTION,
            header::HeaderValue::from_static("close"),
        );
    }
    response
}

/// Whether a request with `headers` may be answered by the server on
/// `port`: its `Host` names it, and its `Origin`, if any, is a page of it.
fn allowed(headers: &HeaderMap, port: u16) -> Result<(), String> {
    let host = headers
        .get(header::HOST)
        .and_then(|host| host.to_str().ok())
        .ok_or("a request must name its Host")?;
    if !names_us(host, port) {
        return Err(format!(
            "Host {host:?} is not this server: reach it as 127.0.0.1:{port} or localhost:{port}"
        ));
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("?");
        let ours = origin
            .strip_prefix("http://")
            .is_some_and(|host| names_us(host, port));
        if !ours {
            return Err(format!(
                "Origin {origin:?} is another site's: only this server's own page may call it"
            ));
        }
    }
    Ok(())
}

/// Whether `host` (`NAME[:PORT]`) names this server on `port`: `localhost`
/// or an IP address, with the port or none. A name that is not an address
/// (other than `localhost`) may be anyone's name rebound to 127.0.0.1.
fn names_us(host: &str, port: u16) -> bool {
    let (name, given) = match host.parse::<SocketAddr>() {
        Ok(address) => return address.port() == port,
        Err(_) => match host.rsplit_once(':') {
            Some((name, given)) if !name.contains(':') || name.ends_with(']') => {
                (name, Some(given))
            }
            _ => (host, None),
        },
    };
    let port_ok = given.is_none_or(|given| given.parse::<u16>() == Ok(port));
    let name = name.trim_start_matches('[').trim_end_matches(']');
    port_ok && (name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok())
}

#[cfg(test)]
mod tests {
    use super::names_us;

    #[test]
    fn only_addresses_and_localhost_on_our_port_name_us() {
        for host in [
            "127.0.0.1:8088",
            "127.0.0.1",
            "localhost:8088",
            "LOCALHOST",
            "[::1]:8088",
            "[::1]",
            "10.1.2.3:8088",
        ] {
            assert!(names_us(host, 8088), "{host}");
        }
        for host in [
            "evil.example",
            "evil.example:8088",
            "127.0.0.1:80",
            "localhost:8089",
            "localhost.evil.example:8088",
            "[::1]:80",
            "127.0.0.1.nip.io:8088",
            "",
            ":8088",
        ] {
            assert!(!names_us(host, 8088), "{host}");
        }
    }
}
