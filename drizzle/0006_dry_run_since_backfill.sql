-- Dry-run limits stored before dry_run_since existed: the last time their rows were written is
-- the latest they can have been added (an override's rows are all written when it is saved, a
-- plan's limits with every edit of the plan), so their reports count from then, never earlier.
UPDATE `limit_overrides` SET `dry_run_since` = `created_at` WHERE `dry_run` = 1 AND `dry_run_since` IS NULL;--> statement-breakpoint
UPDATE `plan_limits` SET `dry_run_since` = (SELECT `updated_at` FROM `plans` WHERE `plans`.`id` = `plan_limits`.`plan_id`) WHERE `dry_run` = 1 AND `dry_run_since` IS NULL;
