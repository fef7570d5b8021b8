CREATE TABLE `usage_claims` (
	`claim_key` text PRIMARY KEY NOT NULL,
	`applied_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `usage_claims_applied` ON `usage_claims` (`applied_at`);--> statement-breakpoint
CREATE TABLE `usage_days` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_days_operation" CHECK("usage_days"."operation" IN ('read', 'write')),
	CONSTRAINT "usage_days_aligned" CHECK("usage_days"."start_ms" % 86400000 = 0),
	CONSTRAINT "usage_days_counts" CHECK("usage_days"."allowed" >= 0 AND "usage_days"."denied" >= 0 AND "usage_days"."unavailable" >= 0 AND "usage_days"."tokens_requested" >= 0 AND "usage_days"."tokens_taken" >= 0)
);
--> statement-breakpoint
CREATE INDEX `usage_days_customer` ON `usage_days` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `usage_dry_run_hours` (
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
	CONSTRAINT "usage_dry_run_hours_operation" CHECK("usage_dry_run_hours"."operation" IN ('read', 'write')),
	CONSTRAINT "usage_dry_run_hours_source" CHECK("usage_dry_run_hours"."source" IN ('plan', 'override')),
	CONSTRAINT "usage_dry_run_hours_aligned" CHECK("usage_dry_run_hours"."start_ms" % 3600000 = 0),
	CONSTRAINT "usage_dry_run_hours_refused" CHECK("usage_dry_run_hours"."refused" >= 0)
);
--> statement-breakpoint
CREATE INDEX `usage_dry_run_hours_customer` ON `usage_dry_run_hours` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `usage_dry_run_minutes` (
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
	CONSTRAINT "usage_dry_run_minutes_operation" CHECK("usage_dry_run_minutes"."operation" IN ('read', 'write')),
	CONSTRAINT "usage_dry_run_minutes_source" CHECK("usage_dry_run_minutes"."source" IN ('plan', 'override')),
	CONSTRAINT "usage_dry_run_minutes_aligned" CHECK("usage_dry_run_minutes"."start_ms" % 60000 = 0),
	CONSTRAINT "usage_dry_run_minutes_refused" CHECK("usage_dry_run_minutes"."refused" >= 0)
);
--> statement-breakpoint
CREATE INDEX `usage_dry_run_minutes_customer` ON `usage_dry_run_minutes` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `usage_hours` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_hours_operation" CHECK("usage_hours"."operation" IN ('read', 'write')),
	CONSTRAINT "usage_hours_aligned" CHECK("usage_hours"."start_ms" % 3600000 = 0),
	CONSTRAINT "usage_hours_counts" CHECK("usage_hours"."allowed" >= 0 AND "usage_hours"."denied" >= 0 AND "usage_hours"."unavailable" >= 0 AND "usage_hours"."tokens_requested" >= 0 AND "usage_hours"."tokens_taken" >= 0)
);
--> statement-breakpoint
CREATE INDEX `usage_hours_customer` ON `usage_hours` (`customer_id`,`start_ms`);--> statement-breakpoint
CREATE TABLE `usage_minutes` (
	`start_ms` integer NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`plan_id` integer NOT NULL,
	`allowed` integer DEFAULT 0 NOT NULL,
	`denied` integer DEFAULT 0 NOT NULL,
	`unavailable` integer DEFAULT 0 NOT NULL,
	`tokens_requested` integer DEFAULT 0 NOT NULL,
	`tokens_taken` integer DEFAULT 0 NOT NULL,
	PRIMARY KEY(`start_ms`, `customer_id`, `operation`, `plan_id`),
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "usage_minutes_operation" CHECK("usage_minutes"."operation" IN ('read', 'write')),
	CONSTRAINT "usage_minutes_aligned" CHECK("usage_minutes"."start_ms" % 60000 = 0),
	CONSTRAINT "usage_minutes_counts" CHECK("usage_minutes"."allowed" >= 0 AND "usage_minutes"."denied" >= 0 AND "usage_minutes"."unavailable" >= 0 AND "usage_minutes"."tokens_requested" >= 0 AND "usage_minutes"."tokens_taken" >= 0)
);
--> statement-breakpoint
ALTER TABLE `limit_overrides` ADD `dry_run` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `plan_limits` ADD `dry_run` integer DEFAULT false NOT NULL;