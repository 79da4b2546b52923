-- Seed 001's portfolios (crate nofxi-portfolio). Keep in step with the other backend's
-- 0006_portfolios.sql: the store's queries are shared.
-- A portfolio's settings and accounts are one JSON document (`spec`): small, and always read and
-- changed together. Transactions are one row each, kept as the user gave them (a fee left out
-- stays out and is computed from the fee schedules when figures are needed, so a corrected
-- schedule corrects it and re-importing the same file still finds its duplicates). `record` is
-- the transaction as JSON, money as decimal strings (exact); the other columns are what queries
-- and duplicate checks need. `seq` keeps the order records were written in, which is the order
-- of records of one date.

CREATE TABLE portfolios (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    spec        TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX portfolios_name ON portfolios (user_id, name_key);

CREATE TABLE portfolio_transactions (
    id            TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL,
    portfolio_id  TEXT NOT NULL,
    seq           BIGINT NOT NULL,
    trade_date    TEXT NOT NULL,
    kind          TEXT NOT NULL,
    fingerprint   TEXT NOT NULL,
    record        TEXT NOT NULL,
    created_at    BIGINT NOT NULL
);
CREATE UNIQUE INDEX portfolio_transactions_order ON portfolio_transactions (portfolio_id, seq);
CREATE INDEX portfolio_transactions_fingerprint ON portfolio_transactions (portfolio_id, fingerprint);
