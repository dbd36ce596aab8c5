DROP TABLE web_sessions;
