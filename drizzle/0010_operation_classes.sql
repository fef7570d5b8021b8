CREATE TABLE `operation_classes` (
	`name` text PRIMARY KEY NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `operation_classes` (`name`, `description`, `created_at`) VALUES ('read', 'GET and HEAD requests', CAST(strftime('%s', 'now') AS INTEGER) * 1000), ('write', 'Every other method', CAST(strftime('%s', 'now') AS INTEGER) * 1000);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_limit_overrides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer NOT NULL,
	`dry_run` integer DEFAULT false NOT NULL,
	`dry_run_since` integer,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operation`) REFERENCES `operation_classes`(`name`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "limit_overrides_count_positive" CHECK("__new_limit_overrides"."count" > 0),
	CONSTRAINT "limit_overrides_period_positive" CHECK("__new_limit_overrides"."period_ms" > 0),
	CONSTRAINT "limit_overrides_dry_run" CHECK("__new_limit_overrides"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_limit_overrides`("id", "customer_id", "operation", "count", "period_ms", "dry_run", "dry_run_since", "expires_at", "created_at") SELECT "id", "customer_id", "operation", "count", "period_ms", "dry_run", "dry_run_since", "expires_at", "created_at" FROM `limit_overrides`;--> statement-breakpoint
DROP TABLE `limit_overrides`;--> statement-breakpoint
ALTER TABLE `__new_limit_overrides` RENAME TO `limit_overrides`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `limit_overrides_customer` ON `limit_overrides` (`customer_id`,`operation`);--> statement-breakpoint
CREATE TABLE `__new_plan_limits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer NOT NULL,
	`dry_run` integer DEFAULT false NOT NULL,
	`dry_run_since` integer,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`operation`) REFERENCES `operation_classes`(`name`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "plan_limits_count_positive" CHECK("__new_plan_limits"."count" > 0),
	CONSTRAINT "plan_limits_period_positive" CHECK("__new_plan_limits"."period_ms" > 0),
	CONSTRAINT "plan_limits_dry_run" CHECK("__new_plan_limits"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_plan_limits`("id", "plan_id", "operation", "count", "period_ms", "dry_run", "dry_run_since") SELECT "id", "plan_id", "operation", "count", "period_ms", "dry_run", "dry_run_since" FROM `plan_limits`;--> statement-breakpoint
DROP TABLE `plan_limits`;--> statement-breakpoint
ALTER TABLE `__new_plan_limits` RENAME TO `plan_limits`;--> statement-breakpoint
CREATE INDEX `plan_limits_plan` ON `plan_limits` (`plan_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_limits_unique` ON `plan_limits` (`plan_id`,`operation`,`count`,`period_ms`);--> statement-breakpoint
CREATE TABLE `__new_usage_days` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	`too_large` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_days_aligned" CHECK("__new_usage_days"."start_ms" % 86400000 = 0),
	CONSTRAINT "usage_days_counts" CHECK("__new_usage_days"."allowed" >= 0 AND "__new_usage_days"."denied" >= 0 AND "__new_usage_days"."unavailable" >= 0 AND "__new_usage_days"."tokens_requested" >= 0 AND "__new_usage_days"."tokens_taken" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_usage_days`("start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large") SELECT "start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large" FROM `usage_days`;--> statement-breakpoint
DROP TABLE `usage_days`;--> statement-breakpoint
ALTER TABLE `__new_usage_days` RENAME TO `usage_days`;--> statement-breakpoint
CREATE INDEX `usage_days_customer` ON `usage_days` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `__new_usage_dry_run_hours` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`source` text NOT NULL,
	`limit_count` integer NOT NULL,
	`limit_period_ms` integer NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `source`, `limit_count`, `limit_period_ms`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_dry_run_hours_source" CHECK("__new_usage_dry_run_hours"."source" IN ('plan', 'override')),
	CONSTRAINT "usage_dry_run_hours_aligned" CHECK("__new_usage_dry_run_hours"."start_ms" % 3600000 = 0),
	CONSTRAINT "usage_dry_run_hours_refused" CHECK("__new_usage_dry_run_hours"."refused" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_usage_dry_run_hours`("start_ms", "customer_id", "operation", "plan_id", "source", "limit_count", "limit_period_ms", "refused") SELECT "start_ms", "customer_id", "operation", "plan_id", "source", "limit_count", "limit_period_ms", "refused" FROM `usage_dry_run_hours`;--> statement-breakpoint
DROP TABLE `usage_dry_run_hours`;--> statement-breakpoint
ALTER TABLE `__new_usage_dry_run_hours` RENAME TO `usage_dry_run_hours`;--> statement-breakpoint
CREATE INDEX `usage_dry_run_hours_customer` ON `usage_dry_run_hours` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `__new_usage_dry_run_minutes` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`source` text NOT NULL,
	`limit_count` integer NOT NULL,
	`limit_period_ms` integer NOT NULL,
	`refused` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `source`, `limit_count`, `limit_period_ms`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_dry_run_minutes_source" CHECK("__new_usage_dry_run_minutes"."source" IN ('plan', 'override')),
	CONSTRAINT "usage_dry_run_minutes_aligned" CHECK("__new_usage_dry_run_minutes"."start_ms" % 60000 = 0),
	CONSTRAINT "usage_dry_run_minutes_refused" CHECK("__new_usage_dry_run_minutes"."refused" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_usage_dry_run_minutes`("start_ms", "customer_id", "operation", "plan_id", "source", "limit_count", "limit_period_ms", "refused") SELECT "start_ms", "customer_id", "operation", "plan_id", "source", "limit_count", "limit_period_ms", "refused" FROM `usage_dry_run_minutes`;--> statement-breakpoint
DROP TABLE `usage_dry_run_minutes`;--> statement-breakpoint
ALTER TABLE `__new_usage_dry_run_minutes` RENAME TO `usage_dry_run_minutes`;--> statement-breakpoint
CREATE INDEX `usage_dry_run_minutes_customer` ON `usage_dry_run_minutes` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `__new_usage_hours` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	`too_large` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_hours_aligned" CHECK("__new_usage_hours"."start_ms" % 3600000 = 0),
	CONSTRAINT "usage_hours_counts" CHECK("__new_usage_hours"."allowed" >= 0 AND "__new_usage_hours"."denied" >= 0 AND "__new_usage_hours"."unavailable" >= 0 AND "__new_usage_hours"."tokens_requested" >= 0 AND "__new_usage_hours"."tokens_taken" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_usage_hours`("start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large") SELECT "start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large" FROM `usage_hours`;--> statement-breakpoint
DROP TABLE `usage_hours`;--> statement-breakpoint
ALTER TABLE `__new_usage_hours` RENAME TO `usage_hours`;--> statement-breakpoint
CREATE INDEX `usage_hours_customer` ON `usage_hours` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `__new_usage_minutes` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	`too_large` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_minutes_aligned" CHECK("__new_usage_minutes"."start_ms" % 60000 = 0),
	CONSTRAINT "usage_minutes_counts" CHECK("__new_usage_minutes"."allowed" >= 0 AND "__new_usage_minutes"."denied" >= 0 AND "__new_usage_minutes"."unavailable" >= 0 AND "__new_usage_minutes"."tokens_requested" >= 0 AND "__new_usage_minutes"."tokens_taken" >= 0)
);
--> statement-breakpoint
INSERT INTO `__new_usage_minutes`("start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large") SELECT "start_ms", "customer_id", "operation", "plan_id", "allowed", "denied", "unavailable", "tokens_requested", "tokens_taken", "too_large" FROM `usage_minutes`;--> statement-breakpoint
DROP TABLE `usage_minutes`;--> statement-breakpoint
ALTER TABLE `__new_usage_minutes` RENAME TO `usage_minutes`;