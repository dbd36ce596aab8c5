-- Organiser corrections of a battle (issue 6): voids and reopenings, in order, as a JSON array
-- of {action, by, at, reason, ...}; a reopening keeps the discarded result and its rolls here.
ALTER TABLE battles ADD COLUMN corrections TEXT NOT NULL DEFAULT '[]';
