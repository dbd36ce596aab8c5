//! The command line's commands besides `serve`: export, import, migrate, set a password.

use std::io::Write;

use anyhow::Context;

use crate::config::{Cli, Command, DbArgs, ExportArgs, ImportArgs, SetPasswordArgs};
use crate::startup::serve;
use crate::{auth, backup, db, openapi, store};

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Serve(args) => serve(args),
        Command::Migrate(args) => migrate(&args),
        Command::Openapi => {
            let text = openapi::document_json()?;
            std::io::stdout()
                .write_all(text.as_bytes())
                .context("writing to stdout")?;
            Ok(())
        }
        Command::Export(args) => export(&args),
        Command::Import(args) => import(&args),
        Command::SetPassword(args) => set_password(&args),
    }
}

/// `fad-campaign export`: writes one campaign as a [`backup::Document`] to a file (replaced
/// only when complete) or stdout. Refuses a database with pending migrations (the document
/// describes the current schema); a summary goes to stderr.
pub fn export(args: &ExportArgs) -> anyhow::Result<()> {
    let url = args.db.database_url()?;
    let mut conn = url.establish()?;
    let pending = db::pending_migrations(&mut conn)?;
    if !pending.is_empty() {
        anyhow::bail!(
            "{url} has {} pending migration(s) ({}); run `fad-campaign migrate` first",
            pending.len(),
            pending.join(", ")
        );
    }
    let document = backup::export_campaign(&mut conn, &args.campaign_id)?;
    let mut text = serde_json::to_string_pretty(&document).context("encoding the export")?;
    text.push('\n');
    match &args.output {
        Some(path) => write_atomically(path, text.as_bytes())?,
        None => {
            let mut out = std::io::stdout().lock();
            out.write_all(text.as_bytes())
                .and_then(|()| out.flush())
                .context("writing to stdout")?;
        }
    }
    let target = args
        .output
        .as_ref()
        .map_or("stdout".to_owned(), |p| p.display().to_string());
    eprintln!(
        "exported campaign {} (\"{}\") from {url} to {target}: {} accounts, {} memberships, \
         {} invitations, {} forces, {} history entries, {} ledger entries, {} battles, \
         {} aftermaths, {} battle scenarios, {} scenarios",
        document.campaign.id,
        document.campaign.name,
        document.users.len(),
        document.memberships.len(),
        document.invites.len(),
        document.forces.len(),
        document.force_history.len(),
        document.force_ledger.len(),
        document.battles.len(),
        document.battle_aftermaths.len(),
        document.battle_scenarios.len(),
        document.scenarios.len(),
    );
    Ok(())
}

/// Writes `bytes` to `path` through a temporary file in the same directory, so a failed or
/// interrupted export never leaves a truncated file under the final name.
fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = std::path::PathBuf::from(partial);
    let written = std::fs::File::create(&partial)
        .and_then(|mut file| {
            file.write_all(bytes)?;
            file.sync_all()
        })
        .and_then(|()| std::fs::rename(&partial, path));
    if let Err(err) = written {
        let _ = std::fs::remove_file(&partial);
        return Err(err).with_context(|| format!("writing {}", path.display()));
    }
    Ok(())
}

/// `fad-campaign import`: applies pending migrations (the target may be a new, empty database),
/// checks the whole document, then writes it in one transaction. Prints what it did.
pub fn import(args: &ImportArgs) -> anyhow::Result<()> {
    let text = match &args.input {
        Some(path) => {
            std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?
        }
        None => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin().lock(), &mut text)
                .context("reading stdin")?;
            text
        }
    };
    let document = backup::parse_document(&text)?;
    let url = args.db.database_url()?;
    let mut conn = url.establish()?;
    db::run_migrations(&mut conn)?;
    let options = backup::ImportOptions {
        replace: args.replace,
    };
    let summary = backup::import_document(&mut conn, &document, options)
        .with_context(|| format!("importing into {url} (nothing was written)"))?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{} campaign {} (\"{}\") into {url}",
        if summary.replaced {
            "replaced"
        } else {
            "imported"
        },
        summary.campaign_id,
        summary.campaign_name
    )?;
    for (table, rows) in &summary.rows {
        writeln!(out, "  {table}: {rows}")?;
    }
    if !summary.matched_accounts.is_empty() {
        writeln!(
            out,
            "  existing accounts used (matched by name): {}",
            summary.matched_accounts.join(", ")
        )?;
    }
    if !summary.created_accounts.is_empty() {
        writeln!(
            out,
            "  accounts created without a usable password (set one with \
             `fad-campaign set-password --username NAME`): {}",
            summary.created_accounts.join(", ")
        )?;
    }
    Ok(())
}

/// `fad-campaign migrate`: applies pending migrations, printing each.
pub fn migrate(args: &DbArgs) -> anyhow::Result<()> {
    let url = args.database_url()?;
    let mut conn = url.establish()?;
    let applied = db::run_migrations(&mut conn)?;
    let mut out = std::io::stdout().lock();
    if applied.is_empty() {
        writeln!(out, "{url}: no pending migrations")?;
    }
    for name in applied {
        writeln!(out, "{url}: applied {name}")?;
    }
    Ok(())
}

/// `fad-campaign set-password`: reads a new password from the first line of stdin (so it stays
/// out of the process list and shell history), checks it like registration does, and stores
/// its hash. The account's access tokens issued before are refused from then on and its browser
/// sessions end.
pub fn set_password(args: &SetPasswordArgs) -> anyhow::Result<()> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .context("reading the password from stdin")?;
    let password = line.strip_suffix('\n').unwrap_or(&line);
    let password = password.strip_suffix('\r').unwrap_or(password);
    auth::password::validate_password(password, &[&args.username])
        .map_err(|e| anyhow::anyhow!("password: {e}"))?;
    let hash = auth::password::hash_password(password)?;
    let url = args.db.database_url()?;
    let mut conn = url.establish()?;
    let changed = diesel::Connection::transaction(&mut conn, |conn| {
        let Some(user) = store::users::find_by_username(conn, &args.username)? else {
            return Ok(0);
        };
        store::sessions::delete_for_user(conn, &user.id)?;
        store::users::set_password_hash(conn, &args.username, &hash)
    })
    .context("storing the password")?;
    if changed == 0 {
        anyhow::bail!("{url} has no account named {}", args.username);
    }
    println!("{url}: password of {} set", args.username);
    Ok(())
}
