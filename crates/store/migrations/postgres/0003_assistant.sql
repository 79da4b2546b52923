-- The assistant's memory: one row per conversation holding its whole state (task stack,
-- references, recent turns) as one JSON document, and one trace row per turn.
-- A conversation is rewritten whole each turn, in the same transaction as the turn's trace,
-- so a restart resumes exactly where the last committed turn left it.

CREATE TABLE conversations (
    id          TEXT PRIMARY KEY,
    user_id     TEXT NOT NULL,
    state       TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX conversations_user ON conversations (user_id, updated_at);

-- `record` holds the commands, tool calls (redacted), timings and LLM usage of one turn;
-- it is written after redaction and never holds a secret.
CREATE TABLE traces (
    id               TEXT PRIMARY KEY,
    user_id          TEXT NOT NULL,
    conversation_id  TEXT NOT NULL,
    at               BIGINT NOT NULL,
    message          TEXT NOT NULL,
    record           TEXT NOT NULL
);
CREATE INDEX traces_user ON traces (user_id, at);
