DROP TABLE solo_states;
