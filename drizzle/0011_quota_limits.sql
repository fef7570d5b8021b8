-- Quota rows in plan_limits and limit_overrides: period_ms becomes nullable and a CHECK needs
-- exactly one of it and quota_period, which SQLite's ADD COLUMN cannot do, so both tables are
-- rebuilt. That is safe inside the migrator's transaction (where PRAGMA foreign_keys=OFF does
-- nothing) only because no table references plan_limits or limit_overrides: their DROP cascades
-- nowhere. Edited by hand: the generated copy selected the new columns from the old tables.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_limit_overrides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer,
	`quota_period` text,
	`time_zone` text,
	`dry_run` integer DEFAULT false NOT NULL,
	`dry_run_since` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operation`) REFERENCES `operation_classes`(`name`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "limit_overrides_count_positive" CHECK("__new_limit_overrides"."count" > 0),
	CONSTRAINT "limit_overrides_period_positive" CHECK("__new_limit_overrides"."period_ms" > 0),
	CONSTRAINT "limit_overrides_kind" CHECK(("__new_limit_overrides"."period_ms" IS NULL) <> ("__new_limit_overrides"."quota_period" IS NULL)),
	CONSTRAINT "limit_overrides_quota_zone" CHECK(("__new_limit_overrides"."quota_period" IS NULL) = ("__new_limit_overrides"."time_zone" IS NULL)),
	CONSTRAINT "limit_overrides_quota_period" CHECK("__new_limit_overrides"."quota_period" IN ('day', 'week', 'month')),
	CONSTRAINT "limit_overrides_dry_run" CHECK("__new_limit_overrides"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_limit_overrides`("id", "customer_id", "operation", "count", "period_ms", "quota_period", "time_zone", "dry_run", "dry_run_since", "expires_at", "created_at") SELECT "id", "customer_id", "operation", "count", "period_ms", NULL, NULL, "dry_run", "dry_run_since", "expires_at", "created_at" FROM `limit_overrides`;--> statement-breakpoint
DROP TABLE `limit_overrides`;--> statement-breakpoint
ALTER TABLE `__new_limit_overrides` RENAME TO `limit_overrides`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `limit_overrides_customer` ON `limit_overrides` (`customer_id`,`operation`);--> statement-breakpoint
CREATE UNIQUE INDEX `limit_overrides_quota_unique` ON `limit_overrides` (`customer_id`,`operation`,`quota_period`,`time_zone`);--> statement-breakpoint
CREATE TABLE `__new_plan_limits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer,
	`quota_period` text,
	`time_zone` text,
	`dry_run` integer DEFAULT false NOT NULL,
	`dry_run_since` integer,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operation`) REFERENCES `operation_classes`(`name`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "plan_limits_count_positive" CHECK("__new_plan_limits"."count" > 0),
	CONSTRAINT "plan_limits_period_positive" CHECK("__new_plan_limits"."period_ms" > 0),
	CONSTRAINT "plan_limits_kind" CHECK(("__new_plan_limits"."period_ms" IS NULL) <> ("__new_plan_limits"."quota_period" IS NULL)),
	CONSTRAINT "plan_limits_quota_zone" CHECK(("__new_plan_limits"."quota_period" IS NULL) = ("__new_plan_limits"."time_zone" IS NULL)),
	CONSTRAINT "plan_limits_quota_period" CHECK("__new_plan_limits"."quota_period" IN ('day', 'week', 'month')),
	CONSTRAINT "plan_limits_dry_run" CHECK("__new_plan_limits"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_plan_limits`("id", "plan_id", "operation", "count", "period_ms", "quota_period", "time_zone", "dry_run", "dry_run_since") SELECT "id", "plan_id", "operation", "count", "period_ms", NULL, NULL, "dry_run", "dry_run_since" FROM `plan_limits`;--> statement-breakpoint
DROP TABLE `plan_limits`;--> statement-breakpoint
ALTER TABLE `__new_plan_limits` RENAME TO `plan_limits`;--> statement-breakpoint
CREATE INDEX `plan_limits_plan` ON `plan_limits` (`plan_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_limits_unique` ON `plan_limits` (`plan_id`,`operation`,`count`,`period_ms`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_limits_quota_unique` ON `plan_limits` (`plan_id`,`operation`,`quota_period`,`time_zone`);