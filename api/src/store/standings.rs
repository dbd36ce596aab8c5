//! The rows behind a campaign's standings, in one statement (R2 in at most two round
//! trips with the key lookup): the campaign's active forces with the campaign points each earned,
//! and the sides and results of its complete battles, as one `UNION ALL`. A void battle's
//! points count for nothing: neither what it earned nor the compensating `void` entries.

use diesel::prelude::*;
use diesel::sql_types::{BigInt, Integer, Nullable, Text};

use fad_domain::lifecycle::BattleState;

use crate::db::Db;

/// One force: `kind` 0, `a` id, `b` name, `c` owner, `d` roster JSON, `n` CP earned, `e` the
/// owner's shown name (display name, else username), `p` the ledger's current balance. One
/// complete battle: `kind` 1, `a` sides JSON, `b` result JSON. Forces come first, oldest first.
/// `$1` is the void state's word, `$2` the campaign, `$3` the complete state's word. SQLite
/// numbers `$n` names in order of first appearance, so they must first appear in that order; it
/// reads the repeated `$2` as the same parameter.
const STANDINGS_SQL: &str = "\
SELECT 0 AS kind, f.id AS a, f.name AS b, f.owner_id AS c, f.roster AS d, \
       (SELECT CAST(COALESCE(SUM(l.amount), 0) AS BIGINT) FROM force_ledger l \
         WHERE l.force_id = f.id AND l.kind = 'earned' AND l.cause_kind <> 'void' \
           AND NOT (l.cause_kind = 'battle' AND EXISTS (SELECT 1 FROM battles v \
                     WHERE v.id = l.cause_id AND v.state = $1))) AS n, \
       f.created_at AS t, COALESCE(u.display_name, u.username) AS e, \
       (SELECT p.balance FROM force_ledger p WHERE p.force_id = f.id \
         ORDER BY p.seq DESC LIMIT 1) AS p \
  FROM forces f JOIN users u ON u.id = f.owner_id \
 WHERE f.campaign_id = $2 AND f.archived_at IS NULL \
UNION ALL \
SELECT 1, b.sides, b.result, NULL, NULL, NULL, b.created_at, NULL, NULL \
  FROM battles b \
 WHERE b.campaign_id = $2 AND b.state = $3 \
ORDER BY kind, t, a";

#[derive(QueryableByName)]
struct Line {
    #[diesel(sql_type = Integer)]
    kind: i32,
    #[diesel(sql_type = Text)]
    a: String,
    #[diesel(sql_type = Nullable<Text>)]
    b: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    c: Option<String>,
    #[diesel(sql_type = Nullable<Text>)]
    d: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    n: Option<i64>,
    #[diesel(sql_type = Nullable<Text>)]
    e: Option<String>,
    #[diesel(sql_type = Nullable<BigInt>)]
    p: Option<i64>,
}

/// An active force of the campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForceLine {
    /// The force id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its owner.
    pub owner_id: String,
    /// The owner's display name (or username).
    pub owner_name: String,
    /// The roster JSON.
    pub roster: String,
    /// Campaign points earned (ledger `earned` entries, except a void battle's and the
    /// entries that compensated a void).
    pub earned: i64,
    /// The ledger's current balance (what the roster shows: earned less spent).
    pub balance: i64,
}

/// A complete battle of the campaign.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BattleLine {
    /// The sides JSON.
    pub sides: String,
    /// The result JSON.
    pub result: Option<String>,
}

/// The active forces (oldest first) and complete battles of `campaign_id`.
pub fn load(conn: &mut Db, campaign_id: &str) -> QueryResult<(Vec<ForceLine>, Vec<BattleLine>)> {
    let lines: Vec<Line> = diesel::sql_query(STANDINGS_SQL)
        .bind::<Text, _>(BattleState::Void.as_str())
        .bind::<Text, _>(campaign_id)
        .bind::<Text, _>(BattleState::Complete.as_str())
        .load(conn)?;
    let mut forces = Vec::new();
    let mut battles = Vec::new();
    for line in lines {
        if line.kind == 0 {
            forces.push(ForceLine {
                id: line.a,
                name: line.b.unwrap_or_default(),
                owner_id: line.c.unwrap_or_default(),
                owner_name: line.e.unwrap_or_default(),
                roster: line.d.unwrap_or_default(),
                earned: line.n.unwrap_or_default(),
                balance: line.p.unwrap_or_default(),
            });
        } else {
            battles.push(BattleLine {
                sides: line.a,
                result: line.b,
            });
        }
    }
    Ok((forces, battles))
}
