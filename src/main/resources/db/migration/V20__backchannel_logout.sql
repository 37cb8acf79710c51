-- Back-Channel Logout 1.0 deliveries waiting to be sent (issue 37). One row per ended SSO session and client with a
-- backchannel_logout_uri, written in the transaction that deletes the session; it holds what a logout token is made
-- of (never a token: each attempt signs a fresh one) and is deleted once delivered or given up. Times are epoch
-- milliseconds. A row is due when next_attempt_at has passed and no live lease holds it; an instance claims it by a
-- conditional UPDATE that sets lease_owner and lease_until, so exactly one instance sends it at a time and a stopped
-- instance's claim runs out.
CREATE TABLE logout_deliveries (
    delivery_id     VARCHAR(64)   NOT NULL PRIMARY KEY,
    client_id       VARCHAR(64)   NOT NULL,
    subject         VARCHAR(64)   NOT NULL,
    sid             VARCHAR(64),
    created_at      BIGINT        NOT NULL,
    give_up_at      BIGINT        NOT NULL,
    next_attempt_at BIGINT        NOT NULL,
    attempts        INTEGER       DEFAULT 0 NOT NULL,
    lease_owner     VARCHAR(64),
    lease_until     BIGINT,
    last_outcome    VARCHAR(200)
);
CREATE INDEX logout_deliveries_due ON logout_deliveries (next_attempt_at);
