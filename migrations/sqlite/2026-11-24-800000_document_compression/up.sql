-- PostgreSQL compresses the large JSON document columns with lz4 from this migration on;
-- SQLite has no per-column compression, so this one changes nothing (kept so that both
-- backends have the same migrations).
SELECT 1;
