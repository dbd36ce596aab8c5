//! Where a webhook may point: `https://` to a public address, or also `http://` and private
//! addresses when the server allows them (`FAD_WEBHOOK_ALLOW_PRIVATE`, for tests and home
//! networks). Checked when a webhook is created and again at every delivery, on the addresses
//! the connection will use, so a name re-pointed at an internal address (DNS rebinding) is
//! refused too.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, ToSocketAddrs};

/// The longest accepted URL.
pub const MAX_URL_CHARS: usize = 2000;

/// Why a URL or address is refused, in words for the organiser.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Refused(pub String);

/// A URL that passed the checks that need no network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The parsed URL.
    pub url: url::Url,
    /// Its host (a name or an address literal).
    pub host: String,
    /// Its port (the scheme's default when not given).
    pub port: u16,
}

/// Parses and checks a webhook URL without resolving it.
pub fn parse(raw: &str, allow_private: bool) -> Result<Target, Refused> {
    let refuse = |why: &str| Err(Refused(why.to_owned()));
    if raw.chars().count() > MAX_URL_CHARS {
        return refuse("must be at most 2000 characters");
    }
    let Ok(url) = url::Url::parse(raw.trim()) else {
        return refuse("must be an absolute URL such as https://club.example/hooks/fad");
    };
    match url.scheme() {
        "https" => {}
        "http" if allow_private => {}
        _ => return refuse("must start with https://"),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return refuse("must not carry a user name or password");
    }
    let Some(host) = url.host_str().filter(|h| !h.is_empty()) else {
        return refuse("must name a host");
    };
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_owned();
    let Some(port) = url.port_or_known_default() else {
        return refuse("must name a port");
    };
    if let Ok(ip) = host.parse::<IpAddr>() {
        check_ip(ip, allow_private)?;
    }
    Ok(Target { url, host, port })
}

/// Resolves the target's host and checks every address it gives; returns them, for the
/// connection to use exactly those.
pub fn resolve(target: &Target, allow_private: bool) -> Result<Vec<SocketAddr>, Refused> {
    let addrs: Vec<SocketAddr> = (target.host.as_str(), target.port)
        .to_socket_addrs()
        .map_err(|_| Refused(format!("the host {} cannot be found", target.host)))?
        .collect();
    if addrs.is_empty() {
        return Err(Refused(format!("the host {} cannot be found", target.host)));
    }
    for addr in &addrs {
        check_ip(addr.ip(), allow_private)?;
    }
    Ok(addrs)
}

/// Refuses loopback, private, link-local and other non-public addresses unless allowed.
pub fn check_ip(ip: IpAddr, allow_private: bool) -> Result<(), Refused> {
    if allow_private || is_public(ip) {
        Ok(())
    } else {
        Err(Refused(format!(
            "must not point at a loopback, private or link-local address ({ip})"
        )))
    }
}

/// Whether an address is reachable on the public internet (not loopback, private, link-local,
/// shared, unspecified, multicast or reserved). An IPv6 address that carries an IPv4 address
/// (mapped, compatible, NAT64, 6to4) is judged by that IPv4 address too: the network delivers
/// it there, so `64:ff9b::7f00:1` is 127.0.0.1.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6) && embedded_v4(v6).is_none_or(is_public_v4),
    }
}

/// IPv6 prefixes that carry an IPv4 address, as (network, prefix length, the bit offset of
/// the IPv4 address counted from the low end).
const V4_CARRIERS: [(u128, u8, u32); 4] = [
    (0xffff << 32, 96, 0),      // IPv4-mapped ::ffff:a.b.c.d
    (0, 96, 0),                 // IPv4-compatible ::a.b.c.d (deprecated, still routed)
    (0x0064_ff9b << 96, 96, 0), // NAT64 well-known prefix 64:ff9b::a.b.c.d
    (0x2002 << 112, 16, 80),    // 6to4 2002:AABB:CCDD::/48
];

/// The IPv4 address an IPv6 address carries, if it is in one of [`V4_CARRIERS`].
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    V4_CARRIERS.iter().find_map(|(net, len, offset)| {
        let mask = u128::MAX.checked_shl(128 - u32::from(*len)).unwrap_or(0);
        // Truncation keeps exactly the 32 bits of the IPv4 address.
        #[allow(
            clippy::cast_possible_truncation,
            reason = "the low 32 bits are the address"
        )]
        let v4 = (bits >> offset) as u32;
        (bits & mask == *net).then(|| Ipv4Addr::from(v4))
    })
}

/// IPv4 ranges that are not public, as (network, prefix length).
const NON_PUBLIC_V4: [([u8; 4], u8); 15] = [
    ([0, 0, 0, 0], 8),       // "this network"
    ([10, 0, 0, 0], 8),      // private
    ([100, 64, 0, 0], 10),   // shared (carrier-grade NAT)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link-local (cloud metadata lives here)
    ([172, 16, 0, 0], 12),   // private
    ([192, 0, 0, 0], 24),    // protocol assignments
    ([192, 168, 0, 0], 16),  // private
    ([198, 18, 0, 0], 15),   // benchmarking
    ([224, 0, 0, 0], 4),     // multicast
    ([240, 0, 0, 0], 4),     // reserved, broadcast
    ([192, 0, 2, 0], 24),    // documentation
    ([198, 51, 100, 0], 24), // documentation
    ([203, 0, 113, 0], 24),  // documentation
    ([192, 88, 99, 0], 24),  // 6to4 relay anycast (deprecated)
];

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let bits = u32::from(ip);
    !NON_PUBLIC_V4.iter().any(|(net, len)| {
        let mask = u32::MAX.checked_shl(32 - u32::from(*len)).unwrap_or(0);
        bits & mask == u32::from(Ipv4Addr::from(*net)) & mask
    })
}

/// IPv6 ranges that are not public, as (network, prefix length).
const NON_PUBLIC_V6: [(u128, u8); 8] = [
    (0, 127),                     // unspecified and loopback
    (0x0100 << 112, 64),          // discard-only
    (0xfec0 << 112, 10),          // site-local (deprecated, still routed inside sites)
    (0xfc00 << 112, 7),           // unique local
    (0xfe80 << 112, 10),          // link-local
    (0xff00 << 112, 8),           // multicast
    (0x0064_ff9b_0001 << 80, 48), // local-use NAT64
    (0x2001_0db8 << 96, 32),      // documentation
];

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let bits = u128::from(ip);
    !NON_PUBLIC_V6.iter().any(|(net, len)| {
        let mask = u128::MAX.checked_shl(128 - u32::from(*len)).unwrap_or(0);
        bits & mask == net & mask
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED))
    }

    #[test]
    fn internal_addresses_are_not_public() {
        for s in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            // IPv4-compatible, NAT64 and 6to4 around internal IPv4 addresses.
            "::127.0.0.1",
            "::10.0.0.1",
            "::169.254.169.254",
            "64:ff9b::127.0.0.1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b::192.168.0.1",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2002:a9fe:a9fe:1::1",
            // Site-local, discard-only, the 6to4 relay and local-use NAT64.
            "fec0::1",
            "feff::1",
            "100::1",
            "100::ffff:ffff:ffff:ffff",
            "192.88.99.1",
            "64:ff9b:1::8.8.8.8",
            "::ffff:192.88.99.1",
        ] {
            assert!(!is_public(ip(s)), "{s} counted as public");
        }
    }

    #[test]
    fn ordinary_addresses_are_public() {
        for s in [
            "1.1.1.1",
            "172.32.0.1",
            "8.8.8.8",
            "2a00:1450::1",
            "::ffff:8.8.8.8",
            "64:ff9b::8.8.8.8",
            "::8.8.8.8",
            "2002:808:808::1",
            "100:0:0:1::1",
        ] {
            assert!(is_public(ip(s)), "{s} counted as internal");
        }
    }

    #[test]
    fn urls_must_be_https_to_a_public_host_unless_allowed() {
        assert!(parse("https://club.example/hook", false).is_ok());
        assert!(parse("http://club.example/hook", false).is_err());
        assert!(parse("http://club.example/hook", true).is_ok());
        assert!(parse("https://127.0.0.1/hook", false).is_err());
        assert!(parse("https://[::1]:8443/hook", false).is_err());
        assert!(parse("https://127.0.0.1/hook", true).is_ok());
        assert!(parse("https://user:pw@club.example/", false).is_err());
        assert!(parse("ftp://club.example/", true).is_err());
        assert!(parse("club.example/hook", false).is_err());
    }

    #[test]
    fn localhost_resolves_to_a_refused_address() {
        let target = parse("https://localhost:9/hook", false);
        assert!(target.is_ok());
        if let Ok(target) = target {
            assert!(resolve(&target, false).is_err());
            assert!(resolve(&target, true).is_ok());
        }
    }
}
