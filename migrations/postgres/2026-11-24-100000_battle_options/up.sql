-- Options chosen when a battle is set up, as a JSON object (night_fighting: docs/rules.md §3.6).
ALTER TABLE battles ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
