//! Rebuild when a migration changes: they are embedded with `embed_migrations!`.

fn main() {
    println!("cargo:rerun-if-changed=../migrations");
}
