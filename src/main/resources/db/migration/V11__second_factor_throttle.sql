-- Failed second-factor attempts (one-time codes, recovery codes, passkeys after the password), counted per account
-- apart from login_throttle: a correct password clears login_throttle, never this counter, so knowing the password
-- gives no fresh round of code guesses. Only a completed second factor deletes the row. Same shape and rules as
-- login_throttle (account.ThrottlePolicy: slow-down, then locked_until = the end of portcullis.login.lockout).
CREATE TABLE second_factor_throttle (
    user_id          VARCHAR(64) PRIMARY KEY REFERENCES users (user_id) ON DELETE CASCADE,
    failures         INTEGER     NOT NULL,
    first_failure_at BIGINT      NOT NULL,
    locked_until     BIGINT
);
