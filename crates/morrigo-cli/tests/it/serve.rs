//! `morrigo serve`: the playground over a real socket (the API itself is
//! tested route by route in crates/morrigo-web/tests/it/api.rs).

use crate::common::{morrigo, scratch_dir};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};

/// One HTTP/1.1 request; the status line and the body.
fn http(addr: &str, request: &str) -> (String, String) {
    let mut s = TcpStream::connect(addr).expect("the server accepts connections");
    s.write_all(request.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (
        head.lines().next().unwrap_or_default().to_string(),
        body.to_string(),
    )
}

#[test]
fn serve_prints_its_address_and_answers_the_page_and_the_api() {
    let dir = scratch_dir("rules");
    std::fs::write(
        dir.join("mine.yaml"),
        "extends: three-mens-morris\nname: mine\ntitle: Mine\n",
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(["serve", "--port", "0"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("morrigo serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("morrigo playground: http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("the first line names the address: {line}"))
        .to_string();
    let (status, page) = http(
        &addr,
        &format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    let (list_status, list) = http(
        &addr,
        &format!("GET /api/rulesets HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    );
    // A DNS name rebound to this machine is not this server's address.
    let (rebound, _) = http(
        &addr,
        "GET /api/rulesets HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n",
    );
    let body = r#"{"ruleset":{"file":"mine.yaml"},"record":"b2 a1","move":"b2"}"#;
    let (apply_status, apply) = http(
        &addr,
        &format!(
            "POST /api/apply HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(status.contains("200"), "{status}");
    assert!(page.contains("/app.js"));
    assert!(list_status.contains("200"), "{list_status}");
    assert!(list.contains(r#""files":["mine.yaml"]"#), "{list}");
    assert!(rebound.contains("403"), "{rebound}");
    // b2 is taken: refused, with the reason.
    assert!(apply_status.contains("200"), "{apply_status}");
    assert!(apply.contains(r#""accepted":false"#), "{apply}");
    assert!(apply.contains("b2"), "{apply}");
}

/// `morrigo serve --db DIR` on a database of `morrigo solve --db`: the
/// start of Three Men's Morris is a first-player win, and the page is
/// told so, with the value of each first move.
#[test]
fn serve_with_a_database_sends_the_values_of_the_position_and_its_moves() {
    let db = scratch_dir("serve-db");
    let solved = morrigo(&["solve", "three-mens-morris", "--db", db.to_str().unwrap()]);
    assert_eq!(solved.status.code(), Some(0), "{solved:?}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(["serve", "--port", "0", "--db"])
        .arg(&db)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("morrigo serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("morrigo playground: http://")
        .and_then(|a| a.strip_suffix('/'))
        .unwrap_or_else(|| panic!("the first line names the address: {line}"))
        .to_string();
    let body = r#"{"ruleset":{"builtin":"three-mens-morris"},"record":""}"#;
    let (status, pos) = http(
        &addr,
        &format!(
            "POST /api/position HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        ),
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(status.contains("200"), "{status}");
    assert!(
        pos.contains(r#""exact":{"error":null,"value":{"outcome":"win","#),
        "{pos}"
    );
    assert!(
        pos.contains(r#""text":"b2","to":"b2","value":{"outcome":"win","#),
        "{pos}"
    );
    let missing = morrigo(&["serve", "--port", "0", "--db", "no/such/db"]);
    assert_eq!(missing.status.code(), Some(1));
    let err = String::from_utf8_lossy(&missing.stderr);
    assert!(
        err.contains("cannot open the database directory `no/such/db`"),
        "{err}"
    );
}

#[test]
fn serve_refuses_a_missing_directory() {
    let out = morrigo(&["serve", "no/such/dir", "--port", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`no/such/dir` is not a directory"), "{err}");
}

#[test]
fn serve_on_a_port_in_use_is_an_error_naming_it() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = morrigo(&["serve", "--port", &port]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("cannot serve on 127.0.0.1:{port}")),
        "{err}"
    );
}

#[test]
fn serve_on_an_address_other_machines_reach_warns_what_it_exposes() {
    let dir = scratch_dir("exposed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_morrigo"))
        .args(["serve", "--host", "0.0.0.0", "--port", "0"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("morrigo serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(
        line.starts_with("morrigo playground: http://0.0.0.0:"),
        "{line}"
    );
    assert!(err.starts_with("warning: serving on 0.0.0.0:"), "{err}");
    assert!(err.contains("no authentication"), "{err}");
    assert!(
        err.contains(&format!(
            "reads and writes the ruleset files in `{}`",
            dir.display()
        )),
        "{err}"
    );
}
