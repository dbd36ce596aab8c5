//! Configuration: the command line (clap) and its environment variables, resolved and validated
//! once at start into [`Config`]. Precedence is flag > environment > default; no file is needed.
//! Secrets live in [`JwtSecret`], whose `Debug` is redacted.

use crate::db::DatabaseUrl;
use crate::quota::Quotas;
use crate::telemetry::LogFormat;
use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use std::fmt;
use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Minimum length of a configured JWT secret, in bytes (HS256 wants at least the hash size).
pub const MIN_JWT_SECRET_BYTES: usize = 32;

/// Name of the file in the data directory that holds a generated JWT secret.
pub const JWT_SECRET_FILE: &str = "jwt_secret";

/// Default lifetime of access tokens in seconds (`FAD_JWT_LIFETIME_SECS`): 12 hours.
pub const DEFAULT_JWT_LIFETIME_SECS: i64 = 12 * 3600;

/// Default request body limit in bytes (`FAD_BODY_LIMIT`).
pub const DEFAULT_BODY_LIMIT: usize = 256 * 1024;

/// fad-campaign: campaigns, forces, battles and scenarios for the Fast And Dirty wargame.
#[derive(Debug, Parser)]
#[command(name = "fad-campaign", version, about)]
pub struct Cli {
    /// Log output format.
    #[arg(
        long,
        env = "FAD_LOG_FORMAT",
        value_enum,
        default_value = "text",
        global = true
    )]
    pub log_format: LogFormat,

    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands of `fad-campaign`.
#[derive(Debug, Subcommand)]
#[allow(
    clippy::large_enum_variant,
    reason = "parsed once at start; boxing `serve`'s options would buy nothing"
)]
pub enum Command {
    /// Apply pending migrations, then serve HTTP until SIGINT or SIGTERM.
    Serve(ServeArgs),
    /// Apply pending database migrations and exit.
    Migrate(DbArgs),
    /// Print the OpenAPI document (JSON) to stdout.
    Openapi,
    /// Write one campaign and everything it owns as a versioned JSON document (a backup, or a
    /// move to another database).
    Export(ExportArgs),
    /// Read a document written by `export` into this database, in one transaction.
    Import(ImportArgs),
    /// Set an account's password, read from the first line of stdin (for accounts created by
    /// `import`, or a forgotten password).
    SetPassword(SetPasswordArgs),
}

/// Options of `fad-campaign set-password`.
#[derive(Debug, Clone, Args)]
pub struct SetPasswordArgs {
    /// The account's name (case-insensitive).
    #[arg(long)]
    pub username: String,

    /// Database location.
    #[command(flatten)]
    pub db: DbArgs,
}

/// Options of `fad-campaign export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    /// The id of the campaign to export.
    #[arg(long = "campaign", value_name = "ID")]
    pub campaign_id: String,

    /// File to write (replaced only once the export is complete). Default: stdout.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Database location.
    #[command(flatten)]
    pub db: DbArgs,
}

/// Options of `fad-campaign import`.
#[derive(Debug, Clone, Args)]
pub struct ImportArgs {
    /// File to read. Default: stdin.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,

    /// Replace a campaign with the same id (deleting it and everything it owns first, in the
    /// same transaction). Without this flag such an import is refused.
    #[arg(long)]
    pub replace: bool,

    /// Database location.
    #[command(flatten)]
    pub db: DbArgs,
}

/// Where the data lives: shared by `serve` and `migrate`.
#[derive(Debug, Clone, Args)]
pub struct DbArgs {
    /// Database URL: `postgres://…` or `sqlite://PATH`. Default: a SQLite file in the data
    /// directory.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true)]
    pub database_url: Option<String>,

    /// Directory for the default SQLite database and the generated JWT secret.
    #[arg(long, env = "FAD_DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,
}

/// Options of `fad-campaign serve`.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port (the bound address is printed).
    #[arg(long, env = "FAD_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,

    /// Database location.
    #[command(flatten)]
    pub db: DbArgs,

    /// HS256 secret for access tokens, at least 32 bytes. Default: generated once and kept in
    /// `<data dir>/jwt_secret`.
    #[arg(long, env = "FAD_JWT_SECRET", hide_env_values = true)]
    pub jwt_secret: Option<String>,

    /// Comma-separated origins allowed to call the API from a browser (`*` for any).
    #[arg(long, env = "FAD_CORS_ORIGINS", value_delimiter = ',')]
    pub cors_origins: Vec<String>,

    /// Largest accepted request body, in bytes; bigger bodies get 413.
    #[arg(long, env = "FAD_BODY_LIMIT", default_value_t = DEFAULT_BODY_LIMIT)]
    pub body_limit: usize,

    /// Maximum number of pooled database connections.
    #[arg(long, env = "FAD_DB_POOL_SIZE", default_value_t = 8)]
    pub db_pool_size: u32,

    /// Seconds to wait for a database connection before answering 503.
    #[arg(long, env = "FAD_DB_TIMEOUT_SECS", default_value_t = 3)]
    pub db_timeout_secs: u64,

    /// HTTP worker threads. Default: one per CPU core.
    #[arg(long, env = "FAD_WORKERS")]
    pub workers: Option<usize>,

    /// Lifetime of access tokens, in seconds (default 12 hours).
    #[arg(long, env = "FAD_JWT_LIFETIME_SECS", default_value_t = DEFAULT_JWT_LIFETIME_SECS)]
    pub jwt_lifetime_secs: i64,

    /// Login and registration attempts per client address and minute (sustained rate).
    #[arg(long, env = "FAD_AUTH_RATE_PER_MINUTE", default_value_t = 10)]
    pub auth_rate_per_minute: u32,

    /// Login and registration attempts a client address may make in a burst.
    #[arg(long, env = "FAD_AUTH_RATE_BURST", default_value_t = 10)]
    pub auth_rate_burst: u32,

    /// Live battle-page streams the server holds open at once (more: 503; the page then
    /// polls).
    #[arg(long, env = "FAD_MAX_STREAMS", default_value_t = 5000)]
    pub max_streams: usize,

    /// Live battle-page streams one account may hold open (more: 429; the page then polls).
    #[arg(long, env = "FAD_MAX_STREAMS_PER_ACCOUNT", default_value_t = 8)]
    pub max_streams_per_account: usize,

    /// Live battle-page streams one client address (an IPv6 /64) may hold open (more: 429).
    #[arg(long, env = "FAD_MAX_STREAMS_PER_ADDRESS", default_value_t = 32)]
    pub max_streams_per_address: usize,

    /// Most forces a campaign may have, archived ones included (more: 422).
    #[arg(long, env = "FAD_MAX_FORCES_PER_CAMPAIGN", default_value_t = Quotas::default().forces_per_campaign)]
    pub max_forces_per_campaign: u32,

    /// Most campaigns an account may create (more: 422).
    #[arg(long, env = "FAD_MAX_CAMPAIGNS_PER_ACCOUNT", default_value_t = Quotas::default().campaigns_per_account)]
    pub max_campaigns_per_account: u32,

    /// Most battles a campaign may create in any 24 hours (more: 429 with Retry-After).
    #[arg(long, env = "FAD_MAX_BATTLES_PER_CAMPAIGN_PER_DAY", default_value_t = Quotas::default().battles_per_campaign_per_day)]
    pub max_battles_per_campaign_per_day: u32,

    /// Most one-shot scenarios an account may generate in any hour (more: 429 with
    /// Retry-After).
    #[arg(long, env = "FAD_MAX_SCENARIOS_PER_ACCOUNT_PER_HOUR", default_value_t = Quotas::default().scenarios_per_account_per_hour)]
    pub max_scenarios_per_account_per_hour: u32,

    /// Most one-shot scenarios one client address may generate signed out in any hour (more:
    /// 429 with Retry-After).
    #[arg(long, env = "FAD_MAX_ONESHOTS_PER_ADDRESS_PER_HOUR", default_value_t = Quotas::default().anonymous_scenarios_per_address_per_hour)]
    pub max_oneshots_per_address_per_hour: u32,

    /// Most house rulesets an account may hold, archived ones included (more: 422).
    #[arg(long, env = "FAD_MAX_RULESETS_PER_ACCOUNT", default_value_t = Quotas::default().rulesets_per_account)]
    pub max_rulesets_per_account: u32,

    /// Largest house-ruleset document in bytes, as JSON (more: 422).
    #[arg(long, env = "FAD_MAX_RULESET_BYTES", default_value_t = Quotas::default().ruleset_bytes)]
    pub max_ruleset_bytes: u32,

    /// Days a scenario generated signed out lives (unless a signed-in person keeps it); after
    /// that it answers 404 and is deleted.
    #[arg(long, env = "FAD_ONESHOT_TTL_DAYS", default_value_t = 30)]
    pub oneshot_ttl_days: u32,

    /// Seconds between sweeps that delete expired signed-out scenarios.
    #[arg(
        long,
        env = "FAD_ONESHOT_SWEEP_SECS",
        default_value_t = 3600,
        hide = true
    )]
    pub oneshot_sweep_secs: u64,

    /// The address people reach this service at (e.g. `https://fad.example.org`), used to build
    /// the links it hands out (invitations, share links). Without it links are paths
    /// (`/join/K7M2-QX9P`) for the client to put after the address it called. When it is
    /// `https://`, the web app's session cookie is marked `Secure`.
    #[arg(long, env = "FAD_PUBLIC_URL")]
    pub public_url: Option<String>,

    /// Diagnostics: answer every request with the SQL statements and transactions it ran
    /// (`x-fad-db-statements`, `x-fad-db-transactions`). For tests and profiling only.
    #[arg(long, env = "FAD_COUNT_DB_STATEMENTS", hide = true)]
    pub count_db_statements: bool,

    /// Webhook delivery.
    #[command(flatten)]
    pub webhooks: WebhookArgs,
}

/// Options of webhook delivery (`serve` only).
#[derive(Debug, Clone, Args)]
pub struct WebhookArgs {
    /// Let webhooks point at loopback, private and link-local addresses, and use `http://`
    /// (tests, home networks). Off by default: a webhook could otherwise probe the server's own
    /// network.
    #[arg(long, env = "FAD_WEBHOOK_ALLOW_PRIVATE")]
    pub webhook_allow_private: bool,

    /// How often the delivery worker looks for due deliveries, in milliseconds.
    #[arg(long, env = "FAD_WEBHOOK_POLL_MS", default_value_t = 1000)]
    pub webhook_poll_ms: u64,

    /// How long a receiver may take to answer, in seconds.
    #[arg(long, env = "FAD_WEBHOOK_TIMEOUT_SECS", default_value_t = 10)]
    pub webhook_timeout_secs: u64,

    /// Seconds to wait before each retry of a failed delivery, comma-separated; after the last
    /// the delivery is given up. The default spans about 27 hours.
    #[arg(long, env = "FAD_WEBHOOK_RETRY_SECS", value_delimiter = ',',
          default_values_t = crate::webhooks::DEFAULT_RETRY_SECS)]
    pub webhook_retry_secs: Vec<u64>,

    /// Most webhooks per campaign (disabled ones included).
    #[arg(long, env = "FAD_MAX_WEBHOOKS_PER_CAMPAIGN", default_value_t = 10)]
    pub max_webhooks_per_campaign: u32,
}

/// The JWT signing secret. `Debug` never shows the bytes.
#[derive(Clone)]
pub struct JwtSecret(Arc<[u8]>);

impl JwtSecret {
    /// Wraps secret bytes, refusing anything shorter than [`MIN_JWT_SECRET_BYTES`].
    pub fn new(bytes: &[u8], origin: &str) -> anyhow::Result<Self> {
        if bytes.len() < MIN_JWT_SECRET_BYTES {
            bail!(
                "{origin} is {} bytes long; it must be at least {MIN_JWT_SECRET_BYTES} bytes \
                 (generate one with `openssl rand -hex 32`)",
                bytes.len()
            );
        }
        Ok(Self(Arc::from(bytes)))
    }

    /// The raw secret bytes, for building signing and verifying keys.
    pub fn expose(&self) -> &[u8] {
        &self.0
    }
}

impl fmt::Debug for JwtSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JwtSecret(<redacted>)")
    }
}

/// Validated settings of a running server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub bind: SocketAddr,
    /// Where the database is.
    pub database_url: DatabaseUrl,
    /// Data directory (default SQLite file, generated secret).
    pub data_dir: PathBuf,
    /// Token signing secret.
    pub jwt_secret: JwtSecret,
    /// Allowed CORS origins; empty means no cross-origin access, `["*"]` means any.
    pub cors_origins: Vec<String>,
    /// Largest accepted request body in bytes.
    pub body_limit: usize,
    /// Maximum pooled connections.
    pub db_pool_size: u32,
    /// Connection checkout timeout in seconds.
    pub db_timeout_secs: u64,
    /// HTTP worker threads, if not one per core.
    pub workers: Option<usize>,
    /// Access token lifetime in seconds.
    pub jwt_lifetime_secs: i64,
    /// Login/registration attempts per address and minute.
    pub auth_rate_per_minute: u32,
    /// Login/registration burst per address.
    pub auth_rate_burst: u32,
    /// Whether responses carry their SQL statement and transaction counts.
    pub count_db_statements: bool,
    /// Abuse quotas.
    pub quotas: Quotas,
    /// Caps on open live streams.
    pub streams: crate::app::battles::watch::StreamLimits,
    /// Lifetime of a scenario generated signed out, in days.
    pub oneshot_ttl_days: u32,
    /// Seconds between sweeps of expired signed-out scenarios.
    pub oneshot_sweep_secs: u64,
    /// The public address links start with, without a trailing `/`; empty for paths only.
    pub public_url: String,
    /// Webhook delivery settings.
    pub webhooks: crate::webhooks::Settings,
}

impl Config {
    /// Resolves and validates `serve` options; may create the data directory and the generated
    /// JWT secret.
    pub fn from_serve_args(args: ServeArgs) -> anyhow::Result<Self> {
        let database_url = args.db.database_url()?;
        if args.body_limit == 0 {
            bail!("FAD_BODY_LIMIT (--body-limit) must be greater than 0");
        }
        if args.db_pool_size == 0 {
            bail!("FAD_DB_POOL_SIZE (--db-pool-size) must be greater than 0");
        }
        if args.db_timeout_secs == 0 {
            bail!("FAD_DB_TIMEOUT_SECS (--db-timeout-secs) must be greater than 0");
        }
        if args.jwt_lifetime_secs <= 0 {
            bail!("FAD_JWT_LIFETIME_SECS (--jwt-lifetime-secs) must be greater than 0");
        }
        if args.auth_rate_per_minute == 0 || args.auth_rate_burst == 0 {
            bail!(
                "FAD_AUTH_RATE_PER_MINUTE and FAD_AUTH_RATE_BURST (--auth-rate-per-minute, \
                 --auth-rate-burst) must be greater than 0"
            );
        }
        let quotas = Quotas {
            forces_per_campaign: args.max_forces_per_campaign,
            campaigns_per_account: args.max_campaigns_per_account,
            battles_per_campaign_per_day: args.max_battles_per_campaign_per_day,
            scenarios_per_account_per_hour: args.max_scenarios_per_account_per_hour,
            anonymous_scenarios_per_address_per_hour: args.max_oneshots_per_address_per_hour,
            rulesets_per_account: args.max_rulesets_per_account,
            ruleset_bytes: args.max_ruleset_bytes,
        };
        if quotas.forces_per_campaign == 0
            || quotas.campaigns_per_account == 0
            || quotas.battles_per_campaign_per_day == 0
            || quotas.scenarios_per_account_per_hour == 0
            || quotas.anonymous_scenarios_per_address_per_hour == 0
            || quotas.rulesets_per_account == 0
            || quotas.ruleset_bytes == 0
        {
            bail!("the FAD_MAX_* quotas (--max-*) must be greater than 0");
        }
        let streams = crate::app::battles::watch::StreamLimits {
            total: args.max_streams,
            per_account: args.max_streams_per_account,
            per_address: args.max_streams_per_address,
        };
        if streams.total == 0 || streams.per_account == 0 || streams.per_address == 0 {
            bail!(
                "FAD_MAX_STREAMS, FAD_MAX_STREAMS_PER_ACCOUNT and FAD_MAX_STREAMS_PER_ADDRESS \
                 (--max-streams*) must be greater than 0"
            );
        }
        if args.oneshot_ttl_days == 0 || args.oneshot_ttl_days > 3650 {
            bail!("FAD_ONESHOT_TTL_DAYS (--oneshot-ttl-days) must be between 1 and 3650");
        }
        if args.oneshot_sweep_secs == 0 {
            bail!("FAD_ONESHOT_SWEEP_SECS (--oneshot-sweep-secs) must be greater than 0");
        }
        let webhooks = crate::webhooks::Settings::from_args(&args.webhooks)?;
        if args.workers == Some(0) {
            bail!("FAD_WORKERS (--workers) must be greater than 0");
        }
        let cors_origins = parse_cors_origins(&args.cors_origins)?;
        let public_url = parse_public_url(args.public_url.as_deref())?;
        let webhooks = crate::webhooks::Settings {
            public_url: public_url.clone(),
            ..webhooks
        };
        // An empty value (e.g. `FAD_JWT_SECRET=` from compose) means "not set".
        let jwt_secret = match args.jwt_secret.as_deref().filter(|s| !s.is_empty()) {
            Some(secret) => JwtSecret::new(secret.as_bytes(), "FAD_JWT_SECRET (--jwt-secret)")?,
            None => load_or_generate_secret(&args.db.data_dir)?,
        };
        Ok(Self {
            bind: args.bind,
            database_url,
            data_dir: args.db.data_dir,
            jwt_secret,
            cors_origins,
            body_limit: args.body_limit,
            db_pool_size: args.db_pool_size,
            db_timeout_secs: args.db_timeout_secs,
            workers: args.workers,
            jwt_lifetime_secs: args.jwt_lifetime_secs,
            auth_rate_per_minute: args.auth_rate_per_minute,
            auth_rate_burst: args.auth_rate_burst,
            count_db_statements: args.count_db_statements,
            quotas,
            streams,
            oneshot_ttl_days: args.oneshot_ttl_days,
            oneshot_sweep_secs: args.oneshot_sweep_secs,
            public_url,
            webhooks,
        })
    }

    /// A link to `path` (which starts with `/`) for people to open: after the public address
    /// when one is configured, else the path alone.
    pub fn link(&self, path: &str) -> String {
        format!("{}{path}", self.public_url)
    }
}

/// Checks `FAD_PUBLIC_URL`: an `http(s)://` address without query or fragment; an empty value
/// means "not set". Returns it without a trailing `/`.
fn parse_public_url(value: Option<&str>) -> anyhow::Result<String> {
    let Some(value) = value.map(str::trim).filter(|v| !v.is_empty()) else {
        return Ok(String::new());
    };
    let rest = value
        .strip_prefix("https://")
        .or_else(|| value.strip_prefix("http://"));
    match rest {
        Some(rest) if !rest.is_empty() && !rest.contains(['?', '#', ' ']) => {
            Ok(value.trim_end_matches('/').to_owned())
        }
        _ => bail!(
            "FAD_PUBLIC_URL (--public-url) must be an http:// or https:// address without a query, \
             e.g. https://fad.example.org"
        ),
    }
}

impl Config {
    /// Whether the web app is served over HTTPS (the session cookie is then `Secure`).
    pub fn serves_https(&self) -> bool {
        self.public_url.starts_with("https://")
    }
}

impl DbArgs {
    /// The configured database URL, or the default SQLite file in the data directory.
    pub fn database_url(&self) -> anyhow::Result<DatabaseUrl> {
        match &self.database_url {
            Some(url) if !url.trim().is_empty() => {
                DatabaseUrl::parse(url.trim()).context("invalid DATABASE_URL (--database-url)")
            }
            _ => Ok(DatabaseUrl::sqlite_file(
                self.data_dir.join("fad-campaign.sqlite3"),
            )),
        }
    }
}

/// Checks each origin is `scheme://host[:port]` (what a browser sends in `Origin`).
fn parse_cors_origins(raw: &[String]) -> anyhow::Result<Vec<String>> {
    let origins: Vec<String> = raw
        .iter()
        .map(|o| o.trim().trim_end_matches('/').to_owned())
        .filter(|o| !o.is_empty())
        .collect();
    for origin in &origins {
        if origin == "*" {
            continue;
        }
        let uri: actix_web::http::Uri = origin
            .parse()
            .with_context(|| format!("FAD_CORS_ORIGINS: `{origin}` is not a valid origin"))?;
        let scheme_ok = matches!(uri.scheme_str(), Some("http" | "https"));
        if !scheme_ok || uri.host().is_none() || !matches!(uri.path(), "" | "/") {
            bail!(
                "FAD_CORS_ORIGINS: `{origin}` is not an origin; use `http(s)://host[:port]` \
                 without a path"
            );
        }
    }
    Ok(origins)
}

/// Reads `<data dir>/jwt_secret`, creating it (mode 0600, 32 random bytes hex-encoded) on first
/// start.
fn load_or_generate_secret(data_dir: &Path) -> anyhow::Result<JwtSecret> {
    let path = data_dir.join(JWT_SECRET_FILE);
    match std::fs::read_to_string(&path) {
        Ok(text) => {
            return JwtSecret::new(text.trim().as_bytes(), &path.display().to_string());
        }
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
        Err(err) => return Err(err).with_context(|| format!("reading {}", path.display())),
    }
    std::fs::create_dir_all(data_dir)
        .with_context(|| format!("creating data directory {}", data_dir.display()))?;
    let mut bytes = [0_u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no system randomness: {e}"))?;
    let encoded = hex::encode(bytes);
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options
        .open(&path)
        .with_context(|| format!("creating {}", path.display()))?;
    file.write_all(encoded.as_bytes())
        .and_then(|()| file.sync_all())
        .with_context(|| format!("writing {}", path.display()))?;
    tracing::warn!(
        path = %path.display(),
        "FAD_JWT_SECRET is not set: generated a new secret in {}",
        path.display()
    );
    JwtSecret::new(encoded.as_bytes(), &path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_jwt_secret_is_refused_with_the_variable_name() {
        let err = JwtSecret::new(b"too-short", "FAD_JWT_SECRET").unwrap_err();
        assert_eq!(
            err.to_string(),
            "FAD_JWT_SECRET is 9 bytes long; it must be at least 32 bytes \
             (generate one with `openssl rand -hex 32`)"
        );
    }

    #[test]
    fn jwt_secret_debug_is_redacted() {
        let secret = JwtSecret::new(&[b'x'; 40], "test").unwrap();
        assert_eq!(format!("{secret:?}"), "JwtSecret(<redacted>)");
    }

    #[test]
    fn generated_secret_is_kept_with_mode_0600_and_reused() {
        let dir = tempfile::tempdir().unwrap();
        let first = load_or_generate_secret(dir.path()).unwrap();
        let second = load_or_generate_secret(dir.path()).unwrap();
        assert_eq!(first.expose(), second.expose());
        assert_eq!(first.expose().len(), 64);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(dir.path().join(JWT_SECRET_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }

    #[test]
    fn cors_origins_accept_origins_and_star_and_refuse_paths() {
        let ok = parse_cors_origins(&[
            "https://club.example".into(),
            " http://localhost:3000/ ".into(),
            "*".into(),
        ])
        .unwrap();
        assert_eq!(ok, ["https://club.example", "http://localhost:3000", "*"]);
        assert!(parse_cors_origins(&["https://club.example/app".into()]).is_err());
        assert!(parse_cors_origins(&["club.example".into()]).is_err());
    }

    #[test]
    fn public_url_is_an_http_address_kept_without_its_trailing_slash() {
        assert_eq!(parse_public_url(None).unwrap(), "");
        assert_eq!(parse_public_url(Some(" ")).unwrap(), "");
        assert_eq!(
            parse_public_url(Some("https://fad.example.org/")).unwrap(),
            "https://fad.example.org"
        );
        for bad in ["fad.example.org", "ftp://x", "https://", "https://x/?a=1"] {
            assert!(parse_public_url(Some(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn default_database_is_a_sqlite_file_in_the_data_dir() {
        let args = DbArgs {
            database_url: None,
            data_dir: PathBuf::from("/srv/fad"),
        };
        let url = args.database_url().unwrap();
        assert_eq!(url.to_string(), "sqlite:///srv/fad/fad-campaign.sqlite3");
    }

    fn serve_args(extra: &[&str]) -> ServeArgs {
        let mut argv = vec![
            "fad-campaign",
            "serve",
            "--database-url",
            "sqlite:///tmp/unused.sqlite3",
            "--jwt-secret",
            "0123456789abcdef0123456789abcdef",
        ];
        argv.extend_from_slice(extra);
        let Command::Serve(args) = Cli::try_parse_from(argv).unwrap().command else {
            panic!("serve")
        };
        args
    }

    #[test]
    fn token_lifetime_and_auth_rate_default_and_refuse_zero() {
        let config = Config::from_serve_args(serve_args(&[])).unwrap();
        assert_eq!(config.jwt_lifetime_secs, 12 * 3600);
        assert_eq!(
            (config.auth_rate_per_minute, config.auth_rate_burst),
            (10, 10)
        );
        for bad in [
            ["--jwt-lifetime-secs", "0"],
            ["--auth-rate-per-minute", "0"],
            ["--auth-rate-burst", "0"],
        ] {
            let err = Config::from_serve_args(serve_args(&bad))
                .unwrap_err()
                .to_string();
            assert!(err.contains("must be greater than 0"), "{err}");
        }
    }
}
