DROP TABLE rulesets;
