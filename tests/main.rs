//! Black-box tests: the real binary on a free port against a real database.
