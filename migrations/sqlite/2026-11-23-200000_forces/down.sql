DROP TABLE force_ledger;
DROP TABLE force_history;
DROP TABLE forces;
