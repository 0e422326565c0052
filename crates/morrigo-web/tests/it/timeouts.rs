//! Slow and idle connections over a real socket: a half-sent request, an
//! idle kept-alive connection and a half-sent body are closed within the
//! bound (they used to be held forever).

use morrigo_web::{serve_on, AppState, Timeouts};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

const BOUND: Duration = Duration::from_millis(500);

/// A server with short timeouts; dropping the sender stops it.
async fn server() -> (SocketAddr, tokio::sync::oneshot::Sender<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let timeouts = Timeouts {
        header: BOUND,
        body: BOUND,
    };
    tokio::spawn(serve_on(listener, AppState::new(None), timeouts, async {
        let _ = stopped.await;
    }));
    (addr, stop)
}

/// Everything the server sends until it closes the connection, and how
/// long that took (panics past `limit`: the connection was held).
async fn until_closed(s: &mut TcpStream, limit: Duration) -> (String, Duration) {
    let start = Instant::now();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(limit.saturating_sub(start.elapsed()), s.read(&mut buf)).await {
            Err(_) => panic!(
                "the connection is still open after {:?}; got {:?}",
                start.elapsed(),
                String::from_utf8_lossy(&got)
            ),
            Ok(Ok(0)) | Ok(Err(_)) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
    (String::from_utf8_lossy(&got).into_owned(), start.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_request_is_closed() {
    let (addr, _stop) = server().await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/rulesets HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").as_bytes())
        .await
        .unwrap();
    let (_, took) = until_closed(&mut s, BOUND * 6).await;
    assert!(took >= BOUND / 2, "closed after {took:?}, before the bound");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_kept_alive_connection_is_closed() {
    let (addr, _stop) = server().await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(format!("GET /api/openapi.yaml HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
        .await
        .unwrap();
    let (answer, _) = until_closed(&mut s, BOUND * 6).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_body_is_answered_408_and_closed() {
    let (addr, _stop) = server().await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(
        format!(
            "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"ruleset\":"
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let (answer, took) = until_closed(&mut s, BOUND * 6).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("BODY_TIMEOUT"), "{answer}");
    assert!(
        took >= BOUND / 2,
        "answered after {took:?}, before the bound"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_request_is_answered_over_the_socket() {
    let (addr, _stop) = server().await;
    let mut s = TcpStream::connect(addr).await.unwrap();
    let body = r#"{"ruleset":{"builtin":"three-mens-morris"}}"#;
    s.write_all(
        format!(
            "POST /api/check HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
    .await
    .unwrap();
    let (answer, _) = until_closed(&mut s, Duration::from_secs(20)).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""ok":true"#), "{answer}");
}
