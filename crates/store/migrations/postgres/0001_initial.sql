-- nofxi schema, PostgreSQL flavour. Keep in step with ../sqlite/0001_initial.sql: the store's
-- queries are shared, so column names and meanings must match exactly.
-- Times are epoch milliseconds; money is decimal TEXT (exact); booleans are BIGINT 0/1 (sqlx's Any driver cannot read SQLite booleans).
-- `name_key` is the lower-cased name computed in Rust (Unicode-aware on both backends), and
-- the partial unique indexes make names unique per user among resources not in the trash.

CREATE TABLE models (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    provider    TEXT NOT NULL,
    enabled     BIGINT NOT NULL,
    base_url    TEXT,
    model_name  TEXT,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL,
    deleted_at  BIGINT
);
CREATE UNIQUE INDEX models_live_name ON models (user_id, name_key) WHERE deleted_at IS NULL;

CREATE TABLE exchanges (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL,
    exchange_type  TEXT NOT NULL,
    account_name   TEXT NOT NULL,
    name_key       TEXT NOT NULL,
    enabled        BIGINT NOT NULL,
    testnet        BIGINT NOT NULL,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL,
    deleted_at     BIGINT
);
CREATE UNIQUE INDEX exchanges_live_name ON exchanges (user_id, name_key) WHERE deleted_at IS NULL;

CREATE TABLE strategies (
    id           TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL,
    name         TEXT NOT NULL,
    name_key     TEXT NOT NULL,
    description  TEXT NOT NULL,
    is_active    BIGINT NOT NULL,
    config       TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL,
    deleted_at   BIGINT
);
CREATE UNIQUE INDEX strategies_live_name ON strategies (user_id, name_key) WHERE deleted_at IS NULL;

CREATE TABLE traders (
    id                     TEXT PRIMARY KEY,
    user_id                TEXT NOT NULL,
    name                   TEXT NOT NULL,
    name_key               TEXT NOT NULL,
    ai_model_id            TEXT NOT NULL,
    exchange_id            TEXT NOT NULL,
    strategy_id            TEXT NOT NULL,
    initial_balance        TEXT NOT NULL,
    scan_interval_minutes  BIGINT NOT NULL,
    is_running             BIGINT NOT NULL,
    is_cross_margin        BIGINT NOT NULL,
    created_at             BIGINT NOT NULL,
    updated_at             BIGINT NOT NULL,
    deleted_at             BIGINT
);
CREATE UNIQUE INDEX traders_live_name ON traders (user_id, name_key) WHERE deleted_at IS NULL;

-- One row per credential field: nonce || AES-256-GCM ciphertext || tag, bound to
-- (user, kind, resource, field) as associated data. `masked` is the display form (sk-…a1b2).
CREATE TABLE secrets (
    user_id        TEXT NOT NULL,
    resource_kind  TEXT NOT NULL,
    resource_id    TEXT NOT NULL,
    field          TEXT NOT NULL,
    sealed         BYTEA NOT NULL,
    masked         TEXT NOT NULL,
    updated_at     BIGINT NOT NULL,
    PRIMARY KEY (resource_id, field)
);
CREATE INDEX secrets_user ON secrets (user_id, resource_kind);

-- A known text sealed with the vault key: a wrong key is caught at open.
CREATE TABLE vault_check (
    id          BIGINT PRIMARY KEY,
    sealed      BYTEA NOT NULL,
    created_at  BIGINT NOT NULL
);

CREATE TABLE audit (
    id             BIGSERIAL PRIMARY KEY,
    user_id        TEXT NOT NULL,
    resource_kind  TEXT NOT NULL,
    resource_id    TEXT NOT NULL,
    action         TEXT NOT NULL,
    channel        TEXT NOT NULL,
    confirmed      BIGINT NOT NULL,
    at             BIGINT NOT NULL,
    detail         TEXT
);
CREATE INDEX audit_user_at ON audit (user_id, at);

-- Small JSON documents other components persist per user (paper accounts, …).
CREATE TABLE states (
    user_id     TEXT NOT NULL,
    scope       TEXT NOT NULL,
    key         TEXT NOT NULL,
    value       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL,
    PRIMARY KEY (user_id, scope, key)
);
