-- Every instance caches key records in memory (src/keys.mjs) and drops them on a notification on the channel
-- `interlingua_keys`: `key:<id>` when a key is revoked, deleted, or its expiry, allow-list or limits change;
-- `account:<id>` when an account is suspended, reinstated or deleted. Triggers, so a change made by hand in SQL
-- invalidates the caches too. `last_used_at` (written with the usage batches) does not notify.
CREATE FUNCTION interlingua_key_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('interlingua_keys', 'key:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE FUNCTION interlingua_account_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('interlingua_keys', 'account:' || OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER api_keys_changed AFTER UPDATE ON api_keys FOR EACH ROW
  WHEN ((OLD.revoked_at, OLD.expires_at, OLD.models, OLD.rpm_limit, OLD.tpm_limit, OLD.key_hash, OLD.account_id)
    IS DISTINCT FROM (NEW.revoked_at, NEW.expires_at, NEW.models, NEW.rpm_limit, NEW.tpm_limit, NEW.key_hash, NEW.account_id))
  EXECUTE FUNCTION interlingua_key_changed();--> statement-breakpoint
CREATE TRIGGER api_keys_deleted AFTER DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION interlingua_key_changed();--> statement-breakpoint
CREATE TRIGGER accounts_changed AFTER UPDATE ON accounts FOR EACH ROW
  WHEN (OLD.suspended_at IS DISTINCT FROM NEW.suspended_at) EXECUTE FUNCTION interlingua_account_changed();--> statement-breakpoint
CREATE TRIGGER accounts_deleted AFTER DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION interlingua_account_changed();
