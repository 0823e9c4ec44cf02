-- The service's schema. Runs on PGlite (PostgreSQL 18, embedded) and on PostgreSQL 15+ alike.
CREATE TABLE accounts (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  email_key text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- One pending sign-in code per normalised address: a new code replaces the old one.
CREATE TABLE login_codes (
  email_key text PRIMARY KEY,
  email text NOT NULL,
  code_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  attempts integer NOT NULL DEFAULT 0
);

CREATE TABLE sessions (
  id_hash text PRIMARY KEY,
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  csrf text NOT NULL,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  models text[],
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX api_keys_account ON api_keys (account_id);

-- Usage as daily aggregates: one row per key, model and day, upserted per request, so pages stay fast at any volume.
CREATE TABLE usage_daily (
  account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  key_id uuid NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
  model text NOT NULL,
  day date NOT NULL,
  requests bigint NOT NULL DEFAULT 0,
  errors bigint NOT NULL DEFAULT 0,
  input_tokens bigint NOT NULL DEFAULT 0,
  output_tokens bigint NOT NULL DEFAULT 0,
  cached_tokens bigint NOT NULL DEFAULT 0,
  reasoning_tokens bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (key_id, model, day)
);
CREATE INDEX usage_daily_account_day ON usage_daily (account_id, day);

-- Fixed-window rate limits shared by every instance (they all use this database).
CREATE TABLE rate_limits (
  bucket text PRIMARY KEY,
  window_start timestamptz NOT NULL,
  count integer NOT NULL
);

-- Instance-wide settings (the HMAC secret for sign-in codes is made once and shared by every instance).
CREATE TABLE settings (
  name text PRIMARY KEY,
  value text NOT NULL
);
