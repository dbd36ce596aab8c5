//! Requests HTTP cannot parse. actix-http answers them itself, before any application code,
//! with an empty body and a closed connection (README, "API documentation"); these tests pin
//! that behaviour so the README stays true, and check the server keeps serving.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::common::TestApp;

/// Sends `raw` on a new connection and returns everything the server sends back until it
/// closes the connection.
fn exchange(app: &TestApp, raw: &[u8]) -> String {
    let address = app.base_url().trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    // The server may answer and close before it read everything (an oversized head).
    let _ = stream.write_all(raw);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn status_line(answer: &str) -> &str {
    answer.lines().next().unwrap_or_default()
}

fn answer_body(answer: &str) -> &str {
    answer.split_once("\r\n\r\n").map_or("", |(_, body)| body)
}

both_backends! {
    fn unparsable_requests_get_an_empty_400_or_431_and_the_server_keeps_serving(app: &TestApp) {
        // Arrange
        let huge = format!(
            "GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Padding: {}\r\n\r\n",
            "a".repeat(1024 * 1024)
        );
        let many: String = (0..100).map(|i| format!("X-H{i}: v\r\n")).collect();
        let many = format!("GET /health HTTP/1.1\r\nHost: x\r\n{many}\r\n");

        // Act
        let cases = [
            ("bad request line", exchange(app, b"GARBAGE\r\n\r\n"), "HTTP/1.1 400"),
            ("bad version", exchange(app, b"GET /health HTTP/9.9\r\nHost: x\r\n\r\n"), "HTTP/1.1 400"),
            ("bad header", exchange(app, b"GET /health HTTP/1.1\r\nHost x\r\n\r\n"), "HTTP/1.1 400"),
            ("bad content-length", exchange(app, b"POST /health HTTP/1.1\r\nHost: x\r\nContent-Length: nine\r\n\r\n"), "HTTP/1.1 400"),
            ("1 MB header", exchange(app, huge.as_bytes()), "HTTP/1.1 431"),
            ("100 headers", exchange(app, many.as_bytes()), "HTTP/1.1 431"),
        ];

        // Assert
        for (case, answer, status) in cases {
            assert!(status_line(&answer).starts_with(status), "{case}: {answer:?}");
            assert_eq!(answer_body(&answer), "", "{case}: actix-http sends no body");
        }
        let health = exchange(app, b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assert!(status_line(&health).starts_with("HTTP/1.1 200"), "{health}");
    }
}
