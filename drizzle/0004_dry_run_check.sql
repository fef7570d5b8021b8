PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_limit_overrides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer NOT NULL,
	`dry_run` integer DEFAULT false NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "limit_overrides_operation" CHECK("__new_limit_overrides"."operation" IN ('read', 'write')),
	CONSTRAINT "limit_overrides_count_positive" CHECK("__new_limit_overrides"."count" > 0),
	CONSTRAINT "limit_overrides_period_positive" CHECK("__new_limit_overrides"."period_ms" > 0),
	CONSTRAINT "limit_overrides_dry_run" CHECK("__new_limit_overrides"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_limit_overrides`("id", "customer_id", "operation", "count", "period_ms", "dry_run", "expires_at", "created_at") SELECT "id", "customer_id", "operation", "count", "period_ms", "dry_run", "expires_at", "created_at" FROM `limit_overrides`;--> statement-breakpoint
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
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "plan_limits_operation" CHECK("__new_plan_limits"."operation" IN ('read', 'write')),
	CONSTRAINT "plan_limits_count_positive" CHECK("__new_plan_limits"."count" > 0),
	CONSTRAINT "plan_limits_period_positive" CHECK("__new_plan_limits"."period_ms" > 0),
	CONSTRAINT "plan_limits_dry_run" CHECK("__new_plan_limits"."dry_run" IN (0, 1))
);
--> statement-breakpoint
INSERT INTO `__new_plan_limits`("id", "plan_id", "operation", "count", "period_ms", "dry_run") SELECT "id", "plan_id", "operation", "count", "period_ms", "dry_run" FROM `plan_limits`;--> statement-breakpoint
DROP TABLE `plan_limits`;--> statement-breakpoint
ALTER TABLE `__new_plan_limits` RENAME TO `plan_limits`;--> statement-breakpoint
CREATE INDEX `plan_limits_plan` ON `plan_limits` (`plan_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_limits_unique` ON `plan_limits` (`plan_id`,`operation`,`count`,`period_ms`);