DROP TABLE battle_scenarios;
