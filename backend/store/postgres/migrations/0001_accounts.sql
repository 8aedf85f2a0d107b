-- +goose Up
-- Accounts, their API keys, dashboard sessions, one-time sign-in links
-- and the daily run counts: the final shape of SQLite's 0001, 0002 and
-- 0009 in one go. Plus what a cluster shares that a single node keeps in
-- memory or in its data folder: the burst limits' token buckets and the
-- secret every node derives its signing keys from.
--
-- Times are timestamptz written from the store's injected clock (whole
-- seconds), never the server's now(); hashes are bytea; lists are text[].

CREATE TABLE accounts (
	id            text PRIMARY KEY,
	email         text NOT NULL UNIQUE,
	tier          text NOT NULL,
	features      text[] NOT NULL DEFAULT '{}',
	api_disabled  boolean NOT NULL DEFAULT false,
	daily_cap     integer NOT NULL,
	created_at    timestamptz NOT NULL,
	-- An argon2id PHC string, NULL until set.
	password_hash text,
	-- Insertion order, which breaks ties of created_at (whole seconds)
	-- in listings, as SQLite's rowid does.
	seq           bigint GENERATED ALWAYS AS IDENTITY
);

CREATE TABLE api_keys (
	id           text PRIMARY KEY,
	account_id   text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name         text NOT NULL,
	prefix       text NOT NULL UNIQUE,
	hash         bytea NOT NULL,
	scopes       text[] NOT NULL DEFAULT '{}',
	created_at   timestamptz NOT NULL,
	expires_at   timestamptz NOT NULL,
	revoked_at   timestamptz,
	last_used_at timestamptz,
	-- Insertion order: ties of created_at, as in accounts.
	seq          bigint GENERATED ALWAYS AS IDENTITY
);

CREATE INDEX api_keys_account_id ON api_keys(account_id, created_at, seq);

-- One row per pool and UTC day; a run takes one with
-- INSERT ... ON CONFLICT DO UPDATE ... WHERE used < cap, so the count
-- never passes its cap whichever node takes it.
CREATE TABLE daily_usage (
	pool text NOT NULL,
	day  date NOT NULL,
	used integer NOT NULL CHECK (used >= 0),
	PRIMARY KEY (pool, day)
);

-- A session row keeps the SHA-256 of its token, never the token;
-- csrf_token is the value mutating requests of the session must echo in
-- X-CSRF-Token.
CREATE TABLE sessions (
	id         text PRIMARY KEY,
	account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	token_hash bytea NOT NULL UNIQUE,
	csrf_token text NOT NULL,
	created_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL,
	revoked    boolean NOT NULL DEFAULT false
);

CREATE INDEX sessions_account_id ON sessions(account_id);
CREATE INDEX sessions_expires_at ON sessions(expires_at);

-- A link lets the holder set the account's dashboard password and opens
-- a session, once. Using a link deletes its row, so a used link and one
-- never made look the same.
CREATE TABLE signin_links (
	token_hash bytea PRIMARY KEY,
	account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	created_at timestamptz NOT NULL,
	expires_at timestamptz NOT NULL
);

CREATE INDEX signin_links_account_id ON signin_links(account_id);
CREATE INDEX signin_links_expires_at ON signin_links(expires_at);

-- The burst limits' token buckets, shared by every node: a bucket is its
-- theoretical arrival time (GCRA). A bucket whose tat has passed is full,
-- the same as no row, so expired rows may be deleted at any time
-- (take_buckets deletes a few whenever it adds one).
CREATE TABLE rate_buckets (
	name text PRIMARY KEY,
	tat  timestamptz NOT NULL
);

-- The secret every node derives its signing keys from: one row, created
-- by the first node that asks.
CREATE TABLE shared_secret (
	id     smallint PRIMARY KEY CHECK (id = 1),
	secret bytea NOT NULL CHECK (octet_length(secret) = 32)
);

-- take_buckets takes one token from each bucket names[i] (refilled at
-- one per every_us[i] microseconds, bursts[i] at most) at at_time, or
-- from none when any is empty, and returns for each the microseconds
-- until it would give one (all zero: taken): the GCRA of
-- quota.MemoryBuckets, in one round trip, exact across nodes. It locks
-- the buckets in name order, adding missing ones, so two calls never
-- wait on each other in a cycle, and computes every wait before changing
-- any bucket. When it adds a bucket it deletes up to 8 rows full for
-- over a minute (the margin keeps a node whose clock runs ahead from
-- refilling buckets the others still count), skipping rows other calls
-- hold: the table stays about the size of the buckets in use.
-- +goose StatementBegin
CREATE FUNCTION take_buckets(names text[], every_us bigint[], bursts integer[], at_time timestamptz)
RETURNS bigint[] LANGUAGE plpgsql AS $$
DECLARE
	n       integer := coalesce(cardinality(names), 0);
	nexts   timestamptz[] := array_fill(NULL::timestamptz, ARRAY[n]);
	waits   bigint[] := array_fill(0::bigint, ARRAY[n]);
	refused boolean := false;
	added   boolean := false;
	i       integer;
	tat     timestamptz;
	every   interval;
	allow   timestamptz;
BEGIN
	FOR i IN SELECT o FROM unnest(names) WITH ORDINALITY AS u(name, o) ORDER BY u.name, o LOOP
		LOOP
			SELECT b.tat INTO tat FROM rate_buckets b WHERE b.name = names[i] FOR UPDATE;
			EXIT WHEN FOUND;
			-- A new bucket is full. A conflicting insert by another call
			-- makes this one wait for it, then lock the row it made; a
			-- row deleted meanwhile is inserted again.
			INSERT INTO rate_buckets(name, tat) VALUES (names[i], at_time) ON CONFLICT (name) DO NOTHING;
			added := added OR FOUND;
		END LOOP;
		every := every_us[i] * interval '1 microsecond';
		tat := greatest(tat, at_time);
		allow := tat + every - bursts[i] * every;
		IF allow > at_time THEN
			waits[i] := ((extract(epoch FROM allow) - extract(epoch FROM at_time)) * 1000000)::bigint;
			refused := true;
		ELSE
			nexts[i] := tat + every;
		END IF;
	END LOOP;
	IF NOT refused THEN
		FOR i IN 1..n LOOP
			UPDATE rate_buckets SET tat = nexts[i] WHERE name = names[i];
		END LOOP;
	END IF;
	IF added THEN
		DELETE FROM rate_buckets WHERE name IN (
			SELECT b.name FROM rate_buckets b WHERE b.tat < at_time - interval '1 minute' LIMIT 8 FOR UPDATE SKIP LOCKED);
	END IF;
	RETURN waits;
END
$$;
-- +goose StatementEnd
