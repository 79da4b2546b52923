-- The trading engine's tables: one journal row per trader cycle, and the leases that let several
-- nofxi processes share one database without two of them running the same trader.

-- `record` is the whole cycle (prompts, decisions, guard verdicts, orders, account) as JSON;
-- `equity` is pulled out so the equity curve is one indexed scan.
CREATE TABLE trader_cycles (
    trader_id     TEXT NOT NULL,
    user_id       TEXT NOT NULL,
    cycle_number  BIGINT NOT NULL,
    phase         TEXT NOT NULL,
    started_at    BIGINT NOT NULL,
    equity        TEXT,
    record        TEXT NOT NULL,
    PRIMARY KEY (trader_id, cycle_number)
);
CREATE INDEX trader_cycles_user ON trader_cycles (user_id, trader_id, cycle_number);

-- A running trader is owned by one engine process at a time. The owner renews `expires_at`
-- with each heartbeat; once it lapses, any other process may take the trader over.
-- `generation` grows with every change of owner, so a process that lost its lease can tell.
CREATE TABLE trader_leases (
    trader_id     TEXT PRIMARY KEY,
    user_id       TEXT NOT NULL,
    owner         TEXT NOT NULL,
    generation    BIGINT NOT NULL,
    heartbeat_at  BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL
);
