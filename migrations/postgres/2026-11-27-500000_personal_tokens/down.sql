DROP TABLE personal_tokens;
