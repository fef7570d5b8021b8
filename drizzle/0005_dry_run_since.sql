ALTER TABLE `limit_overrides` ADD `dry_run_since` integer;--> statement-breakpoint
ALTER TABLE `plan_limits` ADD `dry_run_since` integer;