-- Multi-user mode of `nofxi serve`: people who log in, their browser sessions, and API tokens
-- for scripts. No secret is stored in a form that can be used: passwords as argon2id hashes,
-- session ids and token secrets as SHA-256 digests (both are 256 random bits, so a digest is
-- enough and lookups stay cheap). With no active user here the server runs in local mode.

CREATE TABLE users (
    name           TEXT PRIMARY KEY,
    password_hash  TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    disabled_at    BIGINT
);

CREATE TABLE sessions (
    id_digest   TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    csrf_token  TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

-- `scopes` is a comma-separated subset of read,write,trade.
CREATE TABLE api_tokens (
    id             TEXT PRIMARY KEY,
    user_id        TEXT NOT NULL,
    label          TEXT NOT NULL,
    secret_digest  TEXT NOT NULL,
    scopes         TEXT NOT NULL,
    created_at     BIGINT NOT NULL,
    last_used_at   BIGINT,
    revoked_at     BIGINT
);
CREATE INDEX api_tokens_user ON api_tokens (user_id);
