CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `audit_log_at` ON `audit_log` (`at`);--> statement-breakpoint
CREATE TABLE `customers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`plan_id` integer NOT NULL,
	`status` text DEFAULT 'active' NOT NULL,
	`api_key_hash` text NOT NULL,
	`api_key_prefix` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE restrict,
	CONSTRAINT "customers_status" CHECK("customers"."status" IN ('active', 'suspended')),
	CONSTRAINT "customers_name_not_empty" CHECK(length(trim("customers"."name")) > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `customers_api_key_hash_unique` ON `customers` (`api_key_hash`);--> statement-breakpoint
CREATE INDEX `customers_plan` ON `customers` (`plan_id`);--> statement-breakpoint
CREATE TABLE `items` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`name` text NOT NULL,
	`quantity` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "items_quantity_non_negative" CHECK("items"."quantity" >= 0)
);
--> statement-breakpoint
CREATE INDEX `items_customer` ON `items` (`customer_id`);--> statement-breakpoint
CREATE TABLE `limit_overrides` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`customer_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer NOT NULL,
	`expires_at` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "limit_overrides_operation" CHECK("limit_overrides"."operation" IN ('read', 'write')),
	CONSTRAINT "limit_overrides_count_positive" CHECK("limit_overrides"."count" > 0),
	CONSTRAINT "limit_overrides_period_positive" CHECK("limit_overrides"."period_ms" > 0)
);
--> statement-breakpoint
CREATE INDEX `limit_overrides_customer` ON `limit_overrides` (`customer_id`,`operation`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`token_hash` text PRIMARY KEY NOT NULL,
	`actor` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_expires` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `plan_limits` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`plan_id` integer NOT NULL,
	`operation` text NOT NULL,
	`count` integer NOT NULL,
	`period_ms` integer NOT NULL,
	FOREIGN KEY (`plan_id`) REFERENCES `plans`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "plan_limits_operation" CHECK("plan_limits"."operation" IN ('read', 'write')),
	CONSTRAINT "plan_limits_count_positive" CHECK("plan_limits"."count" > 0),
	CONSTRAINT "plan_limits_period_positive" CHECK("plan_limits"."period_ms" > 0)
);
--> statement-breakpoint
CREATE INDEX `plan_limits_plan` ON `plan_limits` (`plan_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `plan_limits_unique` ON `plan_limits` (`plan_id`,`operation`,`count`,`period_ms`);--> statement-breakpoint
CREATE TABLE `plans` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`slug` text NOT NULL,
	`name` text NOT NULL,
	`description` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	CONSTRAINT "plans_slug_format" CHECK("plans"."slug" GLOB '[a-z0-9]*' AND "plans"."slug" NOT GLOB '*[^a-z0-9-]*'),
	CONSTRAINT "plans_name_not_empty" CHECK(length(trim("plans"."name")) > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `plans_slug_unique` ON `plans` (`slug`);